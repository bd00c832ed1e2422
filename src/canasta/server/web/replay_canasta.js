// The replay page's board for a Canasta game: each side's melds, red threes and score; the page (replay.js)
// draws the rest. `position(state)` gives the page's terms, `moveText` a move in words with its cards' suits.
import { cardEl, el, isWild } from "./common.js";
import { assignCards, describeMove, parseMove, targetText, tokenText } from "./moves.js";
import { format, t } from "./i18n.js";

const seatName = (seat) => t("common.seat", { n: seat + 1 });

/** A replay `state` (the full position dict, or a view) in the page's terms. */
export function position(s) {
  const players = s.players || (s.hands ? s.hands.length : (s.hand_sizes || []).length);
  const teams = (s.melds && s.melds.length) || (s.sides && s.sides.length) || 2;
  const seatSides = s.seat_sides || Array.from({ length: players }, (_, i) => i % teams);
  const melds = s.sides
    ? s.sides.map((side) => (side.melds || []).map((m) => ({ key: m.key || m.rank, cards: m.cards })))
    : (s.melds || []).map((obj) => Object.entries(obj || {}).map(([key, cards]) => ({ key, cards })));
  const scores = s.scores || (s.sides || []).map((x) => x.score);
  const opened = s.opened || (s.sides || []).map((x) => x.opened);
  const redThrees = s.red_threes || (s.sides || []).map((x) => x.red_threes || []);
  const last = s.last_hand;
  return {
    hand: s.hand_number, dealer: s.dealer, phase: s.phase, toMove: s.to_move, mustUse: null,
    hands: s.hands || Array.from({ length: players }, (_, i) => (i === s.seat ? s.hand : null)),
    sorted: true, feet: s.feet || null,
    seatTitle: (seat) => t("replay.seat_side", { seat: seatName(seat), side: seatSides[seat] + 1 }),
    stockSize: Array.isArray(s.stock) ? s.stock.length : s.stock_size,
    pile: s.pile || [], pileHidden: s.pile_hidden || 0, pileFrozen: !!s.pile_frozen,
    table: () => sidesEl({ teams, seatSides, melds, scores, opened, redThrees }),
    result: s.result && {
      winner: s.result.winner === null ? t("replay.draw") : t("replay.side_wins", { n: s.result.winner + 1 }),
      scores: (s.result.scores || []).map((x, i) => t("replay.side_score", { n: i + 1, points: format(x) })),
    },
    sheet: last && {
      title: t("replay.previous_score"), open: false, sides: last, sideName: (i) => t("replay.side", { n: i + 1 }),
      totalLabel: t("replay.total"), total: (x) => x.cumulative,
    },
  };
}

function sidesEl({ teams, seatSides, melds, scores, opened, redThrees }) {
  const sides = el("div", { class: "sides" });
  for (let i = 0; i < teams; i++) {
    const seats = seatSides.map((x, seat) => (x === i ? seatName(seat) : null)).filter(Boolean).join(t("common.and"));
    const head = el("div", { class: "side-head" },
      el("span", { class: "side-name", text: t("replay.side_seats", { n: i + 1, seats }) }),
      el("span", { class: "score", text: format((scores || [])[i]) }),
      el("span", { class: "need", text: t((opened || [])[i] ? "replay.opened" : "replay.not_opened") }),
      (redThrees[i] || []).length ? el("span", { class: "red-threes" }, ...redThrees[i].map((c) => cardEl(c, { small: true }))) : null);
    const box = el("div", { class: "melds" });
    if (!(melds[i] || []).length) box.append(el("span", { class: "none", text: t("replay.no_melds") }));
    for (const m of melds[i] || []) {
      const kind = meldKind(m.key, m.cards);
      box.append(el("div", { class: `meld${m.cards.length >= 7 ? " canasta" : ""}${kind ? ` k-${kind}` : ""}`, "data-meld": m.key },
        el("div", { class: "stack" }, ...m.cards.map((c) => cardEl(c, { small: true }))),
        el("span", { class: "label", text: (kind && m.cards.length >= 7 ? `${t(`replay.canasta_${kind}`)} · ` : "") + meldLabel(m.key, m.cards.length) })));
    }
    sides.append(el("div", { class: "side" }, head, box));
  }
  return sides;
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

/** A move in words, a discard's card with its suit (the top of the pile after it) and a meld's or a take's
 * cards with theirs: those that left the mover's hand (both positions face up); else (a move that ended the
 * hand, followed by the next deal; a take that brought cards like those used back from the pile) cards of
 * those ranks from the hand the mover held. `sameHand`: the step's position is still the move's hand. */
export function moveText(seat, move, step, prev, sameHand) {
  const after = (step.state && step.state.pile) || [];
  const top = move.startsWith("discard") && sameHand && after.length ? after[after.length - 1] : null;
  const held = prev && prev.state && prev.state.hands ? prev.state.hands[seat] || null : null;
  const left = sameHand && held ? cardsLeaving(prev.state, step.state, seat) : null;
  const gone = left && assignCards(parseMove(move).cards, left, { exact: false }) ? left : held;
  return describeMove(move, top, gone);
}
