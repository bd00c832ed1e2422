// Canasta's plug-in for the table page (tablepage.js draws everything both families share): the board's
// layout, the seats around the table, each side's melds and red threes, the stock and the discard pile, the move buttons, and the
// moves in words (a meld's cards with their suits, from the table after it).

import { backEl, cardEl, cardSortKey, cardText, el, formatPoints, rankOf, sortCards, suitOf } from "./common.js";
import { cardsOfMove, describeMove, moveLabel, movesMatching, parseMove, targetText, tokenText } from "./moves.js";
import {
  $, T, actionButton, addLog, clearSelection, draggedCards, dragging, dropTargets, fill, handTitle, hintButton, hintSays, legal, moveLine, myTurn, partnerOf, players,
  reselect, seatInfo, seatLabel, seatSub, selectedCodes, sendMove, showNotice, sideLabel, startTable, view, whyNot,
} from "./tablepage.js";
import { dropZone, flyCard } from "./tableui.js";
import { asReader, t } from "./i18n.js";
import { variantTitle } from "./variant_names.js";

// ------------------------------------------------------------------ seat geometry and names

function baseSeat() {
  return T.seat === null || T.seat === undefined ? 0 : T.seat;
}

function relative(seat) {
  const n = players();
  return (seat - baseSeat() + n) % n;
}

const POSITIONS = {
  2: ["me", "top"],
  3: ["me", "left", "right"],
  4: ["me", "left", "top", "right"],
  5: ["me", "left", "top", "top", "right"],
  6: ["me", "left", "left", "top", "right", "right"],
};

function positionOf(seat) {
  const n = players();
  const pos = POSITIONS[n] || ["me", ...Array.from({ length: n - 1 }, (_, i) => (i < (n - 1) / 2 ? "left" : "right"))];
  return pos[relative(seat)];
}

function positionName(seat) {
  const n = players();
  const r = relative(seat);
  const compass = { 4: ["south", "west", "north", "east"], 3: ["south", "west", "east"], 2: ["south", "north"] }[n];
  return compass ? t(`table.position.${compass[r]}`) : t("common.seat", { n: seat + 1 });
}

function sidesOf(view) {
  return (view && view.sides) || [];
}

function sideOfSeat(view, seat) {
  const sides = sidesOf(view);
  const i = sides.findIndex((s) => (s.seats || []).includes(seat));
  if (i >= 0) return i;
  if (view && view.seat_sides) return view.seat_sides[seat];
  return null;
}

/** Each meld of `side` the move made or added to: {key, meld, added (cards), fresh}. */
function meldChanges(beforeSides, afterSides, side) {
  if (side === null || side === undefined || !afterSides[side]) return [];
  const old = new Map(((beforeSides[side] || {}).melds || []).map((m) => [m.key || m.rank, m]));
  const out = [];
  for (const m of afterSides[side].melds || []) {
    const key = m.key || m.rank;
    const pool = [...((old.get(key) || {}).cards || [])];
    const added = (m.cards || []).filter((c) => {
      const i = pool.indexOf(c);
      if (i < 0) return true;
      pool.splice(i, 1);
      return false;
    });
    if (added.length) out.push({ key, meld: m, added, fresh: !old.has(key) });
  }
  return out;
}

/** A move as it is shown when it is made (`next`: the state frame after it, when it came): the discard's card
 * (the new pile top) and the melds it made or added to, card by card, from the table after it (the review's,
 * if the hand ended; only from the state right after this move: after a reconnection several moves may lie
 * in between). */
function eventLine(f, next) {
  const v = view();
  const nextView = next && next.view;
  const act = parseMove(String(f.move || "")).action;
  const sameHand = nextView && nextView.hand_number === v.hand_number;
  const exact = next && next.version === f.version;
  const card = f.card || (act === "discard" && sameHand && exact ? nextView.pile_top : null);
  const afterSides = !exact ? null : sameHand ? sidesOf(nextView) : next.review && next.review.hand === v.hand_number ? next.review.table.sides : null;
  const changes = afterSides && T.state ? meldChanges(sidesOf(v), afterSides, sideOfSeat(v, f.seat)) : [];
  return { ...lineOf(f, card, changes, v.pile_size ?? (v.pile || []).length), act, changes };
}

