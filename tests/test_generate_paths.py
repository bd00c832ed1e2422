"""The move generator's quick paths give the answers of the general ones they stand in front of: the discards
listed by a mask of the ranks held where no rule bans a card, and the play phase's list with its quick cases
against the same list made with every helper (checked through the order-preserving ``play_moves``)."""

from __future__ import annotations

import pytest

import canasta
from canasta.engine.core import rank_counts
from canasta.engine.generate import discards_are_plain, listed_discards, plain_discards
from canasta.rules import Rules
from canasta.state import State
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
