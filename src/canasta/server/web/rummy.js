// The rummy family's table page (500 Rum, its partnership game, Persian Rummy, Basic Rummy): one websocket
// to /ws/tables/ID, the same protocol as the Canasta table (docs/protocol.md). The page never computes
// legality: every click sends a move taken from the state frame's `legal` list; the notation box sends
// what is typed, and the server's refusal (code and message) is shown.

import {
  api, applyDeckPreference, backEl, cardEl, cardText, displayName, el, formatPoints, fourColour, lineLabel, openTable,
  playerId, seatToken, sendFrame, setDisplayName, setFourColour, tableIdFromPath, uniqueId,
} from "./common.js";
import {
  abandonedNote, addChatLine, announce, askWhy, reasonText, dropZone, explained, flyCard, hintWhy, linkProblemPanel, touchDrag, namePrompt, playSound, replacedPanel, reviewPanel, reviewWaitingNote,
  reviewWaitsFor, setupSoundToggle, tickReviewTimers,
} from "./tableui.js";
import { meldName, rummyMoveText } from "./rummy_words.js";
import { asReader, setUpPage, t } from "./i18n.js";
import { variantTitle } from "./variant_names.js";

const $ = (id) => document.getElementById(id);
const RANKS = "A23456789TJQK";
const SUIT_ORDER = "SHDC";

const T = {
  id: tableIdFromPath(),
  token: seatToken(tableIdFromPath()),
  player: playerId(),
  name: displayName(),
  seat: null, // this connection's seat; null for a spectator
  host: null,
  seats: [],
  rules: null,
  frame: null, // the last state frame
  selected: new Set(), // card codes selected in the hand
  sortBy: localStorage.getItem("canasta.rummy.sort") || "suit",
  titles: {}, // each preset's title, from /api/variants
  pending: null, // {id, version, move, acked}
  ws: null,
  retry: 0,
  stopped: false,
  everConnected: false,
  hint: null,
  loggedHand: null, // the hand whose history the log shows
  pad: [],
  pileTake: {}, // each preset's default pile_take ("any" or "top"), from /api/variants
  continued: new Set(), // the hands whose review this page has closed
  panel: null, // a panel shown instead of the table (a bad link, a seat taken over)
  eventSeen: -1, // the newest event version received (a reconnection asks for the events after it)
  why: {}, // the server's answers to `explain`, by "version|move"
  whyAsked: {}, // frame id -> "version|move"
  ownOrder: [], // the player's own order of the hand (sortBy "own")
  drag: null, // the hand card being dragged
  focusCode: null, // the hand card the keyboard is on (the hand's one tab stop)
  highlight: null, // {seat, discard, melds: labels}: the last move's traces, until the next player's
};

// ------------------------------------------------------------------ connection

function send(frame) {
  return sendFrame(T, frame);
}

function resendPending() {
  const p = T.pending;
  if (p && !p.acked && !p.sent && T.frame && T.frame.version === p.version) {
    p.sent = send({ type: "move", id: p.id, version: p.version, move: p.move });
  }
}

// ------------------------------------------------------------------ frames

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      T.seat = f.seat === undefined ? null : f.seat;
      T.host = f.host;
      T.rules = f.rules || null;
      T.seats = f.seats || [];
      document.body.dataset.seat = T.seat === null ? "spectator" : String(T.seat);
      maybeAskName();
      break;
    case "state":
      if (T.eventSeen < 0) T.eventSeen = f.version; // the first view's history covers the moves before it
      onState(f);
      break;
    case "event":
      // before the first state frame nothing is logged: that frame's view carries the hand's history; an
      // event seen already (the server replays what a reconnection missed) is not logged twice
      if (f.version <= T.eventSeen) break;
      T.eventSeen = f.version;
      if (T.frame && f.version > T.frame.version) onEvent(f);
      break;
    case "explain":
      onExplain(f);
      break;
    case "ack":
      if (T.pending && String(T.pending.id) === String(f.id)) T.pending = null;
      break;
    case "error":
      onError(f);
      break;
    case "seats":
      T.seats = f.seats || T.seats;
      if (T.frame) render();
      break;
    case "chat":
      addChat(f);
      break;
    case "hint":
      T.hint = f;
      showNotice(t("table.hint.says", { move: describeMove(f.move, T.seat) }) + (hintWhy(f) ? ` — ${hintWhy(f)}` : ""), "info");
      break;
    case "rematch":
      if (f.url && T.seat !== null) location.href = f.url;
      break;
    default:
      break;
  }
}

