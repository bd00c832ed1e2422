// The rummy family's table page (500 Rum, its partnership game, Persian Rummy, Basic Rummy): one websocket
// to /ws/tables/ID, the same protocol as the Canasta table (docs/protocol.md). The page never computes
// legality: every click sends a move taken from the state frame's `legal` list; the notation box sends
// what is typed, and the server's refusal (code and message) is shown.

import {
  api, applyDeckPreference, backEl, cardEl, el, formatPoints, fourColour, lineLabel, openTable, playerId, seatToken,
  sendFrame, setFourColour, tableIdFromPath, uniqueId,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const RANKS = "A23456789TJQK";
const SUIT_ORDER = "SHDC";

const T = {
  id: tableIdFromPath(),
  token: seatToken(tableIdFromPath()),
  player: playerId(),
  seat: null, // this connection's seat; null for a spectator
  host: null,
  seats: [],
  rules: null,
  frame: null, // the last state frame
  receivedVersion: -1,
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
  if (typeof f.version === "number" && f.version > T.receivedVersion) T.receivedVersion = f.version;
  switch (f.type) {
    case "welcome":
      T.seat = f.seat === undefined ? null : f.seat;
      T.host = f.host;
      T.rules = f.rules || null;
      T.seats = f.seats || [];
      document.body.dataset.seat = T.seat === null ? "spectator" : String(T.seat);
      break;
    case "state":
      onState(f);
      break;
    case "event":
      // before the first state frame nothing is logged: that frame's view carries the hand's history
      if (T.frame && f.version > T.frame.version) addLog(describe(f), f.seat === T.seat);
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
      showNotice(`Hint: ${f.move} — ${f.reason}`, "info");
      break;
    case "rematch":
      if (f.url && T.seat !== null) location.href = f.url;
      break;
    default:
      break;
  }
}

function onState(f) {
  if (T.frame && f.version < T.frame.version) return;
  const before = T.frame;
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
    send({ type: "sync", version: T.receivedVersion });
    showNotice("The table had moved on; it is up to date now. Please make your move again.", "info");
  } else if (f.code === "ILLEGAL_MOVE") {
    showNotice(`Not allowed (${f.reason || "ILLEGAL_MOVE"}): ${f.message}`);
  } else {
    showNotice(`${f.code}: ${f.message || "the server refused that"}`);
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
    showNotice("Waiting for the table to answer the last move…", "info");
    return;
  }
  const id = uniqueId();
  T.pending = { id, version: T.frame.version, move: text, acked: false, sent: false };
  T.pending.sent = send({ type: "move", id, version: T.frame.version, move: text });
  if (!T.pending.sent) showNotice("Not connected: the move is sent when the table is back.", "info");
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
  if (seat === T.seat) return "You";
  return s.name || (s.kind === "bot" ? `Computer ${seat + 1}` : `Seat ${seat + 1}`);
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
  return seats.join(" & ");
}

function statusText() {
  const f = T.frame;
  const v = f.view;
  if (f.status === "waiting") return "Waiting for players…";
  if (f.status === "over" || v.result) return "Game over";
  const who = v.to_move === T.seat ? "Your turn" : `${seatName(v.to_move)} to play`;
  const what = v.phase === "draw" ? "draw from the stock or take from the pile"
    : v.phase === "claim" ? `call "Rum" on ${seatName(v.claim_from)}'s discard, or pass` : "meld, lay off, then discard";
  return `${who}: ${what}`;
}

