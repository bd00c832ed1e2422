// The table page both families share (table.html, with the table's family's plug-in): one websocket
// to /ws/tables/ID, the table drawn from the server's `state` frames (docs/protocol.md). The page never computes
// legality: every button sends a move taken from the frame's `legal` list.
//
// Written once here: connecting and reconnecting, the frames (events paced one by one, state, errors, seats,
// chat, hints, the engine's reasons), the log, speech bubbles, sounds, card movement and announcements, the
// hand (a listbox: selection, keyboard, sorting, drag and drop), the status line, the score pad, the hand's
// review, the waiting room and the game's end, the notices. A family's plug-in (table_canasta.js,
// table_rummy.js: the server puts the table's family's in the page) lays out the board and draws what really
// differs (the seats, the melds, the piles, the move buttons) and names its moves; it is the object `F` given
// to `startTable`.

import {
  api, applyDeckPreference, cardEl, displayName, el, formatPoints, fourColour, lineLabel, openTable, playerId, seatToken, sendFrame,
  setDisplayName, setFourColour, tableIdFromPath, uniqueId,
} from "./common.js";
import {
  abandonedNote, addChatLine, announce, askWhy, explained, hintWhy, linkProblemPanel, namePrompt, playSound, reasonText, replacedPanel,
  reviewPanel, reviewWaitingNote, reviewWaitsFor, setupSoundToggle, store, tickReviewTimers, touchDrag, dropZone,
} from "./tableui.js";
import { asReader, setUpPage, t } from "./i18n.js";

const EVENT_PAUSE_MS = 800;
export const $ = (id) => document.getElementById(id);

let F = null; // the family's plug-in

export const T = {
  id: tableIdFromPath(),
  token: seatToken(tableIdFromPath()),
  player: playerId(),
  name: displayName(),
  seat: null, // this connection's seat; null for a spectator
  settings: null,
  rules: null,
  seats: [],
  state: null, // the last rendered state frame
  queue: [],
  holdUntil: 0,
  processing: false,
  selected: new Set(), // indices into handCodes
  handCodes: [],
  focusIndex: 0,
  pending: null, // {id, version, move, sent, acked}
  hint: null, // {move, reason, why, version, indices}
  ws: null,
  connected: false,
  retry: 0,
  stopped: false,
  everConnected: false,
  handPanel: null, // {index}: a past hand's breakdown, opened from the score pad
  continued: new Set(), // the hands whose review this page has closed
  linkProblem: null, // the panel shown instead of the table (a bad link, a seat taken over)
  timerHandle: null,
  why: {}, // the server's answers to `explain`, by "version|move"
  whyAsked: {}, // frame id -> "version|move" of the questions not answered yet
  sortMode: "rank",
  ownOrder: [], // the player's own order of the hand (sortMode "own")
  dragIndex: null, // the hand card being dragged
  highlight: null, // the last move's traces until the next player's: {seat, side, discard, melds (keys)}
  eventSeen: -1, // the newest event version received (a reconnection asks for the events after it)
  frameSeq: 0, // counts frames, so that a queued state frame's seats never undo a newer `seats` frame
  seatsSeq: 0,
};

// ------------------------------------------------------------------ seats and sides

export function view() {
  return (T.state && T.state.view) || {};
}

export function players() {
  return view().players || (T.seats && T.seats.length) || 4;
}

export function seatInfo(seat) {
  return (T.seats || []).find((s) => s.seat === seat) || null;
}

/** A seat as players call it: "You", the player's name, else the family's name for it ("North", "Computer 2"). */
export function seatLabel(seat, { you = true } = {}) {
  if (seat === null || seat === undefined) return "";
  if (you && T.seat !== null && seat === T.seat) return t("table.you");
  const info = seatInfo(seat);
  if (info && info.name) return info.name;
  return F.seatName(seat);
}

/** What a seat is: a computer player, a stand-in, away, you. */
export function seatSub(seat) {
  const info = seatInfo(seat);
  if (!info) return "";
  if (info.kind === "bot") return t("table.seat.computer", { level: t(`level.${info.level || "medium"}`) });
  if (info.stand_in) return t("table.seat.stand_in");
  if (!info.joined) return t("table.seat.not_joined");
  if (!info.connected) return t("table.seat.away");
  return t(T.seat === seat ? "table.seat.you" : "table.seat.human");
}

export function sideLabel(v, side) {
  const seats = F.sideSeats(v, side);
  return seats.length ? seats.map((x) => seatLabel(x)).join(t("common.and")) : t("table.side", { n: side + 1 });
}

/** Whether `seat` plays on this page's side. */
export function partnerOf(v, seat) {
  return T.seat !== null && F.sideOf(v, seat) === F.sideOf(v, T.seat);
}

// ------------------------------------------------------------------ frames

export function send(frame) {
  return sendFrame(T, frame);
}