function lineOf(f, card, changes, took) {
  return moveLine(f, () => eventText(String(f.move || ""), card, changes, f.seat, took));
}

/** The history entries an event added besides the move: a new hand's upcard and dealt red threes, a red three
 * drawn, a foot picked up. */
function logExtras(f, next) {
  const nextView = next && next.view;
  for (const h of f.history || []) {
    if (/^\d+ upcard/.test(h)) {
      const hn = nextView && nextView.hand_number;
      if (hn && T.loggedHand !== hn) {
        T.loggedHand = hn;
        addLog(t("table.log.hand", { hand: hn }), { sys: true });
        addLog(describeHistory(h), { version: f.version, sys: true });
        logDealtThrees(nextView);
      }
      continue;
    }
    const extra = describeHistory(h);
    if (extra) addLog(extra, { version: f.version, sys: true });
  }
}

/** The card movement of a move (the page is still drawn as before it). */
function animate(act, f, changes, from) {
  const pile = document.querySelector('[data-testid="pile"] .stack-wrap');
  const stock = document.querySelector('[data-testid="stock"] .stack-wrap');
  if (act === "discard") flyCard(from, pile, null);
  else if (act === "draw") flyCard(stock, from, null);
  else if (act === "take") flyCard(pile, from, null);
  if (changes.length) flyCard(from, document.querySelector(`[data-testid="side-${T.highlight.side}"]`), changes[0].added[0]);
}

/** What a move did, in cards: "melded 7♠ 7♥ 2♣", "added 7♦ to your 7s", "took the pile (9 cards)". */
function eventText(move, card, changes, seat, took) {
  const m = parseMove(move);
  const melds = changes.map((c) => {
    const cards = c.added.map(cardText).join(" ");
    if (c.fresh) return t("table.log.melded", { cards });
    return t(partnerOf(view(), seat) ? "table.log.added_yours" : "table.log.added_theirs", { cards, meld: meldName({ ...c.meld, canasta: false }) });
  });
  if (m.action === "take") {
    const first = t("table.log.took_pile", { count: took });
    return melds.length ? t("table.log.and", { first, then: melds.join(", ") }) : first;
  }
  if (m.action === "meld" && melds.length) return melds.join(", ");
  return describeMove(move, card, seat === T.seat ? T.handCodes : null);
}

/** Extra public history entries an event added, other than the move itself. */
function describeHistory(entry) {
  const parts = String(entry).split(/\s+/);
  const seat = Number(parts[0]);
  const kind = parts[1];
  const rest = parts.slice(2);
  const who = Number.isInteger(seat) ? seatLabel(seat) : "";
  return asReader(seat === T.seat, () => historyText(kind, who, rest));
}

function historyText(kind, who, rest) {
  switch (kind) {
    case "red-three":
      return t("table.log.red_three", { who, cards: rest.map(cardText).join(" ") });
    case "three":
      return t("table.log.three", { who, cards: rest.map(cardText).join(" ") });
    case "foot":
      return t("table.log.foot", { who });
    case "bonus-cards":
      return t("table.log.bonus_cards", { who, count: Number(rest[0]) });
    case "upcard":
      return rest.length ? t("table.log.upcard", { cards: rest.map(cardText).join(" ") }) : t("table.log.new_hand");
    default:
      return null;
  }
}

/** Red threes laid out at the deal: the history does not list them, each side's red threes do (less those
 * its own seats laid out later: with two packs the other side may lay out a three of the same suit). */
function logDealtThrees(view) {
  const later = (view.history || []).map((h) => h.split(/\s+/)).filter((w) => w[1] === "red-three");
  sidesOf(view).forEach((side, i) => {
    const pool = later.filter((w) => sideOfSeat(view, Number(w[0])) === i).flatMap((w) => w.slice(2));
    const dealt = (side.red_threes || []).filter((c) => {
      const j = pool.indexOf(c);
      if (j < 0) return true;
      pool.splice(j, 1);
      return false;
    });
    if (dealt.length) addLog(t("table.log.dealt_threes", { side: sideLabel(view, i), cards: dealt.map(cardText).join(" ") }), { sys: true });
  });
}

