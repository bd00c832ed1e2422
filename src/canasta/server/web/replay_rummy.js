// The replay page's board for a rummy-family game (a position with "family": "rummy"): the scores and each
// meld with the seat that laid each card; the page (replay.js) draws the rest.
import { cardEl, el } from "./common.js";
import { format, t } from "./i18n.js";
import { meldName, rummyMoveText } from "./rummy_words.js";

const seatName = (seat) => t("common.seat", { n: seat + 1 });

/** A rummy position in the page's terms. */
export function position(s) {
  const sideName = (side) => {
    const seats = [];
    for (let seat = 0; seat < s.hands.length; seat++) if (seat % s.scores.length === side) seats.push(seatName(seat));
    return seats.join(t("common.and"));
  };
  const last = s.last_hand;
  return {
    hand: s.hand_number, dealer: s.dealer, phase: s.phase, toMove: s.turn_seat, mustUse: s.must_use,
    hands: s.hands, sorted: false, feet: null, seatTitle: seatName,
    stockSize: s.stock.length, pile: s.pile, pileHidden: 0, pileFrozen: false,
    table: () => [
      el("div", { class: "side-head replay-gap" }, ...s.scores.map((x, i) => el("span", { class: "score", text: `${sideName(i)}: ${format(x)}  ` }))),
      meldsEl(s.melds),
    ],
    result: s.result && {
      winner: s.result.winner === null || s.result.winner === undefined ? t("replay.draw") : t("replay.who_won", { who: sideName(s.result.winner) }),
      scores: (s.result.scores || s.scores).map((x, i) => `${sideName(i)} ${format(x)}`),
    },
    sheet: last && Array.isArray(last.sides) && {
      title: t("replay.hand_score", { n: last.hand }), open: !!s.result, sides: last.sides, sideName,
      totalLabel: t("replay.hand_total"), total: (x) => x.total,
    },
  };
}

function meldsEl(melds) {
  const boxes = melds.map((m) => el("div", { class: `meld k-${m.kind}` },
    el("div", { class: "stack" }, ...m.cards.map((c, i) => el("div", { class: "laid" }, cardEl(c, { small: true }),
      el("span", { class: "by", text: String(m.seats[i] + 1) })))),
    el("span", { class: "label", text: `${m.label ? `${meldName(m.label.split("#")[0])} · ` : ""}${t("common.points", { count: m.points.reduce((a, b) => a + b, 0) })}` })));
  return el("div", { class: "rummy-melds replay-gap" }, boxes.length ? boxes : el("span", { class: "none", text: t("replay.no_melds") }));
}

/** A rummy move names its cards: in words as they are. */
export function moveText(seat, move) {
  return rummyMoveText(move);
}
