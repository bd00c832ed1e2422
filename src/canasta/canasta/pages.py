"""The pieces of a Canasta preset's generated page (``canasta rules NAME`` == docs/variants/NAME.md): each preset's
title, summary, the sources of its values and the choices made where sources disagree."""

from __future__ import annotations

from typing import Any

from .rules import PARAMETERS, Rules
from .variants import ALIASES
from .variants import rules as make_rules

# name: (title, summary, {parameter: source of this preset's value}, choices where sources disagree)
NOTES: dict[str, tuple[str, str, dict[str, str], list[str]]] = {
    "classic": (
        "Classic Canasta (four players, two partnerships)",
        "The partnership game of §3 in pagat's reading, with every disagreement between sources "
        "(§6) an option whose default is the recommended reading. See docs/rules/classic.md for "
        "how each rule is implemented.",
        {},
        ["D1 concealed going out: 200 in all (`concealed_going_out_bonus`).",
         "D2 concealed going out waives the minimum only after a stock draw (`concealed_waives_minimum`).",
         "D4 black threes do not freeze the pile and stay as the upcard (`black_three_freezes`, "
         "`black_three_upcard`).",
         "D6 a one-card pile may not be taken with one card in hand (`one_card_pile_rule`).",
         "D7 red threes count minus for a side that never melded (`red_three_positive_if`).",
         "D8 a red three as the last stock card ends the hand at once (`last_card_red_three`).",
         "D10 at least 2 naturals and at most 3 wild cards per meld (`wild_rule`).",
         "D26 after the stock, the discard must be taken only when it fits the side's meld and the pile is "
         "not frozen (`forced_take_after_stock`)."],
    ),
    "two-player": (
        "Two-player Canasta",
        "Classic for two players, each on his own: 15 cards each, draw two and discard one, two canastas "
        "to go out. Scoring is unchanged (GC-S22).",
        {"players": "[P,H,R]", "teams": "each player alone [P,H,R]", "hand_size": "15 [P,H,R,W]",
         "draw_count": "2, discard 1 [P,H,R,W]", "canastas_to_go_out": "2 [P,H,R]; W: 'usually' (D12)",
         "permission": "no partner to ask",
         "last_card_red_three": "the last single card counts as a full draw; a red three among the last "
                                "cards is not replaced [P,R]"},
        ["D12 two canastas to go out (pagat, Hoyle, Rasa) rather than Wikipedia's 'usually'.",
         "A red three drawn as the last stock card is not replaced; if it leaves the player one card he may "
         "not go out with (too few canastas), he passes and the hand ends (the sources are silent).",
         "The rulebooks' relief from penalties for exposed cards and insufficient melds (R) does not arise: "
         "the program never lets either happen."],
    ),
    "three-player": (
        "Three-player Canasta",
        "Classic for three players, each for himself, 13 cards each (Rasa; Wikipedia).",
        {"players": "[W,R]", "teams": "each for himself [R]", "hand_size": "13 [W,R,loverummy] (some deal 11)",
         "permission": "no partner to ask"},
        ["13 cards, the majority reading (loverummy mentions 11)."],
    ),
    "cutthroat": (
        "Cutthroat Canasta (three players)",
        "The first player to take the discard pile plays alone for the rest of the hand; the other two "
        "become partners, combine their melds and score together. A player who goes out before the pile was "
        "ever taken is the lone hand. Red threes count only for their owner (plus or minus by whether his "
        "side melded), each player's own score sets his minimum count, and each has his own score column. "
        "When the stock runs out, play ends with the discard of the player who drew the last card; if the "
        "pile was never taken, each scores alone.",
        {"players": "[R, Bicycle]", "teams": "three score columns, one per player [R, Bicycle]",
         "hand_size": "13 [R]", "draw_count": "2, discard 1 [R, Bicycle]", "canastas_to_go_out": "2 [R]",
         "target": "7,500 [R, Bicycle, loverummy]", "permission": "partners form mid-hand; no source has "
         "them ask", "cutthroat": "[R, Bicycle]", "end_of_stock": "play ends with the last card's discard "
         "[R, Bicycle]"},
        ["When partners combine melds of the same rank, the merged meld may hold more wild cards than the "
         "limit; no source covers this, and the engine lets such a meld stand (it takes no further wilds).",
         "The partner's minimum count: the one who melds first for the partnership meets his own minimum "
         "(R, loverummy)."],
    ),
    "six-player": (
        "Six-player Canasta (two teams of three)",
        "Three packs (162 cards), partners seated alternately, 13 cards each, two canastas to go out, a "
        "150 minimum from 7,500 and a 10,000-point game (Rasa).",
        {"players": "[R]", "decks": "3 × 52 [R]", "jokers": "6 [R]", "hand_size": "13 [R]",
         "canastas_to_go_out": "2 [R]", "red_three_scale": "1-4: 100 each; 5: 1,000; 6: 1,200 [R]",
         "initial_meld": "Classic plus 150 at 7,500 or more [R]", "target": "10,000 [R]"},
        ["D22 all six play with 162 cards (Rasa) rather than 108 cards with players sitting out in turn "
         "(Dummies); 13 cards rather than 11."],
    ),
    "six-player-three-teams": (
        "Six-player Canasta (three teams of two)",
        "As six-player, but three partnerships of two, partners seated opposite (seats 0 and 3, 1 and 4, "
        "2 and 5), and a 7,500-point game (Rasa; Spanish ochob).",
        {"players": "[R]", "teams": "3 partnerships [R; Sp ochob]", "decks": "3 × 52 [R]", "jokers": "6 [R]",
         "hand_size": "13 [R]", "canastas_to_go_out": "2 [R]",
         "red_three_scale": "1-4: 100 each; 5: 1,000; 6: 1,200 [R]",
         "initial_meld": "Classic plus 150 at 7,500 or more [R] (reached only as the game ends)",
         "target": "7,500 [R]"},
        ["D22 as for six-player."],
    ),
    "british": (
        "British Canasta (Classic with Acaba)",
        "Classic, plus Acaba: in his own turn a player may call 'Acaba'; the hand ends at once, the "
        "opponents score 1,500 and his side nothing (its melds and bonuses do not count). In partnership he "
        "may first ask his partner (`ask acaba`) and is bound by the answer (Wikipedia). `acaba=true` adds "
        "the same rule to any preset.",
        {"acaba": "[W]", "acaba_bonus": "1,500 [W] (GC-S17)"},
        ["Wikipedia is the only source; it does not say whether the opponents' own melds count in an Acaba "
         "hand. GC-S17's example has them add exactly 1,500, so they score nothing else."],
    ),
    "uruguayan": (
        "Uruguayan Canasta",
        "Classic plus melds of wild cards only (3 to 7 twos and jokers); seven wild cards make a wild "
        "canasta worth 2,000; the pile is always frozen (a natural pair is always needed) (Scarne; Rasa).",
        {"wild_melds": "[Sc,R]", "wild_canasta_bonus": "2,000 [Sc,R]", "pile_always_frozen": "[Sc,R]"},
        ["D23 Scarne and Rasa's Uruguayan (wild melds, always frozen) rather than Wikipedia's 'exactly like "
         "the original canasta'.",
         "The draw stays one card: an AI-written note reporting 'draw two' was not adopted (§4B)."],
    ),
    "cuban": (
        "Cuban Canasta",
        "13 cards each; the pile is always frozen; no meld may pass 7 cards; melds of wild cards are "
        "allowed, and a wild canasta is worth 4,000 (seven twos), 3,000 (four jokers and three twos) or "
        "2,000; red threes score 100 / 300 / 500 / 1,000 for one to four, plus only for a side with a "
        "canasta; black threes may not be discarded in the first round, and those found in a taken pile are "
        "laid aside for the side (5 each, 100 for all four); the minimum is 150 from 5,000; going out scores "
        "100 with no concealed bonus; game 7,500 (Rasa; Wikipedia).",
        {"hand_size": "13 [R]", "pile_always_frozen": "[R,W]", "max_meld_size": "7 [R]",
         "wild_melds": "[R]", "wild_canasta_bonus": "2,000 [R]",
         "wild_canasta_bonus_by_jokers": "seven twos 4,000; four jokers and three twos 3,000 [R]",
         "red_three_scale": "1: 100, 2: 300, 3: 500, 4: 1,000 [R,W]",
         "red_three_positive_if": "a canasta [R,W]", "black_three_first_round_discard": "[R,W]",
         "pile_black_threes": "removed from play, 5 each, 100 for all four [R,W]",
         "initial_meld": "Classic plus 150 at 5,000 or more [R,W]", "target": "7,500 [R,W]",
         "concealed_going_out_bonus": "no concealed bonus: going out is 100 either way [R]"},
        ["Canastas to go out: no source says; one, as in Classic.",
         "'The first round' is read as each player's first turn of the hand."],
    ),
    "samba": (
        "Samba (three packs, sequences)",
        "Three packs with six jokers (162 cards), 15 cards each, draw two and discard one. Besides groups, "
        "a side may meld sequences of 3 to 7 cards of one suit (4 low, ace high; no wild cards, twos or "
        "threes); seven in sequence are a samba (1,500) and take nothing more. A group holds at most two "
        "wild cards and none may be added to a finished canasta; a side may hold several melds of one rank. "
        "The pile is taken with a natural pair, or, when it is not frozen, by adding its top card to a "
        "meld smaller than a canasta (a sequence included; never to start one). Two canastas to go out; "
        "going out 200 (no concealed bonus); red threes 100 each, all six 1,000, minus without two "
        "canastas; the minimum is 160 from 7,000; game 10,000 (Hoyle; Rasa; Wikipedia).",
        {"decks": "3 [H,R,W,Br]", "jokers": "6 [H,R,W,Br]", "hand_size": "15 [H,R,W]",
         "draw_count": "2, discard 1 [H,R,W,Br]", "wild_rule": "at most 2 wild cards in a group [H,R,W]",
         "sequences": "[H,R,W]", "several_melds_per_rank": "[H]; no limit [R]",
         "wilds_onto_canasta": "no wild card onto a finished canasta [R]",
         "unfrozen_take_with_natural_plus_wild": "a natural pair, or adding to a meld [H,R,HSW]",
         "take_onto_canasta": "only onto a meld smaller than a canasta [H,R,HSW]",
         "canastas_to_go_out": "2 [H,R,HSW]", "going_out_bonus": "200 [H,HSW]",
         "concealed_going_out_bonus": "no concealed bonus [H,HSW]",
         "red_three_scale": "100 each, all six 1,000 [H,W,Br,HSW]",
         "red_three_positive_if": "two canastas [HSW]", "initial_meld": "Classic plus 160 from 7,000 [H,HSW]",
         "target": "10,000 [H,W,Br,HSW]",
         "failed_permission_penalty": "100 for asking to go out and then not going out (§7 X8) [Sp]"},
        ["D13 the minimum from 7,000 is 160 (Hoyle, HSW); 150 (Wikipedia, Britannica) is "
         "`--option 'initial_meld=[[-1000000000,15],[0,50],[1500,90],[3000,120],[7000,150]]'`.",
         "D30 any two canastas go out (Hoyle, Rasa, HSW). The older Wikipedia text (a machine paraphrase) has "
         "'one of the two canastas must be the samba or a natural canasta': that reading is "
         "`--option natural_canastas_to_go_out=1` (a samba holds no wild card, so it counts as natural).",
         "D14 the pile freezes as in Classic (Hoyle), not 'always frozen' (`pile_always_frozen`).",
         "A natural pair with the top card may start a new meld of that rank or join one of the side's "
         "melds of it (naturals may join a finished canasta; the top card alone may not).",
         "Two melds of one rank may be combined (`combine K/2 on K`) when the result keeps the wild-card "
         "limits; a wild card never meets a finished canasta that way either.",
         "A group takes its cards in suit order (spades, hearts, diamonds, clubs): meld a sequence first "
         "when one of the cards is wanted for both. A discarded natural is named with its suit (`discard 9H`)."],
    ),
    "bolivia": (
        "Bolivia",
        "Samba with melds of wild cards: 3 to 7 twos and jokers, seven of them a bolivia (2,500) to which "
        "nothing may be added. A sequence of seven is an escalera (1,500), and one of the two canastas a side "
        "needs to go out must be an escalera. Black threes left in a hand cost 100 each (melded on going "
        "out, 5 each); red threes count plus only for a side with two canastas; the minimum is 150 from "
        "7,000; game 15,000 (Hoyle; Scarne; Rasa; Wikipedia).",
        {"wild_melds": "3 to 7 wild cards [H,Sc,R]", "wild_canasta_bonus": "a bolivia, 2,500 [H,Sc,R,W]",
         "go_out_needs_sequence": "[H,Sc,R,W]", "black_three_in_hand": "100 [H,Sc,R,W]",
         "initial_meld": "Classic plus 150 from 7,000 [H,Sc,R]", "target": "15,000 [H,Sc,R,W]",
         "red_three_positive_if": "two canastas [Sc,W]"},
        ["D18 a mixed group holds at most two wild cards, as in Samba (Hoyle), not three or any number.",
         "Everything else as Samba (see its page), including the choices listed there."],
    ),
    "brazilian": (
        "Brazilian Canasta",
        "Bolivia with any two canastas to go out and late-game openings: from 7,000 the opening must include "
        "a canasta, from 8,000 a canasta and 200 points in all (Rasa's reading), from 9,000 a natural "
        "canasta. The pile is never taken for the opening. A sequence of fewer than five cards left on the "
        "table at the end of a hand costs 1,000; a wild canasta is worth 2,000; red threes score 100 each to "
        "four, 1,000 for five and 1,200 for six, plus only with a canasta; a player must ask his partner's "
        "permission to go out; game 10,000 (Hoyle; Rasa; Wikipedia).",
        {"go_out_needs_sequence": "any two canastas [H]", "pile_needs_opened_side": "never for the opening [H,R]",
         "initial_meld": "Bolivia's to 6,995; then see opening_canasta [H,R,W]",
         "opening_canasta": "a canasta from 7,000, a natural canasta from 9,000 [H,R,W]",
         "short_sequence_penalty": "1,000 [H,R,W]", "wild_canasta_bonus": "2,000 [H,R,W]",
         "red_three_scale": "1-4: 100 each; 5: 1,000; 6: 1,200 [H,R,W]",
         "red_three_positive_if": "a canasta [H,R,W]", "permission": "must always ask [H,R]",
         "target": "10,000 [H,R,W]", "black_three_in_hand": "100, as Bolivia [H]",
         "sequence_extends_going_out": "[H,R,W]"},
        ["D16 from 5,000 to 6,995 the minimum is 120 (Hoyle, by inheritance), not Wikipedia's 150.",
         "GC-I14 from 8,000 'a canasta worth at least 200' (Hoyle) is read as Rasa's 'a canasta plus 200 "
         "in all'.",
         "D17 a wild canasta is 2,000 (Hoyle, Rasa, Wikipedia), not 2,500.",
         "D29 a sequence of fewer than five cards is short and costs 1,000 (Hoyle, Rasa); Wikipedia's 'five "
         "cards or less' is `--option short_sequence_under=6`.",
         "Adding to the ends of an escalera when going out (Hoyle): a card added past seven obliges the "
         "player to go out that turn; the engine offers it only when he still can."],
    ),
    "chilean": (
        "Chilean Canasta (Tranca)",
        "The sources give only a summary: three packs (or four, with eight jokers), sequences as in Samba, "
        "melds of wild cards (Rasa; Wikipedia, which names sambas and bolivias without values). Everything "
        "else is Bolivia's, the nearest documented relative.",
        {"wild_melds": "[R]", "sequences": "Samba style [R,W]",
         "decks": "3; 4 with `--option decks=4 --option jokers=8` [R,W]"},
        ["Gap: cards dealt, draw, minimum counts, canastas to go out, bonuses, red and black threes and the "
         "game target are not given by any source; Bolivia's values are used (§4B, §10 item 4).",
         "Everything else as Bolivia (see its page)."],
    ),
    "italian": (
        "Italian Canasta",
        "Samba-based: the pile is always frozen; twos may be melded as a rank of their own, and while the "
        "side's meld of twos is unfinished it may not use twos as wild cards; openings are natural (no wild "
        "cards) with the minimum rising to 160 at 5,000, 180 at 7,500 and 200 at 10,000; two canastas to go "
        "out, of which a canasta of twos does not count; going out 300; red threes 100 each to three, 200 "
        "each from four; a canasta of seven twos 3,000 and one of twos with jokers 2,000 (side going out "
        "only); five natural canastas 2,000, four natural and one mixed 1,000, ten canastas 2,000; game "
        "12,000 (Rasa; Wikipedia; HSW).",
        {"pile_always_frozen": "[R,W]", "twos_as_rank": "[R,W]", "natural_opening": "[R]",
         "initial_meld": "[R]", "wild_canastas_count_to_go_out": "a canasta of twos does not count [R]",
         "going_out_bonus": "300 [R,HSW]", "concealed_going_out_bonus": "300: no concealed bonus [R]",
         "red_three_scale": "1-3: 100 each; 4 or more: 200 each [R]", "twos_canasta_bonus": "3,000 [R,HSW]",
         "mixed_twos_canasta_bonus": "2,000 [R,HSW]", "canasta_set_bonuses": "[R,HSW]",
         "target": "12,000 [R,HSW]", "upcard_buries": "[R,W,HSW]"},
        ["D15 game 12,000 (Rasa, HSW); Wikipedia's 15,000 is `--option target=15000`.",
         "Red threes count plus only with two canastas, as in Samba (Rasa is silent on the sign).",
         "Start of a hand: the cards go face down under the whole upcard (a wild card or red three turned "
         "first stays face up as in Classic); an ace counts 1, a black three 3, and nobody sees the buried "
         "cards until someone takes the pile. The sources do not say whether buried wild cards freeze the "
         "pile: they do not (nobody knows they are there).",
         "Everything else as Samba (see its page), including the choices listed there."],
    ),
    "modern-american": (
        "Modern American Canasta (pagat's profile)",
        "The American partnership game of the 1950s as played today (pagat; Canasta League of America; WCA). "
        "13 cards each and no upcard: the discard pile starts empty. Every three, red or black, is laid out "
        "and replaced (a player whose side has not opened may keep one, for a Straight). The opening needs 125 (below "
        "3,000, negative scores too), 155 (from 3,000) or 180 "
        "(from 5,000), must include a natural meld of three or more or a meld of wild cards, and the top "
        "card of a taken pile does not count; a Splash (a complete natural or wild canasta laid down from "
        "the hand) opens with no minimum. The first side to open from its hand is dealt 4 bonus cards from "
        "the stock, the second 3: they go to the opener after his discard, for use from his next turn; "
        "there are none once the stock holds fewer than 9 cards (the turn card has been drawn) and none for "
        "an opening made by taking the pile. Melds hold 3 to 7 cards, at least 2 natural and at most 2 "
        "wild; after the side's opening turn wild cards join a meld only if it then has 5 naturals (the "
        "rule of five); sevens never take wild cards, aces only in the opening turn. Melds of 3 to 7 wild "
        "cards are allowed, and while one is unfinished the side's wild cards go nowhere else. Once any "
        "side finishes a canasta of a rank, that rank is dead: nobody melds it or takes a pile topped by "
        "it. The pile always needs a natural pair. Going out needs two canastas and a final discard (not "
        "a three); a player may ask permission once per hand. If the last stock card is a three, the hand "
        "ends with the three in hand (-5). An unopened player holding 14 cards after drawing may lay down a "
        "special hand, which ends the hand. Scoring: natural canasta 500, mixed 300, natural 7s or aces "
        "2,500, wild canasta 2,000 (2,500 with all four jokers, 3,000 all twos); going out 100, no "
        "concealed bonus; threes per colour 100 / 300 / 500 / 1,000 for one to four, minus with no "
        "canasta, nothing with one, plus with two or more; a side with no canasta scores its melds minus; "
        "an unfinished meld of aces or sevens -2,500, of wild cards -2,000 (-2,500 holding all four "
        "jokers); each player holding 3 or more aces, or 3 or more sevens, -1,500 for each besides their "
        "card values; a special hand scores only its value for the side that laid it down. Game 8,500. "
        "The Canasta League of America's profile is `modern-american-cla` (D20: never mix the two).",
        {"wild_excess_penalty": "none stated: §7 X7 is Classic's [S1]",
         "hand_size": "13 [P,CLA,WCA]", "upcard": "no upcard, the pile starts empty [P]",
         "threes_laid_out": "all threes, red and black, laid out and replaced [CLA,P]",
         "wild_rule": "at least 2 naturals, at most 2 wild cards [CLA,WCA]", "max_meld_size": "7 [P]",
         "wild_melds": "3 to 7 wild cards [CLA,P]", "rule_of_five": "[CLA,P]",
         "pure_ranks": "sevens never take wild cards [CLA,P,WCA] (GC-M17)",
         "pure_after_opening_ranks": "aces take wild cards only in the opening [CLA,P,WCA] (GC-M17)",
         "wild_meld_blocks_wilds": "[CLA,P]", "dead_ranks": "[CLA,P] (GC-P12)",
         "initial_meld": "125 below 3,000 (negative scores too), 155 from 3,000, 180 from 5,000 [CLA,P,NVSO]",
         "top_card_counts": "the top discard does not count [CLA] (GC-I11)",
         "opening_needs_meld": "a natural meld of 3 or more, or a meld of wild cards [P] (GC-I11)",
         "splash": "[P only]", "bonus_cards": "4 to the first side to open, 3 to the second [CLA,P,WCA]",
         "bonus_cards_stock": "none after the turn card, 9th from the bottom [CLA,P,WCA]",
         "special_hands": "straight 3,000; pairs 2,500; pairs with twos, sevens or aces 2,000; garbage 2,000 "
                          "[P] (GC-S20)",
         "pile_always_frozen": "a natural pair is always needed [CLA,P] (GC-P12)",
         "canastas_to_go_out": "2 [CLA,P,WCA]", "go_out_needs_discard": "[CLA,P] (GC-G07)",
         "permission_once": "[P]", "rank_canasta_bonus": "natural 7s 2,500, natural aces 2,500 [CLA,P]",
         "wild_canasta_bonus": "2,000 [CLA,P]",
         "wild_canasta_bonus_by_jokers": "all twos 3,000; four jokers and three twos 2,500 [CLA,P]",
         "concealed_going_out_bonus": "no concealed bonus: going out is 100 either way [CLA,P]",
         "red_three_scale": "1: 100, 2: 300, 3: 500, 4: 1,000, for each colour apart [CLA,P] (GC-S10)",
         "red_three_positive_if": "no canasta minus, one nothing, two or more plus [CLA,P] (GC-S10)",
         "last_card_red_three": "the last stock card is a three: play stops, it counts -5 [CLA,P] (GC-E04)",
         "unfinished_penalties": "aces 2,500, sevens 2,500, wild cards 2,000 [CLA,P] (GC-S08)",
         "four_jokers_wild_meld_penalty": "2,500 [P] (CLA: 2,000; D20)",
         "hand_penalties": "3 or more aces, 3 or more sevens: 1,500 each, per player, besides the cards' "
                           "values [CLA,P] (GC-S08, GC-S09)",
         "melds_minus_without_canasta": "[CLA,P] (GC-S11)",
         "undeclared_red_three_penalty": "a three left in hand costs 5 [CLA,P] (GC-E04)",
         "target": "8,500 [CLA,P,D,NVSO]"},
        ["D20 pagat's profile: garbage 2,000, an unfinished wild meld with all four jokers -2,500, the opening "
         "may rest on a meld of wild cards instead of a natural one, the Splash, permission asked once per "
         "hand. The CLA's values are the `modern-american-cla` preset; the two are not mixed.",
         "Special hands (thinly sourced: the sources give only their names and values, so these definitions are "
         "this program's readings). Garbage: two four-of-a-kinds and two three-of-a-kinds of four different "
         "natural ranks (4 to ace), no wild cards. Pairs: seven pairs of seven different natural ranks, none "
         "of them sevens or aces, no wild cards. Pairs with twos, sevens or aces: seven pairs of seven "
         "different ranks with no jokers, at least one pair of twos, sevens or aces (a pair of twos counts as "
         "a pair, not as wild cards). Two pairs of one rank (four kings) do not make two pairs. Straight: one "
         "card of each rank from the three to the ace and two wild cards (twos or jokers). When 14 cards form more "
         "than one, the higher value is taken "
         "(`canasta.canasta.special_hands.special_hand_of`). The declaring side scores the hand's value and nothing "
         "else (its threes and cards do not count); the other side scores its hand normally (GC-S20).",
         "The three kept for a Straight (pagat: one three may be kept while the side has not opened): the "
         "first three a player gets while his side has not opened and he holds none stays in his hand as an "
         "ordinary card (dealt: no replacement is dealt for it; drawn: it is the card drawn). He lays it out "
         "whenever he likes with `layout` (drawing a replacement), and it is laid out at his next draw once "
         "his side has opened. It may never be discarded, and while he holds it he cannot go out. The sources "
         "do not say whether keeping is a choice at the moment the three arrives; here keeping is the "
         "default and laying out the choice, which leaves the player the same options one move later.",
         "Threes: each colour is scored apart on 100 / 300 / 500 / 1,000 (two red and one black: 300 + 100, "
         "GC-S10); the sign counts every canasta, a wild one included. A three left in hand (a kept one, or "
         "the last stock card, GC-E04) costs 5, red or black.",
         "An unfinished meld of aces costs 2,500 whether or not it holds wild cards (a mixed ace meld can "
         "only be made in the opening turn): the sources' summary says 'natural-ace meld', read here as any "
         "meld of aces, since the penalty is for aces begun and not finished. An unfinished meld of wild "
         "cards holds all four jokers when it has four jokers.",
         "The penalties add up and are charged per player (GC-S08, GC-S09): a player with three aces and "
         "three sevens pays 3,000, two partners with three aces each pay 1,500 each; the cards' values are "
         "deducted too. A scorekeeper who gives one `hand` for the side is charged as one player "
         "(`canasta score` takes `hands`, one per player).",
         "A side with no canasta (of any kind) scores all its melded cards minus, unfinished wild melds "
         "included (GC-S11).",
         "Bonus cards: dealt to the opener after his discard, so he uses them from his next turn; the first "
         "side to open from the hand gets 4 and the second 3; an opening made by taking the pile gets none.",
         "SWAD (no seven, wild card, ace or dead card discarded onto an empty pile) is CLA only and is not "
         "part of this profile.",
         "The opening turn (sources silent on its edges): every meld made in the turn a side opens may take "
         "wild cards within the limits, including melds made after a taken pile is picked up; the rule of "
         "five and the aces rule apply from the side's next turn. The meld a take makes (a natural pair and "
         "the top card) counts as the natural meld the opening needs, though the top card's points do not.",
         "Bonus cards come from the top of the stock after the opener's discard; a three among them is laid "
         "out and replaced like any drawn three.",
         "Dead ranks: once either side finishes a canasta of a rank, no card of that rank may be melded by "
         "anybody (an opponent's unfinished meld of it stays as it is) and a pile topped by it cannot be "
         "taken. A finished canasta takes no more cards anyway: melds hold seven at most.",
         "A side with an unfinished meld of wild cards may not go out (it must be a canasta first); its wild "
         "cards go nowhere else meanwhile (canastaconnection; CLA, P).",
         "Engine limit: whether an unopened side could go out in the same turn (two canastas from the hand) "
         "is answered no unless its melds already hold the natural meld the opening needs, so such a rare "
         "going-out may be refused; a move is never allowed that leaves no way to end the turn."],
    ),
    "modern-american-cla": (
        "Modern American Canasta (Canasta League of America profile)",
        "Modern American as the Canasta League of America plays it, where it differs from pagat's profile "
        "(`modern-american`, D20): the opening must include a clean triple (a natural meld of three or "
        "more; a meld of wild cards does not do); no Splash; garbage is the only special hand, worth 3,000; "
        "an unfinished meld of wild cards costs 2,000 however many jokers it holds; permission to go out "
        "may be asked more than once; and SWAD: no seven, wild card, ace or dead card may be discarded onto "
        "an empty pile unless nothing else can be. Everything else is as the pagat profile (see its page).",
        {"opening_needs_meld": "a clean (natural) triple [CLA,WCA] (GC-I11)", "splash": "no Splash [P only]",
         "special_hands": "garbage 3,000 [CLA] (GC-S20); the CLA's other ten hands and the Dream Hands are "
                          "not implemented",
         "four_jokers_wild_meld_penalty": "0: the wild-meld entry, 2,000 [CLA] (D20)",
         "permission_once": "the once-per-hand limit is pagat's [P]", "swad": "[CLA]"},
        ["D20 the CLA's readings throughout; pagat's are the `modern-american` preset.",
         "Gap: the CLA has eleven special hands and Dream Hands (8,500, winning the game at once); the sources "
         "name only garbage with its value, so only garbage is implemented (as defined on the "
         "`modern-american` page, a thinly sourced reading).",
         "Everything else as the pagat profile (see its page), including the choices listed there."],
    ),
    "hand-and-foot": (
        "Hand and Foot",
        "An American partnership game with no standard rules (pagat says so); this preset is Wikipedia's "
        "baseline (§4C, D21). One pack more than there are players, jokers in (five packs and ten "
        "jokers for four). Each player gets a hand of 11 cards and a face-down foot of 11 that nobody, its "
        "owner included, may look at until he picks it up. Draw two, discard one. A player who empties his "
        "hand by melding picks up his foot at once and plays on; one who empties it by his discard picks it "
        "up then and plays it from his next turn. Going out is emptying the hand once the foot is picked up: "
        "it needs seven canastas for the side, three of them natural (alone: three, one natural), and the "
        "partner's yes. The pile always needs a natural pair and the taker gets only its top five cards. Red "
        "threes are not laid out: they stay in the hand, may be discarded (stopping the next player), and "
        "cost 300 each when left in a hand or foot; black threes are never melded. The opening needs 50, "
        "90, 120 and 150 in the four hands of a game; the highest total after four hands wins.",
        {"wild_excess_penalty": "none stated: §7 X7 is Classic's [S1]",
         "decks": "players + 1 [W]; 5 packs for 4 players [7oaksrb (pagat-derived), ourpastimes]",
         "jokers": "2 per pack, all in [W, 7oaksrb, ourpastimes]",
         "foot_size": "11 [W, klassa, nwpages]; 13 [7oaksrb, reference.com]",
         "draw_count": "2, discard 1 [W and most HF-x]",
         "threes_laid_out": "red threes stay in the hand: -300 if left there [W]",
         "black_threes_meldable": "never melded; 5 in hand or foot [W]",
         "pile_always_frozen": "a natural pair is needed [W]",
         "pile_take_limit": "the top 5 cards [W]; house rules 3, 7 or all (D21)",
         "canastas_to_go_out": "7 in partnerships, 3 alone [W]",
         "natural_canastas_to_go_out": "3 of the 7 (1 of the 3 alone) [W]",
         "permission": "the partner must say yes [W]",
         "undeclared_red_three_penalty": "300 [W]; 500 [klassa, chantastic]",
         "red_three_scale": "red threes are never laid out, so never score plus [W]",
         "initial_meld_by_hand": "50/90/120/150 [W, rogerdem, landoware]; 60/90/120/150 [positivelyorganic, "
                                 "drwingnut]",
         "concealed_going_out_bonus": "100: no concealed bonus [W]",
         "hands_per_game": "four hands, implied by the four thresholds [W]; 10,000 points [chantastic]"},
        ["D21 Wikipedia's profile as the baseline, every house rule an option: a 13-card hand and foot "
         "(`--option hand_size=13 --option foot_size=13`); the pile's top 3 or 7 cards, or all of it "
         "(`pile_take_limit=3`, `7`, `0`); red threes -500 (`undeclared_red_three_penalty=500`); fewer "
         "canastas to go out, e.g. one natural and one more (`canastas_to_go_out=2 natural_canastas_to_go_out=1`); "
         "thresholds 60/90/120/150 (`initial_meld_by_hand=[60,90,120,150]`); thresholds by score rather than "
         "by hand (chantastic: `initial_meld_by_hand=[] initial_meld=[[0,50],[2500,90],[5000,120],[7500,150]] "
         "hands_per_game=0 target=10000`).",
         "Players: `canasta.rules(\"hand-and-foot\", players=N)` (2 to 7) takes N + 1 packs with their jokers. "
         "Four and six play in two teams (six as two teams of three; `teams=3` gives three pairs); other "
         "numbers play each for himself: 1 natural + 2 more canastas to go out, nobody to ask.",
         "The foot: picked up only when the hand is empty. Before it is picked up nobody can go out, so "
         "emptying the hand needs no canastas and asking permission is not offered; but the side must have "
         "opened (met the minimum with this turn's melds) before its player melds his last card into the foot. "
         "A hand emptied by the last card's discard takes the foot for the next turn. Cards of a foot never "
         "picked up count minus with the hand's (W: cards left in hand and foot count against the side).",
         "D28 natural canastas: a canasta with no wild card; more natural canastas than the three needed count "
         "towards the other four (Wikipedia's 'three natural and four mixed' does not say). Read literally, "
         "so that an extra natural canasta does not stand in for a mixed one: `--option "
         "mixed_canastas_to_go_out=4` (alone: `mixed_canastas_to_go_out=2`).",
         "Red threes: a red three dealt or drawn stays in the hand (no replacement card); one taken with the "
         "pile joins the hand; it is discarded as the card itself (`discard 3H`); on top of the pile it stops "
         "the next player taking it (like a black three). A red three or wild card turned up at the deal is "
         "covered as in Classic (the sources are silent).",
         "Thinly documented, Classic kept: wild cards per meld (house pages say at most 3, fewer than the "
         "naturals, or up to half: D10's Classic limit of 3 with 2 naturals is kept), card values, canasta "
         "bonuses (500/300 [W]; house bonuses such as 1,500 for sevens are not offered), the end of the stock "
         "(the hand ends as in Classic), and a tie after four hands (`tie`: play on, so a fifth hand at 150). "
         "The +100 for cutting exactly 22 cards (X13, a house rule) is not offered: the program deals."],
    ),
}