function render() {
  const f = T.frame;
  if (!f) return;
  const v = f.view;
  document.body.dataset.version = String(f.version);
  document.body.dataset.status = f.status;
  document.body.dataset.toMove = String(f.status === "playing" && T.seat !== null && v.to_move === T.seat);
  setStatus(statusText());
  $("table-title").textContent = `${T.titles[v.variant] || v.variant} · hand ${v.hand_number}` + (v.target ? ` · game ${v.target}` : "");
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

function renderPanel() {
  const f = T.frame;
  const slot = $("panel-slot");
  if (f.status === "waiting") {
    const panel = el("div", { class: "overlay-panel", "data-testid": "waiting-room" }, el("h2", { text: "Waiting for players" }),
      el("ul", { class: "waiting-seats" }, ...T.seats.map((s) => el("li", { "data-testid": `waiting-seat-${s.seat}` },
        el("b", { text: `Seat ${s.seat + 1} ` }),
        el("span", { text: s.kind === "bot" ? `computer (${s.level})` : s.joined ? "joined" : "waiting for a friend…" })))),
      el("p", { class: "small-text muted", text: "Seats nobody has joined become computer players when the game starts." }));
    if (T.seat !== null && T.seat === T.host) {
      panel.append(el("button", { type: "button", class: "primary", "data-testid": "start-now", text: "Start now", onclick: () => send({ type: "start" }) }));
    }
    fill(slot, panel);
  } else if (f.status === "over" && f.view.result) {
    const r = f.view.result;
    const scores = r.scores || f.view.scores;
    const winner = r.stalemate ? "a stalemate, lost by everyone" : r.winner === null || r.winner === undefined ? "A draw" : `${sideName(r.winner)} won`;
    fill(slot, el("div", { class: "overlay-panel", "data-testid": "game-over" }, el("h2", { text: `Game over — ${winner}` }),
      el("p", {}, scores.map((s, i) => `${sideName(i)}: ${formatPoints(s)}`).join(" · ")),
      el("div", { class: "btns" },
        el("a", { href: `/api/tables/${encodeURIComponent(T.id)}/record`, "data-testid": "download-record", text: "Download the record" }), " ",
        el("a", { href: `/replay/${encodeURIComponent(T.id)}`, text: "Replay" }), " ",
        T.seat !== null ? el("button", { type: "button", "data-testid": "rematch", text: "Rematch", onclick: () => send({ type: "rematch" }) }) : null)));
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
    if (s === v.dealer) badges.push(el("span", { class: "badge", text: "dealer" }));
    if (info.kind === "bot") badges.push(el("span", { class: "badge", text: `computer ${info.level || ""}` }));
    if (info.kind === "human" && !info.connected && s !== T.seat) badges.push(el("span", { class: "badge off", text: info.stand_in ? "away (computer plays)" : "away" }));
    const timer = T.frame.timer && T.frame.timer.seat === s
      ? el("div", { class: "timer", "data-testid": "timer", "data-deadline": String(T.frame.timer.deadline) }) : null;
    const partner = v.teams !== v.players && T.seat !== null && s !== T.seat && sideOf(s) === sideOf(T.seat) ? " (partner)" : "";
    boxes.push(el("div", { class: "seat" + (s === v.to_move && T.frame.status === "playing" ? " to-move" : ""), "data-testid": `seat-${s}` },
      el("div", { class: "name", text: seatName(s) + partner }), ...badges,
      el("div", { class: "sub", "data-testid": `hand-size-${s}`, text: `${v.hand_sizes[s]} cards` }),
      el("div", { class: "sub", text: `score ${formatPoints(v.scores[sideOf(s)])}` }), timer));
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
    stock.setAttribute("aria-label", "Draw from the stock");
    stock.addEventListener("click", () => sendMove("draw"));
    stock.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") sendMove("draw");
    });
  }
  const effect = v.joker_effect ? ` · jokers: ${v.joker_effect} this hand` : "";
  const aside = (v.dealers_joker || []).length
    ? el("div", { class: "sub", "data-testid": "dealers-joker", text: (v.dealers_joker_blocked ? "The dealer's joker is blocked" : v.dealer === T.seat ? "Your dealer's joker lies aside" : `The dealer's joker (${seatName(v.dealer)}) lies aside`) + effect }) : null;
  fill($("stock"), el("div", { class: "what", text: "Stock" }), stock, el("div", { "data-testid": "stock-size", text: `${v.stock} cards` }), aside,
    moves.includes("pass") ? el("button", { type: "button", "data-testid": "pass", text: v.phase === "claim" ? "Pass (no Rum call)" : "Take nothing (pass)", onclick: () => sendMove("pass") }) : null,
    ...specialMoves(moves).map((m) => el("button", { type: "button", "data-testid": `special-${m.split(" ")[0]}`, text: specialLabel(m), onclick: () => sendMove(m) })));
  const cards = v.pile.map((code, i) => {
    const take = moves.find((m) => m === `take ${code}`);
    const attrs = { "data-testid": `pile-card-${code}`, "data-index": String(i) };
    if (take) Object.assign(attrs, { role: "button", tabindex: "0", title: `Take ${code}` + (i < v.pile.length - 1 ? ` and the ${v.pile.length - 1 - i} card(s) above it` : "") });
    const c = cardEl(code, { attrs });
    if (take) {
      c.classList.add("takeable");
      c.addEventListener("click", () => sendMove(take));
      c.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") sendMove(take);
      });
    }
    return c;
  });
  fill($("pile"), cards.length ? cards : el("span", { class: "muted small-text", text: "empty" }));
}

