"""The rummy family's rules object: every parameter of 500 Rum, Basic Rummy and their relatives as data.

Each field carries its meaning, its allowed values and its source in ``PARAMETERS`` (source tags as in
docs/sources.md: S2 = Wikipedia's "500 rum", BcR = the Bicycle/Hoyle 500 Rum text, S1-rummy = the Basic
Rummy page of an online card site). Presets live in ``presets.py``; the engine asks this object questions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final

from ..bounds import BOOL, Bound, Choice, Int, Options, Seq, parameter_rows, rules_spec


@dataclass(frozen=True)
class RummyRules:
    name: str = "500-rum"
    family: str = "rummy"
    players: int = 2
    teams: int = 2
    jokers: int = 0
    packs: int = 1
    hand_size_two: int = 13
    hand_size_more: int = 7
    draw_count: int = 1
    # Melds
    ace: str = "both"
    joker_sets: bool = False
    dealers_joker: bool = False
    lay_off_on: str = "any"
    # Drawing from the pile
    pile_take: str = "any"
    taken_card: str = "at_once"
    take_only_for_new_meld: bool = False
    discard_taken_same_turn: bool = True
    first_meld: int = 0
    # Going out and the stock
    go_out_needs_discard: bool = False
    call_rum: bool = False
    melds_between_turns: bool = False
    lay_offs_between_turns: bool = False
    empty_stock: str = "play_from_pile"
    stalemate_when_stuck: bool = False
    stalemate_ends_game: bool = False
    stock_out_deducts: bool = True
    # Card values
    ace_low_value: int = 1
    ace_high_value: int = 15
    low_cards_five: bool = False
    four_aces_value: int = 0
    joker_value: int = 15
    divide_by_five: bool = False
    # Scoring
    scoring: str = "table_minus_hand"
    deadwood_to_winner: bool = False
    going_rummy_double: bool = False
    four_at_once_double: bool = False
    going_out_bonus: int = 0
    game_bonus: int = 0
    masters_hand: int = 0
    # End of game
    target: int = 500
    targets_by_players: tuple[int, ...] = ()
    hands_per_game: int = 0
    tie: str = "went_out"
    overrides: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)
    # Dealer's Gambit: the jokers' effect the dealer nominated for this hand ("" before he has, and between
    # hands). Not an option: the state's rules carry it for the hand (``for_hand``), so that every question
    # about melds and points is asked of one object.
    joker_effect: str = field(default="", compare=False)

    @property
    def wild_jokers(self) -> bool:
        """Jokers are wild in sets and runs (500 Rum's 53-54-card pack; Dealer's Gambit when the dealer
        nominated them wild), not Persian Rummy's joker sets."""
        return self.jokers > 0 and not self.joker_sets and (not self.dealers_joker or self.joker_effect == "wild")

    @property
    def doubling_jokers(self) -> bool:
        """Dealer's Gambit, "Double": a joker laid over a new set doubles it and seals it."""
        return self.dealers_joker and self.joker_effect == "double"

    @property
    def splitting_jokers(self) -> bool:
        """Dealer's Gambit, "Split": a joker splits the discard pile around the card chosen from it."""
        return self.dealers_joker and self.joker_effect == "split"

    @property
    def joker_points(self) -> int:
        """A joker's points on the table and in the hand: Dealer's Gambit's are worth zero [S2]."""
        return 0 if self.dealers_joker else self.joker_value

    def for_hand(self, effect: str) -> RummyRules:
        """These rules with the jokers' effect nominated for a hand ("" for none yet)."""
        return self if effect == self.joker_effect else dataclasses.replace(self, joker_effect=effect)

    @property
    def hand_size(self) -> int:
        return self.hand_size_two if self.players == 2 else self.hand_size_more

    @property
    def pack_size(self) -> int:
        return 52 * self.packs + self.jokers

    @property
    def decks(self) -> int:
        return self.packs

    @property
    def partnerships(self) -> bool:
        return self.teams < self.players

    def side_of(self, seat: int) -> int:
        return seat % self.teams

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s % self.teams == side)

    def game_target(self) -> int:
        """The score that ends the game (0: none; the game is a fixed number of hands)."""
        if self.targets_by_players and 2 <= self.players < 2 + len(self.targets_by_players):
            return self.targets_by_players[self.players - 2]
        return self.target

    def to_dict(self) -> dict[str, Any]:
        """The preset name plus the overrides that made this object: what records store."""
        return rules_spec(self.name, self.overrides)

    def describe(self) -> list[tuple[str, Any, str, str]]:
        """(parameter, value, meaning, source) for every parameter, for ``canasta rules``."""
        return parameter_rows(self, PARAMETERS, INTERNAL)


