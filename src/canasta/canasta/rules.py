"""The rules object: every parameter of a Canasta game as data (§9 of docs/sources.md).

Each field carries its meaning, its allowed values and its source in ``PARAMETERS``; presets live in
``variants.py``. The engine asks this object questions instead of testing variant names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from ..bounds import BOOL, Bound, Choice, Int, Label, Options, Row, Seq, parameter_rows, rules_spec
from .moves import SPECIAL_HAND_NAMES

# (lower bound of the side's cumulative score, minimum count), §3.4.
CLASSIC_THRESHOLDS: tuple[tuple[int, int], ...] = ((-(10**9), 15), (0, 50), (1500, 90), (3000, 120))


@dataclass(frozen=True)
class Rules:
    name: str = "classic"
    # Players and pack (§2, §3.1)
    players: int = 4
    teams: int = 2
    decks: int = 2
    jokers: int = 4
    hand_size: int = 11
    foot_size: int = 0
    draw_count: int = 1
    upcard: bool = True
    threes_laid_out: str = "red"
    # Melds (§3.3, D10)
    min_naturals: int = 2
    wild_rule: str = "max3"
    wild_melds: bool = False
    wild_meld_max: int = 7
    max_meld_size: int = 0
    sequences: bool = False
    sequence_extends_going_out: bool = False
    several_melds_per_rank: bool = False
    wilds_onto_canasta: bool = True
    twos_as_rank: bool = False
    rule_of_five: int = 0
    pure_ranks: tuple[int, ...] = ()
    pure_after_opening_ranks: tuple[int, ...] = ()
    wild_meld_blocks_wilds: bool = False
    dead_ranks: bool = False
    black_threes_meldable: bool = True
    # Opening (§3.4, D9, D2)
    initial_meld: tuple[tuple[int, int], ...] = CLASSIC_THRESHOLDS
    concealed_waives_minimum: str = "stock_only"
    concealed_allows_pile: bool = True
    natural_opening: bool = False
    opening_canasta: tuple[tuple[int, str], ...] = ()
    initial_meld_by_hand: tuple[int, ...] = ()
    top_card_counts: bool = True
    opening_needs_meld: str = "none"
    splash: bool = False
    bonus_cards: tuple[int, ...] = ()
    bonus_cards_stock: int = 0
    special_hands: tuple[tuple[str, int], ...] = ()
    # Discard pile (§3.5, D3–D6)
    pile_always_frozen: bool = False
    black_three_freezes: bool = False
    black_three_upcard: str = "stays"
    unfrozen_take_with_natural_plus_wild: bool = True
    unfrozen_take_by_adding: bool = True
    one_card_pile_rule: bool = True
    take_onto_canasta: bool = True
    # Going out (§3.7, D11)
    canastas_to_go_out: int = 1
    natural_canastas_to_go_out: int = 0
    mixed_canastas_to_go_out: int = 0
    go_out_needs_discard: bool = False
    go_out_needs_sequence: bool = False
    wild_canastas_count_to_go_out: bool = True
    permission: str = "optional_binding"
    permission_once: bool = False
    swad: bool = False
    # Stock runs out (§3.8, D8, D26)
    last_card_red_three: str = "end_no_meld"
    end_of_stock: str = "play_on"
    forced_take_after_stock: str = "matches_own_meld_unfrozen"
    # Scoring (§3.6, §3.9, D1, D7)
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    wild_canasta_bonus: int = 2000
    wild_canasta_bonus_by_jokers: tuple[tuple[int, int], ...] = ()
    sequence_bonus: int = 1500
    rank_canasta_bonus: tuple[tuple[int, int], ...] = ()
    unfinished_penalties: tuple[tuple[int, int], ...] = ()
    four_jokers_wild_meld_penalty: int = 0
    hand_penalties: tuple[tuple[int, int, int], ...] = ()
    melds_minus_without_canasta: bool = False
    twos_canasta_bonus: int = 0
    mixed_twos_canasta_bonus: int = 0
    canasta_set_bonuses: tuple[tuple[str, int, int, int], ...] = ()
    short_sequence_penalty: int = 0
    short_sequence_under: int = 5
    black_three_in_hand: int = 5
    upcard_buries: bool = False
    red_three_scale: tuple[int, ...] = (0, 100, 200, 300, 800)
    red_three_positive_if: str = "meld"
    going_out_bonus: int = 100
    concealed_going_out_bonus: int = 200
    undeclared_red_three_penalty: int = 500
    # Irregularities a scorekeeper enters (§7)
    wild_excess_penalty: int = 100
    failed_permission_penalty: int = 0
    withdrawn_opening_raise: int = 0
    exact_cut_bonus: int = 0
    # Variant and house rules (§4A, §4B, §5)
    cutthroat: bool = False
    acaba: bool = False
    acaba_bonus: int = 1500
    pile_blocked_for_canastas: bool = False
    jokers_discardable: bool = True
    pile_needs_opened_side: bool = False
    canastas_to_win: int = 0
    recycle_pile: bool = False
    pile_take_limit: int = 0
    concealed_canasta_bonus: int = 0
    black_three_first_round_discard: bool = True
    pile_black_threes: str = "hand"
    black_three_bonus_scale: tuple[int, ...] = (0, 5, 10, 15, 100)
    # End of game (§3.10)
    target: int = 5000
    hands_per_game: int = 0
    tie: str = "play_on"
    overrides: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled through the constructor (process pools send rules to workers): restoring the fields one by
        # one, pickle's default, cannot work on the frozen class once mypyc has compiled it.
        return (Rules, tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    # Derived questions the engine asks.
    @property
    def pack_size(self) -> int:
        return self.decks * 52 + self.jokers

    def side_of(self, seat: int) -> int:
        """Seats alternate between sides: partners sit opposite (§3.1)."""
        return seat % self.teams

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(range(side, self.players, self.teams))

    @property
    def partnerships(self) -> bool:
        return self.players > self.teams

    def minimum_count(self, score: int, hand_number: int = 1) -> int:
        if self.initial_meld_by_hand:  # Hand and Foot: by the hand's number (§4C)
            by_hand = self.initial_meld_by_hand
            return by_hand[min(hand_number, len(by_hand)) - 1]
        need = self.initial_meld[0][1]
        for lower, value in self.initial_meld:
            if score >= lower:
                need = value
        return need

    def opening_canasta_needed(self, score: int) -> str | None:
        """None, "canasta" or "natural": the kind of canasta an opening at this score must include."""
        need = None
        for lower, kind in self.opening_canasta:
            if score >= lower:
                need = kind
        return need

    def max_wilds(self, naturals: int) -> int:
        """The most wild cards a meld with this many naturals may hold (D10)."""
        rule = self.wild_rule
        if rule == "max3":
            return 3
        if rule == "max2":
            return 2
        if rule == "le_naturals":
            return naturals
        return naturals - 1  # lt_naturals

    def wild_canasta_value(self, jokers: int) -> int:
        return dict(self.wild_canasta_bonus_by_jokers).get(jokers, self.wild_canasta_bonus)

    @cached_property
    def keeps_a_three(self) -> bool:
        """Modern American with the Straight (pagat): a player whose side has not opened may keep one three
        in his hand instead of laying it out (§4C)."""
        return self.threes_laid_out == "all" and any(name == "straight" for name, _ in self.special_hands)

    @cached_property
    def plain_canasta_count(self) -> bool:
        """Every canasta counts towards going out, with no kind required (Classic)."""
        return self.wild_canastas_count_to_go_out and not self.go_out_needs_sequence

    # The ruleset's code path, chosen once per Rules object: each flag groups the questions only some
    # variants ask, so that the move generator of the others (Classic first) does not ask them.
    @cached_property
    def wilds_limited(self) -> bool:
        """Some rule keeps the player's wild cards from his melds this turn (Italian's natural opening and
        melds of twos, Modern American's unfinished meld of wild cards)."""
        return self.natural_opening or self.twos_as_rank or self.wild_meld_blocks_wilds

    @cached_property
    def pure_melds(self) -> bool:
        """Some rank takes no wild card, or takes them only in the opening turn (Modern American)."""
        return bool(self.pure_ranks or self.pure_after_opening_ranks)

    @cached_property
    def greedy_opening_inexact(self) -> bool:
        """Modern American's limits (pure sevens, a wild meld that blocks wild cards, a natural meld
        required) make the greedy opening count only a bound: the search decides."""
        return bool(self.pure_ranks or self.wild_meld_blocks_wilds or self.opening_needs_meld != "none")

    @cached_property
    def wild_caps(self) -> tuple[int, ...]:
        """``max_wilds`` for 0..250 naturals, precomputed for the move generator."""
        return tuple(self.max_wilds(n) for n in range(251))

    def meld_ok(self, naturals: int, wilds: int) -> bool:
        return naturals >= self.min_naturals and wilds <= self.max_wilds(naturals)

    def to_dict(self) -> dict[str, Any]:
        """The preset name plus the overrides that made this object: what records store."""
        return rules_spec(self.name, self.overrides)

    @cached_property
    def spec(self) -> dict[str, Any]:
        """``to_dict()``, made once and kept with this object: the lean views (``canasta.view.LeanView``) share it
        as their ``rules`` field. Read it, never change it."""
        return self.to_dict()

    def describe(self) -> list[tuple[str, Any, str, str]]:
        """(parameter, value, meaning, source) for every parameter, for ``canasta rules``."""
        return parameter_rows(self, PARAMETERS, ("name", "overrides"))