function onFrame(f) {
  switch (f.type) {
    case "welcome":
      T.seat = f.seat === undefined ? null : f.seat;
      T.settings = f.settings || null;
      T.rules = f.rules || null;
      T.host = f.host === undefined ? undefined : f.host;
      if (Array.isArray(f.seats)) T.seats = f.seats;
      document.body.dataset.seat = T.seat === null ? "spectator" : String(T.seat);
      renderTitle();
      maybeAskName();
      break;
    case "event":
      if (f.version <= T.eventSeen) break; // seen already (the server replays what a reconnection missed)
      T.eventSeen = f.version;
      T.queue.push(f);
      pump();
      break;
    case "state":
      if (T.eventSeen < 0) T.eventSeen = f.version; // the first view's history covers the moves before it
      f.seq = ++T.frameSeq;
      T.queue.push(f);
      pump();
      break;
    case "ack":
      if (T.pending && String(T.pending.id) === String(f.id)) T.pending.acked = true;
      break;
    case "error":
      onError(f);
      break;
    case "seats":
      if (Array.isArray(f.seats)) {
        T.seats = f.seats;
        T.seatsSeq = ++T.frameSeq; // newer than any state frame still queued
      }
      if (T.state) render();
      break;
    case "chat":
      addChatLine($("chat-log"), f, f.name || (f.seat !== null && f.seat !== undefined ? seatLabel(f.seat) : "spectator"));
      break;
    case "hint":
      onHint(f);
      break;
    case "explain": {
      const key = explained(T, f);
      if (key && T.state && key.startsWith(`${T.state.version}|`)) render();
      break;
    }
    case "rematch":
      onRematch(f);
      break;
    default:
      break; // ("replaced": the close that follows, 4409, shows the panel)
  }
}

/** An invitee at a table of friends, with no name yet: ask the name the others will see (remembered for the
 * next tables), then connect again so that the server takes it. */
function maybeAskName() {
  const info = seatInfo(T.seat);
  const friends = (T.seats || []).filter((s) => s.kind === "human").length > 1;
  if (T.seat === null || T.name || !friends || (info && info.name) || document.querySelector('[data-testid="name-prompt"]')) return;
  document.body.append(namePrompt("", (name) => {
    T.name = setDisplayName(name);
    if (T.ws) T.ws.close(); // reconnects at once with the name
  }));
}

function onError(f) {
  const mine = T.pending && f.id !== undefined && f.id !== null && String(T.pending.id) === String(f.id);
  if (mine) T.pending = null;
  if (f.code === "DUPLICATE_MOVE") {
    // the move was applied already (e.g. resent after a reconnect): nothing to show
    if (T.state) render();
    return;
  }
  if (f.code === "STALE_VERSION") {
    send({ type: "sync", version: Math.max(0, T.eventSeen) });
    showNotice(t("table.notice.stale"), "info");
  } else if (f.code === "BAD_TOKEN") {
    showNotice(f.message || t("common.closed.bad"));
  } else if (f.code === "ILLEGAL_MOVE") {
    showNotice(t("table.notice.not_allowed", { reason: f.message || f.reason ? reasonText(f.reason, f.message) : t("table.notice.refused_reason") }));
  } else {
    showNotice(f.message || f.code || t("table.notice.refused"));
  }
  if (T.state) render();
}

/** Events are shown one at a time, each held a moment (a computer player's move can be followed); a state
 * frame is drawn when the events before it have been. */
function pump() {
  if (T.processing) return;
  T.processing = true;
  (async () => {
    try {
      while (T.queue.length) {
        const f = T.queue[0];
        if (f.type === "event") {
          const wait = T.holdUntil - Date.now();
          if (wait > 0) {
            await sleep(Math.min(wait, 1000));
            continue;
          }
          // wait briefly for the state frame that follows the event (it tells what the move changed)
          let waited = 0;
          while (!T.queue.some((g) => g.type === "state" && g.version >= f.version) && waited < 400) {
            await sleep(25);
            waited += 25;
          }
          T.queue.shift();
          safely(handleEvent, f);
        } else {
          T.queue.shift();
          safely(handleState, f);
        }
      }
    } finally {
      T.processing = false;
    }
  })();
}