/** The hand so far, when the page opens mid-hand: the red threes dealt, the upcard, then each move with its
 * cards (the server's `hand_log`: what every seat saw played, suited) and what came with it; from a server
 * without `hand_log`, the history (its moves by rank). */
function logHandSoFar(f) {
  const v = f.view || {};
  logDealtThrees(v);
  if (!Array.isArray(f.hand_log)) {
    for (const h of v.history || []) logHistoryEntry(h);
    return;
  }
  for (const h of v.history || []) if (/^\d+ upcard/.test(h)) logHistoryEntry(h);
  for (const e of f.hand_log) {
    const changes = (e.melds || []).map((m) => ({ key: m.key, meld: m, added: m.added, fresh: m.new }));
    addLog(lineOf(e, e.card, changes, e.took).text, { version: e.version, mine: e.seat === T.seat });
    for (const h of e.history || []) {
      const extra = /^\d+ upcard/.test(h) ? null : describeHistory(h);
      if (extra) addLog(extra, { version: e.version, sys: true });
    }
  }
}

/** A new hand seen in a state frame (its event did not say so): its upcard and dealt red threes. */
function logNewHand(f) {
  const v = f.view || {};
  for (const h of v.history || []) if (/^\d+ upcard/.test(h)) logHistoryEntry(h);
  logDealtThrees(v);
}

function logHistoryEntry(h) {
  const m = /^(\d+)\s+(.*)$/.exec(String(h));
  if (!m) return;
  const seat = Number(m[1]);
  const rest = m[2];
  const extra = describeHistory(h);
  if (extra) {
    addLog(extra, { sys: true });
    return;
  }
  addLog(asReader(seat === T.seat, () => t("table.log.by_player", { who: seatLabel(seat), what: describeMove(rest) })), { mine: seat === T.seat });
}

/** A card as a move names it: its rank ("7", "JK"; a black three "3"), a red three in full ("3H"). */
function noteToken(code) {
  if (code === "JK") return "JK";
  return code === "3H" || code === "3D" ? code : rankOf(code);
}

/** The move the selection would be in the play phase: a sequence (one suit, different ranks) by its cards,
 * else a meld of ranks (added to the side's meld of that rank, if there is one). */
function selectionMove(sel) {
  const suits = new Set(sel.map((c) => c.slice(-1)));
  const ranks = new Set(sel.map(rankOf));
  const sequence = sel.length >= 3 && suits.size === 1 && ranks.size === sel.length && !sel.some((c) => c === "JK" || rankOf(c) === "2");
  return `meld ${sel.map(sequence ? (c) => c : noteToken).join(" ")}`;
}

/** The action buttons the selection allows, each a legal move. */
function computeActions() {
  const L = legal();
  const sel = selectedCodes();
  const out = { draw: null, take: [], meld: [], discard: [] };
  if (L.includes("draw")) out.draw = "draw";
  const takes = L.map(parseMove).filter((m) => m.action === "take");
  out.take = movesMatching(L, "take", sel).map((m) => m.text);
  if (!out.take.length && sel.length === 0 && takes.length === 1) out.take = [takes[0].text];
  if (sel.length) out.meld = movesMatching(L, "meld", sel).map((m) => m.text);
  if (sel.length === 1) out.discard = movesMatching(L, "discard", sel).map((m) => m.text);
  return out;
}

/** The Enter key's move: draw, take the pile with the selection, meld it, discard it. */
function primaryAction() {
  const a = computeActions();
  const sel = selectedCodes();
  if (sel.length === 0 && a.draw) return a.draw;
  if (a.take.length && sel.length) return a.take[0];
  if (a.meld.length) return a.meld[0];
  if (a.discard.length) return a.discard[0];
  if (a.draw) return a.draw;
  if (a.take.length) return a.take[0];
  return null;
}

/** The title line: the variant, the game's target, the seat. */
function title() {
  const s = T.settings || {};
  const rules = T.rules || s.rules || view().rules || {};
  const name = s.variant || rules.variant || view().variant || "";
  const parts = [];
  const target = (s.options && s.options.target) || (rules.options && rules.options.target);
  if (target) parts.push(t("table.title.target", { points: formatPoints(target) }));
  parts.push(T.seat === null ? t("table.title.watching") : t("table.title.seat", { n: T.seat + 1 }));
  return { variant: name ? variantTitle({ name, title: s.title || s.variant_title }) : "", parts };
}

