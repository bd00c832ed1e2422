// Shared helpers of the Canasta browser client: identity, the JSON API, cards and labels.
// Plain ES module; nothing is fetched from outside this server. Texts come from the catalogs (docs/i18n.md).

import { format, has, t } from "./i18n.js";

export const STORAGE = {
  player: "canasta.player",
  name: "canasta.name",
  fourColour: "canasta.fourColour",
};

function store(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (e) {
    /* private mode: keep going without storage */
  }
  return value;
}

/** This browser's long random player id, made once with crypto.getRandomValues. */
export function playerId() {
  let id = store(STORAGE.player);
  if (!id || !/^[0-9a-f]{32,}$/.test(id)) {
    const bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store(STORAGE.player, id);
  }
  return id;
}

export function displayName() {
  return (store(STORAGE.name) || "").slice(0, 24);
}

export function setDisplayName(name) {
  const n = (name || "").trim().slice(0, 24);
  store(STORAGE.name, n || null);
  return n;
}

export function fourColour() {
  return store(STORAGE.fourColour) === "1";
}

export function setFourColour(on) {
  store(STORAGE.fourColour, on ? "1" : null);
  applyDeckPreference();
}

export function applyDeckPreference() {
  document.body.classList.toggle("four-colour", fourColour());
}

/** A unique id for a frame (move, hint). */
export function uniqueId() {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  return Date.now().toString(36) + "-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

/** fetch a JSON API path; throws ApiError with the server's {error, message}. */
export async function api(path, { method = "GET", body } = {}) {
  const opts = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "NETWORK", t("common.error.network"));
  }
  let data = null;
  const text = await res.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const code = data && data.error;
    let message = data && (data.message || data.detail);
    if (typeof message !== "string") message = message ? JSON.stringify(message) : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, code, message);
  }
  return data;
}

// ---------------------------------------------------------------- cards

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_ORDER = "23456789TJQKA";

export function isJoker(code) {
  return code === "JK";
}

export function rankOf(code) {
  return isJoker(code) ? "JK" : code.slice(0, -1);
}

export function suitOf(code) {
  return isJoker(code) ? "" : code.slice(-1);
}

/** "T" -> "10", "JK" -> "Joker" (in the page's language), other ranks unchanged. */
export function rankLabel(rank) {
  if (rank === "T") return "10";
  if (rank === "JK") return t("card.joker_short");
  return rank;
}

/** A card code or a rank token as short text: "5H" -> "5♥", "T" -> "10", "JK" -> "Joker". */
export function cardText(code) {
  if (!code) return "";
  if (isJoker(code)) return t("card.joker_short");
  const s = code.slice(-1);
  if (SUITS[s] && code.length >= 2) return rankLabel(code.slice(0, -1)) + SUITS[s];
  return rankLabel(code);
}

export function isRed(code) {
  const s = suitOf(code);
  return s === "H" || s === "D";
}

export function isWild(code) {
  return isJoker(code) || rankOf(code) === "2";
}

/** Sort key of a card in the hand: naturals 3..A (red threes with the threes), then twos, then jokers. */
export function cardSortKey(code) {
  const r = rankOf(code);
  const s = "SHDC".indexOf(suitOf(code));
  if (r === "JK") return 300;
  if (r === "2") return 200 + s;
  return RANK_ORDER.indexOf(r) * 10 + s;
}

export function sortCards(codes) {
  return [...codes].sort((a, b) => cardSortKey(a) - cardSortKey(b));
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "style") e.style.cssText = v; // a style attribute would break the Content-Security-Policy
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** A face-up card element. `code` is canonical ("KH", "TD", "JK"). */
export function cardEl(code, { tag = "div", small = false, attrs = {} } = {}) {
  const suit = suitOf(code);
  const classes = ["card", small ? "small" : "", isJoker(code) ? "joker" : `suit-${suit}`, isWild(code) ? "wild" : ""];
  const label = isJoker(code) ? t("card.joker_short") : t("card.name", { rank: t(`card.rank.${rankOf(code)}`), suit: t(`card.suit.${suit}`) });
  const e = el(tag, { class: classes.filter(Boolean).join(" "), "aria-label": label, title: label, ...attrs });
  e.dataset.card = code;
  if (isJoker(code)) {
    e.append(el("span", { class: "corner", text: "JK" }), el("span", { class: "pip", text: "★" }));
  } else {
    const r = rankLabel(rankOf(code));
    e.append(
      el("span", { class: "corner" }, el("span", { class: "rank", text: r }), el("span", { class: "s", text: SUITS[suit] })),
      el("span", { class: "pip", text: SUITS[suit] }),
    );
  }
  return e;
}

/** A face-down card (a back), optionally with a count. */
export function backEl({ small = true, count = null } = {}) {
  const e = el("div", { class: "card back" + (small ? " small" : "") });
  if (count !== null) e.append(el("span", { class: "count", text: String(count) }));
  return e;
}

// ---------------------------------------------------------------- labels

