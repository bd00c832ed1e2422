// The replay page: a finished game, every hand face up, step by step (GET /api/tables/ID/replay/N).
import { api, applyDeckPreference, backEl, cardEl, el, fourColour, isWild, lineLabel, setFourColour, sortCards, tableIdFromPath } from "./common.js";
import { assignCards, describeMove, parseMove, targetText, tokenText } from "./moves.js";
import { renderRummy } from "./replay_rummy.js";
import { rummyMoveText } from "./rummy_words.js";
import { format, has, setUpPage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const R = { id: tableIdFromPath(), n: 0, total: null, cache: new Map(), loading: null };

function seatName(seat) {
  return t("common.seat", { n: seat + 1 });
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
  return t("replay.meld_of", { rank: tokenText(base), n });
}

function phaseText(phase) {
  const key = `phase.${phase}`;
  return has(key) ? t(key) : phase;
}

/** The cards that left `before`'s hand of `seat` by `after` (each card as often as it left). */
function cardsLeaving(before, after, seat) {
  const rest = [...((after && after.hands && after.hands[seat]) || [])];
  return ((before && before.hands && before.hands[seat]) || []).filter((c) => {
    const i = rest.indexOf(c);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
}

function render(step, prev) {
  const s = normalize(step.state);
  $("counter").textContent = t("replay.counter", { move: step.move, moves: step.moves });
  $("slider").max = String(step.moves);
  $("slider").value = String(step.move);
  document.body.dataset.move = String(step.move);
  const entry = step.entry ? String(step.entry) : "";
  const m = /^(\d+)\s+(.*)$/.exec(entry);
  // the move in words, a discard's card with its suit (the top of the pile after it); no notation
  const rummy = step.state && step.state.family === "rummy";
  const after = (step.state && step.state.pile) || [];
  const sameHand = ((step.state && step.state.history) || []).slice(-1)[0] === entry; // (not a new hand's pile)
  const top = m && m[2].startsWith("discard") && sameHand && after.length ? after[after.length - 1] : null;
  // a meld's or a take's cards with their suits: those that left the mover's hand (both positions face up);
  // else (a move that ended the hand, followed by the next deal; a take that brought cards like those used
  // back from the pile) cards of those ranks from the hand the mover held
  const held = m && prev && prev.state && prev.state.hands ? prev.state.hands[Number(m[1])] || null : null;
  const left = m && sameHand && held ? cardsLeaving(prev.state, step.state, Number(m[1])) : null;
  const gone = left && assignCards(parseMove(m[2]).cards, left, { exact: false }) ? left : held;
  const move = m && (rummy ? rummyMoveText(m[2]) : describeMove(m[2], top, gone));
  $("entry").textContent = step.move === 0 ? t("replay.the_deal") : m ? t("replay.entry", { seat: seatName(Number(m[1])), move }) : entry;
  const board = $("board");
  board.replaceChildren();
  if (step.state && step.state.family === "rummy") {
    renderRummy(step.state, board);
    return;
  }
  if (!s) return;
  const info = [
    s.hand ? t("replay.hand", { n: s.hand }) : null,
    s.dealer !== undefined ? t("replay.dealer", { seat: seatName(s.dealer) }) : null,
    s.phase ? t("replay.phase", { phase: phaseText(s.phase) }) : null,
    s.toMove !== undefined && s.phase !== "over" ? t("replay.to_move", { seat: seatName(s.toMove) }) : null,
  ].filter(Boolean).join(" · ");
  board.append(el("div", { class: "turn-info" }, info));
  // hands, face up
  for (let seat = 0; seat < s.players; seat++) {
    const cards = s.hands[seat];
    const row = el("div", { class: "seat-hand" + (seat === s.toMove && s.phase !== "over" ? " to-move" : ""), "data-testid": `seat-${seat}` },
      el("span", { class: "who", text: t("replay.seat_side", { seat: seatName(seat), side: s.seatSides[seat] + 1 }) }));
    const wrap = el("div", { class: "cards" });
    if (cards) for (const c of sortCards(cards)) wrap.append(cardEl(c, { small: true }));
    else wrap.append(el("span", { class: "muted-light", text: t("replay.hidden") }));
    row.append(wrap, el("span", { class: "small-text", text: cards ? t("common.cards", { count: cards.length }) : "" }));
    if (s.feet && s.feet[seat] && s.feet[seat].length) {
      row.append(el("span", { class: "small-text", text: t("replay.foot") }), el("div", { class: "cards" }, ...sortCards(s.feet[seat]).map((c) => cardEl(c, { small: true }))));
    }
    board.append(row);
  }
  // sides
  const sides = el("div", { class: "sides" });
  for (let i = 0; i < s.teams; i++) {
    const seats = s.seatSides.map((x, seat) => (x === i ? seatName(seat) : null)).filter(Boolean).join(t("common.and"));
    const head = el("div", { class: "side-head" },
      el("span", { class: "side-name", text: t("replay.side_seats", { n: i + 1, seats }) }),
      el("span", { class: "score", text: format((s.scores || [])[i]) }),
      el("span", { class: "need", text: t((s.opened || [])[i] ? "replay.opened" : "replay.not_opened") }),
      (s.redThrees[i] || []).length ? el("span", { class: "red-threes" }, ...s.redThrees[i].map((c) => cardEl(c, { small: true }))) : null);
    const melds = el("div", { class: "melds" });
    if (!(s.melds[i] || []).length) melds.append(el("span", { class: "none", text: t("replay.no_melds") }));
    for (const mm of s.melds[i] || []) {
      const kind = meldKind(mm.key, mm.cards);
      melds.append(el("div", { class: `meld${mm.cards.length >= 7 ? " canasta" : ""}${kind ? ` k-${kind}` : ""}`, "data-meld": mm.key },
        el("div", { class: "stack" }, ...mm.cards.map((c) => cardEl(c, { small: true }))),
        el("span", { class: "label", text: (kind && mm.cards.length >= 7 ? `${t(`replay.canasta_${kind}`)} · ` : "") + meldLabel(mm.key, mm.cards.length) })));
    }
    sides.append(el("div", { class: "side" }, head, melds));
  }
  board.append(sides);
  // pile and stock
  const pile = s.pile.filter((c) => c);
  board.append(el("div", { class: "piles replay-piles" },
    el("div", { class: "pile-box", "data-testid": "stock" }, el("div", { class: "what", text: t("replay.stock") }), backEl({ small: false, count: s.stockSize ?? "?" })),
    el("div", { class: "pile-box", "data-testid": "pile" }, el("div", { class: "what", text: t("replay.pile", { count: s.pile.length }) + (s.pileFrozen ? ` · ❄ ${t("replay.frozen")}` : "") }),
      el("div", { class: "replay-pile" }, s.pileHidden ? el("span", { text: `${t("replay.face_down", { count: s.pileHidden })} ` }) : null, ...pile.map((c) => cardEl(c, { small: true }))))));
  if (s.result) {
    const res = s.result;
    board.append(el("div", { class: "overlay-panel replay-result" }, el("h2", { text: t("replay.game_over") }),
      el("p", { text: res.winner === null ? t("replay.draw") : t("replay.side_wins", { n: res.winner + 1 }) }),
      el("p", { text: t("replay.final_scores", { scores: (res.scores || []).map((x, i) => t("replay.side_score", { n: i + 1, points: format(x) })).join(" · ") }) })));
  }
  if (s.lastHand) {
    const keys = [];
    for (const side of s.lastHand) for (const k of Object.keys(side.lines || {})) if (!keys.includes(k)) keys.push(k);
    board.append(el("details", { class: "replay-score" }, el("summary", { text: t("replay.previous_score") }),
      el("table", { class: "data" },
        el("thead", {}, el("tr", {}, el("td", {}), ...s.lastHand.map((_, i) => el("th", { scope: "col", text: t("replay.side", { n: i + 1 }) })))),
        el("tbody", {}, ...keys.map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...s.lastHand.map((x) => el("td", { text: format((x.lines || {})[k] || 0) }))))),
        el("tfoot", {}, el("tr", {}, el("td", { text: t("replay.total") }), ...s.lastHand.map((x) => el("td", { text: format(x.cumulative) })))))));
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
    const [step, prev] = await Promise.all([fetchStep(n), n > 0 ? fetchStep(n - 1) : null]);
    if (R.n !== want) return;
    R.total = step.moves;
    $("error").classList.add("hidden");
    render(step, prev);
    history.replaceState(null, "", `#${n}`);
    if (n + 1 <= R.total) fetchStep(n + 1).catch(() => {});
  } catch (e) {
    const box = $("error");
    box.textContent = e.code === "GAME_NOT_OVER" ? t("replay.not_over") : t("replay.error", { message: e.message });
    box.classList.remove("hidden");
  }
}

function start() {
  setUpPage();
  applyDeckPreference();
  if (!R.id) {
    $("error").textContent = t("replay.no_table");
    $("error").classList.remove("hidden");
    return;
  }
  $("title").textContent = t("replay.of_table", { id: R.id });
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