// The phases a status line names (table.phase.NAME; another phase shows as the server names it).
const PHASES = ["draw", "play", "answer", "over"];
const phaseText = (phase) => (PHASES.includes(phase) ? t(`table.phase.${phase}`) : phase || "");

/** Whose turn it is, and to do what (a partner's question is answered, not played). */
function turnStatus(v, mine) {
  if (mine) {
    if (v.phase === "answer") return t("table.status.partner_asks");
    return t("table.status.your_turn", { phase: phaseText(v.phase) });
  }
  const who = seatLabel(v.to_move);
  if (v.phase === "answer") return t("table.status.answering", { who });
  return t("table.status.to_play", { who, phase: phaseText(v.phase) });
}

function renderSeats(v) {
  const n = players();
  const areas = { top: $("area-top"), left: $("area-left"), right: $("area-right") };
  for (const a of Object.values(areas)) a.replaceChildren();
  const hasSides = POSITIONS[n] ? POSITIONS[n].some((p) => p === "left" || p === "right") : true;
  $("board").classList.toggle("no-left-right", !hasSides);
  const order = [];
  for (let r = 1; r < n; r++) order.push((baseSeat() + r) % n);
  for (const seat of order) {
    const pos = positionOf(seat);
    const box = seatBox(seat, v);
    const area = areas[pos] || areas.top;
    // on the left the seats are listed bottom to top (play passes to the left)
    if (pos === "left") area.prepend(box);
    else area.append(box);
  }
  // the bottom seat: yours, or seat 0 when watching
  const me = $("me-seat");
  const meSeat = baseSeat();
  me.className = "hand-wrap seat me-seat" + (v.to_move === meSeat && v.phase !== "over" ? " to-move" : "");
  me.dataset.testid = `seat-${meSeat}`;
  me.dataset.seat = String(meSeat);
  const size = (v.hand_sizes || [])[meSeat];
  const foot = (v.foot_sizes || [])[meSeat];
  handTitle(
    el("span", { class: "me-name", text: T.seat === null ? t("table.watching_seat", { who: seatLabel(meSeat) }) : T.name || t("table.you") }),
    T.seat === null ? el("span", { class: "sub", text: seatSub(meSeat) }) : null,
    size !== undefined ? el("span", { class: "small-text", text: t("common.cards", { count: size }) }) : null,
    foot ? el("span", { class: "foot small-text", text: t("table.foot_waiting", { count: foot }) }) : null,
    el("span", { class: "timer", "data-timer-seat": String(meSeat) }),
    el("span", { class: "bubble", "data-bubble": String(meSeat) }),
  );
}

function seatBox(seat, v) {
  const size = (v.hand_sizes || [])[seat];
  const foot = (v.foot_sizes || [])[seat];
  const info = seatInfo(seat);
  const cls = ["seat"];
  if (v.to_move === seat && v.phase !== "over" && T.state.status === "playing") cls.push("to-move");
  const badges = [];
  if (info && info.kind === "human" && info.joined && !info.connected && !info.stand_in) badges.push(el("span", { class: "badge off", text: t("table.seat.away") }));
  if (info && info.stand_in) badges.push(el("span", { class: "badge", text: t("table.seat.computer_playing") }));
  const partner = sideOfSeat(v, seat) !== null && partnerOf(v, seat);
  return el(
    "div",
    { class: cls.join(" "), "data-testid": `seat-${seat}`, "data-seat": String(seat) },
    el("div", { class: "name", title: seatLabel(seat) }, seatLabel(seat), ...badges),
    el("div", { class: "sub", text: [partner ? t("table.seat.partner") : null, seatSub(seat)].filter(Boolean).join(" · ") }),
    el(
      "div",
      { class: "cards" },
      size !== undefined ? backEl({ count: size }) : null,
      foot ? el("span", { class: "foot", title: t("table.foot.title") }, t("table.foot"), " ", backEl({ count: foot })) : null,
    ),
    el("div", { class: "timer", "data-timer-seat": String(seat) }),
    el("span", { class: "bubble", "data-bubble": String(seat) }),
  );
}