/** The options' own moves, each a button: calling "Rum" on a discard, Dealer's Gambit's nomination, the dealer's
 * joker, blocking it and splitting the pile with a joker. */
function specialMoves(moves) {
  return moves.filter((m) => ["rum ", "take dealer ", "nominate ", "block ", "split "].some((p) => m.startsWith(p)));
}

function specialLabel(move) {
  if (move.startsWith("rum ")) return `Rum! (${move.slice(4)})`;
  if (move.startsWith("take dealer ")) return "Take the dealer's joker";
  if (move.startsWith("nominate ")) return `Jokers ${move.slice(9)} this hand`;
  if (move.startsWith("block ")) return "Block the dealer's joker with yours";
  return `Split the pile: ${move.slice(6)}`;
}

function renderMustUse() {
  const v = T.frame.view;
  const box = $("must-use");
  box.classList.toggle("hidden", !v.must_use);
  box.textContent = v.must_use ? `${v.to_move === T.seat ? "You" : seatName(v.to_move)} must meld or lay off ${v.must_use} this turn (the card taken from the pile)` : "";
}

function renderMelds() {
  const v = T.frame.view;
  const sel = [...T.selected];
  const lays = movesForSelection().lays;
  const boxes = v.melds.map((m) => {
    const lay = lays.find((x) => x.endsWith(` on ${m.label}`));
    const stack = el("div", { class: "stack" }, ...m.cards.map((code, i) => el("div", { class: "laid" },
      cardEl(code, { small: true }),
      el("span", { class: "by", title: `laid by ${seatName(m.seats[i])}`, text: String(m.seats[i] + 1) }))));
    const box = el("div", { class: `meld k-${m.kind}` + (lay ? " clickable" : ""), "data-testid": `meld-${m.label}`, "data-label": m.label },
      stack, el("div", { class: "label", text: `${m.label} · ${formatPoints(m.points.reduce((a, b) => a + b, 0))}` }));
    if (lay) {
      box.title = `Lay ${sel[0]} off on ${m.label}`;
      box.addEventListener("click", () => sendMove(lay));
    }
    return box;
  });
  const legend = v.melds.length ? el("div", { class: "muted small-text", text: "The number under a card is the seat that laid it (it scores for that seat)." }) : null;
  fill($("melds"), boxes.length ? boxes : el("span", { class: "none", text: "No melds yet." }), legend);
}

