// The replay page's board for a rummy-family game (a position with "family": "rummy"): every hand face up,
// the spread pile, each meld with the seat that laid each card, the scores and the last hand's breakdown.
import { backEl, cardEl, cardText, el, lineLabel } from "./common.js";
import { format, has, t } from "./i18n.js";
import { meldName } from "./rummy_words.js";

function seatName(seat) {
  return t("common.seat", { n: seat + 1 });
}

function phaseText(phase) {
  return has(`phase.${phase}`) ? t(`phase.${phase}`) : phase;
}

function sideName(s, side) {
  const seats = [];
  for (let seat = 0; seat < s.hands.length; seat++) if (seat % s.scores.length === side) seats.push(seatName(seat));
  return seats.join(t("common.and"));
}

export function renderRummy(s, board) {
  const info = [t("replay.hand", { n: s.hand_number }), t("replay.dealer", { seat: seatName(s.dealer) }), t("replay.phase", { phase: phaseText(s.phase) }),
    s.phase !== "over" ? t("replay.to_move", { seat: seatName(s.turn_seat) }) : null, s.must_use ? t("replay.must_use", { card: cardText(s.must_use) }) : null];
  board.append(el("div", { class: "turn-info" }, info.filter(Boolean).join(" · ")));
  s.hands.forEach((cards, seat) => {
    board.append(el("div", { class: "seat-hand" + (seat === s.turn_seat && s.phase !== "over" ? " to-move" : ""), "data-testid": `seat-${seat}` },
      el("span", { class: "who", text: seatName(seat) }),
      el("div", { class: "cards" }, ...cards.map((c) => cardEl(c, { small: true }))),
      el("span", { class: "small-text", text: t("common.cards", { count: cards.length }) })));
  });
  board.append(el("div", { class: "side-head replay-gap" },
    ...s.scores.map((x, i) => el("span", { class: "score", text: `${sideName(s, i)}: ${format(x)}  ` }))));
  const melds = s.melds.map((m) => el("div", { class: `meld k-${m.kind}` },
    el("div", { class: "stack" }, ...m.cards.map((c, i) => el("div", { class: "laid" }, cardEl(c, { small: true }),
      el("span", { class: "by", text: String(m.seats[i] + 1) })))),
    el("span", { class: "label", text: `${m.label ? `${meldName(m.label.split("#")[0])} · ` : ""}${t("common.points", { count: m.points.reduce((a, b) => a + b, 0) })}` })));
  board.append(el("div", { class: "rummy-melds replay-gap" }, melds.length ? melds : el("span", { class: "none", text: t("replay.no_melds") })));
  board.append(el("div", { class: "piles replay-piles" },
    el("div", { class: "pile-box", "data-testid": "stock" }, el("div", { class: "what", text: t("replay.stock") }), backEl({ small: false, count: s.stock.length })),
    el("div", { class: "pile-box", "data-testid": "pile" }, el("div", { class: "what", text: t("replay.pile", { count: s.pile.length }) }),
      el("div", { class: "replay-pile" }, ...s.pile.map((c) => cardEl(c, { small: true }))))));
  const last = s.last_hand;
  if (last && Array.isArray(last.sides)) {
    const keys = [];
    for (const side of last.sides) for (const k of Object.keys(side.lines || {})) if (!keys.includes(k)) keys.push(k);
    board.append(el("details", { class: "replay-score", open: !!s.result }, el("summary", { text: t("replay.hand_score", { n: last.hand }) }),
      el("table", { class: "data" },
        el("thead", {}, el("tr", {}, el("td", {}), ...last.sides.map((_, i) => el("th", { scope: "col", text: sideName(s, i) })))),
        el("tbody", {}, ...keys.map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...last.sides.map((x) => el("td", { text: format((x.lines || {})[k] || 0) }))))),
        el("tfoot", {}, el("tr", {}, el("td", { text: t("replay.hand_total") }), ...last.sides.map((x) => el("td", { text: format(x.total) })))))));
  }
  if (s.result) {
    const res = s.result;
    board.append(el("div", { class: "overlay-panel replay-result" }, el("h2", { text: t("replay.game_over") }),
      el("p", { text: res.winner === null || res.winner === undefined ? t("replay.draw") : t("replay.who_won", { who: sideName(s, res.winner) }) }),
      el("p", { text: t("replay.final_scores", { scores: (res.scores || s.scores).map((x, i) => `${sideName(s, i)} ${format(x)}`).join(" · ") }) })));
  }
}
