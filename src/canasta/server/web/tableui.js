// Pieces both table pages (Canasta and the rummy family) share: the finished hand's review, the panels for a
// bad link and a seat taken over by another window, the invitee's name prompt, chat without duplicates,
// announcements for screen readers, sounds and card movement.

import { cardEl, cardText, el, forgetSeatToken, uniqueId } from "./common.js";
import { has, lang, t } from "./i18n.js";

const store = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch (e) {
      /* private mode: not remembered */
    }
  },
};

// ------------------------------------------------------------------ the hand's review

/** The seconds left before an online table's review ends by itself (null: it waits). */
export function reviewSecondsLeft(review) {
  if (!review || review.deadline === null || review.deadline === undefined) return null;
  return Math.max(0, Math.ceil(review.deadline - Date.now() / 1000));
}

/** Whether this connection is asked to look at the finished hand (a spectator: while anyone is). */
export function reviewWaitsFor(review, seat) {
  if (!review || !review.waiting || !review.waiting.length) return false;
  return seat === null ? true : review.waiting.includes(seat);
}

function cardRow(cards, testid) {
  return el("div", { class: "review-cards", "data-testid": testid || null }, ...cards.map((c) => cardEl(c, { small: true })));
}

/**
 * The table as the hand ended. `meldGroups`: [{title, melds: [{label, cards}], extra: [cards]}] (one group per
 * side, or one for the whole table); `hands`: each seat's cards left; `names(seat)` a seat's name.
 */
export function finalTableEl({ meldGroups, hands, wentOut, names }) {
  const groups = meldGroups.map((g, i) => el(
    "div",
    { class: "review-side", "data-testid": `review-side-${i}` },
    el("h3", { text: g.title }),
    g.extra && g.extra.length ? cardRow(g.extra) : null,
    g.melds.length
      ? el("div", { class: "review-melds" }, ...g.melds.map((m) => el("div", { class: "review-meld" }, cardRow(m.cards), el("span", { class: "label", text: m.label }))))
      : el("span", { class: "muted small-text", text: t("table.review.no_melds") }),
  ));
  const left = (hands || []).map((cards, seat) => el(
    "li",
    { "data-testid": `review-hand-${seat}`, class: seat === wentOut ? "went-out" : "" },
    el("b", { text: names(seat) }),
    seat === wentOut ? el("span", { class: "badge", text: "✓" }) : null,
    cards.length ? cardRow(cards) : el("span", { class: "muted small-text", text: t("table.review.none_left") }),
  ));
  return el(
    "div",
    { class: "final-table", "data-testid": "final-table" },
    el("div", { class: "review-groups" }, ...groups),
    el("h3", { text: t("table.review.left") }),
    el("ul", { class: "review-hands" }, ...left),
  );
}

/**
 * The review panel: the final table, the breakdown beside it, who went out, Continue (when this seat is
 * asked) and the online table's countdown. `onContinue` sends the `continue` frame.
 */
export function reviewPanel({ review, seat, names, meldGroups, breakdown, onContinue, title }) {
  const out = review.table.went_out;
  const how = out === null || out === undefined ? t("table.review.nobody_out")
    : out === seat ? t("table.review.you_went_out") : t("table.review.went_out", { who: names(out) });
  const panel = el(
    "div",
    { class: "overlay-panel review-panel", "data-testid": "hand-result", role: "dialog", "aria-labelledby": "review-title" },
    el("h2", { id: "review-title", text: title || t("table.review.title", { hand: review.hand }) }),
    el("p", { "data-testid": "went-out", text: how }),
    el(
      "div",
      { class: "review-body" },
      finalTableEl({ meldGroups, hands: review.table.hands, wentOut: out, names }),
      breakdown ? el("div", { class: "review-breakdown" }, el("h3", { text: t("table.review.breakdown") }), breakdown) : null,
    ),
  );
  if (onContinue) {
    const left = reviewSecondsLeft(review);
    const go = el("button", { type: "button", class: "primary", "data-testid": "hand-result-close", text: t("table.review.continue") });
    go.addEventListener("click", () => {
      go.disabled = true;
      onContinue();
    });
    panel.append(el(
      "div",
      { class: "btns" },
      go,
      left !== null ? el("span", { class: "review-timer", "data-testid": "review-timer", "data-deadline": String(review.deadline), text: t("table.review.next_in", { count: left }) }) : null,
    ));
    setTimeout(() => go.isConnected && !panel.contains(document.activeElement) && go.focus(), 0);
  }
  return panel;
}