/** An invitee at a table of friends, with no name yet: ask the name the others will see (remembered). */
function maybeAskName() {
  const info = T.seats[T.seat] || {};
  const friends = T.seats.filter((s) => s.kind === "human").length > 1;
  if (T.seat === null || T.name || !friends || info.name || document.querySelector('[data-testid="name-prompt"]')) return;
  document.body.append(namePrompt("", (name) => {
    T.name = setDisplayName(name);
    if (T.ws) T.ws.close(); // reconnects at once with the name
  }));
}

function onEvent(f) {
  const text = describe(f);
  addLog(text, f.seat === T.seat);
  if (f.seat !== T.seat) announce(text);
  const act = String(f.move).split(" ")[0];
  playSound(act === "meld" || act === "lay" ? "meld" : "card");
  const last = T.highlight;
  const target = act === "lay" ? String(f.move).split(" on ")[1] : null;
  T.highlight = { seat: f.seat, discard: act === "discard", melds: new Set([...(last && last.seat === f.seat ? last.melds : []), ...(target ? [target] : [])]), meldedNow: act === "meld" };
  const from = f.seat === T.seat ? $("hand") : document.querySelector(`[data-testid="seat-${f.seat}"]`);
  if (act === "discard") flyCard(from, $("pile"), f.card);
  else if (act === "draw") flyCard($("stock"), from, null);
  else if (act === "take") flyCard($("pile"), from, null);
  else if (act === "meld" || act === "lay") flyCard(from, $("melds"), null);
}

function onState(f) {
  if (T.frame && f.version < T.frame.version) return;
  const before = T.frame;
  if (T.highlight && T.highlight.meldedNow && before) {
    // a new meld: the one whose label the previous table did not have
    const old = new Set(before.view.melds.map((m) => m.label));
    for (const m of f.view.melds) if (!old.has(m.label)) T.highlight.melds.add(m.label);
    T.highlight.meldedNow = false;
  }
  if (f.review && reviewWaitsFor(f.review, T.seat) && !T.continued.has(f.review.hand) && (!before || !before.review || before.review.hand !== f.review.hand)) {
    playSound("end");
    announce(t("table.review.title", { hand: f.review.hand }));
  }
  T.frame = f;
  logHand(before, f.view || {});
  T.seats = f.seats || T.seats;
  T.pad = f.pad || [];
  if (T.pending && T.pending.version !== f.version) T.pending = null;
  const hand = new Set(f.view.hand || []);
  for (const c of [...T.selected]) if (!hand.has(c)) T.selected.delete(c);
  if (!before || before.version !== f.version) T.hint = null;
  render();
  resendPending();
}

function onError(f) {
  const mine = T.pending && f.id !== null && f.id !== undefined && String(T.pending.id) === String(f.id);
  if (mine) T.pending = null;
  if (f.code === "DUPLICATE_MOVE") return;
  if (f.code === "STALE_VERSION") {
    send({ type: "sync", version: Math.max(0, T.eventSeen) });
    showNotice(t("table.notice.stale"), "info");
  } else if (f.code === "ILLEGAL_MOVE") {
    showNotice(t("rummy.notice.not_allowed", { code: f.reason || "ILLEGAL_MOVE", reason: reasonText(f.reason, f.message) }));
  } else {
    showNotice(`${f.code}: ${f.message || t("table.notice.refused")}`);
  }
  if (T.frame) render();
}

// ------------------------------------------------------------------ moves

function legal() {
  return (T.frame && T.frame.status === "playing" && T.frame.legal) || [];
}

function sendMove(text) {
  text = String(text || "").trim();
  if (!text || !T.frame) return;
  if (T.pending) {
    showNotice(t("rummy.notice.pending"), "info");
    return;
  }
  const id = uniqueId();
  T.pending = { id, version: T.frame.version, move: text, acked: false, sent: false };
  T.pending.sent = send({ type: "move", id, version: T.frame.version, move: text });
  if (!T.pending.sent) showNotice(t("rummy.notice.move_kept"), "info");
  T.selected.clear();
  render();
}

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
  const sel = [...T.selected];
  const moves = legal();
  return {
    meld: moves.find((m) => m.startsWith("meld ") && sameCards(cardsOf(m), sel)) || null,
    lays: sel.length === 1 ? moves.filter((m) => m.startsWith("lay ") && cardsOf(m)[0] === sel[0]) : [],
    discard: sel.length === 1 ? moves.find((m) => m === `discard ${sel[0]}`) || null : null,
  };
}