function renderSides(v) {
  const sides = sidesOf(v);
  const mySide = T.seat !== null ? sideOfSeat(v, T.seat) : sideOfSeat(v, 0);
  const others = $("other-sides");
  const mine = $("my-side");
  others.replaceChildren();
  mine.replaceChildren();
  sides.forEach((s, i) => {
    const box = sideBox(v, s, i, i === mySide);
    (i === mySide ? mine : others).append(box);
  });
}

function sideBox(v, s, i, isMine) {
  const staged = v.staged_points !== null && v.staged_points !== undefined && sideOfSeat(v, v.turn_seat) === i;
  const head = el(
    "div",
    { class: "side-head" },
    el("span", { class: "side-name", text: sideLabel(v, i) }),
    el("span", { class: "score", title: t("table.side.score_title"), text: formatPoints(s.score) }),
    s.opened
      ? el("span", { class: "need", text: t("table.side.opened") })
      : el("span", { class: "need", text: t("table.side.needs", { points: formatPoints(s.minimum_needed) }) }),
    staged ? el("span", { class: "opening", "data-testid": "opening", text: t("table.side.opening", { points: formatPoints(v.staged_points), needed: formatPoints(s.minimum_needed) }) }) : null,
    s.canastas ? el("span", { class: "need", text: t("table.side.canastas", { count: s.canastas }) }) : null,
    (s.red_threes || []).length
      ? el("span", { class: "red-threes", title: t("line.red_threes") }, ...s.red_threes.map((c) => cardEl(c, { small: true })))
      : null,
  );
  const melds = el("div", { class: "melds" });
  const list = s.melds || [];
  if (!list.length) melds.append(el("span", { class: "none", text: t("table.side.no_melds") }));
  for (const m of list) melds.append(meldBox(m, isMine, i));
  const box = el("div", { class: "side" + (isMine ? " mine" : ""), "data-testid": `side-${i}`, "data-side": String(i) }, head, melds);
  if (isMine) dropTargets(null, melds);
  return box;
}

// The kinds of canasta a meld's label names (table.kind.KIND; another kind: table.kind.other).
const KINDS = ["natural", "mixed", "wild", "sequence", "twos"];

/** A meld by its rank ("7s", "second 9s", "♥ sequence", "natural canasta · 7s"). */
function meldName(m) {
  const key = m.key || m.rank;
  let label = m.rank === "sequence" ? targetText(key) : m.rank === "wild" ? t("move.wild_meld") : t("table.meld.rank", { rank: tokenText(m.rank) });
  if (key && key.includes("/")) label = targetText(key);
  return m.canasta ? `${t(`table.kind.${KINDS.includes(m.kind) ? m.kind : "other"}`)} · ${label}` : label;
}

function meldBox(m, isMine, side) {
  const cls = ["meld"];
  if (m.canasta) cls.push("canasta");
  if (m.kind && (m.canasta || m.kind === "sequence")) cls.push(`k-${m.kind}`);
  const key = m.key || m.rank;
  const label = `${meldName(m)} ×${(m.cards || []).length}`;
  const h = T.highlight;
  if (h && h.melds.has(key) && h.side === side) cls.push("fresh");
  const stack = el("div", { class: "stack" }, ...(m.cards || []).map((c) => cardEl(c, { small: true })));
  const box = el(
    "div",
    { class: cls.join(" "), "data-meld": key, title: t("table.meld.title", { meld: label, naturals: m.naturals, wilds: m.wilds }) },
    stack,
    el("span", { class: "label", text: label }),
  );
  if (isMine && myTurn()) {
    box.classList.add("clickable");
    box.addEventListener("click", () => meldOnto(m));
    dropZone(box, dragging, () => dropOnMelds(draggedCards(), m));
  }
  return box;
}

/** Clicking your side's meld with cards selected: add them to it, if that is a legal move. */
function meldOnto(m) {
  const sel = selectedCodes();
  if (!sel.length || T.pending) return;
  const key = m.key || m.rank;
  const matches = movesMatching(legal(), "meld", sel).filter((x) => x.target === key || (!x.target && x.cards.some((c) => rankOf(c + "S") === key || c === key)));
  if (matches.length) sendMove(matches[0].text);
  else showNotice(t("table.notice.cannot_add", { meld: targetText(key) }), "info", 4000);
}