function safely(fn, arg) {
  try {
    fn(arg);
  } catch (e) {
    console.error("table:", e); // keep going: one bad frame must not stop the table
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** One move shown: its log line (the family says it in words), the mover's bubble, the announcement for
 * screen readers, the sound, the card's flight and the highlight that stays until the next player's turn. */
function handleEvent(f) {
  if (T.state && f.version <= T.state.version) return; // already shown (sync after reconnect)
  const next = T.queue.find((g) => g.type === "state" && g.version >= f.version) || null;
  const { said, text, act, changes } = F.eventLine(f, next);
  addLog(text, { version: f.version, mine: f.seat === T.seat, latest: true });
  F.logExtras(f, next);
  bubble(f.seat, said);
  if (f.seat !== T.seat) announce(text);
  playSound(act === "meld" || act === "lay" || changes.length ? "meld" : "card");
  const last = T.highlight;
  T.highlight = {
    seat: f.seat,
    discard: act === "discard",
    side: F.sideOf(view(), f.seat),
    melds: new Set([...(last && last.seat === f.seat ? last.melds : []), ...changes.map((c) => c.key)]),
  };
  F.animate(act, f, changes, f.seat === T.seat ? $("hand") : document.querySelector(`[data-testid="seat-${f.seat}"]`));
  const backlog = T.queue.filter((g) => g.type === "event").length;
  T.holdUntil = Date.now() + (f.seat === T.seat ? 150 : backlog > 4 ? 120 : EVENT_PAUSE_MS);
}

/** A move's log line and what the mover's bubble says: `what` the move in words. */
export function moveLine(f, what) {
  const mine = f.seat === T.seat;
  const said = asReader(mine, what);
  const by = { timer: "table.log.by_timer", "stand-in": "table.log.by_stand_in" }[f.by] || "table.log.by_player";
  return { said, text: asReader(mine, () => t(by, { who: seatLabel(f.seat), what: said })) };
}

function handleState(f) {
  if (T.state && f.version < T.state.version) return;
  const prev = T.state;
  if (Array.isArray(f.seats) && !(f.seq < T.seatsSeq)) T.seats = f.seats;
  if (f.seat !== undefined && f.seat !== null && T.seat === null && T.token) T.seat = f.seat;
  T.state = f;
  const v = f.view || {};
  // the first frame logs the hand so far (a page opened mid-hand, a reload); a new hand gets a heading
  if (!prev) {
    T.loggedHand = v.hand_number;
    if (v.hand_number > 1) addLog(t("table.log.hand", { hand: v.hand_number }), { sys: true });
    F.logHandSoFar(f);
  } else if (v.hand_number && T.loggedHand !== v.hand_number) {
    T.loggedHand = v.hand_number;
    addLog(t("table.log.hand", { hand: v.hand_number }), { sys: true });
    F.logNewHand(f);
  }
  // the hand changed (a draw, a meld, a new hand): keep selected the cards that are still there
  const codes = arrange(v.hand || []);
  if (codes.join(" ") !== T.handCodes.join(" ")) {
    const keep = selectedCodes();
    T.newCards = prev ? diffNew(T.handCodes, codes) : new Set();
    T.handCodes = codes;
    if (prev && prev.view && prev.view.hand_number === v.hand_number) reselect(keep);
    else T.selected = new Set();
    if (T.focusIndex >= codes.length) T.focusIndex = Math.max(0, codes.length - 1);
  } else {
    T.newCards = new Set();
  }
  if (T.pending && f.version > T.pending.version) {
    T.pending = null;
    T.selected = new Set();
  }
  if (T.hint && T.hint.version !== f.version) T.hint = null;
  if (f.review && reviewWaitsFor(f.review, T.seat) && !T.continued.has(f.review.hand) && (!prev || !prev.review || prev.review.hand !== f.review.hand)) {
    playSound("end");
    announce(t("table.review.title", { hand: f.review.hand }));
  }
  render();
  resendPending();
}

function diffNew(before, after) {
  const pool = [...before];
  const out = new Set();
  after.forEach((c, i) => {
    const j = pool.indexOf(c);
    if (j >= 0) pool.splice(j, 1);
    else out.add(i);
  });
  return out;
}

function resendPending() {
  const p = T.pending;
  if (!p || p.acked || !T.state) return;
  if (!p.sent && T.state.version === p.version && T.connected) {
    if (send({ type: "move", id: p.id, version: p.version, move: p.move })) p.sent = true;
  }
}

// ------------------------------------------------------------------ moves

export function legal() {
  return (T.state && T.state.status === "playing" && T.state.legal) || [];
}

export function myTurn() {
  return T.seat !== null && legal().length > 0 && T.state && T.state.status !== "over";
}

/** Send a move (one at a time). `typed`: the notation box's text, which the server judges (and refuses with
 * its reason); a button's move is always one of `legal`. */
export function sendMove(text, { typed = false } = {}) {
  text = String(text || "").trim();
  if (!T.state || !text) return;
  if (!typed && !legal().includes(text)) {
    showNotice(t("table.not_now", { move: text }));
    return;
  }
  if (T.pending) return; // one move at a time
  const frame = { type: "move", id: uniqueId(), version: T.state.version, move: text };
  T.pending = { id: frame.id, version: frame.version, move: text, sent: false, acked: false };
  hideNotice();
  T.handPanel = null;
  if (send(frame)) T.pending.sent = true;
  else showNotice(t("table.notice.move_kept"), "info");
  render();
}

/** The engine's reason `move` makes no move now (asked of the server once per position and move). */
export function whyNot(move) {
  return askWhy(T, T.state.version, move, send);
}

export function selectedCodes() {
  return [...T.selected].sort((a, b) => a - b).map((i) => T.handCodes[i]);
}

/** Select these cards (codes) instead of the selection. */
export function reselect(codes) {
  T.selected = new Set();
  for (const c of codes) {
    const i = T.handCodes.findIndex((x, j) => x === c && !T.selected.has(j));
    if (i >= 0) T.selected.add(i);
  }
}

function requestHint() {
  if (T.seat === null) return;
  if (!send({ type: "hint", id: uniqueId() })) showNotice(t("table.notice.not_connected"), "info");
  else showNotice(t("table.notice.hint_thinking"), "info", 4000);
}

function onHint(f) {
  hideNotice();
  T.hint = { move: f.move, reason: f.reason, why: f.why, level: f.level, version: T.state ? T.state.version : -1, indices: F.hintCards(f.move || "") };
  render();
}

/** The hint button (it asks the server what a computer player would do). */
export function hintButton() {
  const b = el("button", { type: "button", class: "secondary", "data-testid": "hint", text: t("table.hint"), title: t("table.hint.title") });
  b.disabled = !myTurn();
  b.addEventListener("click", requestHint);
  return b;
}

/** What the hint says, and a button for its move when none of the `shown` buttons makes it. */
export function hintSays(shown = new Set()) {
  const h = T.hint;
  if (!h) return [];
  const label = F.moveLabel(h.move);
  const out = [el("span", { class: "help", "data-testid": "hint-text" }, el("b", { text: t("table.hint.says", { move: label }) }), hintWhy(h) ? ` — ${hintWhy(h)}` : "")];
  if (h.move && legal().includes(h.move) && !shown.has(h.move)) out.push(actionButton(t("table.hint.play", { move: label }), h.move, "hint-play", "secondary"));
  return out;
}

/** A button that sends `move`. */
export function actionButton(text, move, testid, cls = "primary") {
  const b = el("button", { type: "button", class: cls, "data-move": move, "data-testid": testid || null, text });
  b.disabled = !!T.pending;
  b.addEventListener("click", () => sendMove(move));
  return b;
}

function onRematch(f) {
  if (f.url) {
    if (T.seat !== null) {
      location.href = f.url;
      return;
    }
    T.rematchUrl = f.url;
  }
  render();
}

// ------------------------------------------------------------------ rendering

function setStatus(text) {
  $("status").textContent = text;
}

function renderTitle() {
  const { variant, parts } = F.title();
  $("table-title").textContent = [variant, ...parts].filter(Boolean).join(" · ");
  document.title = F.pageTitle(variant);
}

function statusText() {
  const f = T.state;
  if (!f) return t("table.status.connecting");
  const v = f.view || {};
  if (f.status === "waiting") return t("table.status.waiting");
  if (f.status === "over" || v.result) return t("table.over.title");
  if (f.review && f.review.waiting && f.review.waiting.length) return t("table.review.title", { hand: f.review.hand });
  return F.turnStatus(v, T.seat !== null && v.to_move === T.seat);
}

export function render() {
  const f = T.state;
  if (!f) return;
  const v = f.view || {};
  const b = document.body.dataset;
  b.version = String(f.version);
  b.phase = v.phase || "";
  b.status = f.status || "";
  const turn = myTurn() ? "true" : "false";
  if (turn === "true" && b.toMove !== "true") {
    announce(t("table.announce.turn"));
    playSound("turn");
  }
  b.toMove = turn;
  b.hand = String(v.hand_number || "");
  renderTitle();
  setStatus(statusText());
  F.renderBoard(v);
  renderHand(v);
  F.renderActions(v);
  renderPad(f.pad || []);
  renderPanel(f, v);
  renderChatForm();
  renderTimer();
  applyBubbles();
}

/** The hand's title: the family's words, then the sort buttons. */
export function handTitle(...parts) {
  fill($("hand-title"), ...parts, T.seat !== null ? sortTools() : null);
}

/** Sort by rank, by suit, or keep your own order (drag a card, or Alt+arrow keys, to arrange the hand). */
function sortTools() {
  const box = el("span", { class: "hand-tools", role: "group", "aria-label": t("table.drag.hint"), title: t("table.drag.hint") });
  for (const mode of SORT_MODES) {
    if (mode === "own" && T.sortMode !== "own") continue; // your order appears once you arrange the hand
    const b = el("button", { type: "button", "data-testid": `sort-${mode}`, "aria-pressed": T.sortMode === mode ? "true" : "false", text: t(`table.sort.${mode}`) });
    b.addEventListener("click", () => setSortMode(mode));
    box.append(b);
  }
  return box;
}

function renderHand(v) {
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  hand.replaceChildren();
  if (T.seat === null) {
    hand.classList.add("spectating");
    hand.setAttribute("role", "group"); // no cards to choose: not a listbox
    hand.removeAttribute("aria-multiselectable");
    hand.append(el("span", { text: t("table.watching") }));
    return;
  }
  hand.classList.remove("spectating");
  hand.setAttribute("role", "listbox");
  hand.setAttribute("aria-multiselectable", "true");
  const codes = T.handCodes;
  if (!codes.length) {
    hand.append(el("span", { class: "muted-light", text: v.phase === "over" ? "" : t("table.no_cards") }));
    return;
  }
  if (T.focusIndex >= codes.length) T.focusIndex = codes.length - 1;
  const hinted = new Set(T.hint ? T.hint.indices : []);
  let group = null;
  let groupKey = null;
  codes.forEach((code, i) => {
    const g = T.sortMode === "own" ? "all" : F.handGroup(code, T.sortMode);
    if (g !== groupKey) {
      group = el("div", { class: "group", "data-rank": g });
      hand.append(group);
      groupKey = g;
    }
    const selected = T.selected.has(i);
    const card = cardEl(code, {
      attrs: { "data-testid": "card", "data-index": String(i), role: "option", "aria-selected": selected ? "true" : "false", tabindex: i === T.focusIndex ? "0" : "-1" },
    });
    if (selected) card.classList.add("selected");
    if (hinted.has(i) || F.marked(v, code)) card.classList.add("hinted");
    if (T.newCards && T.newCards.has(i)) card.classList.add("new");
    card.addEventListener("click", () => {
      T.focusIndex = i;
      toggleSelect(i);
    });
    card.draggable = true;
    const dragEnd = () => {
      card.classList.remove("dragging");
      T.dragIndex = null;
      for (const x of document.querySelectorAll(".drop-target, .drop-before")) x.classList.remove("drop-target", "drop-before");
    };
    card.addEventListener("dragstart", (e) => {
      T.dragIndex = i;
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", code);
      card.classList.add("dragging");
    });
    card.addEventListener("dragend", dragEnd);
    touchDrag(card, code, () => (T.dragIndex = i), dragEnd);
    dropZone(card, () => T.dragIndex !== null && T.dragIndex !== i, () => moveCard(T.dragIndex, i), "drop-before");
    group.append(card);
  });
  if (hadFocus) focusCard(T.focusIndex);
  T.newCards = new Set(); // the arrival animation plays once
}

// ------------------------------------------------------------------ arranging the hand, drag and drop

const SORT_MODES = ["rank", "suit", "own"];

/** The hand in the player's order: by rank, by suit, or as the player arranged it (new cards at the end). */
function arrange(hand) {
  if (T.sortMode === "own") {
    const pool = [...hand];
    const out = [];
    for (const c of T.ownOrder) {
      const i = pool.indexOf(c);
      if (i >= 0) out.push(pool.splice(i, 1)[0]);
    }
    return [...out, ...pool];
  }
  return F.sortHand(hand, T.sortMode);
}

function setSortMode(mode) {
  T.sortMode = mode;
  store.set(F.sortStore, mode);
  const keep = selectedCodes();
  T.handCodes = arrange(T.handCodes);
  T.ownOrder = [...T.handCodes];
  reselect(keep);
  render();
}

/** Move the card at `from` to just before the card at `to` (the player's own order from now on). */
function moveCard(from, to) {
  if (from === null || from === undefined || from === to || to < 0 || to > T.handCodes.length) return;
  const flags = T.handCodes.map((c, i) => ({ c, sel: T.selected.has(i) }));
  const [item] = flags.splice(from, 1);
  flags.splice(to > from ? to - 1 : to, 0, item);
  T.handCodes = flags.map((x) => x.c);
  T.selected = new Set(flags.flatMap((x, i) => (x.sel ? [i] : [])));
  T.ownOrder = [...T.handCodes];
  T.sortMode = "own";
  store.set(F.sortStore, "own");
  T.focusIndex = to > from ? to - 1 : to;
  render();
}

/** The cards a drag carries: the selection when the dragged card is part of it, else that card alone. */
export function draggedCards() {
  if (T.dragIndex === null || T.dragIndex === undefined) return [];
  if (T.selected.has(T.dragIndex)) return selectedCodes();
  return [T.handCodes[T.dragIndex]];
}

/** Whether a hand card is being dragged where a move may be made. */
export function dragging() {
  return T.dragIndex !== null && T.dragIndex !== undefined && myTurn() && !T.pending;
}

/** The pile, the melds and the stock take dropped cards: the family says which move they make. */
export function dropTargets(pile, melds) {
  if (pile) dropZone(pile, dragging, () => F.dropOnPile(draggedCards()));
  if (melds) dropZone(melds, dragging, () => F.dropOnMelds(draggedCards(), null));
}

function focusCard(i) {
  const cards = $("hand").querySelectorAll('[data-testid="card"]');
  if (!cards.length) return;
  const idx = Math.max(0, Math.min(cards.length - 1, i));
  cards.forEach((c, j) => c.setAttribute("tabindex", j === idx ? "0" : "-1"));
  T.focusIndex = idx;
  cards[idx].focus();
}

function toggleSelect(i) {
  if (T.selected.has(i)) T.selected.delete(i);
  else T.selected.add(i);
  render();
}

export function clearSelection() {
  T.selected = new Set();
  render();
}

// ------------------------------------------------------------------ score pad, panels

function renderPad(pad) {
  const box = $("score-pad");
  if (!pad.length) {
    box.replaceChildren(el("span", { class: "muted small-text", text: t("table.no_hand_yet") }));
    return;
  }
  const v = view();
  const nSides = pad[0].sides.length;
  const head = el("tr", {}, el("th", { text: t("table.pad.hand") }), ...Array.from({ length: nSides }, (_, i) => el("th", { text: sideLabel(v, i) })));
  const running = Array(nSides).fill(0); // the game's total after each hand, where the sheet does not say it
  const rows = pad.map((entry, h) => {
    const tr = el("tr", { style: "cursor:pointer", title: t("table.pad.show"), "data-hand": String(h + 1) }, el("td", { text: String(entry.hand || h + 1) }),
      ...entry.sides.map((s, i) => {
        running[i] = s.cumulative ?? running[i] + s.total;
        return el("td", {}, `${s.total >= 0 ? "+" : ""}${formatPoints(s.total)}`, el("br"), el("b", { text: formatPoints(running[i]) }));
      }));
    tr.addEventListener("click", () => {
      T.handPanel = { index: h };
      render();
    });
    return tr;
  });
  const total = el("tr", { class: "total" }, el("th", { text: t("replay.total") }), ...F.scores(v).map((s) => el("th", { text: formatPoints(s) })));
  box.replaceChildren(el("table", { class: "data" }, el("thead", {}, head), el("tbody", {}, ...rows, total)));
}

/** A hand's breakdown: a row per scoring line, a column per side; its total and, where known, the game's. */
export function breakdownTable(v, sheet) {
  const keys = [];
  for (const s of sheet) for (const k of Object.keys(s.lines || {})) if (!keys.includes(k)) keys.push(k);
  const head = el("tr", {}, el("th", { text: "" }), ...sheet.map((_, i) => el("th", { text: sideLabel(v, i) })));
  const rows = keys
    .filter((k) => sheet.some((s) => (s.lines || {})[k]))
    .map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...sheet.map((s) => {
      const val = (s.lines || {})[k] || 0;
      return el("td", { class: val < 0 ? "neg" : "", text: formatPoints(val) });
    })));
  const notes = sheet.map((s) => [s.went_out ? t("table.pad.went_out") : "", s.concealed ? t("table.pad.concealed") : ""].filter(Boolean).join(", "));
  if (notes.some(Boolean)) rows.push(el("tr", {}, el("td", { text: "" }), ...notes.map((n) => el("td", { class: "small-text", text: n }))));
  const foot = [el("tr", {}, el("td", { text: t("table.pad.this_hand") }), ...sheet.map((s) => el("td", { text: formatPoints(s.total) })))];
  if (sheet.every((s) => s.cumulative !== undefined)) foot.push(el("tr", {}, el("td", { text: t("replay.total") }), ...sheet.map((s) => el("td", { text: formatPoints(s.cumulative) }))));
  return el("table", { class: "data breakdown" }, el("thead", {}, head), el("tbody", {}, ...rows), el("tfoot", {}, ...foot));
}

