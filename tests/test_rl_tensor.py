"""The numpy observation arrays (canasta.rl.tensor) hold exactly the observation tensor that
``canasta.rl.observation`` defines (itself checked against ``encode_view`` in test_rl_encoding.py),
whatever order the seats and positions are asked in."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")

import canasta  # noqa: E402
from canasta.rl.table import Table  # noqa: E402
from canasta.rl.tensor import dense  # noqa: E402


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_the_arrays_are_the_observation_along_whole_games(variant: str) -> None:
    rules = canasta.rules(variant)
    table = Table(rules, 5, whole_game=True)
    rng = random.Random(variant)
    out = np.full(table.layout.size, 7.0, np.float32)  # written in place: nothing of the old contents stays
    for _ in range(300):
        if table.terminal:
            break
        seats = list(range(rules.players))
        rng.shuffle(seats)  # the arrays keep each seat's last tensor: any order must give the same numbers
        for seat in seats:
            want = np.array(table.observation(seat), np.float32)
            assert np.array_equal(dense(table, seat), want)
            assert np.array_equal(dense(table, seat, out), want)
        table.apply_action(rng.choice(table.legal_actions()))


def test_positions_out_of_order_and_copies_share_nothing_wrong() -> None:
    """Jumping back to an earlier position (OpenSpiel's search clones and rewinds) gives its own tensor."""
    rules = canasta.rules("classic")
    table = Table(rules, 9)
    rng = random.Random(1)
    saved = []
    for _ in range(150):
        if table.terminal:
            break
        saved.append(table.copy())
        table.apply_action(rng.choice(table.legal_actions()))
    rng.shuffle(saved)
    for old in saved:
        for seat in range(rules.players):
            assert np.array_equal(dense(old, seat), np.array(old.observation(seat), np.float32))