function sortKey(code) {
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
    fill(title, el("span", { class: "me-name", text: "Watching" }));
    hand.classList.add("spectating");
    fill(hand, el("span", { text: "Spectators see no hands." }));
    return;
  }
  hand.classList.remove("spectating");
  const sortButton = el("button", { type: "button", "data-testid": "sort", text: T.sortBy === "suit" ? "Sort by rank" : "Sort by suit" });
  sortButton.addEventListener("click", () => {
    T.sortBy = T.sortBy === "suit" ? "rank" : "suit";
    localStorage.setItem("canasta.rummy.sort", T.sortBy);
    render();
  });
  fill(title, el("span", { class: "me-name", text: `Your hand (${v.hand.length})` }), sortButton);
  const codes = [...v.hand].sort((a, b) => sortKey(a) - sortKey(b));
  fill(hand, codes.map((code) => {
    const c = cardEl(code, { attrs: { role: "option", tabindex: "0", "data-testid": `hand-card-${code}`, "aria-selected": T.selected.has(code) ? "true" : "false" } });
    if (T.selected.has(code)) c.classList.add("selected");
    if (code === v.must_use) c.classList.add("hinted");
    const toggle = () => {
      if (T.selected.has(code)) T.selected.delete(code);
      else T.selected.add(code);
      render();
    };
    c.addEventListener("click", toggle);
    c.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        toggle();
      }
    });
    return c;
  }));
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
    fill($("actions"), el("span", { class: "help", text: `Waiting for ${seatName(f.view.to_move)}…` }));
    return;
  }
  if (T.pending) out.push(el("span", { class: "help", text: "Sending…" }));
  if (moves.includes("draw")) out.push(button("Draw from the stock", "draw", () => sendMove("draw")));
  const top = f.view.pile.length ? `take ${f.view.pile[f.view.pile.length - 1]}` : null;
  if (top && moves.includes(top)) out.push(button("Take the top card", "take-top", () => sendMove(top), ""));
  const sel = movesForSelection();
  if (sel.meld) out.push(button(`Meld ${[...T.selected].length} cards`, "meld", () => sendMove(sel.meld)));
  if (sel.lays.length === 1) out.push(button(`Lay off on ${sel.lays[0].split(" on ")[1]}`, "lay", () => sendMove(sel.lays[0])));
  else if (sel.lays.length > 1) out.push(el("span", { class: "help", text: "Click the meld to lay it off on." }));
  if (sel.discard) out.push(button(`Discard ${[...T.selected][0]}`, "discard", () => sendMove(sel.discard), ""));
  if (T.selected.size && !sel.meld && !sel.lays.length && !sel.discard) {
    out.push(el("span", { class: "sel-info", text: "These cards make no move now." }));
  }
  if (!T.selected.size && f.view.phase === "play") out.push(el("span", { class: "help", text: "Select cards to meld, lay off or discard." }));
  out.push(button("Hint", "hint", () => send({ type: "hint", id: uniqueId() }), ""));
  fill($("actions"), out);
}

