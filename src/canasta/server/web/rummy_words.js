// The rummy family's moves and melds in words, cards with their suits (the table and replay pages).

import { cardText, rankLabel } from "./common.js";

/** A meld by what it holds: "K-set" -> "Ks", "5H-7H" -> "5♥–7♥ run". */
export function meldName(label) {
  const set = /^(.+)-set$/.exec(label);
  if (set) return set[1] === "JK" ? "jokers" : `${rankLabel(set[1])}s`;
  const ends = String(label).split("-");
  return ends.length === 2 ? `${cardText(ends[0])}–${cardText(ends[1])} run` : label;
}

/** A move in words: "took 7♣ from the pile", "laid K♣ on the Ks"; `meld(label)` names a meld laid on
 * ("the Ks", "your Ks"). */
export function rummyMoveText(move, meld = (label) => `the ${meldName(label)}`) {
  const [verb, ...rest] = String(move).split(" ");
  const on = rest.indexOf("on");
  const cards = (on < 0 ? rest : rest.slice(0, on)).map(cardText).join(" ");
  switch (verb) {
    case "draw":
      return "drew from the stock";
    case "take":
      return rest[0] === "dealer" ? "took the dealer's joker" : `took ${cards} from the pile`;
    case "meld":
      return `melded ${cards}`;
    case "lay":
      return `laid ${cards} on ${meld(rest.slice(on + 1).join(" "))}`;
    case "discard":
      return `discarded ${cards}`;
    case "pass":
      return "passed";
    case "rum":
      return `called Rum! ${cards}`;
    case "master":
      return `showed the Master's Hand ${cards}`;
    default:
      return move;
  }
}