function sheetOf(f, hand) {
  const entry = (f.pad || []).find((e, i) => ((e && e.hand) || i + 1) === hand);
  return entry ? entry.sides : null;
}

function renderPanel(f, v) {
  const slot = $("panel-slot");
  slot.replaceChildren();
  if (T.linkProblem) {
    fill(slot, T.linkProblem);
    return;
  }
  if (f.status === "waiting") {
    fill(slot, waitingPanel());
    return;
  }
  const review = f.review;
  const breakdown = (hand) => {
    const sheet = sheetOf(f, hand);
    return sheet ? el("div", { class: "table-scroll" }, breakdownTable(v, sheet)) : null;
  };
  if (f.status === "over" || v.result) {
    fill(slot, gameOverPanel(f, v, breakdown(review ? review.hand : (f.pad || []).length)));
    return;
  }
  if (review && reviewWaitsFor(review, T.seat) && !T.continued.has(review.hand)) {
    fill(slot, reviewPanel({
      review, seat: T.seat, names: (seat) => seatLabel(seat), meldGroups: F.reviewGroups(v, review), breakdown: breakdown(review.hand),
      onContinue: T.seat === null ? null : () => {
        T.continued.add(review.hand);
        send({ type: "continue", hand: review.hand });
        render();
      },
    }));
    return;
  }
  if (review && review.waiting && review.waiting.length && T.seat !== null) {
    ($("question") || slot).append(reviewWaitingNote(review, (seat) => seatLabel(seat)));
  }
  if (!T.handPanel) return;
  const pad = f.pad || [];
  const sheet = pad[T.handPanel.index] && pad[T.handPanel.index].sides;
  const close = el("button", { type: "button", class: "primary", "data-testid": "hand-sheet-close", text: t("table.sheet.close") });
  close.addEventListener("click", () => {
    T.handPanel = null;
    render();
  });
  slot.append(el("div", { class: "overlay-panel", "data-testid": "hand-sheet" }, el("h2", { text: t("table.sheet.title", { hand: T.handPanel.index + 1 }) }),
    sheet ? el("div", { class: "table-scroll" }, breakdownTable(v, sheet)) : null, el("div", { class: "btns" }, close)));
}

