// The replay page's board for a rummy-family game (a position with "family": "rummy"): every hand face up,
// the spread pile, each meld with the seat that laid each card, the scores and the last hand's breakdown.
import { backEl, cardEl, el, formatPoints, lineLabel } from "./common.js";

function seatName(seat) {
  return `Seat ${seat + 1}`;
}

function sideName(s, side) {
  const seats = [];
  for (let seat = 0; seat < s.hands.length; seat++) if (seat % s.scores.length === side) seats.push(seatName(seat));
  return seats.join(" & ");
}

export function renderRummy(s, board) {
  const info = [`Hand ${s.hand_number}`, `dealer ${seatName(s.dealer)}`, `phase: ${s.phase}`,
    s.phase !== "over" ? `to move: ${seatName(s.turn_seat)}` : null, s.must_use ? `must use ${s.must_use}` : null];
  board.append(el("div", { class: "turn-info", style: "margin-bottom:.4rem" }, info.filter(Boolean).join(" · ")));
  s.hands.forEach((cards, seat) => {
    board.append(el("div", { class: "seat-hand" + (seat === s.turn_seat && s.phase !== "over" ? " to-move" : ""), "data-testid": `seat-${seat}` },
      el("span", { class: "who", text: seatName(seat) }),
      el("div", { class: "cards" }, ...cards.map((c) => cardEl(c, { small: true }))),
      el("span", { class: "small-text", text: `${cards.length} cards` })));
  });
  board.append(el("div", { class: "side-head", style: "margin-top:.5rem" },
    ...s.scores.map((x, i) => el("span", { class: "score", text: `${sideName(s, i)}: ${formatPoints(x)}  ` }))));
  const melds = s.melds.map((m) => el("div", { class: `meld k-${m.kind}` },
    el("div", { class: "stack" }, ...m.cards.map((c, i) => el("div", { class: "laid" }, cardEl(c, { small: true }),
      el("span", { class: "by", text: String(m.seats[i] + 1) })))),
    el("span", { class: "label", text: `${formatPoints(m.points.reduce((a, b) => a + b, 0))} points` })));
  board.append(el("div", { class: "rummy-melds", style: "margin-top:.5rem" }, melds.length ? melds : el("span", { class: "none", text: "no melds" })));
  board.append(el("div", { class: "piles", style: "justify-content:flex-start" },
    el("div", { class: "pile-box", "data-testid": "stock" }, el("div", { class: "what", text: "Stock" }), backEl({ small: false, count: s.stock.length })),
    el("div", { class: "pile-box", "data-testid": "pile" }, el("div", { class: "what", text: `Discard pile (${s.pile.length})` }),
      el("div", { style: "display:flex;flex-wrap:wrap;gap:2px" }, ...s.pile.map((c) => cardEl(c, { small: true }))))));
  const last = s.last_hand;
  if (last && Array.isArray(last.sides)) {
    const keys = [];
    for (const side of last.sides) for (const k of Object.keys(side.lines || {})) if (!keys.includes(k)) keys.push(k);
    board.append(el("details", { style: "margin-top:.5rem", open: !!s.result }, el("summary", { text: `Hand ${last.hand}'s score` }),
      el("table", { class: "data", style: "color:#fff" },
        el("thead", {}, el("tr", {}, el("th", { text: "" }), ...last.sides.map((_, i) => el("th", { text: sideName(s, i) })))),
        el("tbody", {}, ...keys.map((k) => el("tr", {}, el("td", { text: lineLabel(k) }), ...last.sides.map((x) => el("td", { text: formatPoints((x.lines || {})[k] || 0) }))))),
        el("tfoot", {}, el("tr", {}, el("td", { text: "Hand" }), ...last.sides.map((x) => el("td", { text: formatPoints(x.total) })))))));
  }
  if (s.result) {
    const res = s.result;
    board.append(el("div", { class: "overlay-panel", style: "margin-top:.6rem" }, el("h2", { text: "Game over" }),
      el("p", { text: res.winner === null || res.winner === undefined ? "A draw." : `${sideName(s, res.winner)} won.` }),
      el("p", { text: `Final scores: ${(res.scores || s.scores).map((x, i) => `${sideName(s, i)} ${formatPoints(x)}`).join(" · ")}` })));
  }
}