/** The game's end when people left it to computer players: it is marked, and out of the statistics. */
export function abandonedNote(seats, names) {
  const gone = (seats || []).filter((s) => s.kind === "human" && s.stand_in).map((s) => names(s.seat));
  return gone.length ? el("p", { class: "small-text", "data-testid": "abandoned", text: t("table.abandoned", { names: gone.join(", ") }) }) : null;
}

/** The line shown once this seat has continued and others still look. */
export function reviewWaitingNote(review, names) {
  const who = review.waiting.map(names).join(", ");
  const left = reviewSecondsLeft(review);
  return el(
    "div",
    { class: "question", "data-testid": "review-waiting" },
    t("table.review.waiting", { names: who }),
    left !== null ? el("span", { class: "review-timer", "data-deadline": String(review.deadline), text: ` (${t("table.review.next_in", { count: left })})` }) : null,
  );
}

/** Counts down every shown review timer (call once a second). */
export function tickReviewTimers() {
  for (const e of document.querySelectorAll(".review-timer[data-deadline]")) {
    const count = Math.max(0, Math.ceil(Number(e.dataset.deadline) - Date.now() / 1000));
    const text = t("table.review.next_in", { count });
    e.textContent = e.textContent.startsWith(" (") ? ` (${text})` : text;
  }
}

// ------------------------------------------------------------------ why a move is not possible

/** The engine's reason `move` is not possible at `version` (the page's `T.why` holds the answers, `T.whyAsked`
 * the questions on their way): the text to show, "" when it is possible, a placeholder until the answer. */
export function askWhy(T, version, move, send) {
  const key = `${version}|${move}`;
  const known = T.why[key];
  if (known) return known.legal ? "" : t("table.why.prefix", { reason: reasonText(known.code, known.message) });
  if (!Object.values(T.whyAsked).includes(key)) {
    const id = uniqueId();
    T.whyAsked[id] = key;
    send({ type: "explain", id, move });
  }
  return t("table.why.asking");
}

/** The engine's refusal in the page's language: English pages show the engine's own sentence (it names the
 * position's numbers); another language shows the catalog's sentence for the reason code (reason.CODE, see
 * docs/reason-codes.md), or the engine's English sentence for a code the catalogs do not have. */
export function reasonText(code, message) {
  if (lang !== "en" && code && has(`reason.${code}`)) return t(`reason.${code}`);
  return plainReason(message || code || "");
}

/** The engine's message for players: without the move's notation quoted around it, cards with suits. */
export function plainReason(message) {
  return String(message)
    .replace(/^\x27[^\x27]*\x27:\s*/, "")
    .replace(/\s*\(a sequence names[^)]*\)/g, "")
    .replace(/,?\s*\(?e\.g\. \x27[^\x27]*\x27\)?/g, "")
    .replace(/\x27(meld|take|discard|lay|draw)\b[^\x27]*\x27/g, t("table.why.these_cards"))
    .replace(/\b(10|[2-9TJQKA])([SHDC])\b/g, (card) => cardText(card.replace(/^10/, "T")));
}

/** Keeps an `explain` answer; returns its "version|move" key (null: not a question of this page). */
export function explained(T, f) {
  const key = T.whyAsked[String(f.id)];
  if (!key) return null;
  delete T.whyAsked[String(f.id)];
  T.why[key] = f;
  return key;
}

/** The hint's reason in the page's language: what the move does and the player's own reasons, both as the
 * frame's `why` codes (its English `reason` is for the command line: it names moves in notation). A code
 * this page does not know yet is left out. */
export function hintWhy(h) {
  return (h.why || []).filter((w) => has(`table.why.${w.code}`)).map((w) => t(`table.why.${w.code}`, { count: w.count })).join("; ");
}

// ------------------------------------------------------------------ links and seats

/** A bad invite link (`bad`) or an unknown table (`gone`): what happened, the way home and, for a bad link
 * to a table that exists, the spectator's link. */