# The bounds shared by several parameters: from the rules reference (sources deal 11 to 15 cards and a foot, from
# 2 to 8 decks, games of 5,000 to 15,000) with room for house rules, and no larger than the engine and the server
# should carry: every value an outside caller may send is bounded.
POINTS = Int(0, 100_000)  # a bonus, penalty or card value
SCORE = Int(-(10**9), 1_000_000)  # a cumulative score where a threshold starts (-10**9: from the start)
COUNT = Int(0, 10_000)  # a minimum count for an opening
CANASTAS = Int(0, 20)  # canastas asked for
CARDS = Int(0, 8 * 52 + 24)  # cards of the largest pack (8 decks, 3 jokers each)
RANK = Int(4, 14)  # a natural rank that melds take (4 to ace)
RANKS = Seq(RANK, 0, 11)
ANY_RANK = Int(0, 14)  # any rank code: 0 = jokers or wild cards, 2 = twos, 3 = threes
THRESHOLDS = Seq(Row(("lowest score", SCORE), ("minimum", COUNT)), 1, 12, ordered=True)
OPENING_CANASTA = Seq(Row(("lowest score", SCORE), ("kind", Choice("canasta", "natural"))), 0, 12, ordered=True)
SPECIAL_HANDS = Seq(Row(("name", Choice(*SPECIAL_HAND_NAMES)), ("value", POINTS)), 0, len(SPECIAL_HAND_NAMES))
BY_JOKERS = Seq(Row(("jokers", Int(0, 7)), ("bonus", POINTS)), 0, 8, ordered=True)
BY_RANK = Seq(Row(("rank", RANK), ("bonus", POINTS)), 0, 11)
UNFINISHED = Seq(Row(("rank", ANY_RANK), ("penalty", POINTS)), 0, 14)
IN_HAND = Seq(Row(("rank", ANY_RANK), ("count", Int(1, 50)), ("penalty", POINTS)), 0, 14)
CANASTA_SETS = Seq(Row(("group", Label(20)), ("natural canastas", CANASTAS), ("canastas", CANASTAS),
                       ("bonus", POINTS)), 0, 10)