// ------------------------------------------------------------------ rendering

function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function setStatus(text) {
  $("status").textContent = text;
}

function seatName(seat) {
  const s = T.seats[seat] || {};
  if (seat === T.seat) return t("table.you");
  return s.name || t(s.kind === "bot" ? "rummy.computer_n" : "common.seat", { n: seat + 1 });
}

function sideOf(seat) {
  const v = T.frame.view;
  return seat % (v.teams || v.players);
}

function sideName(side) {
  const v = T.frame.view;
  if (v.teams === v.players) return seatName(side);
  const seats = [];
  for (let s = 0; s < v.players; s++) if (s % v.teams === side) seats.push(seatName(s));
  return seats.join(t("common.and"));
}

function statusText() {
  const f = T.frame;
  const v = f.view;
  if (f.status === "waiting") return t("table.status.waiting");
  if (f.status === "over" || v.result) return t("table.over.title");
  if (f.review && f.review.waiting && f.review.waiting.length) return t("table.review.title", { hand: f.review.hand });
  const what = v.phase === "draw" ? t("rummy.phase.draw")
    : v.phase === "claim" ? t("rummy.phase.claim", { who: seatName(v.claim_from) }) : t("rummy.phase.play");
  return v.to_move === T.seat ? t("table.status.your_turn", { phase: what }) : t("table.status.to_play", { who: seatName(v.to_move), phase: what });
}

function render() {
  const f = T.frame;
  if (!f) return;
  const v = f.view;
  document.body.dataset.version = String(f.version);
  document.body.dataset.status = f.status;
  const turn = String(f.status === "playing" && T.seat !== null && v.to_move === T.seat && legal().length > 0);
  if (turn === "true" && document.body.dataset.toMove !== "true") {
    announce(t("table.announce.turn"));
    playSound("turn");
  }
  document.body.dataset.toMove = turn;
  setStatus(statusText());
  $("table-title").textContent = [variantTitle({ name: v.variant, title: T.titles[v.variant] }), t("rummy.title.hand", { hand: v.hand_number }),
    v.target ? t("rummy.title.game", { points: formatPoints(v.target) }) : null].filter(Boolean).join(" · ");
  renderPanel();
  renderSeats();
  renderPiles();
  renderMustUse();
  renderMelds();
  renderHand();
  renderActions();
  renderPad();
  renderBreakdown();
  $("notation-form").classList.toggle("hidden", T.seat === null || f.status !== "playing");
  $("chat-input").disabled = T.seat === null;
  $("chat-send").disabled = T.seat === null;
}

function breakdownTable(last) {
  const lines = new Set();
  for (const s of last.sides) for (const k of Object.keys(s.lines || {})) lines.add(k);
  const head = el("tr", {}, el("th", {}), ...last.sides.map((_, i) => el("th", { text: sideName(i) })));
  const rows = [...lines].map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...last.sides.map((s) => el("td", { text: formatPoints((s.lines || {})[k]) }))));
  const total = el("tr", {}, el("th", { text: t("table.pad.this_hand") }), ...last.sides.map((s) => el("th", { text: formatPoints(s.total) })));
  return el("table", { class: "data" }, el("thead", {}, head), el("tbody", {}, rows, total));
}

function reviewOf(f) {
  const review = f.review;
  const last = f.view.last_hand;
  return reviewPanel({
    review, seat: T.seat, names: seatName,
    meldGroups: [{ title: t("table.review.melds"), melds: (review.table.melds || []).map((m) => ({ label: meldName(m.label), cards: m.cards })) }],
    breakdown: last && last.hand === review.hand ? breakdownTable(last) : null,
    onContinue: T.seat === null || f.status === "over" ? null : () => {
      T.continued.add(review.hand);
      send({ type: "continue", hand: review.hand });
      render();
    },
    title: f.status === "over" ? t("table.over.title") : null,
  });
}