function renderPiles(v) {
  const piles = $("piles");
  const mySide = T.seat !== null ? sideOfSeat(v, T.seat) : null;
  const sideInfo = mySide !== null ? sidesOf(v)[mySide] : null;
  const frozenForMe = sideInfo ? sideInfo.pile_frozen_for_side : false;
  const L = legal();
  // stock
  const canDraw = L.includes("draw") && !T.pending;
  const stockCard = v.stock_size ? backEl({ small: false, count: v.stock_size }) : el("div", { class: "card empty" });
  const stock = el(
    "div",
    { class: "pile-box", "data-testid": "stock", "data-size": String(v.stock_size ?? "") },
    el("div", { class: "what", text: t("table.stock") }),
    el("div", { class: "stack-wrap" + (canDraw ? " clickable" : "") }, stockCard),
    el("div", { text: v.stock_size === undefined || v.stock_size === null ? "?" : t("common.cards", { count: v.stock_size }) }),
  );
  if (canDraw) {
    stockCard.style.cursor = "pointer";
    stockCard.title = t("move.draw");
    stockCard.addEventListener("click", () => sendMove("draw"));
  }
  // discard pile
  const pile = v.pile || [];
  const top = v.pile_top;
  const under = pile.length >= 2 ? pile[pile.length - 2] : null;
  const wrap = el("div", { class: "stack-wrap" });
  if (top) {
    // a frozen pile: the wild card that froze it lies crosswise under the top card
    const frozenWild = v.pile_frozen && pile.slice(0, -1).reverse().find((c) => c === "JK" || rankOf(c) === "2" || c === "3H" || c === "3D");
    if (frozenWild) wrap.append(el("div", { class: "under", style: "transform: rotate(80deg); left: 10px;" }, cardEl(frozenWild)));
    else if (under) wrap.append(el("div", { class: "under" }, cardEl(under)));
    wrap.append(el("div", { class: "top" + (T.highlight && T.highlight.discard ? " last-discard" : "") }, cardEl(top)));
  } else {
    wrap.append(el("div", { class: "card empty" }));
  }
  const frozenText = v.pile_frozen ? t("table.pile.frozen") : frozenForMe ? t("table.pile.frozen_for_you") : "";
  const pileBox = el(
    "div",
    {
      class: "pile-box" + (v.pile_frozen || frozenForMe ? " frozen" : ""),
      "data-testid": "pile",
      "data-top": top || "",
      "data-size": String(v.pile_size ?? pile.length),
      "data-frozen": v.pile_frozen ? "true" : "false",
    },
    el("div", { class: "what", text: t("table.pile") }),
    wrap,
    el("div", {}, t("common.cards", { count: v.pile_size ?? pile.length }), frozenText ? el("span", { class: "frozen-mark", text: ` · ❄ ${frozenText}` }) : null),
  );
  dropTargets(pileBox, null);
  const acts = myTurn() ? computeActions() : null;
  if (acts && acts.take.length && !T.pending) {
    pileBox.classList.add("clickable");
    wrap.title = moveLabel(acts.take[0]);
    wrap.style.cursor = "pointer";
    wrap.addEventListener("click", () => sendMove(acts.take[0]));
  }
  const boxes = [stock, pileBox];
  if (pile.length > 1 || v.pile_hidden) {
    const det = el(
      "details",
      { class: "small-text" },
      el("summary", { text: t("table.pile.whole") }),
      el(
        "div",
        { style: "display:flex;flex-wrap:wrap;gap:2px;max-width:260px" },
        v.pile_hidden ? el("span", { text: `${t("table.pile.face_down", { count: v.pile_hidden })} · ` }) : null,
        ...pile.map((c) => cardEl(c, { small: true })),
      ),
    );
    if (T.pileOpen) det.open = true;
    det.addEventListener("toggle", () => (T.pileOpen = det.open));
    boxes.push(det);
  }
  piles.replaceChildren(...boxes);
}

