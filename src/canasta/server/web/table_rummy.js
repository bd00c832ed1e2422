// The rummy family's plug-in for the table page (500 Rum, its partnership game, Persian Rummy, Basic Rummy,
// Dealer's Gambit; tablepage.js draws everything both families share): the board's layout, the seats in a row, the spread discard
// pile, every meld with who laid each card, the move buttons and the notation box, and the moves in words.
// The notation box sends what is typed; the server's refusal (its reason) is shown.

import { api, backEl, cardEl, cardText, el, formatPoints } from "./common.js";
import {
  $, T, actionButton, addLog, breakdownTable, dragging, draggedCards, dropTargets, fill, handTitle, hintButton, hintSays, legal,
  moveLine, partnerOf, reselect, render, seatLabel, selectedCodes, sendMove, startTable, view, whyNot,
} from "./tablepage.js";
import { dropZone, flyCard } from "./tableui.js";
import { meldName, rummyMoveText } from "./rummy_words.js";
import { t } from "./i18n.js";
import { variantTitle } from "./variant_names.js";

const RANKS = "A23456789TJQK";
const SUIT_ORDER = "SHDC";
const R = { titles: {}, pileTake: {} }; // each preset's title and default pile_take, from /api/variants

function cardsOf(move) {
  const words = move.split(/\s+/);
  const on = words.indexOf("on");
  return words.slice(1, on < 0 ? undefined : on);
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/** The legal moves the selected cards make: a meld of exactly them, a lay-off or a discard of the one card. */
function movesForSelection() {
  const sel = selectedCodes();
  const moves = legal();
  return {
    meld: moves.find((m) => m.startsWith("meld ") && sameCards(cardsOf(m), sel)) || null,
    lays: sel.length === 1 ? moves.filter((m) => m.startsWith("lay ") && cardsOf(m)[0] === sel[0]) : [],
    discard: sel.length === 1 ? moves.find((m) => m === `discard ${sel[0]}`) || null : null,
  };
}

function renderSeats(v) {
  const boxes = [];
  for (let s = 0; s < v.players; s++) {
    const info = T.seats[s] || {};
    const badges = [];
    if (s === v.dealer) badges.push(el("span", { class: "badge", text: t("rummy.seat.dealer") }));
    if (info.kind === "bot") badges.push(el("span", { class: "badge", text: t("table.seat.computer", { level: t(`level.${info.level || "medium"}`) }) }));
    if (info.kind === "human" && !info.connected && s !== T.seat) badges.push(el("span", { class: "badge off", text: t(info.stand_in ? "rummy.seat.away_computer" : "table.seat.away") }));
    const partner = v.teams !== v.players && s !== T.seat && partnerOf(v, s) ? ` (${t("table.seat.partner")})` : "";
    boxes.push(el("div", { class: "seat" + (s === v.to_move && T.state.status === "playing" ? " to-move" : ""), "data-testid": `seat-${s}` },
      el("div", { class: "name", text: seatLabel(s) + partner }), ...badges,
      el("div", { class: "sub", "data-testid": `hand-size-${s}`, text: t("common.cards", { count: v.hand_sizes[s] }) }),
      el("div", { class: "sub", text: t("rummy.seat.score", { points: formatPoints(v.scores[sideOf(v, s)]) }) }),
      el("div", { class: "timer", "data-testid": "timer", "data-timer-seat": String(s) }),
      el("span", { class: "bubble", "data-bubble": String(s) })));
  }
  fill($("seats"), boxes);
}

function renderPiles(v) {
  const moves = legal();
  const canDraw = moves.includes("draw");
  const stock = el("div", { class: "stack-wrap" + (canDraw ? " clickable" : "") }, v.stock ? backEl({ small: false, count: v.stock }) : el("div", { class: "card empty" }));
  if (canDraw) {
    stock.setAttribute("role", "button");
    stock.setAttribute("tabindex", "0");
    stock.setAttribute("aria-label", t("rummy.draw"));
    stock.addEventListener("click", () => sendMove("draw"));
    stock.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") sendMove("draw");
    });
  }
  const effect = v.joker_effect ? ` · ${t("rummy.effect.this_hand", { effect: jokerEffect(v.joker_effect) })}` : "";
  const aside = (v.dealers_joker || []).length
    ? el("div", { class: "sub", "data-testid": "dealers-joker", text: (v.dealers_joker_blocked ? t("rummy.dealers_joker.blocked") : v.dealer === T.seat ? t("rummy.dealers_joker.yours") : t("rummy.dealers_joker.theirs", { who: seatLabel(v.dealer) })) + effect }) : null;
  fill($("stock"), el("div", { class: "what", text: t("table.stock") }), stock, el("div", { "data-testid": "stock-size", text: t("common.cards", { count: v.stock }) }), aside,
    moves.includes("pass") ? el("button", { type: "button", "data-testid": "pass", text: t(v.phase === "claim" ? "rummy.pass_claim" : "rummy.pass_draw"), onclick: () => sendMove("pass") }) : null,
    ...specialMoves(moves).map((m) => el("button", { type: "button", "data-testid": `special-${m.split(" ")[0]}`, text: specialLabel(m), onclick: () => sendMove(m) })));
  const cards = v.pile.map((code, i) => {
    const take = moves.find((m) => m === `take ${code}`);
    const attrs = { "data-testid": `pile-card-${code}`, "data-index": String(i) };
    const above = v.pile.length - 1 - i;
    if (take) Object.assign(attrs, { role: "button", tabindex: "0", title: above ? t("table.pile.take_above", { card: cardText(code), count: above }) : t("table.pile.take", { card: cardText(code) }) });
    const c = cardEl(code, { attrs });
    if (take) c.setAttribute("aria-label", attrs.title);
    if (i === v.pile.length - 1 && T.highlight && T.highlight.discard) c.classList.add("last-discard");
    if (take) {
      c.classList.add("takeable");
      c.addEventListener("click", () => sendMove(take));
      c.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") sendMove(take);
      });
    }
    return c;
  });
  fill($("pile"), cards.length ? cards : el("span", { class: "muted small-text", text: t("rummy.pile_empty") }));
  $("pile-help").textContent = t(pileTake() === "top" ? "table.pile.take_top" : "table.pile.take_any");
}