function renderPad() {
  const pad = T.pad;
  const v = T.frame.view;
  if (!pad.length) {
    fill($("score-pad"), el("span", { class: "muted small-text", text: "No hand finished yet." }));
    return;
  }
  const sides = v.scores.length;
  const head = el("tr", {}, el("th", { text: "Hand" }), ...Array.from({ length: sides }, (_, i) => el("th", { text: sideName(i) })));
  const rows = pad.map((entry) => el("tr", {}, el("td", { text: String(entry.hand) }), ...(entry.sides || []).map((s) => el("td", { text: formatPoints(s.total) }))));
  const total = el("tr", { class: "total" }, el("th", { text: "Total" }), ...v.scores.map((s) => el("th", { text: formatPoints(s) })));
  fill($("score-pad"), el("table", { class: "data" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}

function renderBreakdown() {
  const last = T.frame.view.last_hand;
  if (!last) {
    fill($("breakdown"), el("span", { class: "muted small-text", text: "No hand finished yet." }));
    return;
  }
  const how = last.stalemate ? (last.stalemate_reason === "stuck" ? "a stalemate (nobody can finish): nobody scores" : "a stalemate: nobody scores") : last.went_out !== null && last.went_out !== undefined
    ? `${seatName(last.went_out)} went out${last.rummy ? " — rummy!" : ""}` : "the stock ran out";
  const lines = new Set();
  for (const s of last.sides) for (const k of Object.keys(s.lines || {})) lines.add(k);
  const head = el("tr", {}, el("th", {}), ...last.sides.map((_, i) => el("th", { text: sideName(i) })));
  const rows = [...lines].map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...last.sides.map((s) => el("td", { text: formatPoints((s.lines || {})[k]) }))));
  const total = el("tr", {}, el("th", { text: "Hand" }), ...last.sides.map((s) => el("th", { text: formatPoints(s.total) })));
  const left = (last.hands || []).map((cards, seat) => el("div", { class: "small-text" }, `${seatName(seat)}: `,
    cards.length ? cards.map((c) => cardEl(c, { small: true })) : "no cards left"));
  fill($("breakdown"), el("p", { class: "small-text", text: `Hand ${last.hand}: ${how}.` }),
    el("table", { class: "data" }, el("thead", {}, head), el("tbody", {}, rows, total)),
    left.length ? el("div", { class: "left-in-hand" }, el("div", { class: "small-text muted", text: "Cards left in hand:" }), left) : null);
}

// ------------------------------------------------------------------ log, chat, notices

/**
 * The first frame (a page opened mid-hand: a late spectator, a reload) logs the hand's public history so
 * far, which the state frame's view carries; a new hand gets a heading. Later moves come as events.
 */
function logHand(before, view) {
  if (!before) {
    T.loggedHand = view.hand_number;
    if (view.hand_number > 1) addLog(`— Hand ${view.hand_number} —`);
    for (const h of view.history || []) {
      const [seat, ...move] = String(h).split(" ");
      if (move[0] === "upcard") addLog(`Upcard ${move.slice(1).join(" ")}`);
      else addLog(describe({ seat: Number(seat), move: move.join(" ") }), Number(seat) === T.seat);
    }
  } else if (view.hand_number && T.loggedHand !== view.hand_number) {
    T.loggedHand = view.hand_number;
    addLog(`— Hand ${view.hand_number} —`);
  }
}

function describe(e) {
  const who = e.seat === T.seat ? "You" : seatName(e.seat);
  const by = e.by && e.by !== "human" && e.by !== "bot" ? ` (${e.by})` : "";
  return `${who}${by}: ${e.move}` + (e.move === "discard" && e.card ? ` ${e.card}` : "");
}

function addLog(text, mine = false) {
  const log = $("log");
  for (const old of log.querySelectorAll(".latest")) old.classList.remove("latest");
  log.append(el("div", { class: "entry latest" + (mine ? " mine" : ""), text }));
  log.scrollTop = log.scrollHeight;
}

function addChat(f) {
  const box = $("chat-log");
  box.append(el("div", {}, el("span", { class: "who", text: f.name || `Seat ${f.seat + 1}` }), el("span", { text: f.text })));
  box.scrollTop = box.scrollHeight;
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
    setStatus("No table given.");
    return;
  }
  api(`/api/tables/${encodeURIComponent(T.id)}`).catch((e) => {
    if (e.status === 404) {
      setStatus("This table does not exist.");
      T.stopped = true;
    }
  });
  api("/api/variants?family=rummy")
    .then((all) => {
      T.titles = Object.fromEntries((all || []).map((e) => [e.name, e.title]));
      if (T.frame) render();
    })
    .catch(() => {}); // the title is a nicety: the preset's name stands in
  setInterval(tickTimers, 1000);
  openTable(T, { onFrame, onOpen: resendPending, setStatus });
  window.rummyTable = T; // for debugging and tests
}

start();