function gameOverPanel(f, v, breakdown) {
  const res = v.result || {};
  const scores = res.scores || F.scores(v);
  let winner = t("table.over.over");
  if (res.stalemate) winner = t("rummy.over.stalemate");
  else if (res.winner === null) winner = t("table.over.draw");
  else if (res.winner !== undefined) {
    const size = F.sideSeats(v, res.winner).length || 2; // "wins" / "win"
    winner = T.seat !== null && F.sideOf(v, T.seat) === res.winner ? t("table.over.you_win") : t("table.over.wins", { side: sideLabel(v, res.winner), count: size });
  }
  const review = f.review;
  const panel = review
    ? reviewPanel({ review, seat: T.seat, names: (seat) => seatLabel(seat), meldGroups: F.reviewGroups(v, review), title: t("table.over.title"), breakdown, onContinue: null })
    : el("div", { class: "overlay-panel" }, el("h2", { text: t("table.over.title") }), breakdown);
  panel.dataset.testid = "game-over";
  panel.classList.remove("review-panel"); // the game's end stays on the board, not over it
  panel.querySelector("h2").after(
    el("div", { class: "winner", "data-testid": "winner", text: winner }),
    abandonedNote(T.seats, (seat) => seatLabel(seat)) || "",
    el("p", {}, t(res.hands ? "table.over.scores_hands" : "replay.final_scores", {
      scores: scores.map((s, i) => `${sideLabel(v, i)} ${formatPoints(s)}`).join(" · "), count: res.hands,
    })),
  );
  const btns = el("div", { class: "btns" });
  if (T.seat !== null) {
    const rematch = el("button", { type: "button", class: "primary", "data-testid": "rematch", text: t("table.over.rematch") });
    rematch.addEventListener("click", () => {
      rematch.disabled = true;
      rematch.textContent = t("table.over.creating");
      if (!send({ type: "rematch" })) showNotice(t("table.notice.not_connected"), "info");
    });
    btns.append(rematch);
  }
  if (T.rematchUrl) btns.append(el("a", { class: "button", href: T.rematchUrl, text: t("table.over.watch_rematch") }));
  btns.append(
    el("a", { class: "button", href: `/api/tables/${encodeURIComponent(T.id)}/record`, download: `canasta-${T.id}.json`, "data-testid": "download-record", text: t("table.over.download") }),
    el("a", { class: "button", href: `/replay/${encodeURIComponent(T.id)}`, "data-testid": "replay-link", text: t("table.over.replay") }),
    el("a", { class: "button", href: "/", text: t("common.home") }),
  );
  panel.append(btns);
  return panel;
}

