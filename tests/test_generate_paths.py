"""The move generator's quick paths give the answers of the general ones they stand in front of: the discards
listed by a mask of the ranks held where no rule bans a card, and the play phase's list with its quick cases
against the same list made with every helper (checked through the order-preserving ``play_moves``), and going out
after a group meld answered from counts against the position made."""

from __future__ import annotations

import pytest

import canasta
from canasta.canasta.engine import _apply as apply_move
from canasta.canasta.engine.core import RV, meld_counts, rank_counts
from canasta.canasta.engine.generate import discards_are_plain, listed_discards, plain_discards
from canasta.canasta.engine.going_out import can_go_out, can_go_out_after_meld, meld_out_from_counts
from canasta.canasta.kinds import JOKER_RANK, TWO
from canasta.canasta.moves import Move
from canasta.canasta.rules import Rules
from canasta.canasta.state import State
from engine_helpers import play_positions

PRESETS = ["classic", "hand-and-foot", "samba", "modern-american", "italian", "cuban"]


def _rules(preset: str) -> Rules:
    rules = canasta.rules(preset)
    assert isinstance(rules, Rules)
    return rules


def _play_positions(preset: str, games: int, seed: int) -> list[State]:
    return play_positions(preset, games, 600, first_seed=seed)


@pytest.mark.parametrize("preset", PRESETS)
def test_plain_discards_are_the_general_listing(preset: str) -> None:
    rules = _rules(preset)
    positions = _play_positions(preset, 2, 7)
    assert positions
    for state in positions:
        rc = rank_counts(state.hands[state.turn_seat])
        naturals = 0
        for x in range(4, 15):
            if rc[x]:
                naturals |= 1 << (x - 1)
        quick = plain_discards(rc, -1)
        assert plain_discards(rc, naturals) == quick  # the mask from the caller is the one counted here
        assert [m.rank for m in quick] == [x for x in (0, 2, 3, *range(4, 15)) if rc[x]]
        if discards_are_plain(rules):
            hsize = sum(rc)
            red = [m for m in listed_discards(state, rc, hsize) if m.rank == 1]
            assert quick + red == listed_discards(state, rc, hsize)


def test_plain_discards_flag_follows_the_rules() -> None:
    assert discards_are_plain(_rules("classic"))
    assert not discards_are_plain(_rules("samba"))  # suits matter: sequences
    assert not discards_are_plain(_rules("modern-american"))  # threes are never discarded


MELD_OUT_PRESETS = ["classic", "cutthroat", "two-player", "three-player"]


@pytest.mark.parametrize("preset", MELD_OUT_PRESETS)
def test_going_out_after_a_meld_from_counts_is_the_position_made(preset: str) -> None:
    """``can_go_out_after_meld`` answers ``can_go_out`` on the position ``apply_move`` makes, for every group meld
    the meld rules allow that leaves a card in the hand (legal or not in the turn: the answer is the same)."""
    rules = _rules(preset)
    assert meld_out_from_counts(rules)
    checked = going_out = 0
    for state in _play_positions(preset, 6, 31):
        stage = state.stage
        if stage is not None and stage.pending is not None:
            continue
        side = state.seat_sides[state.turn_seat]
        melds = state.melds[side]
        rc = rank_counts(state.hands[state.turn_seat])
        hsize = sum(rc)
        pts = stage.points if stage is not None else 0
        for rank in range(4, 15):
            old = melds.get(rank)
            nat0, wild0 = (0, 0) if old is None else meld_counts(old)
            for k in range(rc[rank] + 1):
                for a in range(rc[TWO] + 1):
                    for b in range(rc[JOKER_RANK] + 1):
                        size = nat0 + wild0 + k + a + b
                        if (k + a + b == 0 or hsize - k - a - b < 1 or size < 3
                                or not rules.meld_ok(nat0 + k, wild0 + a + b)):
                            continue
                        move = Move("meld", rank, k, a, b)
                        points = pts + RV[rank] * k + 20 * a + 50 * b
                        expected = can_go_out(apply_move(state, move))
                        assert can_go_out_after_meld(state, rank, k, a, b, points) == expected, (state.history, move)
                        checked += 1
                        going_out += expected
    assert checked > 100 and going_out > 0, (checked, going_out)  # the positions reach hands that can go out


def test_meld_out_flag_follows_the_rules() -> None:
    assert meld_out_from_counts(_rules("classic"))
    for preset in ("samba", "modern-american", "italian", "hand-and-foot", "brazilian"):
        assert not meld_out_from_counts(_rules(preset))  # sequences, melds or canastas of a kind, wild melds