function renderTurnInfo(v) {
  const info = $("turn-info");
  const parts = [];
  if (v.hand_number) parts.push(t("table.sheet.title", { hand: v.hand_number }));
  if (v.dealer !== undefined && v.dealer !== null) parts.push(t("table.dealer", { who: seatLabel(v.dealer) }));
  const pend = v.pending_pile;
  fill(info,
    el("span", { class: "muted-light", text: parts.join(" · ") }),
    pend && pend.length ? el("div", { class: "pending", text: t("table.pending_pile", { count: pend.length }) }) : null,
  );
}

/** Dropped on the pile: a discard in the play phase, taking the pile with these cards in the draw phase. */
function dropOnPile(cards) {
  const L = legal();
  const move = movesMatching(L, "discard", cards)[0] || movesMatching(L, "take", cards)[0];
  if (move) sendMove(move.text);
  else showNotice(whyNotNow(cards.length === 1 && T.state.view.phase === "play" ? `discard ${noteToken(cards[0])}` : `take ${cards.map(noteToken).join(" ")}`), "info", 5000);
}

/** Dropped on one of your side's melds (`m`) or on your side (`m` null: a new meld). */
function dropOnMelds(cards, m) {
  reselect(cards);
  if (m) {
    meldOnto(m);
    return;
  }
  const move = movesMatching(legal(), "meld", cards)[0];
  if (move) sendMove(move.text);
  else showNotice(whyNotNow(selectionMove(cards)), "info", 5000);
}

/** The engine's reason when it is known already, else a plain sentence (the question goes to the server). */
function whyNotNow(move) {
  const text = whyNot(move);
  return text === t("table.why.asking") ? t("table.not_now", { move: moveLabel(move, { hand: T.handCodes }) }) : text;
}

function renderActions(v) {
  const actions = $("actions");
  const more = $("more-moves");
  const question = $("question");
  actions.replaceChildren();
  more.replaceChildren();
  question.replaceChildren();
  if (T.seat === null) {
    actions.append(el("span", { class: "help", text: t("table.watching_short") }));
    return;
  }
  if (v.permission === "asked" && T.seat !== null) {
    const asker = v.turn_seat;
    const txt = asker === T.seat ? t("table.question.you_asked") : t("table.question.asks", { who: seatLabel(asker) });
    question.append(el("div", { class: "question", text: txt }));
  } else if (v.permission === "yes" || v.permission === "no") {
    if (v.turn_seat === T.seat) question.append(el("div", { class: "question", text: t(v.permission === "yes" ? "table.question.said_yes" : "table.question.said_no") }));
  }
  const L = legal();
  const shown = new Set();
  const hintBtn = hintButton();
  if (!myTurn()) {
    if (T.state.status === "playing") actions.append(el("span", { class: "help", text: T.pending ? t("table.sending") : t("table.waiting_for", { who: seatLabel(v.to_move) }) }));
    if (T.state.status === "playing") actions.append(hintBtn);
    return;
  }
  const a = computeActions();
  const sel = selectedCodes();
  const handSize = T.handCodes.length;
  if (a.draw) {
    actions.append(actionButton(t("move.draw"), "draw", "action-draw"));
    shown.add("draw");
  }
  a.take.forEach((m, k) => {
    actions.append(actionButton(moveLabel(m, { hand: T.handCodes }), m, k === 0 ? "action-take" : null));
    shown.add(m);
  });
  a.meld.forEach((m, k) => {
    actions.append(actionButton(moveLabel(m, { handSize: sel.length === handSize ? sel.length : null, hand: sel }), m, k === 0 ? "action-meld" : null));
    shown.add(m);
  });
  a.discard.forEach((m, k) => {
    actions.append(actionButton(moveLabel(m, { handSize, hand: sel }), m, k === 0 ? "action-discard" : null));
    shown.add(m);
  });
  if (sel.length) {
    const clear = el("button", { type: "button", text: t("table.clear_selection") });
    clear.addEventListener("click", clearSelection);
    actions.append(clear);
  }
  actions.append(hintBtn);
  // help text
  let help = "";
  if (T.pending) help = t("table.sending");
  else if (v.phase === "draw") help = sel.length ? (a.take.length ? "" : whyNot(`take ${sel.map(noteToken).join(" ")}`)) : t("table.help.draw");
  else if (v.phase === "play") help = sel.length ? (a.meld.length || a.discard.length ? "" : whyNot(selectionMove(sel))) : t("table.help.play");
  if (help) actions.append(el("span", { class: "help", "data-testid": "why", text: help }));
  actions.append(...hintSays(shown));
  // every other legal move, so that each one is always reachable
  const rest = L.filter((m) => !shown.has(m));
  const groups = [
    // (asking the partner is one choice among others, offered plainly: it is legal from the first turn)
    [t("table.group.other"), rest.filter((m) => !["take", "meld", "discard"].includes(parseMove(m).action)), "other"],
    [t("table.group.take"), rest.filter((m) => parseMove(m).action === "take"), ""],
    [t("table.group.meld"), rest.filter((m) => parseMove(m).action === "meld"), ""],
    [t("table.group.discard"), rest.filter((m) => parseMove(m).action === "discard"), ""],
  ];
  for (const [title, moves, cls] of groups) {
    if (!moves.length) continue;
    const g = el("div", { class: "grp" }, el("span", { class: "grp-title", text: title }));
    for (const m of moves) {
      const label = moveLabel(m, { handSize, hand: T.handCodes });
      const b = el("button", { type: "button", class: cls, "data-move": m, text: cls ? label : label.replace(/^(Meld|Discard|Take pile with) /, ""), "aria-label": label });
      b.disabled = !!T.pending;
      b.addEventListener("click", () => sendMove(m));
      g.append(b);
    }
    more.append(g);
  }
}