/** The options' own moves, each a button: calling "Rum" on a discard, Dealer's Gambit's nomination, the dealer's
 * joker, blocking it and splitting the pile with a joker. */
function specialMoves(moves) {
  return moves.filter((m) => ["rum", "nominate", "block", "split"].includes(m.split(" ")[0]) || dealersJoker(m));
}

/** What the pile allows (the pile_take rule): "any" card and those above it, or the "top" card only. */
function pileTake() {
  const opts = (T.rules && T.rules.options) || {};
  return opts.pile_take || R.pileTake[view().variant] || "any";
}

/** Dealer's Gambit's effect of the jokers for a hand (rummy.effect.wild / double / split), else as the server names it. */
function jokerEffect(effect) {
  return ["wild", "double", "split"].includes(effect) ? t(`rummy.effect.${effect}`) : effect;
}

/** Whether a move takes the dealer's joker ("take dealer JK"). */
function dealersJoker(move) {
  const [verb, what] = move.split(" ");
  return verb === "take" && what === "dealer";
}

function specialLabel(move) {
  const [verb, ...rest] = move.split(" ");
  if (verb === "rum") return t("rummy.rum", { cards: rest.map(cardText).join(" ") });
  if (dealersJoker(move)) return t("rummy.take_dealers_joker");
  if (verb === "nominate") return t("rummy.nominate", { effect: jokerEffect(rest[0]) });
  if (verb === "block") return t("rummy.block");
  return t("rummy.split", { from: cardText(rest[0]), to: cardText(rest[2]) }); // "split JK to 7H"
}

function renderMustUse(v) {
  const box = $("must-use");
  box.classList.toggle("hidden", !v.must_use);
  box.textContent = !v.must_use ? "" : v.to_move === T.seat ? t("rummy.must_use.you", { card: cardText(v.must_use) })
    : t("rummy.must_use.other", { who: seatLabel(v.to_move), card: cardText(v.must_use) });
}