function renderPanel() {
  const f = T.frame;
  const slot = $("panel-slot");
  if (T.panel) {
    fill(slot, T.panel);
    return;
  }
  const review = f.review;
  if (review && f.status === "playing" && reviewWaitsFor(review, T.seat) && !T.continued.has(review.hand)) {
    fill(slot, reviewOf(f));
    return;
  }
  if (review && f.status === "playing" && review.waiting.length && T.seat !== null) {
    fill(slot, reviewWaitingNote(review, seatName));
    return;
  }
  if (f.status === "waiting") {
    const panel = el("div", { class: "overlay-panel", "data-testid": "waiting-room" }, el("h2", { text: t("table.waiting.title") }),
      el("ul", { class: "waiting-seats" }, ...T.seats.map((s) => el("li", { "data-testid": `waiting-seat-${s.seat}` },
        el("b", { text: `${t("common.seat", { n: s.seat + 1 })} ` }),
        el("span", { text: s.kind === "bot" ? t("table.seat.computer", { level: t(`level.${s.level || "medium"}`) }) : t(s.joined ? "table.seat.joined" : "table.seat.waiting_friend") })))),
      el("p", { class: "small-text muted", text: t("rummy.waiting.seats") }));
    if (T.seat !== null && T.seat === T.host) {
      panel.append(el("button", { type: "button", class: "primary", "data-testid": "start-now", text: t("table.waiting.start"), onclick: () => send({ type: "start" }) }));
    }
    fill(slot, panel);
  } else if (f.status === "over" && f.view.result) {
    const r = f.view.result;
    const scores = r.scores || f.view.scores;
    const winner = r.stalemate ? t("rummy.over.stalemate") : r.winner === null || r.winner === undefined ? t("rummy.over.draw") : t("rummy.over.won", { side: sideName(r.winner) });
    const panel = review ? reviewOf(f) : el("div", { class: "overlay-panel" }, el("h2", { text: t("table.over.title") }));
    panel.dataset.testid = "game-over";
    panel.classList.remove("review-panel"); // the game's end stays on the board, not over it
    panel.querySelector("h2").textContent = `${t("table.over.title")} — ${winner}`;
    fill(slot, panel);
    panel.append(
      el("p", {}, scores.map((s, i) => `${sideName(i)}: ${formatPoints(s)}`).join(" · ")),
      abandonedNote(T.seats, seatName) || "",
      el("div", { class: "btns" },
        el("a", { href: `/api/tables/${encodeURIComponent(T.id)}/record`, "data-testid": "download-record", text: t("table.over.download") }), " ",
        el("a", { href: `/replay/${encodeURIComponent(T.id)}`, text: t("table.over.replay") }), " ",
        T.seat !== null ? el("button", { type: "button", "data-testid": "rematch", text: t("table.over.rematch"), onclick: () => send({ type: "rematch" }) }) : null));
  } else {
    fill(slot);
  }
}

function renderSeats() {
  const v = T.frame.view;
  const boxes = [];
  for (let s = 0; s < v.players; s++) {
    const info = T.seats[s] || {};
    const badges = [];
    if (s === v.dealer) badges.push(el("span", { class: "badge", text: t("rummy.seat.dealer") }));
    if (info.kind === "bot") badges.push(el("span", { class: "badge", text: t("table.seat.computer", { level: t(`level.${info.level || "medium"}`) }) }));
    if (info.kind === "human" && !info.connected && s !== T.seat) badges.push(el("span", { class: "badge off", text: t(info.stand_in ? "rummy.seat.away_computer" : "table.seat.away") }));
    const timer = T.frame.timer && T.frame.timer.seat === s
      ? el("div", { class: "timer", "data-testid": "timer", "data-deadline": String(T.frame.timer.deadline) }) : null;
    const partner = v.teams !== v.players && T.seat !== null && s !== T.seat && sideOf(s) === sideOf(T.seat) ? ` (${t("table.seat.partner")})` : "";
    boxes.push(el("div", { class: "seat" + (s === v.to_move && T.frame.status === "playing" ? " to-move" : ""), "data-testid": `seat-${s}` },
      el("div", { class: "name", text: seatName(s) + partner }), ...badges,
      el("div", { class: "sub", "data-testid": `hand-size-${s}`, text: t("common.cards", { count: v.hand_sizes[s] }) }),
      el("div", { class: "sub", text: t("rummy.seat.score", { points: formatPoints(v.scores[sideOf(s)]) }) }), timer));
  }
  fill($("seats"), boxes);
  tickTimers();
}

/** The turn timer's seconds left (the server moves for the seat when they run out). */
function tickTimers() {
  for (const t of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Math.ceil(Number(t.dataset.deadline) - Date.now() / 1000));
    t.textContent = `⏱ ${left}s`;
  }
}