# Presets built on another: a parameter's source is looked up along the chain (§4B "inherits").
PARENT = {"bolivia": "samba", "brazilian": "bolivia", "chilean": "bolivia", "italian": "samba",
          "modern-american-cla": "modern-american"}
PARENT_LABEL = {"modern-american": "pagat's profile"}


def _source_of(preset: str, name: str) -> str:
    while True:
        source = NOTES[preset][2].get(name)
        if source is not None or preset not in PARENT:
            return source or ""
        preset = PARENT[preset]
        source = NOTES[preset][2].get(name)
        if source is not None:
            return f"{source} (as {PARENT_LABEL.get(preset, preset.capitalize())})"


def page_parts(rules: Rules) -> dict[str, Any]:
    """What a Canasta preset's page says of its own (``canasta.text.variant_docs.variant_parts`` adds what it
    changed from its base): the parameters that differ are those that differ from Classic, each with the source
    of the preset's value (along the presets it is built on)."""
    title, summary, _sources, choices = NOTES[rules.name]
    return {"family": "canasta", "title": title, "summary": summary, "choices": choices,
            "aliases": sorted(a for a, t in ALIASES.items() if t == rules.name),
            "base": make_rules("classic"), "base_title": "Classic", "bounds": PARAMETERS,
            "source": lambda name, _described: _source_of(rules.name, name), "source_header": "source (Classic)",
            "footer": "Source tags ([P], [H], ...), sections (§), decisions (D) and worked examples (GC) are "
                      "explained in docs/sources.md."}