# name: (meaning, source, valid values)
PARAMETERS: dict[str, tuple[str, str, Bound]] = {
    "players": ("number of players", "§3.1 [P,B,W,S1]", Int(2, 7)),
    "teams": ("number of sides; seat s plays for side s mod teams", "§3.1 partners opposite [P,B,W,S1]", Int(2, 7)),
    "decks": ("standard 52-card decks in the pack", "§2 [P,B,W,S1]", Int(1, 8)),
    "jokers": ("jokers in the pack", "§2 [P,B,W,S1]", Int(0, 24)),
    "hand_size": ("cards dealt to each player", "§3.1 [P,B,W,S1]", Int(1, 30)),
    "draw_count": ("cards drawn from the stock per turn", "§3.2 [all]", Int(1, 2)),
    "foot_size": ("cards dealt face down to each player as a foot, picked up when the hand is used up; "
                  "0 = no foot", "§4C Hand and Foot [W]", Int(0, 30)),
    "upcard": ("a card is turned up to start the discard pile (false: the pile starts empty)",
               "§3.1 [P,B,W,S1]; §4C Modern American: none [P]", BOOL),
    "threes_laid_out": ("which threes are laid out and replaced when dealt or drawn: red; all (black too); "
                        "none (threes stay in the hand)", "§3.6 [all]; §4C Modern American all [CLA,P], "
                        "Hand and Foot none [W]", Choice("red", "all", "none")),
    "min_naturals": ("natural cards every meld needs", "§3.3 [P,B,W,S1,AAPCM]", Int(1, 7)),
    "wild_rule": ("limit on wild cards in a meld: max3 = at most 3; max2 = at most 2; le_naturals = "
                  "no more wilds than naturals; lt_naturals = fewer wilds than naturals",
                  "§3.3, D10", Choice("max3", "max2", "le_naturals", "lt_naturals")),
    "wild_melds": ("melds of wild cards only (3 up to wild_meld_max cards) are allowed",
                   "§4B Uruguayan [Sc,R], Cuban [R]", BOOL),
    "wild_meld_max": ("most cards in a meld of wild cards", "§4B [H,Sc,R]", Int(3, 7)),
    "max_meld_size": ("most cards in any meld; 0 = no limit", "§4B Cuban [R]", Int(0, 50)),
    "sequences": ("sequences of 3 to 7 cards of one suit (4 low, ace high; no wild cards, twos or threes) "
                  "may be melded; seven make a canasta and take nothing more", "§4B Samba [H,R,W]", BOOL),
    "sequence_extends_going_out": ("in the turn a player goes out, cards may be added to the ends of a finished "
                                   "sequence (past seven)", "§4B Brazilian [H,R,W]", BOOL),
    "several_melds_per_rank": ("a side may hold several melds of one rank", "§4B Samba [H,R]", BOOL),
    "wilds_onto_canasta": ("wild cards may be added to a finished canasta", "§4B Samba [R]", BOOL),
    "twos_as_rank": ("twos may be melded as a rank of their own; while the side's meld of twos is "
                     "unfinished it may not use twos as wild cards", "§4B Italian [R,W]", BOOL),
    "rule_of_five": ("after its opening turn a side may add wild cards to a meld only when the meld then has "
                     "at least this many naturals; 0 = off", "§4C Modern American 5 [CLA,P]", Int(0, 7)),
    "pure_ranks": ("ranks (4-14) whose melds never hold wild cards", "§4C Modern American sevens [CLA,P]", RANKS),
    "pure_after_opening_ranks": ("ranks whose melds may hold wild cards only when made in the side's opening turn",
                                 "§4C Modern American aces [CLA,P,WCA]", RANKS),
    "wild_meld_blocks_wilds": ("while the side has an unfinished meld of wild cards, its wild cards may go "
                               "nowhere else", "§4C Modern American [CLA,P]", BOOL),
    "dead_ranks": ("once a canasta of a rank is finished, nobody may meld that rank or take a pile topped by it",
                   "§4C Modern American [CLA,P]", BOOL),
    "black_threes_meldable": ("black threes may be melded (three or four of them, only when going out)",
                              "§3.3 [P,B,W]; §4C Hand and Foot: never [W]", BOOL),
    "initial_meld": ("minimum count for a side's first meld: (lowest cumulative score, minimum) pairs",
                     "§3.4, D9 [P,B,W,S1]", THRESHOLDS),
    "concealed_waives_minimum": ("when going out concealed skips the minimum count: stock_only = only "
                                 "after drawing from the stock; always; never",
                                 "§3.4, D2 (a) [P]", Choice("stock_only", "always", "never")),
    "concealed_allows_pile": ("a player may take the pile in the turn he goes out concealed", "D2 [W]", BOOL),
    "natural_opening": ("a side's opening melds may hold no wild cards", "§4B Italian [R]", BOOL),
    "opening_canasta": ("(lowest cumulative score, canasta or natural) pairs: from that score the opening "
                        "must include a canasta (a natural one)", "§4B Brazilian [H,R,W], GC-I14", OPENING_CANASTA),
    "initial_meld_by_hand": ("minimum count by the hand's number (first hand first; later hands use the last "
                             "value); overrides initial_meld when set", "§4C Hand and Foot 50/90/120/150 [W]",
                             Seq(COUNT, 0, 50)),
    "top_card_counts": ("the pile's top card counts towards an opening made by taking the pile",
                        "§3.4 [P,B,W]; §4C Modern American: no [CLA]", BOOL),
    "opening_needs_meld": ("the opening must include: none = any melds; natural = a meld of three or more "
                           "natural cards (CLA's clean triple); natural_or_wild = that or a meld of wild cards",
                           "§4C Modern American [CLA] / [P], GC-I11", Choice("none", "natural", "natural_or_wild")),
    "splash": ("a complete natural or wild canasta laid down from the hand opens with no minimum count",
               "§4C Modern American [P only]", BOOL),
    "bonus_cards": ("cards dealt from the stock to the player who opens from his hand, for the first, second "
                    "... side to open; he may use them from his next turn", "§4C Modern American 4, 3 [CLA,P,WCA]",
                    Seq(Int(0, 10), 0, 7)),
    "bonus_cards_stock": ("no bonus cards once the stock holds fewer cards than this (the turn card, 9th "
                          "from the bottom, has been drawn)", "§4C Modern American [CLA,P]", CARDS),
    "special_hands": ("(name, value) pairs: the special hands an unopened player may lay down with all his "
                      "cards after drawing, ending the hand; see docs/variants/modern-american.md",
                      "§4C Modern American [P] / [CLA], GC-S20", SPECIAL_HANDS),
    "pile_always_frozen": ("the pile always needs a natural pair to be taken", "D5 (variants)", BOOL),
    "black_three_freezes": ("a black three freezes the pile like a wild card", "D4 [B]; default [P,W]", BOOL),
    "black_three_upcard": ("a black three turned up at the deal: stays, or is covered by more cards",
                           "D4, GC-P08 [P,W] / [B]", Choice("stays", "covered")),
    "unfrozen_take_with_natural_plus_wild": ("an unfrozen pile may be taken with one natural and one wild",
                                             "§3.5, D3 [P,W,B,S1]", BOOL),
    "unfrozen_take_by_adding": ("an unfrozen pile may be taken by adding its top card to the side's meld",
                                "§3.5 [P,W,B,S1]", BOOL),
    "one_card_pile_rule": ("a one-card pile may not be taken by a player holding one card",
                           "§3.5, D6 [B,S1,Br]", BOOL),
    "take_onto_canasta": ("an unfrozen pile may be taken by adding its top card to a finished canasta",
                          "§4B Samba [H,R,HSW]: no", BOOL),
    "go_out_needs_sequence": ("one of the canastas needed to go out must be a sequence (escalera)",
                              "§4B Bolivia [H,Sc,R,W]", BOOL),
    "wild_canastas_count_to_go_out": ("a canasta of wild cards counts towards canastas_to_go_out",
                                      "§4B Italian [R]: no", BOOL),
    "natural_canastas_to_go_out": ("how many of the canastas needed to go out must be natural",
                                   "§4C Hand and Foot 3 of 7 [W]", CANASTAS),
    "mixed_canastas_to_go_out": ("how many of the canastas needed to go out must be mixed (natural cards with "
                                 "wild cards), so that a natural canasta does not stand in for one; 0 = off",
                                 "§4C Hand and Foot 'three natural and four mixed canastas' read literally: 4 [W]",
                                 CANASTAS),
    "go_out_needs_discard": ("going out needs a final discard (not a three): a player may not meld his last card",
                             "§4C Modern American [CLA,P], GC-G07", BOOL),
    "canastas_to_go_out": ("canastas a side needs before a player may go out", "§3.7 [P,B,W,S1]", CANASTAS),
    "permission": ("asking the partner 'may I go out?': optional_binding = may ask, answer binds; "
                   "compulsory = must ask and be told yes; none",
                   "§3.7, D11 [P,W,S1,B]; §4B Brazilian [H,R]", Choice("optional_binding", "compulsory", "none")),
    "permission_once": ("a player may ask to go out only once per hand", "§4C Modern American [P]", BOOL),
    "swad": ("no seven, wild card, ace or dead card may be discarded onto an empty pile unless nothing else "
             "can be discarded", "§4C Modern American [CLA]", BOOL),
    "last_card_red_three": ("the last stock card is a red three: end_no_meld = the hand ends at once; "
                            "meld_no_discard = the player may meld first but not discard; no_replace = it "
                            "is not replaced and the turn goes on (two-player); end_in_hand = the hand ends "
                            "at once and the three stays in the hand (Modern American, any three)",
                            "§3.8, D8 [P,B,W] / [Br,S1]; §4C GC-E04 [CLA,P]",
                            Choice("end_no_meld", "meld_no_discard", "no_replace", "end_in_hand")),
    "end_of_stock": ("stock empty: play_on = play on while discards are taken; end_at_once = the hand "
                     "ends when a player must draw", "§3.8 [P,B,W,S1] / [W-old]", Choice("play_on", "end_at_once")),
    "forced_take_after_stock": ("stock empty: when the next player must take the discard: "
                                "matches_own_meld_unfrozen; whenever_able; never",
                                "§3.8, D26 [P,B] / [W]",
                                Choice("matches_own_meld_unfrozen", "whenever_able", "never")),
    "natural_canasta_bonus": ("bonus for a natural canasta", "§3.9 [all]", POINTS),
    "mixed_canasta_bonus": ("bonus for a mixed canasta", "§3.9 [all]", POINTS),
    "wild_canasta_bonus": ("bonus for a canasta of wild cards only", "§4B Uruguayan [Sc,R], Cuban [R]", POINTS),
    "wild_canasta_bonus_by_jokers": ("(jokers in it, bonus) pairs overriding wild_canasta_bonus for a wild "
                                     "canasta with exactly that many jokers", "§4B Cuban [R]", BY_JOKERS),
    "sequence_bonus": ("bonus for a canasta of seven in sequence (samba, escalera)", "§4B [H,R,W]", POINTS),
    "rank_canasta_bonus": ("(rank, bonus) pairs: the bonus for a natural canasta of that rank, in place of "
                           "natural_canasta_bonus", "§4C Modern American 7s and aces 2,500 [CLA,P]", BY_RANK),
    "unfinished_penalties": ("(rank, penalty) pairs: what an unfinished meld of that rank (0 = wild cards) costs "
                             "at the end of the hand", "§4C Modern American [CLA,P], GC-S08", UNFINISHED),
    "four_jokers_wild_meld_penalty": ("penalty for an unfinished meld of wild cards holding all four jokers, in "
                                      "place of its unfinished_penalties entry; 0 = the entry",
                                      "§4C Modern American 2,500 [P] (CLA: 2,000)", POINTS),
    "hand_penalties": ("(rank, count, penalty) triples: a player ending the hand with at least count cards of "
                       "the rank pays the penalty (each player separately, besides the cards' values)",
                       "§4C Modern American aces, sevens [CLA,P], GC-S08, GC-S09", IN_HAND),
    "melds_minus_without_canasta": ("a side with no canasta scores its melded cards minus",
                                    "§4C Modern American [CLA,P], GC-S11", BOOL),
    "twos_canasta_bonus": ("bonus for a canasta of seven twos melded as a rank (side going out only)",
                           "§4B Italian [R,HSW]", POINTS),
    "mixed_twos_canasta_bonus": ("bonus for a canasta of twos with jokers (side going out only)",
                                 "§4B Italian [R,HSW]", POINTS),
    "canasta_set_bonuses": ("(group, natural canastas, canastas, bonus): extra bonuses for a set of canastas; "
                            "a side scores the best one of each group", "§4B Italian [R,HSW]", CANASTA_SETS),
    "short_sequence_penalty": ("penalty for each melded sequence of fewer than short_sequence_under cards at the "
                               "end of a hand", "§4B Brazilian [H,R,W]", POINTS),
    "short_sequence_under": ("a melded sequence with fewer cards than this is short (short_sequence_penalty): 5 = "
                             "'fewer than five', 6 = 'five cards or less'", "§4B Brazilian 5 [H,R] / 6 [W]",
                             Int(4, 8)),
    "black_three_in_hand": ("what each black three left in a hand costs", "§3.9 (5) [P]; §4B Bolivia 100 [H,Sc,R,W]",
                            POINTS),
    "upcard_buries": ("start of a hand: as many cards as the upcard's number (A 1, J 11, Q 12, K 13) go face "
                      "down under it, forming the pile with it", "§4B Italian [R,W,HSW]", BOOL),
    "red_three_scale": ("value of a side's red threes by how many it holds: entry n is the value of n "
                        "(100 each, all four 800); more threes than entries score the last entry",
                        "§3.6 [P,B,W,S1,Br]", Seq(POINTS, 2, 25)),
    "red_three_positive_if": ("red threes count plus only if the side has: meld = melded at all; "
                              "canasta = a canasta; two_canastas; by_canastas = minus with none, nothing "
                              "with one, plus with two or more (Modern American, each colour scored apart)",
                              "§3.6, D7 [P,B,W,S1,Br,D]; §4C [CLA,P], GC-S10",
                              Choice("meld", "canasta", "two_canastas", "by_canastas")),
    "going_out_bonus": ("bonus for going out", "§3.7 [P,B,W,D,S1,Br]", POINTS),
    "concealed_going_out_bonus": ("bonus for going out concealed, in place of the going-out bonus",
                                  "§3.7, D1 [P,B,W,D,S1,Br]", POINTS),
    "undeclared_red_three_penalty": ("penalty for a red three left in hand at scoring (scorekeeper)",
                                     "§7 X6 [S1]", POINTS),
    "cutthroat": ("three players: the first to take the pile plays alone, the other two combine their "
                  "melds as partners for the hand; red threes count for their owner only; each player's own "
                  "score sets his minimum", "§4A Cutthroat [R, Bicycle]", BOOL),
    "acaba": ("a player may call 'Acaba' in his turn: the hand ends, the opponents score acaba_bonus and "
              "his side 0; a partner may be asked first and the answer binds", "§4A Acaba [W]", BOOL),
    "acaba_bonus": ("what each opposing side scores when a player calls Acaba", "§4A Acaba [W]", POINTS),
    "pile_blocked_for_canastas": ("the pile may not be taken when its top card would go onto a finished "
                                  "canasta", "§5 [W misc.]", BOOL),
    "jokers_discardable": ("jokers may be discarded (false: only when the hand holds nothing else)",
                           "§5 [W misc.]", BOOL),
    "pile_needs_opened_side": ("a side must have opened from its hand before it may take the pile",
                               "§5 [W misc.]", BOOL),
    "canastas_to_win": ("a side ending a hand with this many canastas wins the game; 0 = off (W: 7)",
                        "§5 [W misc.]", CANASTAS),
    "recycle_pile": ("when the stock runs out, the pile under its top card is turned over as a new stock "
                     "(once per hand)", "§3.8, §5 [W-old, W misc.]", BOOL),
    "pile_take_limit": ("a player taking the pile takes only this many cards from the top; 0 = all",
                        "§5 [W misc.]", CARDS),
    "concealed_canasta_bonus": ("extra bonus for a canasta laid down complete in one meld from the hand; "
                                "no source gives a value", "§5 [W misc.]", POINTS),
    "black_three_first_round_discard": ("black threes may be discarded in each player's first turn",
                                        "§4B Cuban [R,W]", BOOL),
    "pile_black_threes": ("black threes in a taken pile: hand = go to the hand; bonus = laid aside for the "
                          "side and scored by black_three_bonus_scale", "§4B Cuban [R,W]", Choice("hand", "bonus")),
    "black_three_bonus_scale": ("value of a side's black threes laid aside from taken piles by how many",
                                "§4B Cuban [R,W]", Seq(POINTS, 1, 25)),
    "target": ("a side reaching this total at the end of a hand ends the game", "§3.10 [P,B,W,S1]", Int(1, 100_000)),
    "hands_per_game": ("the game is this many hands, highest total wins; 0 = play to target",
                       "§4C Hand and Foot four hands [W]", Int(0, 50)),
    "tie": ("equal totals at or over the target: play_on = deal another hand; draw", "§3.10 (sources silent)",
            Choice("play_on", "draw")),
    "wild_excess_penalty": ("irregularity: a meld found with more wild cards than allowed, the extras taken back "
                            "into the hand, costs this (a score pad line); 0 = not a rule of the variant",
                            "§7 X7 [S1]", Int(0, 10_000)),
    "failed_permission_penalty": ("irregularity: a player who asked permission to go out, got yes and then did "
                                  "not go out costs his side this at the end of the hand; 0 = off",
                                  "§7 X8 Spanish Samba 100 [Sp]", Int(0, 10_000)),
    "withdrawn_opening_raise": ("irregularity: each time a side takes back (withdraws) an opening it staged, its "
                                "minimum count for the rest of the hand rises by this; 0 = off",
                                "§7 X5 10 [S1, D]", Int(0, 10_000)),
    "exact_cut_bonus": ("house rule: a player who cuts exactly the cards needed for the deal scores this (a score "
                        "pad line); 0 = off", "§7 X13 Hand and Foot 100 [HF-x]", Int(0, 10_000)),
}


