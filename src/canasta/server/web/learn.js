// "How to play": a short guided hand of Classic on a fixed deal (POST /api/learn). The server plays the
// lesson's moves and sends only what seat 0 sees after them; this page shows it, says what to do next, and
// checks the learner's choice before sending it (a wrong one gets a hint, and "Show me" picks the cards).
import { api, cardEl, el, rankOf, suitOf } from "./common.js";
import { helpNav } from "./help_nav.js";
import { setUpPage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const L = { moves: [], step: null, selected: new Set(), busy: false, hinted: false };

/** A card's name in words for screen readers and the lesson's sentences ("the king of spades"). */
function cardName(code) {
  if (code === "JK") return t("card.joker");
  return t("card.name", { rank: t(`card.rank.${rankOf(code)}`), suit: t(`card.suit.${suitOf(code)}`) });
}

function faceUp(code, small = true) {
  const c = cardEl(code, { small });
  c.removeAttribute("aria-label");
  c.removeAttribute("title");
  c.setAttribute("aria-hidden", "true");
  return c;
}

function cardList(cards, label) {
  return el("div", { class: "learn-cards small", role: "img", "aria-label": label }, ...cards.map(faceUp));
}

function seatName(seat) {
  return t(`learn.seat.${seat}`);
}

function renderOthers(others) {
  const box = $("others");
  box.replaceChildren(...others.filter((o) => o.move === "discard").map((o) =>
    el("li", { text: t("learn.other_discarded", { who: seatName(o.seat), card: cardName(o.card) }) })));
  box.classList.toggle("hidden", !box.children.length);
}

function meldLabel(m, mine) {
  const rank = t(`card.ranks.${m.rank}`);
  const base = t(mine ? "learn.meld_mine" : "learn.meld_theirs", { rank, count: m.cards.length });
  return m.canasta ? `${base} · ${t(`learn.canasta_${m.kind}`)}` : base;
}

function renderBoard(v) {
  $("players").replaceChildren(...[1, 2, 3].map((seat) => el("div", { class: "learn-player", "data-testid": `learn-seat-${seat}` },
    el("span", { class: "who", text: seatName(seat) }), " ",
    el("span", { class: "muted-on-felt", text: t("common.cards", { count: v.hand_sizes[seat] }) }))));
  $("sides").replaceChildren(...v.sides.map((side, i) => {
    const mine = i === v.side;
    const melds = side.melds.map((m) => el("li", { class: "learn-meld" + (m.canasta ? " canasta" : "") },
      cardList(m.cards, meldLabel(m, mine)), el("span", { class: "label", text: meldLabel(m, mine) })));
    return el("div", { class: "learn-side", "data-testid": `learn-side-${i}` },
      el("h3", { text: t(mine ? "learn.side_mine" : "learn.side_theirs") }),
      melds.length ? el("ul", { class: "learn-melds" }, ...melds) : el("p", { class: "muted-on-felt", text: t("learn.no_melds") }));
  }));
  const top = v.pile_top;
  $("piles").replaceChildren(
    el("div", { class: "learn-pile", "data-testid": "learn-stock" }, el("span", { class: "what", text: t("learn.stock") }),
      el("span", { text: t("common.cards", { count: v.stock_size }) })),
    el("div", { class: "learn-pile", "data-testid": "learn-pile" }, el("span", { class: "what", text: t("learn.pile") }),
      top ? cardList([top], t("learn.pile_top", { card: cardName(top), count: v.pile_size })) : null,
      el("span", { text: top ? t("learn.pile_top", { card: cardName(top), count: v.pile_size }) : t("learn.pile_empty") }),
      v.pile_frozen && top ? el("span", { class: "learn-frozen", text: t("learn.pile_frozen") }) : null));
}

function renderHand(v) {
  const expect = L.step.expect;
  $("hand").replaceChildren(...v.hand.map((code, i) => {
    const b = el("button", { type: "button", class: "learn-card", "data-card": code, "data-testid": "learn-card",
      "aria-pressed": String(L.selected.has(i)), "aria-label": cardName(code) }, faceUp(code, false));
    if (L.hinted && expect && expect.ranks.includes(rankOf(code))) b.classList.add("suggested");
    b.addEventListener("click", () => {
      if (L.selected.has(i)) L.selected.delete(i);
      else L.selected.add(i);
      b.setAttribute("aria-pressed", String(L.selected.has(i)));
    });
    return b;
  }));
}

function render() {
  const s = L.step;
  $("progress").textContent = t("learn.progress", { step: Math.min(s.step + 1, s.steps), steps: s.steps });
  renderOthers(s.others);
  $("tip").textContent = t(s.tip);
  renderBoard(s.view);
  renderHand(s.view);
  const over = !s.expect;
  for (const b of document.querySelectorAll("#actions button")) b.disabled = over;
  $("show-me").classList.toggle("hidden", over);
  $("done").classList.toggle("hidden", !over);
  document.body.dataset.step = String(s.step);
}

function feedback(key, vars) {
  const box = $("feedback");
  box.textContent = key ? t(key, vars) : "";
  box.classList.toggle("hidden", !key);
}

async function load(moves) {
  L.busy = true;
  try {
    L.step = await api("/api/learn", { method: "POST", body: { moves } });
    L.moves = moves;
    L.selected = new Set();
    L.hinted = false;
    feedback(null);
    render();
  } catch (e) {
    feedback("learn.error", { message: e.message });
  } finally {
    L.busy = false;
  }
}

function selectedRanks() {
  return [...L.selected].map((i) => rankOf(L.step.view.hand[i])).sort();
}

function act(action) {
  const expect = L.step.expect;
  if (!expect || L.busy) return;
  if (action !== expect.action) {
    L.hinted = true;
    renderHand(L.step.view);
    feedback(`learn.wrong.${expect.action}`);
    return;
  }
  const want = [...expect.ranks].sort();
  const got = selectedRanks();
  if (want.length && JSON.stringify(got) !== JSON.stringify(want)) {
    L.hinted = true;
    renderHand(L.step.view);
    feedback(got.length ? "learn.wrong_cards" : "learn.no_cards");
    return;
  }
  load([...L.moves, expect.move]);
}

/** Select the cards the step wants (the first of each rank needed). */
function showMe() {
  const expect = L.step.expect;
  if (!expect) return;
  const need = [...expect.ranks];
  L.selected = new Set();
  L.step.view.hand.forEach((code, i) => {
    const k = need.indexOf(rankOf(code));
    if (k >= 0) {
      need.splice(k, 1);
      L.selected.add(i);
    }
  });
  L.hinted = true;
  renderHand(L.step.view);
  feedback(`learn.show.${expect.action}`);
}

function start() {
  helpNav();
  setUpPage();
  for (const b of document.querySelectorAll("#actions button")) b.addEventListener("click", () => act(b.dataset.action));
  $("show-me").addEventListener("click", showMe);
  $("again").addEventListener("click", () => load([]));
  load([]);
}

start();