# The bounds shared by several parameters: from the sources (13, 10 or 7 cards; cards worth 1 to 20; games of 100 to
# 500) with room for house rules; a deal must also fit the pack (``_check``).
HAND = Int(1, 25)
CARD_VALUE = Int(0, 100)
POINTS = Int(0, 10_000)

# Fields that are not options: the preset's name and family, the overrides, the hand's nominated effect.
INTERNAL = ("name", "family", "overrides", "joker_effect")
JOKER_EFFECTS = ("wild", "double", "split")

# name: (meaning, source, valid values)
PARAMETERS: dict[str, tuple[str, str, Bound]] = {
    "players": ("number of players (2-4 with one pack, up to 8 with two)",
                "§8.1 52 cards for 2-4 players, 104-108 for 5-8 [S2,BcR]; §8.2 2-4 [S1-rummy]", Int(2, 8)),
    "teams": ("number of sides; seat s plays for side s mod teams (2 with 4, 6 or 8 players: partners sit alternately)",
              "§8.1 partnership 500 Rum [S2]", Int(2, 8)),
    "packs": ("52-card packs shuffled together: 1, or 2 (required for 5-8 players; every card twice; a set "
              "still holds each suit once, a run each card once)", "§8.1 104-108 cards for 5-8 [S2]", Int(1, 2)),
    "jokers": ("jokers added to the 52 cards", "§8.1 53-54 cards [S2]; Persian Rummy 4 [S2]", Int(0, 4)),
    "hand_size_two": ("cards dealt to each of 2 players", "§8.1 13 [S2,BcR]; §8.2 10 [S1-rummy]", HAND),
    "hand_size_more": ("cards dealt to each of 3 or more players", "§8.1 7 [S2,BcR]; §8.2 7 [S1-rummy]", HAND),
    "draw_count": ("cards drawn from the stock per turn (Boathouse: 2)", "§8.1 other options, Boathouse [S2]",
                   Int(1, 2)),
    "ace": ("where an ace goes in a run: low (A-2-3), high (Q-K-A), both (either end, never K-A-2) or "
            "around (around the corner: K-A-2 too)", "§8.1 high or low, around the corner optional [S2]; "
            "§8.2 low only [S1-rummy]", Choice("low", "high", "both", "around")),
    "joker_sets": ("jokers are not wild: they are melded only as a set of 3 or 4 jokers (false: jokers are "
                   "wild in sets and runs, each meld holding at least two natural cards)",
                   "§8.1 Persian Rummy [S2]; wild: §8.1 53-54 cards [S2]", BOOL),
    "dealers_joker": ("Dealer's Gambit: at each deal one joker is laid face up beside the stock for the dealer "
                      "('take dealer JK', in his turn); after the deal he nominates the jokers' effect for the "
                      "hand ('nominate wild', 'nominate double' or 'nominate split'); another player may block "
                      "the dealer's joker with a joker of his own laid face down over it ('block JK'); jokers "
                      "are worth zero", "§8.1 Dealer's Gambit [S2]", BOOL),
    "lay_off_on": ("whose melds a player may lay off on: any (every player's) or own_side (his side's only)",
                   "§8.1 lay off on anyone's melds [S2]; §8.2 on any meld [S1-rummy]", Choice("any", "own_side")),
    "pile_take": ("what may be taken from the discard pile: any (any card and every card above it) or top "
                  "(the top card only)", "§8.1 [S2,BcR]; §8.2 top discard [S1-rummy]", Choice("any", "top")),
    "taken_card": ("the card chosen from the pile: at_once (must be melded or laid off at once) or keep "
                   "(goes into the hand)", "§8.1 [S2,BcR]; §8.2 [S1-rummy]", Choice("at_once", "keep")),
    "take_only_for_new_meld": ("the chosen pile card must go into a new meld of 3 or more, not be laid off "
                               "(no \"picking up to hit\")", "§8.1 variant [S2]", BOOL),
    "discard_taken_same_turn": ("a card taken from the pile may be discarded in the same turn",
                                "§8.2 may not [S1-rummy]", BOOL),
    "first_meld": ("points a player's first meld must be worth (0: any)", "§8.1 variant, 30 [S2]", Int(0, 1000)),
    "go_out_needs_discard": ("a player goes out only by discarding his last card (so he may not meld or lay "
                             "off his last card)", "§8.1 other options, Boathouse [S2]", BOOL),
    "call_rum": ("a discard that could be laid off on a meld on the table may be claimed: the other players who "
                 "could lay it off are asked in turn order ('rum' or 'pass'); the first to call 'Rum' lays it off "
                 "himself and it scores for him; then play goes on from the discarder's left",
                 "§8.1 other options, calling \"Rum\" [S2]", BOOL),
    "melds_between_turns": ("after each discard the other players who could call 'Rum' or lay down a meld from "
                            "their hand are asked in turn order; the one asked may meld (out of turn, as often as "
                            "he can), call 'Rum' or pass; needs call_rum",
                            "§8.1 other options, melds laid down between turns [S2]", BOOL),
    "lay_offs_between_turns": ("in the same window after each discard the players asked may also lay off cards "
                               "from their hand on the melds on the table; needs call_rum",
                               "§8.1 other options, \"melds or matching cards on other people's turns\" [S2]", BOOL),
    "empty_stock": ("when a player is to draw and the stock is empty: end (the hand ends), reshuffle_once "
                    "(the discard pile becomes the stock once; the second time the hand is a stalemate and "
                    "scores nothing) or play_from_pile (he may take from the pile; the hand ends when he does "
                    "not, with 'pass')", "§8.2 reshuffle once, stalemate [S1-rummy]; §8.1 (play goes on "
                    "from the pile) [S2]", Choice("end", "reshuffle_once", "play_from_pile")),
    "stalemate_when_stuck": ("the hand ends as a stalemate (scored as the empty stock's second time) as soon as "
                             "the engine can prove that nobody can finish: no card off the table fits a meld on "
                             "it, and either every player holds one card and a turn brings at most one card in "
                             "(draw_count 1, the top discard only) or no three cards off the table make a meld",
                             "§8.2 \"Stalemate is also declared if no one can finish\" [S1-rummy]", BOOL),
    "stalemate_ends_game": ("a stalemate ends the game: nobody wins, and statistics count it as a loss for every "
                            "player", "§8.2 \"the game is considered a loss for all of them in the "
                            "statistics\" [S1-rummy]", BOOL),
    "stock_out_deducts": ("when a hand ends with the stock run out and nobody gone out, each player's cards in "
                          "hand count against him (false: nobody deducts them)",
                          "D31: §8.1 [S2]'s options section (\"all cards in each player's hand counting against "
                          "them\") vs its scoring section (\"nobody deducts\")", BOOL),
    "ace_low_value": ("points of an ace used low (in A-2-3; round the corner, in a run with the two and no "
                      "king)", "§8.1 1 [BcR]; D19", CARD_VALUE),
    "ace_high_value": ("points of an ace anywhere else (in a set, high in a run, in the hand)",
                       "§8.1 15 [S2,BcR]; variants 25 [S2]; §8.2 1 [S1-rummy]", CARD_VALUE),
    "low_cards_five": ("cards 2-9, and an ace used low, count 5 each instead of their face value",
                       "§8.1 S2's sentence \"A-9 are 5\" and its variant \"all others 5\" [S2]; D19", BOOL),
    "four_aces_value": ("a set of four aces counts this much instead of four aces' values (0: off)",
                        "§8.1 variant, 100 [S2]", Int(0, 1000)),
    "joker_value": ("points of a joker, on the table (whatever card it stands for) and in the hand",
                    "§8.1 15 [S2]; Persian Rummy 20 [S2]", CARD_VALUE),
    "divide_by_five": ("every score is divided by 5 (rounded down) before it is added; play to the divided "
                       "target (e.g. 100)", "§8.1 variant [S2]", BOOL),
    "scoring": ("table_minus_hand: each player scores his cards on the table less his cards in hand "
                "(500 Rum); winner_takes_all: the player who goes out scores the others' hands (Basic Rummy)",
                "§8.1 [S2,BcR]; §8.2 [S1-rummy]", Choice("table_minus_hand", "winner_takes_all")),
    "deadwood_to_winner": ("the cards left in the other sides' hands go to the side of the player who went out "
                           "instead of counting against their holders; when nobody went out (the stock finished), "
                           "with two sides each adds the other's hand to its score, with more nobody adds "
                           "anything (nor deducts)", "§8.1 other options, add the opponent's hand [S2]", BOOL),
    "going_rummy_double": ("going out in one turn with no earlier melds or lay-offs that hand doubles the score",
                           "§8.2 [S1-rummy]", BOOL),
    "four_at_once_double": ("a meld of four cards laid down at once counts double (a fourth card added later "
                            "counts single)", "§8.1 Persian Rummy [S2]", BOOL),
    "going_out_bonus": ("points to the side that goes out", "§8.1 Persian Rummy 25 [S2]", POINTS),
    "game_bonus": ("points to the side with the better score at the end of the game",
                   "§8.1 Persian Rummy 50 [S2]", POINTS),
    "masters_hand": ("the Rummy Master's Hand: a player who lays down a run of seven cards (or more) and then "
                     "goes out by discarding his last card scores this many points for the hand, nobody else "
                     "anything (0: off)", "§8.1 other options, \"lays down a 7-card straight and then discards "
                     "his last card\" [S2]", POINTS),
    "target": ("the score that ends the game", "§8.1 500 [S2,BcR]", Int(0, 10_000)),
    "targets_by_players": ("the target by number of players (2, 3, 4 ...), replacing target when set",
                           "§8.2 100 / 150 / 200 [S1-rummy]", Seq(Int(1, 10_000), 0, 7)),
    "hands_per_game": ("the game is this many hands, whatever the scores (0: play to the target)",
                       "§8.1 Persian Rummy, two deals [S2]", Int(0, 50)),
    "tie": ("when several sides reach the target in one hand: went_out (the side of the player who went out "
            "wins if it reached the target, else the highest) or highest (the highest score; equal highest "
            "play another hand)", "D19: [S2] went out vs [BcR] highest", Choice("went_out", "highest")),
}


