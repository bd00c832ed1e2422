// The table page: one websocket to /ws/tables/ID, the table drawn from the server's `state` frames.
// The client never computes legality: every button sends a move taken from the frame's `legal` list.

import {
  api, applyDeckPreference, backEl, cardEl, cardSortKey, cardText, displayName, el, formatPoints, fourColour, lineLabel,
  openTable, playerId, rankOf, seatToken, sendFrame, setDisplayName, setFourColour, sortCards, suitOf, tableIdFromPath, uniqueId,
} from "./common.js";
import { cardsOfMove, describeMove, moveLabel, movesMatching, parseMove, targetText, tokenText } from "./moves.js";
import {
  abandonedNote, addChatLine, announce, askWhy, reasonText, dropZone, explained, flyCard, hintWhy, store, touchDrag, linkProblemPanel, namePrompt, playSound, replacedPanel, reviewPanel, reviewWaitingNote,
  reviewWaitsFor, setupSoundToggle, tickReviewTimers,
} from "./tableui.js";
import { asReader, setUpPage, t } from "./i18n.js";
import { variantTitle } from "./variant_names.js";

const EVENT_PAUSE_MS = 800;
const $ = (id) => document.getElementById(id);

const T = {
  id: tableIdFromPath(),
  token: seatToken(tableIdFromPath()),
  player: playerId(),
  name: displayName(),
  seat: null, // this connection's seat; null for a spectator
  settings: null,
  seats: [],
  state: null, // the last rendered state frame
  queue: [],
  holdUntil: 0,
  processing: false,
  selected: new Set(), // indices into handCodes
  handCodes: [],
  focusIndex: 0,
  pending: null, // {id, version, move, sent}
  hint: null, // {move, reason, version, indices}
  ws: null,
  connected: false,
  retry: 0,
  stopped: false,
  everConnected: false,
  logCount: 0,
  handPanel: null, // {kind: "hand", index}: a past hand's breakdown, opened from the score pad
  continued: new Set(), // the hands whose review this page has closed
  linkProblem: null, // the panel shown instead of the table (a bad link, a seat taken over)
  timerHandle: null,
  lastHand: null,
  why: {}, // the server's answers to `explain`, by "version|move"
  whyAsked: {}, // frame id -> "version|move" of the questions not answered yet
  sortMode: ["rank", "suit", "own"].includes(store.get("canasta.sort")) ? store.get("canasta.sort") : "rank",
  ownOrder: [], // the player's own order of the hand (sortMode "own")
  dragIndex: null, // the hand card being dragged
  eventSeen: -1, // the newest event version received (a reconnection asks for the events after it)
  frameSeq: 0, // counts frames, so that a queued state frame's seats never undo a newer `seats` frame
  seatsSeq: 0,
};

// ------------------------------------------------------------------ seat geometry and names

function players() {
  return (T.state && T.state.view && T.state.view.players) || (T.seats && T.seats.length) || 4;
}

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

function seatInfo(seat) {
  return (T.seats || []).find((s) => s.seat === seat) || null;
}

function seatLabel(seat, { you = true } = {}) {
  if (seat === null || seat === undefined) return "";
  if (you && T.seat !== null && seat === T.seat) return t("table.you");
  const info = seatInfo(seat);
  if (info && info.name) return info.name;
  return positionName(seat);
}