function renderPiles() {
  const v = T.frame.view;
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
    ? el("div", { class: "sub", "data-testid": "dealers-joker", text: (v.dealers_joker_blocked ? t("rummy.dealers_joker.blocked") : v.dealer === T.seat ? t("rummy.dealers_joker.yours") : t("rummy.dealers_joker.theirs", { who: seatName(v.dealer) })) + effect }) : null;
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
  return opts.pile_take || T.pileTake[T.frame.view.variant] || "any";
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

function renderMustUse() {
  const v = T.frame.view;
  const box = $("must-use");
  box.classList.toggle("hidden", !v.must_use);
  box.textContent = !v.must_use ? "" : v.to_move === T.seat ? t("rummy.must_use.you", { card: cardText(v.must_use) })
    : t("rummy.must_use.other", { who: seatName(v.to_move), card: cardText(v.must_use) });
}

function renderMelds() {
  const v = T.frame.view;
  const sel = [...T.selected];
  const lays = movesForSelection().lays;
  const boxes = v.melds.map((m) => {
    const lay = lays.find((x) => x.endsWith(` on ${m.label}`));
    const stack = el("div", { class: "stack" }, ...m.cards.map((code, i) => el("div", { class: "laid" },
      cardEl(code, { small: true }),
      el("span", { class: "by", title: t("rummy.laid_by", { who: seatName(m.seats[i]) }), text: String(m.seats[i] + 1) }))));
    const fresh = T.highlight && T.highlight.melds.has(m.label) ? " fresh" : "";
    const name = meldName(m.label);
    const box = el("div", { class: `meld k-${m.kind}` + (lay ? " clickable" : "") + fresh, "data-testid": `meld-${m.label}`, "data-label": m.label, role: "group", "aria-label": `${name}: ${m.cards.map(cardText).join(" ")}` },
      stack, el("div", { class: "label", text: `${name} · ${formatPoints(m.points.reduce((a, b) => a + b, 0))}` }));
    dropZone(box, () => T.drag && legal().length, () => dropOnMelds(m.label));
    if (lay) {
      box.title = t("table.lay", { card: cardText(sel[0]), meld: name });
      box.addEventListener("click", () => sendMove(lay));
    }
    return box;
  });
  const area = $("melds");
  if (!area.dataset.drop) {
    area.dataset.drop = "1"; // (the area itself stays: its drop handler once)
    dropZone(area, () => T.drag && legal().length, () => dropOnMelds(null));
    dropZone($("pile"), () => T.drag && legal().length, dropOnPile);
  }
  const legend = v.melds.length ? el("div", { class: "muted small-text", text: t("rummy.melds.legend") }) : null;
  fill($("melds"), boxes.length ? boxes : el("span", { class: "none", text: t("rummy.melds.none") }), legend);
}

function sortKey(code) {
  if (T.sortBy === "own") {
    const i = T.ownOrder.indexOf(code);
    return i < 0 ? 2000 : i; // a card new to the hand goes to the end
  }
  if (code === "JK") return 1000;
  const rank = RANKS.indexOf(code[0]);
  const suit = SUIT_ORDER.indexOf(code[1]);
  return T.sortBy === "rank" ? rank * 10 + suit : suit * 100 + rank;
}

function renderHand() {
  const v = T.frame.view;
  const title = $("hand-title");
  const hand = $("hand");
  if (T.seat === null) {
    fill(title, el("span", { class: "me-name", text: t("table.watching_short") }));
    hand.classList.add("spectating");
    hand.setAttribute("role", "group"); // no cards to choose: not a listbox
    hand.removeAttribute("aria-multiselectable");
    fill(hand, el("span", { text: t("rummy.spectators_no_hands") }));
    return;
  }
  hand.classList.remove("spectating");
  hand.setAttribute("role", "listbox");
  hand.setAttribute("aria-multiselectable", "true");
  const sortButton = el("button", { type: "button", "data-testid": "sort", title: t("table.drag.hint"), text: T.sortBy === "suit" ? t("table.sort.rank") : t("table.sort.suit") });
  sortButton.addEventListener("click", () => {
    T.sortBy = T.sortBy === "suit" ? "rank" : "suit";
    localStorage.setItem("canasta.rummy.sort", T.sortBy);
    render();
  });
  fill(title, el("span", { class: "me-name", text: t("rummy.your_hand", { count: v.hand.length }) }), sortButton);
  const codes = [...v.hand].sort((a, b) => sortKey(a) - sortKey(b));
  // a listbox as on the Canasta page: one tab stop (the card last focused), arrow keys from card to card
  const hadFocus = hand.contains(document.activeElement);
  if (!codes.includes(T.focusCode)) T.focusCode = codes[0];
  const focusAt = (i) => {
    T.focusCode = codes[(i + codes.length) % codes.length];
    for (const x of hand.querySelectorAll('[role="option"]')) x.setAttribute("tabindex", x.dataset.card === T.focusCode ? "0" : "-1");
    const next = hand.querySelector(`[data-testid="hand-card-${T.focusCode}"]`);
    if (next) next.focus();
  };
  fill(hand, codes.map((code) => {
    const c = cardEl(code, { attrs: { role: "option", tabindex: code === T.focusCode ? "0" : "-1", "data-testid": `hand-card-${code}`, "aria-selected": T.selected.has(code) ? "true" : "false" } });
    if (T.selected.has(code)) c.classList.add("selected");
    if (code === v.must_use) c.classList.add("hinted");
    const toggle = () => {
      if (T.selected.has(code)) T.selected.delete(code);
      else T.selected.add(code);
      render();
    };
    c.addEventListener("click", () => {
      T.focusCode = code;
      toggle();
    });
    c.addEventListener("keydown", (e) => {
      const i = codes.indexOf(code);
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        T.focusCode = code;
        toggle();
      } else if (e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        e.preventDefault(); // move the card within the hand
        const to = e.key === "ArrowRight" ? i + 2 : i - 1;
        T.focusCode = code;
        if (to >= 0 && to <= codes.length) moveCard(code, codes[to] || null);
        const again = document.querySelector(`[data-testid="hand-card-${code}"]`);
        if (again) again.focus();
      } else if (e.key === "ArrowRight" || e.key === "ArrowDown" || e.key === "ArrowLeft" || e.key === "ArrowUp") {
        e.preventDefault();
        focusAt(i + (e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1));
      } else if (e.key === "Home" || e.key === "End") {
        e.preventDefault();
        focusAt(e.key === "Home" ? 0 : codes.length - 1);
      } else if (e.key === "Escape" && T.selected.size) {
        e.preventDefault();
        T.selected.clear();
        render();
      }
    });
    c.draggable = true;
    c.addEventListener("dragstart", (e) => {
      T.drag = code;
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", code);
    });
    c.addEventListener("dragend", () => {
      T.drag = null;
    });
    touchDrag(c, code, () => (T.drag = code), () => (T.drag = null));
    dropZone(c, () => T.drag && T.drag !== code, () => moveCard(T.drag, code));
    return c;
  }));
  if (hadFocus) focusAt(codes.indexOf(T.focusCode)); // a re-render keeps the keyboard's place
}