function waitingPanel() {
  const seats = T.seats || [];
  const firstHuman = seats.find((s) => s.kind === "human");
  const host = T.host !== undefined && T.host !== null ? T.host : firstHuman ? firstHuman.seat : null;
  const list = el("ul", { class: "waiting-seats" }, ...seats.map((s) => el(
    "li",
    { "data-testid": `waiting-seat-${s.seat}` },
    el("span", { class: "dot " + (s.kind === "bot" ? "bot" : s.joined ? "on" : "") }),
    el("b", { text: t("common.seat", { n: s.seat + 1 }) }),
    el("span", { text: s.seat === T.seat ? t("table.seat.you") : s.name || F.seatName(s.seat) }),
    el("span", { class: "muted small-text", text: s.kind === "bot" ? t("table.seat.computer", { level: t(`level.${s.level || "medium"}`) }) : t(s.joined ? (s.connected ? "table.seat.joined" : "table.seat.joined_away") : "table.seat.waiting_friend") }),
  )));
  const panel = el(
    "div",
    { class: "overlay-panel", "data-testid": "waiting-room" },
    el("h2", { text: t("table.waiting.title") }),
    list,
    el("p", { class: "small-text muted", text: t("table.waiting.links") }),
    el("p", { class: "small-text" }, t("table.waiting.spectators"), " ", el("a", { href: `/t/${encodeURIComponent(T.id)}`, text: `${location.origin}/t/${T.id}` })),
  );
  if (T.seat !== null && host === T.seat) {
    const start = el("button", { type: "button", class: "primary", "data-testid": "start-now", text: t("table.waiting.start") });
    start.addEventListener("click", () => {
      start.disabled = true;
      if (!send({ type: "start" })) {
        start.disabled = false;
        showNotice(t("table.notice.not_connected"), "info");
      }
    });
    panel.append(el("div", { class: "btns" }, start));
  } else if (T.seat !== null) {
    panel.append(el("p", { class: "small-text", text: t("table.waiting.host_starts") }));
  }
  return panel;
}

