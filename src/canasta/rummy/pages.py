"""The pieces of a rummy preset's generated page (``canasta rules NAME`` == docs/variants/NAME.md)."""

from __future__ import annotations

from typing import Any

from .presets import ALIASES, rummy_rules
from .rules import PARAMETERS, RummyRules

# title, summary, choices where sources disagree or are silent
NOTES: dict[str, tuple[str, str, list[str]]] = {
    "500-rum": (
        "500 Rum", "The rummy game Canasta grew from (docs/sources.md §8.1 [S2, BcR]): each player scores the "
        "cards he shows on the table less the cards left in his hand; the whole discard pile is spread and "
        "any card of it may be taken with every card above it, if the chosen card is melded or laid off at "
        "once. Three players by default (`players=2` deals 13 cards each, 4 players 7 each).",
        ["D19, card values: Wikipedia's sentence \"A-9 are 5\" against its own Persian example and the "
         "Bicycle text: number cards count their face value, the ace 15 (1 when low in A-2-3); "
         "`low_cards_five=true` gives the other reading.",
         "D19, a tie at 500: the player who went out wins [S2] (`tie=went_out`, the default) against the "
         "highest score [BcR] (`tie=highest`); equal highest scores play another hand.",
         "The empty stock: the sources are silent in the main text; by default play goes on from the pile "
         "and the hand ends when the player to draw takes nothing (`pass`); `empty_stock=end` ends the hand "
         "at once.",
         "D31, the hand ended with the stock run out and nobody out: [S2]'s options section says \"the hand is "
         "finished with all cards in each player's hand counting against them\" (the default), its scoring "
         "section \"If the drawing pile runs out of cards and nobody is able to make a play, then the hand "
         "ends and nobody deducts the score from their hand\" (`stock_out_deducts=false`).",
         "Add the opponent's hand (`deadwood_to_winner=true`, [S2]): \"Instead of players subtracting their "
         "remaining totals when play is finished, they add the values in their hands to the total of the "
         "player who went out\"; if nobody has gone out when the stock is depleted, \"With more than two "
         "players: do not add any totals. With two players, or two partnerships: add opponent's remainder "
         "to your score.\" The partner of the player who went out still deducts his own cards (the source "
         "speaks of the opponents' hands).",
         "A joker in the pile more than once (Persian Rummy): `take JK` takes the topmost one.",
         "Wild jokers (`jokers=1` or `2`: 53-54 cards, each 15 [S2]; the sources give no more): every meld "
         "holds at least two natural cards, which make it a set or a run; a set holds at most four cards, "
         "jokers included. A joker stands for the card at its place in a run, fixed when it is melded: "
         "`meld 5H JK 7H`, `meld JK 5H 6H` (cards written in run order keep their places; otherwise the "
         "naturals are sorted, jokers fill the gaps and then extend the run upward). A joker laid off on a "
         "run goes on its high end (the low end when the run already ends at the top); the card a joker "
         "stands for cannot be laid off on that run. A joker counts 15 on the table and in the hand; a set "
         "of three aces and a joker is not four aces. Not with `ace=around`.",
         "5-8 players (`players=5` to `8`, `packs=2`: 104 cards, 7 each; [S2] gives the pack size only): "
         "every card is there twice. A set still holds each suit once (3 or 4 cards of a rank), so a set is "
         "what it is with one pack and a second copy of a card starts a second set of that rank; a run holds "
         "each card once. Two melds of the same name are told apart by their labels: `7-set`, `7-set#2`.",
         "Calling \"Rum\" (`call_rum=true`; [S2] names the option): only a discard that could be laid off "
         "opens a claim window; the other players who could lay it off are asked in turn order from the "
         "discarder's left (`rum` or `pass`), so the next in turn wins when several could; the caller lays "
         "it off and scores it, and play goes on from the discarder's left.",
         "The Rummy Master's Hand (`masters_hand=500`): \"If a player lays down a 7-card straight and then "
         "discards his last card, he is awarded 500 points\" [S2]. The straight is one meld, a run of seven "
         "cards or more (jokers where they are wild), laid down as his play right before the discard that "
         "takes him out; the hand then scores 500 for his side and nothing for anyone else (the source names "
         "no other score for it).",
         "Melds laid down between turns (`melds_between_turns=true`, with `call_rum`; [S2] names the option): "
         "the claim window opens after a discard for the players who could call \"Rum\" or meld from the "
         "hand, asked in turn order; the one asked may meld (as often as he can), call or pass. "
         "`lay_offs_between_turns=true` lets him lay off from his hand there too (\"melds or matching cards on "
         "other people's turns\" [S2]).",
         "`low_cards_five=true` (\"A-9 are 5\" [S2]): the twos to nines and an ace used low (in A-2-3) count "
         "5; an ace anywhere else keeps `ace_high_value`.",
         "Dealer's Gambit is its own preset, `dealers-gambit`.",
         "The computer players play every option legally but without a plan for it (no search player for "
         "rummy yet)."]),
    "500-rum-partnership": (
        "Partnership 500 Rum", "500 Rum for four in two partnerships, partners opposite (§8.1 [S2]): partners "
        "may lay off on each other's melds (as on anyone's) and their scores add up; game 500.",
        ["The winner: \"The team with the highest score over 500 wins, even if a team goes out first\" [S2] "
         "(`tie=highest`, where plain 500 Rum gives the game to the player who went out); equal highest "
         "scores play another hand.",
         "As 500 Rum otherwise (card values and the empty stock)."]),
    "persian-rummy": (
        "Persian Rummy", "500 Rum for four in partnerships with 56 cards (§8.1 [S2]): four jokers worth 20, "
        "melded only as sets of 3 or 4 jokers (not wild); a meld of four laid down at once counts double "
        "(GC-R03: four jokers 160, three 60 and the fourth 20 later); going out +25; the game is two deals "
        "and the side with the better total scores 50 more.",
        ["\"Winner collects the difference\" is a matter of stakes, not of the score: the result gives both "
         "totals."]),
    "dealers-gambit": (
        "Dealer's Gambit", "500 Rum with 54 cards (52 and two jokers) and a joker for the dealer (§8.1 [S2]). "
        "\"At each deal one joker is removed\"; after the deal it lies face up beside the stock, \"the "
        "dealer's joker\", which \"the dealer may use at any time in the game unless it has been blocked\" "
        "(he takes it into his hand with `take dealer JK`, in his turn, before or after he draws; his turn "
        "goes on); the other joker is shuffled in and dealt. \"After dealing, before anyone looks at their "
        "cards, the dealer nominates the jokers' effect for that hand\": `nominate wild` (\"the joker may be "
        "used as a wild card in any set or sequence; the wild joker is worth zero points\"), `nominate double` "
        "(\"the joker doubles the value of any set; it is placed face up over a meld while it is being "
        "melded; once added, that set is sealed (no further cards can be laid off on it)\") or `nominate "
        "split` (\"the joker is used to split the discard pile on either side of the card selected; the cards "
        "inside the split are removed from the game for the rest of the hand, those outside are added to the "
        "player's hand; as usual the selected card must be used at once\"). \"The dealer's joker can be "
        "'blocked' at any time in the game by placing another joker face down over it. If the dealer's joker "
        "is so blocked it may not be used by the dealer for the remainder of that hand\" (`block JK`). "
        "\"Jokers have a zero value if still in a player's hand.\" Everything else is 500 Rum.",
        ["The nomination is the dealer's move before anyone else's, at every deal (`nominate wild`, "
         "`nominate double`, `nominate split`); the player on his left then plays first.",
         "Double: one joker over a new set of three or four natural cards (`meld 7C 7D 7H JK`): the set's "
         "points are doubled, the joker counts zero, and nothing may be laid off on the set. Jokers are not "
         "wild in a Double hand and double no run (the source says \"set\").",
         "Split (the project's reading of \"on either side of the card selected\"): in place of his draw, a "
         "player holding a joker chooses a pile card X and the end of the split Y above it: `split X to Y`. "
         "X and the cards above Y come into his hand (\"outside\"); the cards above X up to Y (\"inside\") "
         "leave the game for the hand, with the joker; `split X` puts every card above X inside. X must be "
         "melded or laid off at once; a split needs a card above X (else it is a plain `take`). Jokers are "
         "not wild in a Split hand.",
         "Blocking: any player but the dealer, in his turn, while the dealer's joker lies beside the stock "
         "(not yet taken), keeping a card in hand. Both jokers stay there, out of play, for the hand.",
         "A dealer's joker still beside the stock at the end of the hand scores for nobody (jokers count "
         "zero anyway); a new one is laid aside at the next deal, for the next dealer, who nominates afresh.",
         "\"Dealing rotated anti-clockwise\": the engine's seats are numbers in the order of play, so it "
         "cannot tell clockwise from anticlockwise. The deal and the play go from the dealer to seat "
         "dealer+1 and on, with the dealer last; at a table read the seat numbers anticlockwise (to the "
         "dealer's right).",
         "The short game: \"some people only play to a smaller score of 250 points\": `target=250`.",
         "Some play with 56 cards and four jokers: `jokers=4` (one laid aside, three dealt).",
         "The computer players nominate `double` when the dealer holds a set of three or more (to lay the "
         "joker over), else `wild`; never `split`. The heuristic and search players split the pile when the "
         "melds it makes outweigh the cards that come with it (as for a take), and block the dealer's joker "
         "with a doubling or splitting joker they cannot use this turn (a wild one they keep)."]),
    "basic-rummy": (
        "Basic Rummy", "The plain game (§8.2 [S1-rummy]): 10 cards each for two players, 7 for three or four; "
        "draw from the stock or take the top discard (never discarded again in the same turn); ace low only; "
        "the winner scores the cards left in the other hands (A 1, 2-10 face value, J Q K 10), doubled for "
        "going rummy; the stock is re-used once and the second time the hand is a stalemate worth nothing; "
        "game 100, 150 or 200 by the number of players.",
        ["The card taken from the pile: \"If you drew from the discard pile you can not discard that card in "
         "the same round\" [S1-rummy], with no exception for a last card. A meld or lay-off that would leave "
         "a player holding only that card (which he could then neither discard nor play) is not offered "
         "(`TAKEN_CARD_LEFT`); one after which he can lay it off, and so go out, is.",
         "The discard pile is turned over to make the new stock, not shuffled: the turned pile keeps its "
         "order, so a record replays without a second shuffle.",
         "Going out: by melding or laying off the last card, or by discarding it.",
         "The second stalemate: \"when the game detects that none of the players will be able to finish their "
         "hands. This can for example happen when all players have only one card left, and there are no "
         "possible lay offs on the melds on the table\" [S1-rummy] (`stalemate_when_stuck`). The engine "
         "declares it, at the end of a turn, when no card off the table fits a meld on it and either every "
         "player holds one card (a turn brings only one: nobody ever holds the three cards of a meld) or no "
         "three cards off the table make a meld; it does not look further (a position where nobody could "
         "finish for subtler reasons plays on to the empty stock's stalemate).",
         "A stalemate, either one, ends the game: \"all players get 0 points, and the game is considered a "
         "loss for all of them in the statistics\" [S1-rummy] (`stalemate_ends_game`): nobody wins, and the "
         "browser's statistics, `canasta simulate` and `canasta tournament` count a loss for every player."]),
}


def page_parts(rules: RummyRules) -> dict[str, Any]:
    """What a rummy preset's page says of its own (``canasta.text.variant_docs.variant_parts`` adds what it
    changed from its base): the parameters that differ are those that differ from 500 Rum, each with its source."""
    title, summary, choices = NOTES[rules.name]
    return {"family": "rummy", "title": title, "summary": summary, "choices": choices,
            "aliases": sorted(a for a, t in ALIASES.items() if t == rules.name),
            "base": rummy_rules("500-rum", {}), "base_title": "500 Rum", "bounds": PARAMETERS,
            "source": lambda _name, described: described, "source_header": "source",
            "footer": "Moves, notation and scoring of the rummy family: docs/rummy.md. Source tags ([S2], [BcR], "
                      "[S1-rummy]), sections (§) and decisions (D) are explained in docs/sources.md."}
