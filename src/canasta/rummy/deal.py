"""Dealing a rummy hand (docs/sources.md §8): the shuffled pack, the hands one card at a time from the
dealer's left, the upcard starting the discard pile."""

from __future__ import annotations

import random
import secrets
from typing import Any

from ..canasta.cards import JOKER, card_str
from .rules import RummyRules
from .state import DRAW, NOMINATE, RummyState


def pack_of(r: RummyRules) -> list[int]:
    return [*range(52), *(range(52) if r.packs == 2 else ()), *([JOKER] * r.jokers)]


def dealt_pack(r: RummyRules) -> list[int]:
    """The cards shuffled and dealt each hand (a hand's ``deal``): the pack, less the dealer's joker."""
    deck = pack_of(r)
    if r.dealers_joker:
        deck.remove(JOKER)  # laid aside before the shuffle: the dealer's joker
    return deck


def shuffled_deck(r: RummyRules, seed: int | None, hand_number: int) -> list[int]:
    """The deck for one hand; the last card is the top. ``seed=None`` uses the OS's secure generator."""
    deck = dealt_pack(r)
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(f"rummy:{seed}:{hand_number}")
    rng.shuffle(deck)
    return deck


def new_game(r: RummyRules, seed: int | None = None) -> RummyState:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be an integer or None, got {seed!r}")
    return start_hand(r, seed, 1, r.players - 1, (0,) * r.teams, None, shuffled_deck(r, seed, 1))


def start_hand(r: RummyRules, seed: int | None, hand_number: int, dealer: int, scores: tuple[int, ...],
               last_hand: dict[str, Any] | None, deck: list[int]) -> RummyState:
    r = r.for_hand("")  # Dealer's Gambit: the jokers' effect is nominated afresh for each hand
    stock = list(deck)
    n = r.players
    hands: list[list[int]] = [[] for _ in range(n)]
    first = (dealer + 1) % n
    for _ in range(r.hand_size):
        for i in range(n):
            hands[(first + i) % n].append(stock.pop())
    upcard = stock.pop()
    return RummyState(
        rules=r, seed=seed, hand_number=hand_number, dealer=dealer, scores=scores,
        hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(stock), pile=(upcard,), melds=(),
        # Dealer's Gambit: "After dealing, before anyone looks at their cards, the dealer nominates" [S2]
        turn_seat=dealer if r.dealers_joker else first, phase=NOMINATE if r.dealers_joker else DRAW,
        must_use=-1, taken=(), melded=(False,) * n, turn_melded=False,
        reshuffles=0, deal=tuple(deck), history=(f"{dealer} upcard {card_str(upcard)}",), last_hand=last_hand,
        result=None, aside=(JOKER,) if r.dealers_joker else ())


def redeal(state: RummyState, deck: list[int]) -> RummyState:
    """The same hand dealt again from ``deck`` (records without a seed store every hand's deck)."""
    return start_hand(state.rules, state.seed, state.hand_number, state.dealer, state.scores, state.last_hand,
                      deck)
