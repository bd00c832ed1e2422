// The replay page: a finished game, every hand face up, step by step (GET /api/tables/ID/replay/N).
import { api, applyDeckPreference, backEl, cardEl, el, formatPoints, fourColour, isWild, lineLabel, setFourColour, sortCards, tableIdFromPath } from "./common.js";
import { describeMove, targetText, tokenText } from "./moves.js";
import { renderRummy } from "./replay_rummy.js";
import { rummyMoveText } from "./rummy_words.js";

const $ = (id) => document.getElementById(id);
const R = { id: tableIdFromPath(), n: 0, total: null, cache: new Map(), loading: null };

function seatName(seat, players) {
  return `Seat ${seat + 1}`;
}

/** Normalize a replay `state` (the full position dict, or a view) to one shape. */
function normalize(s) {
  if (!s) return null;
  const players = s.players || (s.hands ? s.hands.length : (s.hand_sizes || []).length);
  const teams = (s.melds && s.melds.length) || (s.sides && s.sides.length) || 2;
  const seatSides = s.seat_sides || Array.from({ length: players }, (_, i) => i % teams);
  let melds;
  if (s.sides) melds = s.sides.map((side) => (side.melds || []).map((m) => ({ key: m.key || m.rank, cards: m.cards })));
  else melds = (s.melds || []).map((obj) => Object.entries(obj || {}).map(([key, cards]) => ({ key, cards })));
  const hands = s.hands || Array.from({ length: players }, (_, i) => (i === s.seat ? s.hand : null));
  const redThrees = s.red_threes || (s.sides || []).map((x) => x.red_threes || []);
  const scores = s.scores || (s.sides || []).map((x) => x.score);
  const opened = s.opened || (s.sides || []).map((x) => x.opened);
  return {
    players, teams, seatSides, melds, hands, redThrees, scores, opened,
    feet: s.feet || null,
    pile: s.pile || [],
    pileHidden: s.pile_hidden || 0,
    pileFrozen: !!s.pile_frozen,
    stockSize: Array.isArray(s.stock) ? s.stock.length : s.stock_size,
    phase: s.phase, toMove: s.to_move, turnSeat: s.turn_seat, dealer: s.dealer,
    hand: s.hand_number, result: s.result, lastHand: s.last_hand, stage: s.stage,
  };
}

function meldKind(key, cards) {
  if (String(key).startsWith("seq")) return "sequence";
  if (cards.length < 7) return null;
  if (key === "JK" || cards.every(isWild)) return "wild";
  return cards.some(isWild) ? "mixed" : "natural";
}

function meldLabel(key, n) {
  const base = String(key);
  if (base.startsWith("seq") || base.includes("/") || base === "JK") return `${targetText(base)} ×${n}`;
  return `${tokenText(base)}s ×${n}`;
}