function seatSub(seat) {
  const info = seatInfo(seat);
  if (!info) return "";
  if (info.kind === "bot") return t("table.seat.computer", { level: t(`level.${info.level || "medium"}`) });
  if (info.stand_in) return t("table.seat.stand_in");
  if (!info.joined) return t("table.seat.not_joined");
  if (!info.connected) return t("table.seat.away");
  return t(T.seat === seat ? "table.seat.you" : "table.seat.human");
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

function sideLabel(view, side) {
  const s = sidesOf(view)[side];
  if (!s) return t("table.side", { n: side + 1 });
  return (s.seats || []).map((x) => seatLabel(x)).join(t("common.and"));
}

// ------------------------------------------------------------------ connection

function send(frame) {
  return sendFrame(T, frame);
}

// ------------------------------------------------------------------ frames

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
    case "replaced":
      break; // the close that follows (4409) shows the panel
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
      addChat(f);
      break;
    case "hint":
      onHint(f);
      break;
    case "explain":
      onExplain(f);
      break;
    case "rematch":
      onRematch(f);
      break;
    default:
      break;
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
  if (f.code === "DUPLICATE_MOVE") {
    // the move was applied already (e.g. resent after a reconnect): nothing to show
    if (mine) T.pending = null;
    render();
    return;
  }
  if (mine) T.pending = null;
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
          // wait briefly for the state frame that follows the event (it tells the discarded card)
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

/** A score pad entry's per-side sheets: `{"hand": N, "sides": [...]}` or the list itself. */
function padSides(entry) {
  if (Array.isArray(entry)) return entry;
  return (entry && (entry.sides || entry.lines)) || [];
}

function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function renderedVersion() {
  return T.state ? T.state.version : -1;
}

function handleEvent(f) {
  if (T.state && f.version <= renderedVersion()) return; // already shown (sync after reconnect)
  const next = T.queue.find((g) => g.type === "state" && g.version >= f.version);
  const nextView = next && next.view;
  const move = String(f.move || "");
  const act = parseMove(move).action;
  // a discard names only the rank: the card is the new pile top (not when the discard ended the hand)
  const sameHand = nextView && T.state && T.state.view && nextView.hand_number === T.state.view.hand_number;
  const card = f.card || (act === "discard" && sameHand && next.version === f.version ? nextView.pile_top : null);
  // the melds the move made or grew, card by card: from the table after it (the review's, if the hand ended)
  // (only from the state right after this move: after a reconnection several moves may lie in between)
  const exact = next && next.version === f.version;
  const afterSides = !exact ? null : sameHand ? sidesOf(nextView) : next.review && next.review.hand === T.state.view.hand_number ? next.review.table.sides : null;
  const changes = afterSides && T.state ? meldChanges(sidesOf(T.state.view), afterSides, sideOfSeat(T.state.view, f.seat)) : [];
  const view = T.state && T.state.view;
  const { said, text } = moveLine(f, card, changes, view && (view.pile_size ?? (view.pile || []).length));
  addLog(text, { version: f.version, mine: f.seat === T.seat, latest: true });
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
  bubble(f.seat, said);
  if (f.seat !== T.seat) announce(text);
  playSound(act === "meld" || changes.length ? "meld" : "card");
  animateEvent(act, f.seat, changes);
  const backlog = T.queue.filter((g) => g.type === "event").length;
  const pause = f.seat === T.seat ? 150 : backlog > 4 ? 120 : EVENT_PAUSE_MS;
  T.holdUntil = Date.now() + pause;
}

/** The card movement of a move (the page is still drawn as before it) and what stays highlighted until the
 * next player's turn: the last discard, the melds made or added to. */
function animateEvent(act, seat, changes) {
  const last = T.highlight;
  T.highlight = {
    seat,
    discard: act === "discard",
    side: sideOfSeat(T.state && T.state.view, seat),
    melds: new Set([...(last && last.seat === seat ? last.melds : []), ...changes.map((c) => c.key)]),
  };
  const seatEl = document.querySelector(`[data-testid="seat-${seat}"]`);
  const from = seat === T.seat ? $("hand") : seatEl;
  const pile = document.querySelector('[data-testid="pile"] .stack-wrap');
  const stock = document.querySelector('[data-testid="stock"] .stack-wrap');
  if (act === "discard") flyCard(from, pile, null);
  else if (act === "draw") flyCard(stock, from, null);
  else if (act === "take") flyCard(pile, from, null);
  if (changes.length) flyCard(from, document.querySelector(`[data-testid="side-${T.highlight.side}"]`), changes[0].added[0]);
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

/** A move's log line and what the seat's bubble says: `card` the discard, `changes` the melds it made or
 * added to, `took` the pile's size when it took the pile. */
function moveLine(f, card, changes, took) {
  const mine = f.seat === T.seat;
  const said = asReader(mine, () => eventText(String(f.move || ""), card, changes, f.seat, took));
  const by = { timer: "table.log.by_timer", "stand-in": "table.log.by_stand_in" }[f.by] || "table.log.by_player";
  return { said, text: asReader(mine, () => t(by, { who: seatLabel(f.seat), what: said })) };
}

/** What a move did, in cards: "melded 7♠ 7♥ 2♣", "added 7♦ to your 7s", "took the pile (9 cards)". */
function eventText(move, card, changes, seat, took) {
  const m = parseMove(move);
  const view = T.state && T.state.view;
  const melds = changes.map((c) => {
    const cards = c.added.map(cardText).join(" ");
    if (c.fresh) return t("table.log.melded", { cards });
    const ours = T.seat !== null && sideOfSeat(view, seat) === sideOfSeat(view, T.seat);
    return t(ours ? "table.log.added_yours" : "table.log.added_theirs", { cards, meld: meldName({ ...c.meld, canasta: false }) });
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

function handleState(f) {
  if (T.state && f.version < T.state.version) return;
  const prev = T.state;
  if (Array.isArray(f.seats) && !(f.seq < T.seatsSeq)) T.seats = f.seats;
  if (f.seat !== undefined && f.seat !== null && T.seat === null && T.token) T.seat = f.seat;
  T.state = f;
  const view = f.view || {};
  // a new hand, or the first frame: log the hand's history so far
  if (!prev) {
    T.loggedHand = view.hand_number;
    if (view.hand_number > 1) addLog(t("table.log.hand", { hand: view.hand_number }), { sys: true });
    logDealtThrees(view);
    if (Array.isArray(f.hand_log)) logHandSoFar(view, f.hand_log);
    else for (const h of view.history || []) logHistoryEntry(h);
  } else if (view.hand_number && T.loggedHand !== view.hand_number) {
    T.loggedHand = view.hand_number;
    addLog(t("table.log.hand", { hand: view.hand_number }), { sys: true });
    for (const h of view.history || []) {
      if (/^\d+ upcard/.test(h)) logHistoryEntry(h);
    }
    logDealtThrees(view);
  }
  // the hand changed (a draw, a meld, a new hand): keep selected the cards that are still there
  const codes = arrange(view.hand || []);
  if (codes.join(" ") !== T.handCodes.join(" ")) {
    const keep = [...T.selected].map((i) => T.handCodes[i]);
    T.selected = new Set();
    if (prev && prev.view && prev.view.hand_number === view.hand_number) {
      for (const c of keep) {
        const i = codes.findIndex((x, j) => x === c && !T.selected.has(j));
        if (i >= 0) T.selected.add(i);
      }
    }
    T.newCards = prev ? diffNew(T.handCodes, codes) : new Set();
    T.handCodes = codes;
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
  maybeResendPending();
}

/** Red threes laid out at the deal: the history does not list them, each side's red threes do. */
function logDealtThrees(view) {
  const later = (view.history || []).filter((h) => / red-three /.test(h)).flatMap((h) => h.split(/\s+/).slice(2));
  sidesOf(view).forEach((side, i) => {
    const pool = [...later];
    const dealt = (side.red_threes || []).filter((c) => {
      const j = pool.indexOf(c);
      if (j < 0) return true;
      pool.splice(j, 1);
      return false;
    });
    if (dealt.length) addLog(t("table.log.dealt_threes", { side: sideLabel(view, i), cards: dealt.map(cardText).join(" ") }), { sys: true });
  });
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

/** The hand's moves before this page opened, as the live log tells them: the upcard, then each move with its
 * cards (the server's `hand_log`: what every seat saw played, suited) and what came with it. */
function logHandSoFar(view, entries) {
  for (const h of view.history || []) if (/^\d+ upcard/.test(h)) logHistoryEntry(h);
  for (const e of entries) {
    const changes = (e.melds || []).map((m) => ({ key: m.key, meld: m, added: m.added, fresh: m.new }));
    addLog(moveLine(e, e.card, changes, e.took).text, { version: e.version, mine: e.seat === T.seat });
    for (const h of e.history || []) {
      const extra = /^\d+ upcard/.test(h) ? null : describeHistory(h);
      if (extra) addLog(extra, { version: e.version, sys: true });
    }
  }
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

function maybeResendPending() {
  const p = T.pending;
  if (!p || p.acked || !T.state) return;
  if (!p.sent && T.state.version === p.version && T.connected) {
    if (send({ type: "move", id: p.id, version: p.version, move: p.move })) p.sent = true;
  }
}

// ------------------------------------------------------------------ moves

function legal() {
  return (T.state && T.state.legal) || [];
}

function myTurn() {
  return T.seat !== null && legal().length > 0 && T.state && T.state.status !== "over";
}

function sendMove(text) {
  if (!T.state) return;
  if (!legal().includes(text)) {
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

/** The engine's reason the selection makes no move (asked of the server once per position and move). */
function whyNot(move) {
  return askWhy(T, T.state.version, move, send);
}

function onExplain(f) {
  const key = explained(T, f);
  if (key && T.state && key.startsWith(`${T.state.version}|`)) render();
}

function selectedCodes() {
  return [...T.selected].sort((a, b) => a - b).map((i) => T.handCodes[i]);
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

function primaryAction() {
  if (!myTurn() || T.pending) return null;
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

function requestHint() {
  if (T.seat === null) return;
  const id = uniqueId();
  T.hintId = id;
  if (!send({ type: "hint", id })) showNotice(t("table.notice.not_connected"), "info");
  else showNotice(t("table.notice.hint_thinking"), "info", 4000);
}

function onHint(f) {
  hideNotice();
  const indices = cardsOfMove(f.move || "", T.handCodes);
  T.hint = { move: f.move, reason: f.reason, why: f.why, level: f.level, version: renderedVersion(), indices };
  render();
}

function onRematch(f) {
  if (f.url) {
    if (T.seat !== null) {
      location.href = f.url;
      return;
    }
    T.rematchUrl = f.url;
  }
  T.rematchTable = f.table;
  render();
}

// ------------------------------------------------------------------ rendering

function setStatus(text) {
  $("status").textContent = text;
}

function renderTitle() {
  const s = T.settings || {};
  const rules = T.rules || s.rules || (T.state && T.state.view && T.state.view.rules) || {};
  const name = s.variant || rules.variant || (T.state && T.state.view && T.state.view.variant) || "";
  const variant = name ? variantTitle({ name, title: s.title || s.variant_title }) : "";
  const parts = [];
  if (variant) parts.push(variant);
  const target = (s.options && s.options.target) || (rules.options && rules.options.target);
  if (target) parts.push(t("table.title.target", { points: formatPoints(target) }));
  parts.push(T.seat === null ? t("table.title.watching") : t("table.title.seat", { n: T.seat + 1 }));
  $("table-title").textContent = parts.join(" · ");
  document.title = variant ? t("table.page_title_variant", { variant }) : t("table.page_title");
}

// The phases a status line names (table.phase.NAME; another phase shows as the server names it).
const PHASES = ["draw", "play", "answer", "over"];
const phaseText = (phase) => (PHASES.includes(phase) ? t(`table.phase.${phase}`) : phase || "");

function statusText() {
  const f = T.state;
  if (!f) return t("table.status.connecting");
  const v = f.view || {};
  if (f.status === "waiting") return t("table.status.waiting");
  if (f.status === "over" || v.result) return t("table.over.title");
  if (f.review && f.review.waiting && f.review.waiting.length) return t("table.review.title", { hand: f.review.hand });
  const toMove = v.to_move;
  if (T.seat !== null && toMove === T.seat) {
    if (v.phase === "answer") return t("table.status.partner_asks");
    return t("table.status.your_turn", { phase: phaseText(v.phase) });
  }
  const who = seatLabel(toMove);
  if (v.phase === "answer") return t("table.status.answering", { who });
  return t("table.status.to_play", { who, phase: phaseText(v.phase) });
}

function render() {
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
  renderSeats(v);
  renderSides(v);
  renderPiles(v);
  renderTurnInfo(v);
  renderHand(v);
  renderActions(v);
  renderPad(f.pad || []);
  renderPanel(f, v);
  renderChatForm();
  renderTimer();
  applyBubbles();
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
  const title = $("hand-title");
  const size = (v.hand_sizes || [])[meSeat];
  const foot = (v.foot_sizes || [])[meSeat];
  fill(title,
    el("span", { class: "me-name", text: T.seat === null ? t("table.watching_seat", { who: seatLabel(meSeat) }) : T.name || t("table.you") }),
    T.seat === null ? el("span", { class: "sub", text: seatSub(meSeat) }) : null,
    size !== undefined ? el("span", { class: "small-text", text: t("common.cards", { count: size }) }) : null,
    foot ? el("span", { class: "foot small-text", text: t("table.foot_waiting", { count: foot }) }) : null,
    el("span", { class: "timer", "data-timer-seat": String(meSeat) }),
    el("span", { class: "bubble", "data-bubble": String(meSeat) }),
    T.seat !== null ? sortTools() : null,
  );
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

function seatBox(seat, v) {
  const size = (v.hand_sizes || [])[seat];
  const foot = (v.foot_sizes || [])[seat];
  const info = seatInfo(seat);
  const cls = ["seat"];
  if (v.to_move === seat && v.phase !== "over" && T.state.status === "playing") cls.push("to-move");
  const badges = [];
  if (info && info.kind === "human" && info.joined && !info.connected && !info.stand_in) badges.push(el("span", { class: "badge off", text: t("table.seat.away") }));
  if (info && info.stand_in) badges.push(el("span", { class: "badge", text: t("table.seat.computer_playing") }));
  const side = sideOfSeat(v, seat);
  const partner = T.seat !== null && side !== null && side === sideOfSeat(v, T.seat);
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
  if (isMine) dropZone(melds, dragging, () => dropOnMelds(null));
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
    dropZone(box, dragging, () => dropOnMelds(m));
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
  dropZone(pileBox, dragging, dropOnPile);
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
  let groupRank = null;
  codes.forEach((code, i) => {
    const r = rankOf(code);
    const g = T.sortMode === "own" ? "all" : T.sortMode === "suit" ? suitOf(code) || "JK" : r === "2" || r === "JK" ? "wild" : r;
    if (g !== groupRank) {
      group = el("div", { class: "group", "data-rank": g });
      hand.append(group);
      groupRank = g;
    }
    const selected = T.selected.has(i);
    const card = cardEl(code, {
      attrs: {
        "data-testid": "card",
        "data-index": String(i),
        role: "option",
        "aria-selected": selected ? "true" : "false",
        tabindex: i === T.focusIndex ? "0" : "-1",
      },
    });
    if (selected) card.classList.add("selected");
    if (hinted.has(i)) card.classList.add("hinted");
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

/** The hand in the player's order: by rank (the default), by suit, or as the player arranged it (new cards
 * at the end). */
function arrange(hand) {
  if (T.sortMode === "suit") {
    const suit = (c) => (c === "JK" ? 9 : "SHDC".indexOf(suitOf(c)));
    return [...hand].sort((a, b) => suit(a) - suit(b) || cardSortKey(a) - cardSortKey(b));
  }
  if (T.sortMode !== "own") return sortCards(hand);
  const pool = [...hand];
  const out = [];
  for (const c of T.ownOrder) {
    const i = pool.indexOf(c);
    if (i >= 0) out.push(pool.splice(i, 1)[0]);
  }
  return [...out, ...pool];
}

function setSortMode(mode) {
  T.sortMode = mode;
  store.set("canasta.sort", mode);
  const keep = selectedCodes();
  T.handCodes = arrange(T.handCodes);
  T.ownOrder = [...T.handCodes];
  reselect(keep);
  render();
}

/** Select these cards again after the hand's order changed. */
function reselect(codes) {
  T.selected = new Set();
  for (const c of codes) {
    const i = T.handCodes.findIndex((x, j) => x === c && !T.selected.has(j));
    if (i >= 0) T.selected.add(i);
  }
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
  store.set("canasta.sort", "own");
  T.focusIndex = to > from ? to - 1 : to;
  render();
}

/** The cards a drag carries: the selection when the dragged card is part of it, else that card alone. */
function draggedCards() {
  if (T.dragIndex === null || T.dragIndex === undefined) return [];
  if (T.selected.has(T.dragIndex)) return selectedCodes();
  return [T.handCodes[T.dragIndex]];
}

/** Dropped on the pile: a discard in the play phase, taking the pile with these cards in the draw phase. */
function dropOnPile() {
  const cards = draggedCards();
  const L = legal();
  const move = movesMatching(L, "discard", cards)[0] || movesMatching(L, "take", cards)[0];
  if (move) sendMove(move.text);
  else showNotice(whyNotNow(cards.length === 1 && T.state.view.phase === "play" ? `discard ${noteToken(cards[0])}` : `take ${cards.map(noteToken).join(" ")}`), "info", 5000);
}

/** Dropped on one of your side's melds (`m`) or on your side (`m` null: a new meld). */
function dropOnMelds(m) {
  const cards = draggedCards();
  T.selected = new Set(cards.map((c) => T.handCodes.indexOf(c)));
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

function dragging() {
  return T.dragIndex !== null && T.dragIndex !== undefined && myTurn() && !T.pending;
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

function actionButton(text, move, testid, cls = "primary") {
  const b = el("button", { type: "button", class: cls, "data-move": move, "data-testid": testid || null, text });
  b.disabled = !!T.pending;
  b.addEventListener("click", () => sendMove(move));
  return b;
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
  const hintBtn = el("button", { type: "button", class: "secondary", "data-testid": "hint", text: t("table.hint"), title: t("table.hint.title") });
  hintBtn.disabled = !myTurn();
  hintBtn.addEventListener("click", requestHint);
  if (!myTurn()) {
    if (T.state.status === "playing") actions.append(el("span", { class: "help", text: T.pending ? t("table.sending") : t("table.waiting_for", { who: seatLabel(v.to_move) }) }));
    if (T.state.status === "playing") actions.append(hintBtn);
    return;
  }
  const a = computeActions();
  const shown = new Set();
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
    clear.addEventListener("click", () => {
      T.selected = new Set();
      render();
    });
    actions.append(clear);
  }
  actions.append(hintBtn);
  // help text
  let help = "";
  if (T.pending) help = t("table.sending");
  else if (v.phase === "draw") help = sel.length ? (a.take.length ? "" : whyNot(`take ${sel.map(noteToken).join(" ")}`)) : t("table.help.draw");
  else if (v.phase === "play") help = sel.length ? (a.meld.length || a.discard.length ? "" : whyNot(selectionMove(sel))) : t("table.help.play");
  if (help) actions.append(el("span", { class: "help", "data-testid": "why", text: help }));
  if (T.hint) {
    const h = T.hint;
    const box = el("span", { class: "help", "data-testid": "hint-text" }, el("b", { text: t("table.hint.says", { move: moveLabel(h.move, { hand: T.handCodes }) }) }), hintWhy(h) ? ` — ${hintWhy(h)}` : "");
    actions.append(box);
    if (h.move && L.includes(h.move) && !shown.has(h.move)) {
      const play = actionButton(t("table.hint.play", { move: moveLabel(h.move, { hand: T.handCodes }) }), h.move, "hint-play", "secondary");
      actions.append(play);
    }
  }
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

function renderPad(pad) {
  const box = $("score-pad");
  if (!pad.length) {
    box.replaceChildren(el("span", { class: "muted small-text", text: t("table.no_hand_yet") }));
    return;
  }
  const v = T.state.view || {};
  const nSides = padSides(pad[0]).length;
  const head = el("tr", {}, el("th", { text: t("table.pad.hand") }), ...Array.from({ length: nSides }, (_, i) => el("th", { text: sideLabel(v, i) })));
  const rows = pad.map((entry, h) => {
    const hand = padSides(entry);
    const tr = el("tr", { style: "cursor:pointer", title: t("table.pad.show"), "data-hand": String(h + 1) }, el("td", { text: String((entry && entry.hand) || h + 1) }), ...hand.map((s) => el("td", {}, `${s.total >= 0 ? "+" : ""}${formatPoints(s.total)}`, el("br"), el("b", { text: formatPoints(s.cumulative) }))));
    tr.addEventListener("click", () => {
      T.handPanel = { kind: "hand", index: h };
      render();
    });
    return tr;
  });
  box.replaceChildren(el("table", { class: "data" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function breakdownTable(v, sheet) {
  const keys = [];
  for (const s of sheet) for (const k of Object.keys(s.lines || {})) if (!keys.includes(k)) keys.push(k);
  const head = el("tr", {}, el("th", { text: "" }), ...sheet.map((_, i) => el("th", { text: sideLabel(v, i) })));
  const rows = keys
    .filter((k) => sheet.some((s) => (s.lines || {})[k]))
    .map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...sheet.map((s) => {
      const val = (s.lines || {})[k] || 0;
      return el("td", { class: val < 0 ? "neg" : "", text: formatPoints(val) });
    })));
  const notes = el("tr", {}, el("td", { text: "" }), ...sheet.map((s) => el("td", { class: "small-text", text: [s.went_out ? t("table.pad.went_out") : "", s.concealed ? t("table.pad.concealed") : ""].filter(Boolean).join(", ") })));
  const total = el("tr", {}, el("td", { text: t("table.pad.this_hand") }), ...sheet.map((s) => el("td", { text: formatPoints(s.total) })));
  const cum = el("tr", {}, el("td", { text: t("replay.total") }), ...sheet.map((s) => el("td", { text: formatPoints(s.cumulative) })));
  return el("table", { class: "data breakdown" }, el("thead", {}, head), el("tbody", {}, ...rows, notes), el("tfoot", {}, total, cum));
}

/** The final table of a review in the shared panel's terms: one group per side (red threes aside). */
function reviewGroups(v, review) {
  return (review.table.sides || []).map((side, i) => ({
    title: sideLabel(v, i),
    extra: side.red_threes || [],
    melds: (side.melds || []).map((m) => ({ label: meldName(m), cards: m.cards || [] })),
  }));
}

function sheetOf(f, v, hand) {
  const entry = (f.pad || []).find((e, i) => ((e && e.hand) || i + 1) === hand);
  return (entry && padSides(entry)) || v.last_hand || null;
}

function continueReview(hand) {
  T.continued.add(hand);
  send({ type: "continue", hand });
  render();
}

function renderPanel(f, v) {
  const slot = $("panel-slot");
  slot.replaceChildren();
  if (T.linkProblem) {
    slot.append(T.linkProblem);
    return;
  }
  if (f.status === "waiting") {
    slot.append(waitingPanel());
    return;
  }
  const review = f.review;
  const names = (seat) => seatLabel(seat);
  if (f.status === "over" || v.result) {
    slot.append(gameOverPanel(f, v));
    return;
  }
  if (review && reviewWaitsFor(review, T.seat) && !T.continued.has(review.hand)) {
    const sheet = sheetOf(f, v, review.hand);
    slot.append(reviewPanel({
      review, seat: T.seat, names, meldGroups: reviewGroups(v, review),
      breakdown: sheet ? el("div", { class: "table-scroll" }, breakdownTable(v, sheet)) : null,
      onContinue: T.seat === null ? null : () => continueReview(review.hand),
    }));
    return;
  }
  if (review && review.waiting && review.waiting.length && T.seat !== null) $("question").append(reviewWaitingNote(review, names));
  const p = T.handPanel;
  if (!p) return;
  const pad = f.pad || [];
  const sheet = pad[p.index] && padSides(pad[p.index]);
  const panel = el("div", { class: "overlay-panel", "data-testid": "hand-sheet" }, el("h2", { text: t("table.sheet.title", { hand: p.index + 1 }) }));
  if (sheet) panel.append(el("div", { class: "table-scroll" }, breakdownTable(v, sheet)));
  const close = el("button", { type: "button", class: "primary", "data-testid": "hand-sheet-close", text: t("table.sheet.close") });
  close.addEventListener("click", () => {
    T.handPanel = null;
    render();
  });
  panel.append(el("div", { class: "btns" }, close));
  slot.append(panel);
}

function gameOverPanel(f, v) {
  const res = v.result || {};
  const scores = res.scores || sidesOf(v).map((s) => s.score);
  let winner = t("table.over.over");
  if (res.winner === null) winner = t("table.over.draw");
  else if (res.winner !== undefined) {
    const mine = T.seat !== null && sideOfSeat(v, T.seat) === res.winner;
    const size = (sidesOf(v)[res.winner] && sidesOf(v)[res.winner].seats.length) || 2; // "wins" / "win"
    winner = mine ? t("table.over.you_win") : t("table.over.wins", { side: sideLabel(v, res.winner), count: size });
  }
  const review = f.review;
  const sheet = sheetOf(f, v, review ? review.hand : (f.pad || []).length);
  const panel = review
    ? reviewPanel({
      review, seat: T.seat, names: (seat) => seatLabel(seat), meldGroups: reviewGroups(v, review), title: t("table.over.title"),
      breakdown: sheet ? el("div", { class: "table-scroll" }, breakdownTable(v, sheet)) : null, onContinue: null,
    })
    : el("div", { class: "overlay-panel" }, el("h2", { text: t("table.over.title") }), sheet ? el("div", { class: "table-scroll" }, breakdownTable(v, sheet)) : null);
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
  const isHost = T.seat !== null && host === T.seat;
  const list = el(
    "ul",
    { class: "waiting-seats" },
    ...seats.map((s) => {
      const on = s.kind === "bot" || s.joined;
      return el(
        "li",
        { "data-testid": `waiting-seat-${s.seat}` },
        el("span", { class: "dot " + (s.kind === "bot" ? "bot" : on ? "on" : "") }),
        el("b", { text: t("common.seat", { n: s.seat + 1 }) }),
        el("span", { text: s.seat === T.seat ? t("table.seat.you") : s.name || positionName(s.seat) }),
        el("span", { class: "muted small-text", text: s.kind === "bot" ? t("table.seat.computer", { level: t(`level.${s.level || "medium"}`) }) : t(s.joined ? (s.connected ? "table.seat.joined" : "table.seat.joined_away") : "table.seat.waiting_friend") }),
      );
    }),
  );
  const panel = el(
    "div",
    { class: "overlay-panel", "data-testid": "waiting-room" },
    el("h2", { text: t("table.waiting.title") }),
    list,
    el("p", { class: "small-text muted", text: t("table.waiting.links") }),
    el("p", { class: "small-text" }, t("table.waiting.spectators"), " ", el("a", { href: `/t/${encodeURIComponent(T.id)}`, text: `${location.origin}/t/${T.id}` })),
  );
  if (isHost) {
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

function renderTimer() {
  const t = T.state && T.state.timer;
  for (const e of document.querySelectorAll("[data-timer-seat]")) e.textContent = "";
  if (T.timerHandle) {
    clearInterval(T.timerHandle);
    T.timerHandle = null;
  }
  if (!t || t.deadline === undefined || t.deadline === null) return;
  const tick = () => {
    const left = Math.max(0, Math.round(t.deadline - Date.now() / 1000));
    for (const e of document.querySelectorAll(`[data-timer-seat="${t.seat}"]`)) e.textContent = `⏱ ${left}s`;
  };
  tick();
  T.timerHandle = setInterval(tick, 1000);
}

// ------------------------------------------------------------------ log, bubbles, chat, notices

function addLog(text, { version = null, mine = false, sys = false, latest = false } = {}) {
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

function addChat(f) {
  const who = f.name || (f.seat !== null && f.seat !== undefined ? seatLabel(f.seat) : "spectator");
  addChatLine($("chat-log"), f, who); // (the chat box is a live region: screen readers hear it)
}

let noticeTimer = null;
function showNotice(text, kind = "error", ms = kind === "error" ? 12000 : 6000) {
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
      const m = primaryAction();
      if (m) sendMove(m);
    } else if (e.key === "Escape") {
      T.selected = new Set();
      render();
    }
  });
  // Enter anywhere outside a form field: the primary action
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT", "BUTTON", "A", "SUMMARY"].includes(tag)) return;
    if (e.key === "Enter") {
      const m = primaryAction();
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

function start() {
  setUpPage(); // the texts and the language menu
  applyDeckPreference();
  setupInput();
  if (!T.id) {
    setStatus(t("table.status.no_table"));
    return;
  }
  renderTitle();
  connect();
  setInterval(tickReviewTimers, 1000);
  window.canastaTable = T; // for debugging and tests
}

function connect() {
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
  openTable(T, { onFrame, setStatus, since: () => (T.eventSeen >= 0 ? T.eventSeen : null), onClosed });
}

/** The connection ended for good: a bad link, no such table, or the seat opened in another window. */
function onClosed(kind) {
  if (kind === "replaced") {
    T.linkProblem = replacedPanel(() => {
      T.linkProblem = null;
      T.stopped = false;
      openTable(T, { onFrame, setStatus, since: () => (T.eventSeen >= 0 ? T.eventSeen : null), onClosed });
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

start();
