"""The check after a withdraw (``search.still_reachable``) answers from a cheap bound first:
``MeldCounts.bound_after`` never falls below what ``opening.max_opening_points`` finds after the meld, and the
check's answer for every meld move after a withdraw is still the full count's (the position made, the minimum
left, ``opening_reachable``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import canasta
from canasta.canasta.engine.core import meld_counts, minimum_to_meet, opening_canasta_ok, rank_counts
from canasta.canasta.engine.generate import play_moves
from canasta.canasta.engine.opening import max_opening_points, opening_reachable
from canasta.canasta.engine.search import MeldCounts, still_reachable
from canasta.canasta.engine.turn import apply_move
from canasta.canasta.kinds import JOKER_RANK, TWO
from canasta.canasta.melds import is_sequence_key, key_rank
from canasta.canasta.state import State
from canasta.canasta.variants import PRESETS
from engine_helpers import play_positions


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_bound_after_a_meld_is_never_below_the_greedy_count(variant: str) -> None:
    checked = tight = 0
    for state in play_positions(variant, 2, 300):
        side = state.seat_sides[state.turn_seat]
        counts = MeldCounts(state)
        for move in play_moves(state, melds_only=True):
            if move.action != "meld" or is_sequence_key(move.rank) or key_rank(move.rank) != move.rank:
                continue
            rc = list(counts.rc)
            rc[move.rank] -= move.naturals
            rc[TWO] -= move.twos
            rc[JOKER_RANK] -= move.jokers
            melds = {x: meld_counts(m) for x, m in state.melds[side].items()}
            nat, wild = melds.get(move.rank, (0, 0))
            melds[move.rank] = (nat + move.naturals, wild + move.twos + move.jokers)
            greedy = max_opening_points(state.rules, rc, melds)[0]
            bound = counts.bound_after(move.rank, move.naturals, move.twos, move.jokers)
            assert bound >= greedy, (state.to_dict(), move)
            checked += 1
            tight += bound == greedy
    assert checked > 20 and tight > 0  # the bound is met exactly often enough to decide


def _full_answer(state: State, move: canasta.Move) -> bool:
    """The answer of the full count for a group meld with no pending pile: the position made, and whether the
    hand left can add what the minimum still asks while keeping two cards."""
    after = apply_move(state, move)
    if after.hand_number != state.hand_number or after.stage is None:
        return True
    need = minimum_to_meet(after) - after.stage.points
    side = after.seat_sides[after.turn_seat]
    if need <= 0 and opening_canasta_ok(after, after.melds[side]):
        return True
    melds = {x: meld_counts(m) for x, m in after.melds[side].items()}
    return opening_reachable(after.rules, rank_counts(after.hands[after.turn_seat]), melds, need, 2)


def _after_withdraws(variant: str, games: int) -> Iterator[State]:
    """The position after the first ``withdraw`` of each seeded position that has one."""
    for state in play_positions(variant, games, 400):
        withdraw = [m for m in canasta.legal_moves(state) if m.action == "withdraw"]
        if withdraw:
            yield canasta.apply(state, withdraw[0])


@pytest.mark.parametrize("variant", ["classic", "two-player"])
def test_after_a_withdraw_each_meld_gets_the_full_counts_answer(variant: str) -> None:
    asked = refused = 0
    for after in _after_withdraws(variant, 12):
        counts = MeldCounts(after)
        for move in play_moves(after, melds_only=True):
            if move.action != "meld" or counts.hsize - move.naturals - move.twos - move.jokers < 1:
                continue
            answer = still_reachable(after, move, {}, counts)
            assert answer == _full_answer(after, move), (after.to_dict(), move)
            asked += 1
            refused += not answer
    assert refused and asked > refused  # both answers were met


@pytest.mark.parametrize("variant", ["modern-american", "samba", "brazilian", "italian"])
def test_after_a_withdraw_the_check_from_the_positions_parts_is_the_plain_one(variant: str) -> None:
    """With ``MeldCounts`` the check makes the common meld's position and search key from the parent's parts; it
    must give the plain check's answer (the position by ``apply_move``, the key from the hand) and leave the same
    memo, position for position."""
    searched = 0
    for after in _after_withdraws(variant, 6):
        counts = MeldCounts(after)
        made: dict[Any, bool] = {}
        plain: dict[Any, bool] = {}
        for move in play_moves(after, melds_only=True):
            if move.action == "meld":
                assert still_reachable(after, move, made, counts) == still_reachable(after, move, plain)
        assert made == plain
        searched += len(made) > 1
    assert searched > 3
