// The replay page: a finished game, every hand face up, step by step (GET /api/tables/ID/replay/N), for
// both families: each family's module (replay_canasta.js, replay_rummy.js) gives its position in the page's
// terms, its melds, and its moves in words.
import { api, applyDeckPreference, backEl, cardEl, cardText, el, fourColour, lineLabel, setFourColour, sortCards, tableIdFromPath } from "./common.js";
import * as canasta from "./replay_canasta.js";
import * as rummy from "./replay_rummy.js";
import { format, has, setUpPage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const R = { id: tableIdFromPath(), n: 0, total: null, cache: new Map(), loading: null };

function seatName(seat) {
  return t("common.seat", { n: seat + 1 });
}

function phaseText(phase) {
  const key = `phase.${phase}`;
  return has(key) ? t(key) : phase;
}

function render(step, prev) {
  $("counter").textContent = t("replay.counter", { move: step.move, moves: step.moves });
  $("slider").max = String(step.moves);
  $("slider").value = String(step.move);
  document.body.dataset.move = String(step.move);
  const entry = step.entry ? String(step.entry) : "";
  const m = /^(\d+)\s+(.*)$/.exec(entry);
  const family = step.state && step.state.family === "rummy" ? rummy : canasta;
  const sameHand = ((step.state && step.state.history) || []).slice(-1)[0] === entry; // (not a new hand's pile)
  const move = m && family.moveText(Number(m[1]), m[2], step, prev, sameHand);
  $("entry").textContent = step.move === 0 ? t("replay.the_deal") : m ? t("replay.entry", { seat: seatName(Number(m[1])), move }) : entry;
  const board = $("board");
  board.replaceChildren();
  if (!step.state) return;
  const s = family.position(step.state);
  const info = [
    s.hand ? t("replay.hand", { n: s.hand }) : null,
    s.dealer !== undefined ? t("replay.dealer", { seat: seatName(s.dealer) }) : null,
    s.phase ? t("replay.phase", { phase: phaseText(s.phase) }) : null,
    s.toMove !== undefined && s.phase !== "over" ? t("replay.to_move", { seat: seatName(s.toMove) }) : null,
    s.mustUse ? t("replay.must_use", { card: cardText(s.mustUse) }) : null,
  ].filter(Boolean).join(" · ");
  board.append(el("div", { class: "turn-info" }, info));
  // every hand, face up
  s.hands.forEach((cards, seat) => {
    const row = el("div", { class: "seat-hand" + (seat === s.toMove && s.phase !== "over" ? " to-move" : ""), "data-testid": `seat-${seat}` },
      el("span", { class: "who", text: s.seatTitle(seat) }));
    const wrap = el("div", { class: "cards" });
    if (cards) for (const c of s.sorted ? sortCards(cards) : cards) wrap.append(cardEl(c, { small: true }));
    else wrap.append(el("span", { class: "muted-light", text: t("replay.hidden") }));
    row.append(wrap, el("span", { class: "small-text", text: cards ? t("common.cards", { count: cards.length }) : "" }));
    if (s.feet && s.feet[seat] && s.feet[seat].length) {
      row.append(el("span", { class: "small-text", text: t("replay.foot") }), el("div", { class: "cards" }, ...sortCards(s.feet[seat]).map((c) => cardEl(c, { small: true }))));
    }
    board.append(row);
  });
  board.append(...[s.table()].flat());
  board.append(el("div", { class: "piles replay-piles" },
    el("div", { class: "pile-box", "data-testid": "stock" }, el("div", { class: "what", text: t("replay.stock") }), backEl({ small: false, count: s.stockSize ?? "?" })),
    el("div", { class: "pile-box", "data-testid": "pile" }, el("div", { class: "what", text: t("replay.pile", { count: s.pile.length }) + (s.pileFrozen ? ` · ❄ ${t("replay.frozen")}` : "") }),
      el("div", { class: "replay-pile" }, s.pileHidden ? el("span", { text: `${t("replay.face_down", { count: s.pileHidden })} ` }) : null, ...s.pile.filter((c) => c).map((c) => cardEl(c, { small: true }))))));
  if (s.result) {
    board.append(el("div", { class: "overlay-panel replay-result" }, el("h2", { text: t("replay.game_over") }),
      el("p", { text: s.result.winner }), el("p", { text: t("replay.final_scores", { scores: s.result.scores.join(" · ") }) })));
  }
  if (s.sheet) board.append(sheetEl(s.sheet));
}

/** The last hand's score sheet: a row per line of the breakdown, a column per side. */
function sheetEl({ title, open, sides, sideName, totalLabel, total }) {
  const keys = [];
  for (const side of sides) for (const k of Object.keys(side.lines || {})) if (!keys.includes(k)) keys.push(k);
  return el("details", { class: "replay-score", open }, el("summary", { text: title }),
    el("table", { class: "data" },
      el("thead", {}, el("tr", {}, el("td", {}), ...sides.map((_, i) => el("th", { scope: "col", text: sideName(i) })))),
      el("tbody", {}, ...keys.map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...sides.map((x) => el("td", { text: format((x.lines || {})[k] || 0) }))))),
      el("tfoot", {}, el("tr", {}, el("td", { text: totalLabel }), ...sides.map((x) => el("td", { text: format(total(x)) }))))));
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
