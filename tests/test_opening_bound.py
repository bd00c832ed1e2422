"""The opening search stops following a meld whose position's points bound falls short of the minimum
(``opening.points_bound``, where ``Flags.bound_prunes``: Modern American's rules). The bound is never below what
meld moves really add, and a search that stops there gives every answer the full search gives, having visited
only positions the full search visits, with the same answers."""

from __future__ import annotations

import random
from typing import Any

import pytest

import canasta
from canasta.canasta.engine.core import flags, meld_counts, rank_counts
from canasta.canasta.engine.generate import play_moves
from canasta.canasta.engine.opening import points_bound
from canasta.canasta.engine.search import SEARCH_LIMIT, opening_path
from canasta.canasta.engine.turn import apply_move
from canasta.canasta.rules import Rules
from canasta.canasta.state import PLAY_PHASE, State

# The presets the bound applies to, and house rules that change what it must allow for (a meld of one natural and
# two wild cards, three wild cards a meld, no largest meld, a smaller wild meld and no Splash).
RULES = [
    ("modern-american", {}),
    ("modern-american-cla", {}),
    ("modern-american", {"min_naturals": 1}),
    ("modern-american", {"wild_rule": "max3"}),
    ("modern-american", {"max_meld_size": 0}),
    ("modern-american", {"splash": False, "wild_meld_max": 4}),
]


def _openings(rules: Rules, games: int, first_seed: int) -> list[State]:
    """Play-phase positions of random games in which the side to play has not opened and has staged melds."""
    out = []
    for g in range(games):
        rng = random.Random(first_seed + g)
        state = canasta.new_game(rules, seed=first_seed + g)
        for _ in range(2000):
            if canasta.is_over(state):
                break
            if (state.phase == PLAY_PHASE and state.stage is not None
                    and not state.opened[state.seat_sides[state.turn_seat]]):
                out.append(state)
            state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
    return out


def _meld_counts(state: State) -> tuple[list[int], list[int]]:
    """The side's melds as ``points_bound`` reads them: naturals (-1: no meld) and wild cards by rank code."""
    naturals, wilds = [-1] * 15, [0] * 15
    for key, meld in state.melds[state.seat_sides[state.turn_seat]].items():
        naturals[key], wilds[key] = meld_counts(meld)
    return naturals, wilds


@pytest.mark.parametrize(("variant", "options"), RULES)
def test_the_bound_is_never_below_what_melds_add(variant: str, options: dict[str, Any]) -> None:
    rules = canasta.rules(variant, **options)
    assert flags(rules).bound_prunes
    rng = random.Random(3)
    walks = 0
    for start in _openings(rules, 6, 40):
        p = start.turn_seat
        bound = points_bound(rules, rank_counts(start.hands[p]), *_meld_counts(start))
        assert start.stage is not None
        for _ in range(3):  # random runs of meld moves from here, as far as they go
            state = start
            while True:
                melds = [m for m in play_moves(state, melds_only=True) if m.action == "meld"]
                if not melds:
                    break
                after = apply_move(state, rng.choice(melds))
                if after.stage is None or after.hand_number != state.hand_number:
                    break
                state = after
            assert state.stage is not None
            assert state.stage.points - start.stage.points <= bound
            walks += state is not start
    assert walks > 20


@pytest.mark.parametrize(("variant", "options"), RULES)
def test_a_search_that_stops_at_the_bound_answers_as_the_full_search(variant: str, options: dict[str, Any]) -> None:
    rules = canasta.rules(variant, **options)
    asks = flags(rules)
    stopped = 0
    for state in _openings(rules, 6, 70):
        seen: dict[Any, bool] = {}
        answer = opening_path(state, state.hand_number, seen)
        asks.bound_prunes = False
        try:
            full: dict[Any, bool] = {}
            full_answer = opening_path(state, state.hand_number, full)
        finally:
            asks.bound_prunes = True
        assert len(full) < SEARCH_LIMIT
        assert answer == full_answer
        assert all(full.get(key) == value for key, value in seen.items())  # positions it visits, its answers
        stopped += len(seen) < len(full)
    assert stopped > 5