/** Put `code` just before `before` (null: at the end); the hand keeps the player's own order from now on. */
function moveCard(code, before) {
  const order = [...T.frame.view.hand].sort((a, b) => sortKey(a) - sortKey(b)).filter((c) => c !== code);
  const at = before === null ? order.length : order.indexOf(before);
  order.splice(at < 0 ? order.length : at, 0, code);
  T.ownOrder = order;
  T.sortBy = "own";
  localStorage.setItem("canasta.rummy.sort", "own");
  render();
}

/** Dropped on the melds: the selection's meld (the dragged card among it), or the card laid on `label`. */
function dropOnMelds(label) {
  const code = T.drag;
  const moves = legal();
  const lay = label && moves.find((m) => m === `lay ${code} on ${label}`);
  if (lay) return sendMove(lay);
  if (!T.selected.has(code)) T.selected = new Set([code]);
  const meld = movesForSelection().meld;
  if (meld) return sendMove(meld);
  render(); // the help line says why not
  return null;
}

function dropOnPile() {
  const code = T.drag;
  const move = legal().find((m) => m === `discard ${code}`);
  if (move) sendMove(move);
  else {
    T.selected = new Set([code]);
    render();
  }
}

function button(text, testid, onclick, cls = "primary") {
  return el("button", { type: "button", class: cls, "data-testid": testid, text, onclick });
}