function renderMelds(v) {
  const sel = selectedCodes();
  const lays = movesForSelection().lays;
  const boxes = v.melds.map((m) => {
    const lay = lays.find((x) => x.endsWith(` on ${m.label}`));
    const stack = el("div", { class: "stack" }, ...m.cards.map((code, i) => el("div", { class: "laid" },
      cardEl(code, { small: true }),
      el("span", { class: "by", title: t("rummy.laid_by", { who: seatLabel(m.seats[i]) }), text: String(m.seats[i] + 1) }))));
    const fresh = T.highlight && T.highlight.melds.has(m.label) ? " fresh" : "";
    const name = meldName(m.label);
    const box = el("div", { class: `meld k-${m.kind}` + (lay ? " clickable" : "") + fresh, "data-testid": `meld-${m.label}`, "data-label": m.label, role: "group", "aria-label": `${name}: ${m.cards.map(cardText).join(" ")}` },
      stack, el("div", { class: "label", text: `${name} · ${formatPoints(m.points.reduce((a, b) => a + b, 0))}` }));
    dropZone(box, dragging, () => dropOnMelds(draggedCards(), m.label));
    if (lay) {
      box.title = t("table.lay", { card: cardText(sel[0]), meld: name });
      box.addEventListener("click", () => sendMove(lay));
    }
    return box;
  });
  const area = $("melds");
  if (!area.dataset.drop) {
    area.dataset.drop = "1"; // (the area itself stays: its drop handler once)
    dropTargets($("pile"), area);
  }
  const legend = v.melds.length ? el("div", { class: "muted small-text", text: t("rummy.melds.legend") }) : null;
  fill($("melds"), boxes.length ? boxes : el("span", { class: "none", text: t("rummy.melds.none") }), legend);
}

/** The last hand in the side panel: how it ended, its breakdown and the cards left in each hand. */
function renderBreakdown(v) {
  const last = v.last_hand;
  if (!last) {
    fill($("breakdown"), el("span", { class: "muted small-text", text: t("table.no_hand_yet") }));
    return;
  }
  const how = last.stalemate ? t(last.stalemate_reason === "stuck" ? "rummy.end.stuck" : "rummy.end.stalemate") : last.went_out !== null && last.went_out !== undefined
    ? t(last.rummy ? "rummy.end.rummy" : "rummy.end.out", { who: seatLabel(last.went_out) }) : t("rummy.end.stock");
  const left = (last.hands || []).map((cards, seat) => el("div", { class: "small-text" }, `${seatLabel(seat)}: `,
    cards.length ? cards.map((c) => cardEl(c, { small: true })) : t("rummy.no_cards_left")));
  fill($("breakdown"), el("p", { class: "small-text", text: t("rummy.end.hand", { hand: last.hand, how }) }),
    breakdownTable(v, last.sides),
    left.length ? el("div", { class: "left-in-hand" }, el("div", { class: "small-text muted", text: t("rummy.left_in_hand") }), left) : null);
}

/** The move the selection would be: a meld of the cards, or the one card's discard (the play phase), or
 * taking it from the pile (the draw phase). */
function selectionMove() {
  const sel = selectedCodes();
  if (view().phase === "draw") return `take ${sel[0]}`;
  return sel.length === 1 ? `discard ${sel[0]}` : `meld ${sel.join(" ")}`;
}

function renderActions(v) {
  const f = T.state;
  const moves = legal();
  const out = [];
  if (T.seat === null || f.status !== "playing") {
    fill($("actions"));
    return;
  }
  if (v.to_move !== T.seat) {
    fill($("actions"), el("span", { class: "help", text: t("table.waiting_for", { who: seatLabel(v.to_move) }) }));
    return;
  }
  if (T.pending) out.push(el("span", { class: "help", text: t("table.sending") }));
  const shown = new Set(moves.includes("draw") ? ["draw"] : []);
  if (moves.includes("draw")) out.push(actionButton(t("rummy.draw"), "draw", "draw"));
  const top = v.pile.length ? `take ${v.pile[v.pile.length - 1]}` : null;
  if (top && moves.includes(top)) out.push(actionButton(t("rummy.take_top"), top, "take-top", ""));
  const sel = movesForSelection();
  const chosen = selectedCodes();
  for (const m of [sel.meld, sel.lays.length === 1 ? sel.lays[0] : null, sel.discard, top]) if (m) shown.add(m);
  if (sel.meld) out.push(actionButton(t("rummy.meld_cards", { count: chosen.length }), sel.meld, "meld"));
  if (sel.lays.length === 1) out.push(actionButton(t("table.lay", { card: cardText(chosen[0]), meld: meldName(sel.lays[0].split(" on ")[1]) }), sel.lays[0], "lay"));
  else if (sel.lays.length > 1) out.push(el("span", { class: "help", text: t("rummy.help.lay") }));
  if (sel.discard) out.push(actionButton(t("move.discard", { cards: cardText(chosen[0]) }), sel.discard, "discard", ""));
  if (chosen.length && !sel.meld && !sel.lays.length && !sel.discard) {
    out.push(el("span", { class: "sel-info", "data-testid": "why", text: whyNot(selectionMove()) }));
  }
  if (!chosen.length && v.phase === "play") out.push(el("span", { class: "help", text: t("rummy.help.play") }));
  out.push(hintButton(), ...hintSays(shown));
  fill($("actions"), out);
}