def _check(r: RummyRules) -> None:
    """What no single parameter's bounds can say: the values together."""
    if r.players > 4 * r.packs:
        raise ValueError(f"players must be 2-{4 * r.packs} for {r.name} with {r.packs} pack(s) (5-8 players need "
                         f"packs=2), got {r.players}")
    if r.teams not in (r.players, 2) or r.players % r.teams:
        raise ValueError(f"teams must be {r.players} (each for himself) or 2 with an even number of players, "
                         f"got {r.teams}")
    if r.jokers and not r.joker_sets and r.ace == "around":
        raise ValueError("wild jokers and ace=around are not supported together (a joker's place in a run "
                         "round the corner is not defined); use ace=low, high or both")
    if r.dealers_joker and (r.joker_sets or r.jokers < 2):
        raise ValueError("dealers_joker needs at least 2 jokers, not joker_sets (one is the dealer's, the others "
                         "are dealt)")
    for name in ("melds_between_turns", "lay_offs_between_turns"):
        if getattr(r, name) and not r.call_rum:
            raise ValueError(f"{name} uses the 'Rum' claim window: it needs call_rum=true")
    if r.hand_size * r.players + 1 > r.pack_size - r.dealers_joker:
        raise ValueError(f"{r.players} hands of {r.hand_size} do not fit in {r.pack_size} cards")
    if r.game_target() <= 0 and r.hands_per_game == 0:
        raise ValueError("a game needs a target or a number of hands")


# The options of a rummy game: each checked against its bound (``PARAMETERS``), then together (``_check``).
OPTIONS: Final = Options(RummyRules, PARAMETERS, _check)
make_rummy_rules: Final = OPTIONS.make  # (name, the preset's values, the caller's overrides) -> the rules object
check_rummy_option: Final = OPTIONS.check  # (parameter, value) -> the value as the rules object holds it