def _validate(r: Rules) -> None:
    """What no single parameter's bounds can say: the parameters together."""
    if r.players % r.teams:
        raise ValueError(f"teams must divide players into equal sides of one or more, got {r.teams} for {r.players}")
    if r.decks > r.players + 1:  # the pack would dwarf the deal: a position out of proportion
        raise ValueError(f"decks={r.decks} is out of proportion for {r.players} players: at most players + 1 = "
                         f"{r.players + 1} decks (Hand and Foot's pack, the largest per player any source uses)")
    if r.jokers > 3 * r.decks:
        raise ValueError(f"jokers={r.jokers} is more than 3 a deck ({3 * r.decks} for {r.decks} decks)")
    if r.players * (r.hand_size + r.foot_size) + 2 > r.pack_size:
        raise ValueError(f"{r.players} hands of {r.hand_size + r.foot_size} do not fit in a pack of {r.pack_size}")
    if r.mixed_canastas_to_go_out and r.natural_canastas_to_go_out + r.mixed_canastas_to_go_out > r.canastas_to_go_out:
        raise ValueError(f"natural_canastas_to_go_out ({r.natural_canastas_to_go_out}) and mixed_canastas_to_go_out "
                         f"({r.mixed_canastas_to_go_out}) are more than the canastas_to_go_out "
                         f"({r.canastas_to_go_out})")
    if r.cutthroat and (r.players, r.teams) != (3, 3):
        raise ValueError("cutthroat is a three-player game: set players=3 and teams=3")
    if r.permission != "none" and not r.partnerships:
        raise ValueError("permission to go out needs partnerships (set permission=none)")


# The options of a Canasta game: each checked against its bound (``PARAMETERS``), then together (``_validate``).
OPTIONS: Final = Options(Rules, PARAMETERS, _validate)
make_rules: Final = OPTIONS.make  # (name, the preset's values, the caller's overrides) -> the rules object
check_option: Final = OPTIONS.check  # (parameter, value) -> the value as the rules object holds it