function renderActions() {
  const f = T.frame;
  const moves = legal();
  const out = [];
  if (T.seat === null || f.status !== "playing") {
    fill($("actions"));
    return;
  }
  if (f.view.to_move !== T.seat) {
    fill($("actions"), el("span", { class: "help", text: t("table.waiting_for", { who: seatName(f.view.to_move) }) }));
    return;
  }
  if (T.pending) out.push(el("span", { class: "help", text: t("table.sending") }));
  if (moves.includes("draw")) out.push(button(t("rummy.draw"), "draw", () => sendMove("draw")));
  const top = f.view.pile.length ? `take ${f.view.pile[f.view.pile.length - 1]}` : null;
  if (top && moves.includes(top)) out.push(button(t("rummy.take_top"), "take-top", () => sendMove(top), ""));
  const sel = movesForSelection();
  if (sel.meld) out.push(button(t("rummy.meld_cards", { count: [...T.selected].length }), "meld", () => sendMove(sel.meld)));
  if (sel.lays.length === 1) out.push(button(t("table.lay", { card: cardText([...T.selected][0]), meld: meldName(sel.lays[0].split(" on ")[1]) }), "lay", () => sendMove(sel.lays[0])));
  else if (sel.lays.length > 1) out.push(el("span", { class: "help", text: t("rummy.help.lay") }));
  if (sel.discard) out.push(button(t("move.discard", { cards: cardText([...T.selected][0]) }), "discard", () => sendMove(sel.discard), ""));
  if (T.selected.size && !sel.meld && !sel.lays.length && !sel.discard) {
    out.push(el("span", { class: "sel-info", "data-testid": "why", text: whyNot(selectionMove()) }));
  }
  if (!T.selected.size && f.view.phase === "play") out.push(el("span", { class: "help", text: t("rummy.help.play") }));
  out.push(button(t("table.hint"), "hint", () => send({ type: "hint", id: uniqueId() }), ""));
  fill($("actions"), out);
}