/** The final table of a review in the shared panel's terms: one group per side (red threes aside). */
function reviewGroups(v, review) {
  return (review.table.sides || []).map((side, i) => ({
    title: sideLabel(v, i),
    extra: side.red_threes || [],
    melds: (side.melds || []).map((m) => ({ label: meldName(m), cards: m.cards || [] })),
  }));
}


/** The hand by rank (wild cards last) or by suit. */
function sortHand(hand, mode) {
  if (mode !== "suit") return sortCards(hand);
  const suit = (c) => (c === "JK" ? 9 : "SHDC".indexOf(suitOf(c)));
  return [...hand].sort((a, b) => suit(a) - suit(b) || cardSortKey(a) - cardSortKey(b));
}

/** The hand's groups: each rank (the wild cards together), or each suit. */
function handGroup(code, mode) {
  const r = rankOf(code);
  if (mode === "suit") return suitOf(code) || "JK";
  return r === "2" || r === "JK" ? "wild" : r;
}

/** The board: the other seats above and beside, the sides' melds and the piles in the middle, this seat's hand
 * and moves below. */
function board({ panel, hand, actions }) {
  const area = (name, ...children) => el("div", { class: `area-${name}`, id: `area-${name}` }, ...children);
  const div = (cls, id) => el("div", { class: cls, id });
  return [
    area("top"),
    area("left"),
    area("center", panel, div("sides", "other-sides"), div("piles", "piles"), div("turn-info", "turn-info"), div("sides", "my-side")),
    area("right"),
    area("me", hand, el("div", { id: "question" }), actions,
      el("div", { class: "more-moves", id: "more-moves", "data-testid": "more-moves", "aria-label": t("table.more_moves") })),
  ];
}

startTable({
  windowName: "canastaTable",
  board,
  pageTitle: (variant) => (variant ? t("table.page_title_variant", { variant }) : t("table.page_title")),
  sortStore: "canasta.sort",
  defaultSort: "rank",
  seatName: positionName,
  sideSeats: (v, side) => ((sidesOf(v)[side] || {}).seats || []),
  sideOf: sideOfSeat,
  scores: (v) => sidesOf(v).map((s) => s.score),
  title,
  turnStatus,
  renderBoard(v) {
    renderSeats(v);
    renderSides(v);
    renderPiles(v);
    renderTurnInfo(v);
  },
  renderActions,
  sortHand,
  handGroup,
  marked: () => false,
  hintCards: (move) => cardsOfMove(move, T.handCodes),
  moveLabel: (move) => moveLabel(move, { hand: T.handCodes }),
  primaryAction,
  eventLine,
  logExtras,
  logHandSoFar,
  logNewHand,
  animate,
  dropOnPile,
  dropOnMelds,
  reviewGroups,
});