// The score sheet's lines (the server's keys) have catalog entries line.KEY; a line the catalogs do not know
// yet shows its key as words.
export function lineLabel(key) {
  if (has(`line.${key}`)) return t(`line.${key}`);
  const s = String(key).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export const LEVELS = ["easy", "medium", "hard", "expert"];

export function formatPoints(n) {
  return n === null || n === undefined ? format(n) : format(Number(n));
}

/** Copy text to the clipboard; falls back to selecting a text field. */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    if (fallbackInput) {
      fallbackInput.focus();
      fallbackInput.select();
      try {
        return document.execCommand("copy");
      } catch (e2) {
        return false;
      }
    }
    return false;
  }
}

/** The table id from a path such as /t/ID or /replay/ID (or ?table=ID). */
export function tableIdFromPath() {
  const q = new URLSearchParams(location.search).get("table");
  if (q) return q;
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[parts.length - 1]) : null;
}

// ------------------------------------------------------------------ a table's connection

/** This tab's seat token for table `id`. An invite link (`/t/ID?token=T`) is read once: the token moves
 *  to sessionStorage and the address loses it (the history entry is replaced), so it never stays in the
 *  history, a bookmark or a shared screen. A reload finds it in sessionStorage. */
export function seatToken(id) {
  const key = `canasta.token.${id}`;
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get("token");
  if (fromUrl) {
    try { sessionStorage.setItem(key, fromUrl); } catch { /* storage off: the token lives in this page only */ }
    params.delete("token");
    const rest = params.toString();
    history.replaceState(history.state, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
    return fromUrl;
  }
  try { return sessionStorage.getItem(key); } catch { return null; }
}

/** Forget this tab's token for table `id` (it opens no seat: the table's link then watches). */
export function forgetSeatToken(id) {
  try { sessionStorage.removeItem(`canasta.token.${id}`); } catch { /* storage off */ }
}

// One table's websocket, shared by the Canasta and rummy pages. `T` is the page's table state (id,
// token, player, optional name, pending move); it gains ws, connected, retry,
// everConnected and stopped. A reconnection names the last version the page has shown (`since()`), so the
// server sends the events missed before the new state; a move sent but not acknowledged is marked unsent so
// the page sends it again (same id) once back. `onClosed(kind)` hears of the ends that stop reconnecting:
// "bad" (the token opens no seat), "gone" (no such table), "expired" (nobody took a seat in time),
// "replaced" (the seat opened elsewhere) and "closed" (any other refusal: another site's page).
export const CLOSE_KINDS = { 4401: "bad", 4404: "gone", 4409: "replaced", 4410: "expired" };
// 1012 (with a `reconnect` frame before it): the server is stopping; reconnect without waiting longer.
const RECONNECT = 1012;
// The ends a page without onClosed tells in a sentence (common.closed.KIND; any other: common.closed.other).
const CLOSED_TEXTS = ["gone", "bad", "expired"];

export function openTable(T, { onFrame, onOpen = () => {}, setStatus, since = () => null, onClosed = null }) {
  const setConn = (text, cls) => {
    const c = document.getElementById("conn");
    c.textContent = text;
    c.className = "conn " + cls;
    document.body.dataset.connected = cls === "ok" ? "true" : "false";
  };
  const url = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    if (T.token) q.set("token", T.token);
    q.set("player", T.player);
    if (T.name) q.set("name", T.name);
    const seen = since();
    if (seen !== null && seen >= 0) q.set("since", String(seen));
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(T.id)}?${q}`;
  };
  const scheduleReconnect = () => {
    if (T.stopped) return;
    const delay = Math.min(10000, 500 * 2 ** T.retry) * (0.8 + Math.random() * 0.4);
    T.retry = Math.min(T.retry + 1, 6);
    setTimeout(connect, delay);
  };
  function connect() {
    if (T.stopped) return;
    setConn(t("common.conn.connecting"), "");
    let ws;
    try {
      ws = new WebSocket(url());
    } catch (e) {
      scheduleReconnect();
      return;
    }
    T.ws = ws;
    ws.addEventListener("open", () => {
      T.connected = true;
      T.retry = 0;
      setConn(t("common.conn.online"), "ok");
      T.everConnected = true;
      onOpen();
    });
    ws.addEventListener("message", (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      try {
        onFrame(frame);
      } catch (e) {
        console.error("table:", e); // one bad frame must not stop the table
      }
    });
    ws.addEventListener("close", (ev) => {
      T.connected = false;
      if (T.ws === ws) T.ws = null;
      if (ev.code >= 4400 && ev.code < 4500) { // refused for good (docs/protocol.md): no reconnecting
        T.stopped = true;
        setConn(t("common.conn.closed"), "bad");
        const kind = CLOSE_KINDS[ev.code] || "closed";
        if (onClosed) onClosed(kind);
        else setStatus(t(`common.closed.${CLOSED_TEXTS.includes(kind) ? kind : "other"}`));
        return;
      }
      if (T.pending && !T.pending.acked) T.pending.sent = false;
      if (ev.code === RECONNECT) T.retry = 0; // a stopping server sent us away: back at once (at another process)
      setConn(t("common.conn.reconnecting"), "bad");
      scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }
  T.retry = 0;
  connect();
}

// Sends one frame on the table's socket; false when it is not open (the caller keeps the frame).
export function sendFrame(T, frame) {
  if (!T.ws || T.ws.readyState !== WebSocket.OPEN) return false;
  T.ws.send(JSON.stringify(frame));
  return true;
}