function renderChatForm() {
  const input = $("chat-input");
  const spectator = T.seat === null;
  input.disabled = spectator;
  $("chat-send").disabled = spectator;
  input.placeholder = t(spectator ? "table.chat.spectators" : "table.chat.placeholder");
}

/** The turn timer's seconds left (the server moves for the seat when they run out), beside that seat. */
function renderTimer() {
  const timer = T.state && T.state.timer;
  for (const e of document.querySelectorAll("[data-timer-seat]")) e.textContent = "";
  if (T.timerHandle) {
    clearInterval(T.timerHandle);
    T.timerHandle = null;
  }
  if (!timer || timer.deadline === undefined || timer.deadline === null) return;
  const tick = () => {
    const left = Math.max(0, Math.round(timer.deadline - Date.now() / 1000));
    for (const e of document.querySelectorAll(`[data-timer-seat="${timer.seat}"]`)) e.textContent = `⏱ ${left}s`;
  };
  tick();
  T.timerHandle = setInterval(tick, 1000);
}

// ------------------------------------------------------------------ log, bubbles, notices

export function addLog(text, { version = null, mine = false, sys = false, latest = false } = {}) {
  const log = $("log");
  for (const e of log.querySelectorAll(".latest")) e.classList.remove("latest");
  const entry = el("div", { class: ["entry", mine ? "mine" : "", sys ? "sys" : "", latest ? "latest" : ""].filter(Boolean).join(" ") });
  if (version !== null) entry.dataset.version = String(version);
  entry.append(text);
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
  log.append(entry);
  while (log.children.length > 400) log.firstChild.remove();
  if (atBottom || latest) log.scrollTop = log.scrollHeight;
}

/** A short note next to a seat for what it just did; kept in T.bubbles so re-renders keep it. */
function bubble(seat, text) {
  T.bubbles = T.bubbles || {};
  T.bubbles[seat] = { text, until: Date.now() + 1600 };
  const old = document.querySelector(`[data-testid="seat-${seat}"]`);
  if (old) old.classList.remove("flash");
  applyBubbles();
  setTimeout(applyBubbles, 1650);
}

function applyBubbles() {
  const now = Date.now();
  const bubbles = T.bubbles || {};
  for (const b of document.querySelectorAll("[data-bubble]")) {
    const info = bubbles[b.dataset.bubble];
    const on = !!info && info.until > now;
    if (on) b.textContent = info.text;
    b.classList.toggle("show", on);
    const box = document.querySelector(`[data-testid="seat-${b.dataset.bubble}"]`);
    if (box && on && info.until - now > 1100 && !box.classList.contains("flash")) box.classList.add("flash");
  }
}

let noticeTimer = null;
export function showNotice(text, kind = "error", ms = kind === "error" ? 12000 : 6000) {
  const n = $("notice");
  $("notice-msg").textContent = text;
  n.className = "notice " + (kind === "error" ? "" : kind);
  n.dataset.kind = kind;
  clearTimeout(noticeTimer);
  if (ms) noticeTimer = setTimeout(hideNotice, ms);
}

function hideNotice() {
  $("notice").classList.add("hidden");
}

// ------------------------------------------------------------------ input

function setupInput() {
  const hand = $("hand");
  hand.addEventListener("keydown", (e) => {
    const n = T.handCodes.length;
    if (!n) return;
    if (e.altKey && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
      // move the focused card within the hand
      e.preventDefault();
      const i = T.focusIndex;
      const to = e.key === "ArrowRight" ? i + 2 : i - 1;
      if (to >= 0 && to <= n) moveCard(i, to);
      focusCard(T.focusIndex);
    } else if (e.key === "ArrowRight" || e.key === "ArrowDown") {
      e.preventDefault();
      focusCard((T.focusIndex + 1) % n);
    } else if (e.key === "ArrowLeft" || e.key === "ArrowUp") {
      e.preventDefault();
      focusCard((T.focusIndex - 1 + n) % n);
    } else if (e.key === "Home") {
      e.preventDefault();
      focusCard(0);
    } else if (e.key === "End") {
      e.preventDefault();
      focusCard(n - 1);
    } else if (e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      toggleSelect(T.focusIndex);
    } else if (e.key === "Enter") {
      e.preventDefault();
      const m = myTurn() && !T.pending ? F.primaryAction() : null;
      if (m) sendMove(m);
    } else if (e.key === "Escape") {
      clearSelection();
    }
  });
  // Enter anywhere outside a form field: the primary action
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT", "BUTTON", "A", "SUMMARY"].includes(tag)) return;
    if (e.key === "Enter") {
      const m = myTurn() && !T.pending ? F.primaryAction() : null;
      if (m) {
        e.preventDefault();
        sendMove(m);
      }
    } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (T.handCodes.length && T.seat !== null) {
        e.preventDefault();
        focusCard(T.focusIndex);
      }
    }
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim().slice(0, 300);
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
    else showNotice(t("table.notice.chat_kept"), "info");
  });
  $("notice-close").addEventListener("click", hideNotice);
  const deck = $("deck-toggle");
  const syncDeck = () => deck.setAttribute("aria-pressed", fourColour() ? "true" : "false");
  deck.addEventListener("click", () => {
    setFourColour(!fourColour());
    syncDeck();
  });
  syncDeck();
  setupSoundToggle($("sound-toggle"));
}

