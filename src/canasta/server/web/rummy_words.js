// The rummy family's moves and melds in words, cards with their suits (the table and replay pages).

import { cardText, rankLabel } from "./common.js";
import { t } from "./i18n.js";

/** A meld by what it holds: "K-set" -> "Ks", "5H-7H" -> "5♥–7♥ run". */
export function meldName(label) {
  const set = /^(.+)-set$/.exec(label);
  if (set) return set[1] === "JK" ? t("table.meld.jokers") : t("table.meld.rank", { rank: rankLabel(set[1]) });
  const ends = String(label).split("-");
  return ends.length === 2 ? t("table.meld.run", { low: cardText(ends[0]), high: cardText(ends[1]) }) : label;
}

const VERBS = {
  draw: "table.log.drew", meld: "table.log.melded", discard: "table.log.discarded", pass: "table.log.passed",
  rum: "table.log.rum", master: "table.log.master",
};

/** A move in words: "took 7♣ from the pile", "laid K♣ on the Ks"; `meld(label)` names a meld laid on
 * ("the Ks", "your Ks"). */
export function rummyMoveText(move, meld = (label) => t("table.meld.the", { meld: meldName(label) })) {
  const [verb, ...rest] = String(move).split(" ");
  const on = rest.indexOf("on");
  const cards = (on < 0 ? rest : rest.slice(0, on)).map(cardText).join(" ");
  if (verb === "take") return rest[0] === "dealer" ? t("table.log.took_dealers_joker") : t("table.log.took_card", { cards });
  if (verb === "lay") return t("table.log.laid", { cards, meld: meld(rest.slice(on + 1).join(" ")) });
  return VERBS[verb] ? t(VERBS[verb], { cards }) : move;
}
