// The table pages' own texts, one entry per message, looked up by key with t(key, vars) ({name} in a text is
// replaced by vars.name; an entry {one, other} is picked by vars.count). English only until the message
// catalogs carry these keys; then t() is the catalogs' own.

const EN = {
  "table.review.title": "Hand {hand} is over",
  "table.review.went_out": "{who} went out.",
  "table.review.you_went_out": "You went out.",
  "table.review.nobody_out": "Nobody went out.",
  "table.review.left": "Cards left in hand",
  "table.review.none_left": "none",
  "table.review.melds": "Melds",
  "table.review.no_melds": "no melds",
  "table.review.continue": "Continue",
  "table.review.waiting": "Waiting for {names} to continue…",
  "table.review.waiting_you": "Look at the finished hand, then press Continue.",
  "table.review.next_in": { one: "next hand in {count} second", other: "next hand in {count} seconds" },
  "table.review.breakdown": "Score of the hand",
  "table.over.title": "Game over",
  "table.over.final": "The last hand",
  "table.why.prefix": "Not possible: {reason}",
  "table.why.asking": "Checking why…",
  "table.link.bad_title": "This invite link does not open a seat",
  "table.link.bad_text": "The link may have been mistyped, replaced by a rematch's link, or its seat given to a computer player when the game started.",
  "table.link.gone_title": "This table does not exist",
  "table.link.gone_text": "It may have been mistyped, or the table was removed.",
  "table.link.watch": "Watch this table",
  "table.link.home": "Go to the home page",
  "table.replaced.title": "This seat is open in another window",
  "table.replaced.text": "The table moved to the newer window or browser; this one stopped.",
  "table.replaced.back": "Play here instead",
  "table.name.title": "Your name at the table",
  "table.name.text": "The other players see this name on the board and in the chat.",
  "table.name.label": "Name",
  "table.name.ok": "Sit down",
  "table.sound": "Sound",
  "table.sound.title": "Sounds of the cards (off by default)",
  "table.sort.rank": "Sort by rank",
  "table.sort.suit": "Sort by suit",
  "table.sort.own": "Your order",
  "table.drag.hint": "Drag a card to reorder your hand, onto a meld to add it, or onto the pile to discard it.",
  "table.announce.turn": "Your turn.",
  "table.log.melded": "melded {cards}",
  "table.log.added_yours": "added {cards} to your {meld}",
  "table.log.added_theirs": "added {cards} to their {meld}",
  "table.log.took_pile": { one: "took the pile ({count} card)", other: "took the pile ({count} cards)" },
  "table.log.and": "{first} and {then}",
  "table.log.dealt_threes": "{side}: red threes laid out at the deal {cards}",
  "table.log.drew": "drew from the stock",
  "table.log.took_card": "took {cards} from the pile",
  "table.log.took_dealers_joker": "took the dealer's joker",
  "table.log.laid": "laid {cards} on {meld}",
  "table.log.discarded": "discarded {cards}",
  "table.log.passed": "passed",
  "table.log.rum": "called Rum! {cards}",
  "table.log.master": "showed the Master's Hand {cards}",
  "table.meld.the": "the {meld}",
  "table.meld.your": "your {meld}",
  "table.meld.run": "{low}–{high} run",
  "table.meld.jokers": "jokers",
  "table.meld.rank": "{rank}s",
  "table.sheet.title": "Hand {hand}",
  "table.sheet.close": "Close",
  "table.not_now": "“{move}” is not possible now.",
  "table.pile.take_top": "(click the top card to take it)",
  "table.pile.take_any": "(click a card: take it and every card above it)",
  "table.pile.take": "Take {card}",
  "table.pile.take_above": { one: "Take {card} and the card above it", other: "Take {card} and the {count} cards above it" },
  "table.lay": "Lay {card} on the {meld}",
  "table.why.goes_out": "goes out",
  "table.why.opens": "opens your side",
  "table.why.canasta": { one: "completes a canasta", other: "completes {count} canastas" },
  "table.why.takes_pile": { one: "takes the pile ({count} card)", other: "takes the pile ({count} cards)" },
  "table.why.freezes_pile": "freezes the pile",
  "table.why.blocks_pile": "a black three: the next player cannot take the pile",
  "table.why.safe_discard": "no other side has a meld of that rank",
  "table.why.lays_points": { one: "lays {count} point on the table", other: "lays {count} points on the table" },
  "table.abandoned": "A computer player finished this game for {names}, who left: it does not count in the statistics.",
};

let catalog = EN;

/** Use another catalog (the i18n module's) for the keys it has. */
export function useCatalog(other) {
  catalog = { ...EN, ...other };
}

export function t(key, vars = {}) {
  let text = key in catalog ? catalog[key] : EN[key];
  if (text === undefined) return key;
  if (typeof text === "object") text = Number(vars.count) === 1 ? text.one : text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}