export function linkProblemPanel(kind, tableId) {
  if (kind === "bad") forgetSeatToken(tableId); // the watch link below must not bring the bad token back
  const panel = el(
    "div",
    { class: "overlay-panel", "data-testid": "link-problem", role: "alert" },
    el("h2", { text: t(kind === "gone" ? "table.link.gone_title" : "table.link.bad_title") }),
    el("p", { text: t(kind === "gone" ? "table.link.gone_text" : "table.link.bad_text") }),
  );
  const btns = el("div", { class: "btns" });
  if (kind !== "gone") btns.append(el("a", { class: "button", "data-testid": "watch-link", href: `/t/${encodeURIComponent(tableId)}`, text: t("table.link.watch") }));
  btns.append(el("a", { class: "button primary", "data-testid": "home-link", href: "/", text: t("table.link.home") }));
  panel.append(btns);
  return panel;
}

/** Another window took this seat over. */
export function replacedPanel(onBack) {
  const back = el("button", { type: "button", class: "primary", "data-testid": "take-back", text: t("table.replaced.back") });
  back.addEventListener("click", onBack);
  return el(
    "div",
    { class: "overlay-panel", "data-testid": "replaced", role: "alert" },
    el("h2", { text: t("table.replaced.title") }),
    el("p", { text: t("table.replaced.text") }),
    el("div", { class: "btns" }, back),
  );
}

/** Ask an invitee's name once (remembered by the caller); `done(name)` runs when it is given. */
export function namePrompt(initial, done) {
  const input = el("input", { id: "seat-name", "data-testid": "seat-name", maxlength: "24", required: true, autocomplete: "nickname", value: initial || "" });
  const form = el(
    "form",
    { class: "overlay-panel name-prompt", "data-testid": "name-prompt", "aria-labelledby": "name-title" },
    el("h2", { id: "name-title", text: t("table.name.title") }),
    el("p", { text: t("table.name.text") }),
    el("label", { for: "seat-name", text: t("table.name.label") }),
    " ",
    input,
    el("div", { class: "btns" }, el("button", { type: "submit", class: "primary", "data-testid": "seat-name-ok", text: t("table.name.ok") })),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim().slice(0, 24);
    if (!name) return;
    form.remove();
    done(name);
  });
  setTimeout(() => input.focus(), 0);
  return form;
}

// ------------------------------------------------------------------ chat, announcements

/** Adds a chat line unless the same line (seat, time, text) is shown already: the server sends the last
 * messages again on every connection. */
export function addChatLine(box, f, who) {
  const key = `${f.seat}|${f.time}|${f.text}`;
  box.chatSeen = box.chatSeen || new Set();
  if (box.chatSeen.has(key)) return false;
  box.chatSeen.add(key);
  const time = f.time ? new Date(f.time * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
  box.append(el("div", { class: "chat-line" }, el("span", { class: "muted-light small-text", text: time ? `${time} ` : "" }), el("span", { class: "who", text: `${who}:` }), " ", String(f.text || "")));
  box.scrollTop = box.scrollHeight;
  return true;
}

/** Says `text` to a screen reader (a polite live region). */
export function announce(text) {
  let region = document.getElementById("announcer");
  if (!region) {
    region = el("div", { id: "announcer", class: "sr-only", "aria-live": "polite", "aria-atomic": "true", "data-testid": "announcer" });
    document.body.append(region);
  }
  region.textContent = text;
}

// ------------------------------------------------------------------ sound and motion

const SOUND_KEY = "canasta.sound";

export function soundOn() {
  return store.get(SOUND_KEY) === "1";
}

/** Whether the system asks for less motion (the style sheet sets --reduced-motion under that media query). */
export function reducedMotion() {
  return getComputedStyle(document.documentElement).getPropertyValue("--reduced-motion").trim() === "1";
}

let audio = null;
const TONES = { card: [520, 0.05], meld: [660, 0.12], turn: [880, 0.15], end: [392, 0.4] };

/** A short synthesised sound (no files), only when the player turned sounds on. */
export function playSound(kind) {
  if (!soundOn() || !TONES[kind]) return;
  try {
    audio = audio || new AudioContext();
    const [freq, length] = TONES[kind];
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + length);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + length);
  } catch (e) {
    /* no audio here */
  }
}

/** The header's sound switch (aria-pressed; remembered). */
export function setupSoundToggle(button) {
  const sync = () => button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  button.textContent = t("table.sound");
  button.title = t("table.sound.title");
  button.addEventListener("click", () => {
    store.set(SOUND_KEY, soundOn() ? null : "1");
    sync();
    playSound("card");
  });
  sync();
}

// Drop zones, for the mouse's drag and drop and for touch: node -> { accepts, onDrop, cls }.
const zones = new WeakMap(); // (hand cards are drawn anew often: a zone goes with its node)