/** Dropped on the melds: the dragged cards' meld, or the one card laid on `label`. */
function dropOnMelds(cards, label) {
  const lay = label && cards.length === 1 && legal().find((m) => m === `lay ${cards[0]} on ${label}`);
  if (lay) return sendMove(lay);
  reselect(cards);
  const meld = movesForSelection().meld;
  if (meld) return sendMove(meld);
  render(); // the help line says why not
  return null;
}

/** Dropped on the pile: the card's discard, else the card chosen (the help line says why not). */
function dropOnPile(cards) {
  const move = cards.length === 1 && legal().find((m) => m === `discard ${cards[0]}`);
  if (move) sendMove(move);
  else {
    reselect(cards);
    render();
  }
}

/** A rummy move in words; a meld laid on is "your Ks" when it is the mover's (this page's) side's. */
function describeMove(move, seat) {
  const meld = (label) => {
    const m = (view().melds || []).find((x) => x.label === label);
    const ours = m && T.seat !== null && seat === T.seat && m.seats.every((x) => partnerOf(view(), x));
    return t(ours ? "table.meld.your" : "table.meld.the", { meld: meldName(label) });
  };
  return rummyMoveText(move, meld);
}


// ------------------------------------------------------------------ seats, sides, the board

function sideOf(v, seat) {
  return seat % (v.teams || v.players);
}

function sideSeats(v, side) {
  const seats = [];
  for (let s = 0; s < (v.players || 0); s++) if (sideOf(v, s) === side) seats.push(s);
  return seats;
}

/** A seat nobody named: "Computer 2", "Seat 3". */
function seatName(seat) {
  const info = T.seats[seat] || {};
  return t(info.kind === "bot" ? "rummy.computer_n" : "common.seat", { n: seat + 1 });
}

function title() {
  const v = view();
  const name = v.variant || (T.rules && T.rules.variant) || "";
  return {
    variant: name ? variantTitle({ name, title: R.titles[name] }) : "",
    parts: v.hand_number ? [t("rummy.title.hand", { hand: v.hand_number }), v.target ? t("rummy.title.game", { points: formatPoints(v.target) }) : null] : [],
  };
}

function turnStatus(v, mine) {
  const what = v.phase === "draw" ? t("rummy.phase.draw")
    : v.phase === "claim" ? t("rummy.phase.claim", { who: seatLabel(v.claim_from) }) : t("rummy.phase.play");
  return mine ? t("table.status.your_turn", { phase: what }) : t("table.status.to_play", { who: seatLabel(v.to_move), phase: what });
}

function renderBoard(v) {
  renderSeats(v);
  renderPiles(v);
  renderMustUse(v);
  renderMelds(v);
  renderBreakdown(v);
  handTitle(el("span", { class: "me-name", text: T.seat === null ? t("table.watching_short") : t("rummy.your_hand", { count: (v.hand || []).length }) }));
  $("notation-form").classList.toggle("hidden", T.seat === null || T.state.status !== "playing");
}

/** The hand by rank or by suit (the jokers last). */
function sortHand(hand, mode) {
  const key = (code) => {
    if (code === "JK") return 1000;
    const rank = RANKS.indexOf(code[0]);
    const suit = SUIT_ORDER.indexOf(code[1]);
    return mode === "rank" ? rank * 10 + suit : suit * 100 + rank;
  };
  return [...hand].sort((a, b) => key(a) - key(b));
}

function handGroup(code, mode) {
  if (code === "JK") return "JK";
  return mode === "suit" ? code[1] : code[0];
}

/** The Enter key's move: draw, else the selection's meld, lay-off or discard. */
function primaryAction() {
  const moves = legal();
  if (moves.includes("draw") && !T.selected.size) return "draw";
  const sel = movesForSelection();
  return sel.meld || (sel.lays.length === 1 ? sel.lays[0] : null) || sel.discard;
}

// ------------------------------------------------------------------ moves in words

/** A move as it is shown when it is made: its words, and the meld it made or laid on (a new meld: the one the
 * table after it has that the table before it had not). */
function eventLine(f, next) {
  const move = String(f.move || "");
  const act = move.split(" ")[0];
  const keys = act === "lay" ? [move.split(" on ")[1]] : [];
  if (act === "meld" && next && next.view && next.view.melds) {
    const old = new Set((view().melds || []).map((m) => m.label));
    keys.push(...next.view.melds.filter((m) => !old.has(m.label)).map((m) => m.label));
  }
  return { ...moveLine(f, () => describeMove(move, f.seat)), act, changes: keys.map((key) => ({ key })) };
}