function render(step) {
  const s = normalize(step.state);
  $("counter").textContent = `move ${step.move} of ${step.moves}`;
  $("slider").max = String(step.moves);
  $("slider").value = String(step.move);
  document.body.dataset.move = String(step.move);
  const entry = step.entry ? String(step.entry) : "";
  const m = /^(\d+)\s+(.*)$/.exec(entry);
  // the move in words, a discard's card with its suit (the top of the pile after it)
  const rummy = step.state && step.state.family === "rummy";
  const after = (step.state && step.state.pile) || [];
  const sameHand = ((step.state && step.state.history) || []).slice(-1)[0] === entry; // (not a new hand's pile)
  const top = m && m[2].startsWith("discard") && sameHand && after.length ? after[after.length - 1] : null;
  $("entry").textContent = step.move === 0 ? "The deal" : m ? `${seatName(Number(m[1]))} ${rummy ? rummyMoveText(m[2]) : describeMove(m[2], top)}` : entry;
  const board = $("board");
  board.replaceChildren();
  if (step.state && step.state.family === "rummy") {
    renderRummy(step.state, board);
    return;
  }
  if (!s) return;
  const info = [
    s.hand ? `Hand ${s.hand}` : null,
    s.dealer !== undefined ? `dealer ${seatName(s.dealer)}` : null,
    s.phase ? `phase: ${s.phase}` : null,
    s.toMove !== undefined && s.phase !== "over" ? `to move: ${seatName(s.toMove)}` : null,
  ].filter(Boolean).join(" · ");
  board.append(el("div", { class: "turn-info", style: "margin-bottom:.4rem" }, info));
  // hands, face up
  for (let seat = 0; seat < s.players; seat++) {
    const cards = s.hands[seat];
    const row = el("div", { class: "seat-hand" + (seat === s.toMove && s.phase !== "over" ? " to-move" : ""), "data-testid": `seat-${seat}` },
      el("span", { class: "who", text: `${seatName(seat)} (side ${s.seatSides[seat] + 1})` }));
    const wrap = el("div", { class: "cards" });
    if (cards) for (const c of sortCards(cards)) wrap.append(cardEl(c, { small: true }));
    else wrap.append(el("span", { class: "muted-light", text: "hidden" }));
    row.append(wrap, el("span", { class: "small-text", text: cards ? `${cards.length} cards` : "" }));
    if (s.feet && s.feet[seat] && s.feet[seat].length) {
      row.append(el("span", { class: "small-text", text: "foot:" }), el("div", { class: "cards" }, ...sortCards(s.feet[seat]).map((c) => cardEl(c, { small: true }))));
    }
    board.append(row);
  }
  // sides
  const sides = el("div", { class: "sides", style: "margin-top:.6rem" });
  for (let i = 0; i < s.teams; i++) {
    const seats = s.seatSides.map((x, seat) => (x === i ? seatName(seat) : null)).filter(Boolean).join(" & ");
    const head = el("div", { class: "side-head" },
      el("span", { class: "side-name", text: `Side ${i + 1}: ${seats}` }),
      el("span", { class: "score", text: formatPoints((s.scores || [])[i]) }),
      el("span", { class: "need", text: (s.opened || [])[i] ? "opened" : "not opened" }),
      (s.redThrees[i] || []).length ? el("span", { class: "red-threes" }, ...s.redThrees[i].map((c) => cardEl(c, { small: true }))) : null);
    const melds = el("div", { class: "melds" });
    if (!(s.melds[i] || []).length) melds.append(el("span", { class: "none", text: "no melds" }));
    for (const mm of s.melds[i] || []) {
      const kind = meldKind(mm.key, mm.cards);
      melds.append(el("div", { class: `meld${mm.cards.length >= 7 ? " canasta" : ""}${kind ? ` k-${kind}` : ""}`, "data-meld": mm.key },
        el("div", { class: "stack" }, ...mm.cards.map((c) => cardEl(c, { small: true }))),
        el("span", { class: "label", text: (kind && mm.cards.length >= 7 ? `${kind} canasta · ` : "") + meldLabel(mm.key, mm.cards.length) })));
    }
    sides.append(el("div", { class: "side" }, head, melds));
  }
  board.append(sides);
  // pile and stock
  const pile = s.pile.filter((c) => c);
  board.append(el("div", { class: "piles", style: "justify-content:flex-start" },
    el("div", { class: "pile-box", "data-testid": "stock" }, el("div", { class: "what", text: "Stock" }), backEl({ small: false, count: s.stockSize ?? "?" })),
    el("div", { class: "pile-box", "data-testid": "pile" }, el("div", { class: "what", text: `Discard pile (${s.pile.length})${s.pileFrozen ? " · ❄ frozen" : ""}` }),
      el("div", { style: "display:flex;flex-wrap:wrap;gap:2px" }, s.pileHidden ? el("span", { text: `${s.pileHidden} face down ` }) : null, ...pile.map((c) => cardEl(c, { small: true }))))));
  if (s.result) {
    const res = s.result;
    board.append(el("div", { class: "overlay-panel", style: "margin-top:.6rem" }, el("h2", { text: "Game over" }),
      el("p", { text: res.winner === null ? "A draw." : `Side ${res.winner + 1} wins.` }),
      el("p", { text: `Final scores: ${(res.scores || []).map((x, i) => `side ${i + 1} ${formatPoints(x)}`).join(" · ")}` })));
  }
  if (s.lastHand) {
    const keys = [];
    for (const side of s.lastHand) for (const k of Object.keys(side.lines || {})) if (!keys.includes(k)) keys.push(k);
    board.append(el("details", { style: "margin-top:.5rem" }, el("summary", { text: "Previous hand's score" }),
      el("table", { class: "data", style: "color:#fff" },
        el("thead", {}, el("tr", {}, el("th", { text: "" }), ...s.lastHand.map((_, i) => el("th", { text: `Side ${i + 1}` })))),
        el("tbody", {}, ...keys.map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...s.lastHand.map((x) => el("td", { text: formatPoints((x.lines || {})[k] || 0) }))))),
        el("tfoot", {}, el("tr", {}, el("td", { text: "Total" }), ...s.lastHand.map((x) => el("td", { text: formatPoints(x.cumulative) })))))));
  }
}

async function fetchStep(n) {
  if (R.cache.has(n)) return R.cache.get(n);
  const p = api(`/api/tables/${encodeURIComponent(R.id)}/replay/${n}`);
  R.cache.set(n, p);
  try {
    return await p;
  } catch (e) {
    R.cache.delete(n);
    throw e;
  }
}

async function go(n) {
  if (R.total !== null) n = Math.max(0, Math.min(R.total, n));
  else n = Math.max(0, n);
  R.n = n;
  const want = n;
  try {
    const step = await fetchStep(n);
    if (R.n !== want) return;
    R.total = step.moves;
    $("error").classList.add("hidden");
    render(step);
    history.replaceState(null, "", `#${n}`);
    if (n + 1 <= R.total) fetchStep(n + 1).catch(() => {});
  } catch (e) {
    const box = $("error");
    box.textContent = e.code === "GAME_NOT_OVER" ? "This game is not over yet: it can be replayed once it has ended." : `The replay could not be loaded: ${e.message}`;
    box.classList.remove("hidden");
  }
}

function start() {
  applyDeckPreference();
  if (!R.id) {
    $("error").textContent = "No table given.";
    $("error").classList.remove("hidden");
    return;
  }
  $("title").textContent = `Replay of table ${R.id}`;
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(R.n - 1));
  $("next").addEventListener("click", () => go(R.n + 1));
  $("last").addEventListener("click", () => go(R.total ?? 0));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") { e.preventDefault(); go(R.n + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); go(R.n - 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(R.total ?? 0); }
  });
  const deck = $("deck-toggle");
  deck.setAttribute("aria-pressed", String(fourColour()));
  deck.addEventListener("click", () => { setFourColour(!fourColour()); deck.setAttribute("aria-pressed", String(fourColour())); });
  const hash = Number(location.hash.slice(1));
  go(Number.isFinite(hash) && hash > 0 ? hash : 0);
}

start();