function renderPad() {
  const pad = T.pad;
  const v = T.frame.view;
  if (!pad.length) {
    fill($("score-pad"), el("span", { class: "muted small-text", text: t("table.no_hand_yet") }));
    return;
  }
  const sides = v.scores.length;
  const head = el("tr", {}, el("th", { text: t("table.pad.hand") }), ...Array.from({ length: sides }, (_, i) => el("th", { text: sideName(i) })));
  const rows = pad.map((entry) => el("tr", {}, el("td", { text: String(entry.hand) }), ...(entry.sides || []).map((s) => el("td", { text: formatPoints(s.total) }))));
  const total = el("tr", { class: "total" }, el("th", { text: t("replay.total") }), ...v.scores.map((s) => el("th", { text: formatPoints(s) })));
  fill($("score-pad"), el("table", { class: "data" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}

function renderBreakdown() {
  const last = T.frame.view.last_hand;
  if (!last) {
    fill($("breakdown"), el("span", { class: "muted small-text", text: t("table.no_hand_yet") }));
    return;
  }
  const how = last.stalemate ? t(last.stalemate_reason === "stuck" ? "rummy.end.stuck" : "rummy.end.stalemate") : last.went_out !== null && last.went_out !== undefined
    ? t(last.rummy ? "rummy.end.rummy" : "rummy.end.out", { who: seatName(last.went_out) }) : t("rummy.end.stock");
  const left = (last.hands || []).map((cards, seat) => el("div", { class: "small-text" }, `${seatName(seat)}: `,
    cards.length ? cards.map((c) => cardEl(c, { small: true })) : t("rummy.no_cards_left")));
  fill($("breakdown"), el("p", { class: "small-text", text: t("rummy.end.hand", { hand: last.hand, how }) }),
    breakdownTable(last),
    left.length ? el("div", { class: "left-in-hand" }, el("div", { class: "small-text muted", text: t("rummy.left_in_hand") }), left) : null);
}

/** The move the selection would be: a meld of the cards, or the one card's discard (the play phase), or
 * taking it from the pile (the draw phase). */
function selectionMove() {
  const sel = [...T.selected];
  if (T.frame.view.phase === "draw") return `take ${sel[0]}`;
  return sel.length === 1 ? `discard ${sel[0]}` : `meld ${sel.join(" ")}`;
}

/** The engine's reason the selection makes no move (asked of the server once per position and move). */
function whyNot(move) {
  return askWhy(T, T.frame.version, move, send);
}

function onExplain(f) {
  const key = explained(T, f);
  if (key && T.frame && key.startsWith(`${T.frame.version}|`)) render();
}

// ------------------------------------------------------------------ log, chat, notices

/**
 * The first frame (a page opened mid-hand: a late spectator, a reload) logs the hand's public history so
 * far, which the state frame's view carries; a new hand gets a heading. Later moves come as events.
 */
function logHand(before, view) {
  if (!before) {
    T.loggedHand = view.hand_number;
    if (view.hand_number > 1) addLog(t("table.log.hand", { hand: view.hand_number }));
    for (const h of view.history || []) {
      const [seat, ...move] = String(h).split(" ");
      if (move[0] === "upcard") addLog(t("table.log.upcard", { cards: move.slice(1).map(cardText).join(" ") }));
      else addLog(describe({ seat: Number(seat), move: move.join(" ") }), Number(seat) === T.seat);
    }
  } else if (view.hand_number && T.loggedHand !== view.hand_number) {
    T.loggedHand = view.hand_number;
    addLog(t("table.log.hand", { hand: view.hand_number }));
  }
}

function describe(e) {
  const by = { timer: "table.log.by_timer", "stand-in": "table.log.by_stand_in" }[e.by] || "table.log.by_player";
  return asReader(e.seat === T.seat, () => t(by, { who: seatName(e.seat), what: describeMove(e.move, e.seat) }));
}

/** A rummy move in words; a meld laid on is "your Ks" when it is the mover's (this page's) side's. */
function describeMove(move, seat) {
  const meld = (label) => {
    const m = T.frame && T.frame.view.melds.find((x) => x.label === label);
    const ours = m && T.seat !== null && seat === T.seat && m.seats.every((x) => sideOf(x) === sideOf(T.seat));
    return t(ours ? "table.meld.your" : "table.meld.the", { meld: meldName(label) });
  };
  return rummyMoveText(move, meld);
}

function addLog(text, mine = false) {
  const log = $("log");
  for (const old of log.querySelectorAll(".latest")) old.classList.remove("latest");
  log.append(el("div", { class: "entry latest" + (mine ? " mine" : ""), text }));
  log.scrollTop = log.scrollHeight;
}

function addChat(f) {
  const who = f.name || t("common.seat", { n: f.seat + 1 });
  addChatLine($("chat-log"), f, who); // (the chat box is a live region: screen readers hear it)
}

let noticeTimer = null;
function showNotice(text, kind = "error") {
  $("notice-msg").textContent = text;
  $("notice").className = `notice ${kind}`;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => $("notice").classList.add("hidden"), kind === "error" ? 12000 : 6000);
}

// ------------------------------------------------------------------ start

function start() {
  setUpPage(); // the texts and the language menu
  applyDeckPreference();
  const toggle = $("deck-toggle");
  toggle.setAttribute("aria-pressed", String(fourColour()));
  toggle.addEventListener("click", () => {
    setFourColour(!fourColour());
    toggle.setAttribute("aria-pressed", String(fourColour()));
  });
  $("notice-close").addEventListener("click", () => $("notice").classList.add("hidden"));
  $("notation-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("notation").value;
    $("notation").value = "";
    sendMove(text);
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-input").value.trim();
    if (text && send({ type: "chat", text })) $("chat-input").value = "";
  });
  if (!T.id) {
    setStatus(t("table.status.no_table"));
    return;
  }
  setupSoundToggle($("sound-toggle"));
  api(`/api/tables/${encodeURIComponent(T.id)}`).catch((e) => {
    if (e.status === 404) {
      T.stopped = true;
      onClosed("gone");
    }
  });
  api("/api/variants?family=rummy")
    .then((all) => {
      T.titles = Object.fromEntries((all || []).map((e) => [e.name, e.title]));
      T.pileTake = Object.fromEntries((all || []).map((e) => [e.name, ((e.options || []).find((o) => o.name === "pile_take") || {}).default]));
      if (T.frame) render();
    })
    .catch(() => {}); // the title is a nicety: the preset's name stands in
  setInterval(() => {
    tickTimers();
    tickReviewTimers();
  }, 1000);
  connect();
  window.rummyTable = T; // for debugging and tests
}

function connect() {
  openTable(T, { onFrame, onOpen: resendPending, setStatus, since: () => (T.eventSeen >= 0 ? T.eventSeen : null), onClosed });
}

/** The connection ended for good: a bad link, no such table, or the seat opened in another window. */
function onClosed(kind) {
  if (kind === "replaced") {
    T.panel = replacedPanel(() => {
      T.panel = null;
      T.stopped = false;
      connect();
      if (T.frame) render();
    });
    setStatus(t("table.replaced.title"));
  } else {
    T.panel = linkProblemPanel(kind, T.id);
    setStatus(t(kind === "gone" ? "table.link.gone_title" : "table.link.bad_title"));
  }
  if (T.frame) render();
  else fill($("panel-slot"), T.panel);
}

start();
