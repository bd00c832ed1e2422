"""After a withdraw, the melds that leave the minimum within reach are listed (``legal.generate_moves``). Their
searches share a memo, which fills up in Brazilian's long searches; a meld refused then is searched again on its
own, so that no meld a search of its own admits is left out because the melds before it spent the budget."""

from __future__ import annotations

import random
from typing import Any

import canasta
from canasta.canasta.engine.generate import play_moves
from canasta.canasta.engine.search import MeldCounts, still_reachable
from canasta.canasta.state import PLAY_PHASE, State


def _after_withdraws(variant: str, games: int) -> list[State]:
    """The play-phase positions of random games where an unopened side has withdrawn this turn."""
    rules = canasta.rules(variant)
    out = []
    for g in range(games):
        rng = random.Random(g)
        state = canasta.new_game(rules, seed=g)
        for _ in range(1500):
            if canasta.is_over(state):
                break
            if (state.phase == PLAY_PHASE and state.turn.withdrew
                    and not state.opened[state.seat_sides[state.turn_seat]]):
                out.append(state)
            state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
    return out


def test_no_meld_that_a_search_of_its_own_admits_is_left_out() -> None:
    admitted = once_refused = 0
    for state in _after_withdraws("brazilian", 2):
        listed = set(canasta.legal_moves(state))
        counts = MeldCounts(state)
        shared: dict[Any, bool] = {}  # the melds' searches sharing one memo and its budget, in the listed order
        for m in play_moves(state):
            if m.action != "meld":
                continue
            with_the_others = still_reachable(state, m, shared, counts)
            if still_reachable(state, m, {}, counts):
                assert m in listed, f"{m}: a search of its own admits it, but it is not listed"
                admitted += 1
                once_refused += not with_the_others
            elif with_the_others:  # a "yes" from the shared memo is sure (its way on was found)
                assert m in listed
    assert admitted > 20
    assert once_refused > 0  # melds that the shared budget alone refused, as it did before