/** An element cards can be dropped on: `accepts()` says whether the card being dragged may land here. */
export function dropZone(node, accepts, onDrop, cls = "drop-target") {
  zones.set(node, { accepts, onDrop, cls });
  node.addEventListener("dragover", (e) => {
    if (!accepts()) return;
    e.preventDefault();
    node.classList.add(cls);
  });
  node.addEventListener("dragleave", () => node.classList.remove(cls));
  node.addEventListener("drop", (e) => {
    node.classList.remove(cls);
    if (!accepts()) return;
    e.preventDefault();
    e.stopPropagation(); // a meld inside the melds' area takes the card, not the area too
    onDrop();
  });
}

/** The innermost drop zone under the point that takes the card being dragged (as the mouse's drop goes to
 * the innermost zone), or null. */
function zoneAt(x, y) {
  for (let node = document.elementFromPoint(x, y); node; node = node.parentElement) {
    const zone = zones.get(node);
    if (zone && node.isConnected && zone.accepts()) return [node, zone];
  }
  return null;
}

const HOLD_MS = 250; // touch: hold a card this long, then drag it (a swipe before that scrolls the page)
const SLOP_PX = 10; // a finger moving farther before the hold is over is scrolling, not dragging
let touchDragging = false;
// While a card is dragged by touch the page must not scroll: touchmove is cancelled (it cannot be in a
// passive listener, and pointer events alone cannot stop a pan that touch-action allows).
document.addEventListener("touchmove", (e) => {
  if (touchDragging) e.preventDefault();
}, { passive: false });

/** Drag and drop by touch (or pen) for a hand card, with the same drop zones as the mouse: hold the card,
 * then move it; a tap stays a tap (it selects). `start()` and `end()` are the page's dragstart/dragend. */
export function touchDrag(card, code, start, end) {
  card.addEventListener("pointerdown", (down) => {
    if (down.pointerType === "mouse" || !down.isPrimary) return;
    let ghost = null;
    let over = null; // [node, zone] highlighted
    const timer = setTimeout(() => {
      touchDragging = true;
      start();
      card.classList.add("dragging");
      ghost = cardEl(code, { attrs: { "aria-hidden": "true" } });
      ghost.classList.add("flying", "touch-ghost");
      document.body.append(ghost);
      place(down.clientX, down.clientY);
    }, HOLD_MS);
    const place = (x, y) => {
      ghost.style.left = `${x - ghost.offsetWidth / 2}px`;
      ghost.style.top = `${y - ghost.offsetHeight * 0.8}px`; // above the finger, so the card stays visible
      const found = zoneAt(x, y);
      if (over && (!found || found[0] !== over[0])) over[0].classList.remove(over[1].cls);
      over = found;
      if (over) over[0].classList.add(over[1].cls);
    };
    const move = (e) => {
      if (e.pointerId !== down.pointerId) return;
      if (ghost) place(e.clientX, e.clientY);
      else if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) > SLOP_PX) finish(null);
    };
    const up = (e) => {
      if (e.pointerId === down.pointerId) finish(e.type === "pointerup" ? e : null);
    };
    const finish = (e) => {
      clearTimeout(timer);
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!ghost) return; // a tap (its click selects the card) or a scroll
      ghost.remove();
      if (over) over[0].classList.remove(over[1].cls);
      touchDragging = false;
      card.classList.remove("dragging");
      const target = e ? zoneAt(e.clientX, e.clientY) : null;
      if (target) target[1].onDrop();
      end();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  });
  card.addEventListener("contextmenu", (e) => {
    if (touchDragging) e.preventDefault(); // a long press opens no menu while a card is held
  });
}

/** A card flying from one element to another (a draw, a discard, a meld), unless motion is reduced. */
export function flyCard(from, to, code) {
  if (reducedMotion() || !from || !to || !from.isConnected || !to.isConnected) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const ghost = code ? cardEl(code, { attrs: { "aria-hidden": "true" } }) : el("div", { class: "card back", "aria-hidden": "true" });
  ghost.classList.add("flying");
  document.body.append(ghost);
  ghost.style.left = `${a.left}px`;
  ghost.style.top = `${a.top}px`;
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const run = ghost.animate([{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px)` }], { duration: 380, easing: "ease-out" });
  run.onfinish = () => ghost.remove();
  run.oncancel = () => ghost.remove();
}

export { store };