// ------------------------------------------------------------------ start

/** The board: the family's layout of its seats, melds and piles around what every table has (the slot for the
 * panels, the hand, the move buttons). */
function buildBoard() {
  const panel = el("div", { id: "panel-slot" });
  const hand = el("div", { class: "hand-wrap", id: "me-seat" },
    el("div", { class: "hand-title", id: "hand-title" }),
    el("div", { class: "hand", id: "hand", "data-testid": "hand", role: "listbox", "aria-multiselectable": "true", "aria-label": t("table.hand") }));
  const actions = el("div", { class: "actions", id: "actions", "data-testid": "actions", role: "group", "aria-label": t("table.actions") });
  $("board").replaceChildren(...F.board({ panel, hand, actions }));
}

/** What every table page has around its board: the top bar (home, help, the title, the status line, the
 * deck's colours, sounds, the language, the connection), beside the board the log, the score pad, the
 * family's own boxes and the chat, and the notice. */
function buildShell() {
  document.body.prepend(el("header", { class: "topbar" },
    el("a", { class: "home", href: "/", title: t("common.home") }, el("span", { "aria-hidden": "true", text: "♠♥ " }), el("span", { text: t("common.brand") })),
    el("a", { class: "home", href: "/help", target: "_blank", rel: "noopener", "data-testid": "help-link", text: t("help.heading") }),
    el("span", { id: "table-title", class: "small-text" }),
    el("span", { id: "status", class: "status", "data-testid": "status", role: "status", "aria-live": "polite", text: t("table.status.connecting") }),
    el("button", { type: "button", id: "deck-toggle", title: t("table.deck.title"), "aria-pressed": "false", text: t("common.four_colour") }),
    el("button", { type: "button", id: "sound-toggle", "data-testid": "sound-toggle", title: t("table.sound.title"), "aria-pressed": "false", text: t("table.sound") }),
    el("span", { id: "language-slot" }),
    el("span", { id: "conn", class: "conn", text: t("common.conn.offline") })));
  const box = (title, ...children) => el("div", { class: "box" }, el("h3", { text: title }), ...children);
  const chat = box(t("table.chat"),
    el("div", { class: "chat-log", id: "chat-log", "data-testid": "chat-log", "aria-live": "polite" }),
    el("form", { class: "chat-form", id: "chat-form", autocomplete: "off" },
      el("input", { id: "chat-input", "data-testid": "chat-input", maxlength: "300", placeholder: t("table.chat.placeholder"), "aria-label": t("table.chat.label") }),
      el("button", { type: "submit", id: "chat-send", "data-testid": "chat-send", text: t("table.chat.send") })));
  chat.classList.add("chat");
  $("board").after(el("aside", { class: "sidebar" },
    box(t("table.moves"), el("div", { class: "log", id: "log", "data-testid": "log", tabindex: "0", "aria-label": t("table.moves_so_far") })),
    box(t("table.score_pad"), el("div", { id: "score-pad", "data-testid": "score-pad", class: "table-scroll" }, el("span", { class: "muted small-text", text: t("table.no_hand_yet") }))),
    ...(F.sideBoxes ? F.sideBoxes(box) : []),
    chat));
  document.body.append(el("div", { id: "notice", class: "notice hidden", "data-testid": "notice", role: "alert" },
    el("span", { class: "msg", id: "notice-msg" }),
    el("button", { type: "button", id: "notice-close", "aria-label": t("table.dismiss"), text: "✕" })));
}

/** Run the page with the family's plug-in `family`. */
export function startTable(family) {
  F = family;
  const sort = store.get(F.sortStore);
  T.sortMode = SORT_MODES.includes(sort) ? sort : F.defaultSort;
  buildBoard();
  buildShell();
  setUpPage(); // the texts and the language menu
  renderTitle();
  applyDeckPreference();
  setupInput();
  if (F.setup) F.setup();
  if (!T.id) {
    setStatus(t("table.status.no_table"));
    return;
  }
  // the public table info (settings, seats) while the socket connects; optional
  api(`/api/tables/${encodeURIComponent(T.id)}`)
    .then((info) => {
      if (!info) return;
      if (!T.settings && info.settings) T.settings = info.settings;
      if (!T.seats.length && Array.isArray(info.seats)) T.seats = info.seats.map((s, i) => ({ seat: i, ...s }));
      renderTitle();
    })
    .catch((e) => {
      if (e.status === 404) {
        T.stopped = true;
        onClosed("gone");
      }
    });
  connect();
  setInterval(tickReviewTimers, 1000);
  window[F.windowName] = T; // for debugging and tests
}

function connect() {
  openTable(T, { onFrame, onOpen: resendPending, setStatus, since: () => (T.eventSeen >= 0 ? T.eventSeen : null), onClosed });
}

/** The connection ended for good: a bad link, no such table, or the seat opened in another window. */
function onClosed(kind) {
  if (kind === "replaced") {
    T.linkProblem = replacedPanel(() => {
      T.linkProblem = null;
      T.stopped = false;
      connect();
      render();
    });
    setStatus(t("table.replaced.title"));
  } else {
    T.linkProblem = linkProblemPanel(kind, T.id);
    setStatus(t(kind === "gone" ? "table.link.gone_title" : "table.link.bad_title"));
  }
  if (T.state) render();
  else $("panel-slot").replaceChildren(T.linkProblem);
}