/** A page opened mid-hand logs the hand's public history so far: the state frame's view carries it (a rummy
 * move names its cards). */
function logHandSoFar(f) {
  for (const h of (f.view || {}).history || []) {
    const [seat, ...move] = String(h).split(" ");
    if (move[0] === "upcard") addLog(t("table.log.upcard", { cards: move.slice(1).map(cardText).join(" ") }), { sys: true });
    else addLog(moveLine({ seat: Number(seat), move: move.join(" ") }, () => describeMove(move.join(" "), Number(seat))).text, { mine: Number(seat) === T.seat });
  }
}

function animate(act, f, changes, from) {
  if (act === "discard") flyCard(from, $("pile"), f.card);
  else if (act === "draw") flyCard($("stock"), from, null);
  else if (act === "take") flyCard($("pile"), from, null);
  else if (act === "meld" || act === "lay") flyCard(from, $("melds"), null);
}

/** The final table of a review: the table's melds, one group. */
function reviewGroups(v, review) {
  return [{ title: t("table.review.melds"), melds: (review.table.melds || []).map((m) => ({ label: meldName(m.label), cards: m.cards })) }];
}

function setup() {
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("notation").value;
    $("notation").value = "";
    sendMove(text, { typed: true });
  });
  api("/api/variants?family=rummy")
    .then((all) => {
      R.titles = Object.fromEntries((all || []).map((e) => [e.name, e.title]));
      R.pileTake = Object.fromEntries((all || []).map((e) => [e.name, ((e.options || []).find((o) => o.name === "pile_take") || {}).default]));
      render();
    })
    .catch(() => {}); // the title is a nicety: the preset's name stands in
}

/** The last hand beside the board (renderBreakdown fills it). */
function sideBoxes(box) {
  return [box(t("rummy.last_hand"), el("div", { id: "breakdown", "data-testid": "breakdown" }, el("span", { class: "muted small-text", text: t("table.no_hand_yet") })))];
}

/** The board: the seats in a row, the stock and the spread pile, the melds, this seat's hand, its moves and the
 * notation box (a phone lays them out in a grid: style.css). */
function board({ panel, hand, actions }) {
  document.body.classList.add("page-rummy");
  $("board").classList.add("rummy-board");
  return [
    panel,
    el("div", { class: "rummy-seats", id: "seats", "data-testid": "seats" }),
    el("div", { class: "rummy-piles" },
      el("div", { class: "pile-box", id: "stock", "data-testid": "stock" }),
      el("div", { class: "rummy-pile-wrap" },
        el("div", { class: "what" }, el("span", { text: t("table.pile") }), " ",
          el("span", { class: "muted small-text", id: "pile-help", "data-testid": "pile-help" })),
        el("div", { class: "rummy-pile", id: "pile", "data-testid": "pile", "aria-label": t("rummy.pile_label") }))),
    el("div", { class: "question hidden", id: "must-use", "data-testid": "must-use", role: "status" }),
    el("div", { class: "rummy-melds", id: "melds", "data-testid": "melds", "aria-label": t("rummy.melds_label") }),
    hand,
    actions,
    el("form", { class: "chat-form notation-form", id: "notation-form", autocomplete: "off" },
      el("input", { id: "notation", "data-testid": "notation", placeholder: t("rummy.notation.placeholder"), "aria-label": t("rummy.notation.label") }),
      el("button", { type: "submit", "data-testid": "notation-send", text: t("rummy.notation.send") })),
  ];
}

startTable({
  windowName: "rummyTable",
  board,
  pageTitle: (variant) => (variant ? t("rummy.page_title_variant", { variant }) : t("rummy.page_title")),
  sortStore: "canasta.rummy.sort",
  defaultSort: "suit",
  seatName,
  sideSeats,
  sideOf,
  scores: (v) => v.scores || [],
  title,
  turnStatus,
  renderBoard,
  renderActions,
  sortHand,
  handGroup,
  marked: (v, code) => code === v.must_use,
  hintCards: (move) => cardsOf(move).map((c) => T.handCodes.indexOf(c)).filter((i) => i >= 0),
  moveLabel: (move) => describeMove(move, T.seat),
  primaryAction,
  eventLine,
  logExtras: () => {},
  logHandSoFar,
  logNewHand: () => {},
  animate,
  dropOnPile,
  dropOnMelds,
  reviewGroups,
  setup,
  sideBoxes,
});
