"""The numpy observation arrays (canasta.rl.tensor) hold exactly the observation tensor that
``canasta.rl.observation`` defines (itself checked against ``encode_view`` in test_rl_encoding.py),
whatever order the seats and positions are asked in."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")

import canasta  # noqa: E402
from canasta.rl.table import Table  # noqa: E402
from canasta.rl.tensor import dense, dense_list, mask  # noqa: E402


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_the_arrays_are_the_observation_along_whole_games(variant: str) -> None:
    rules = canasta.rules(variant)
    table = Table(rules, 5, whole_game=True)
    rng = random.Random(variant)
    out = np.full(table.layout.size, 7.0, np.float32)  # written in place: nothing of the old contents stays
    wide = np.full(table.layout.size, 7.0, np.float64)  # converted by numpy (the native copy takes float32 only)
    for _ in range(300):
        if table.terminal:
            break
        seats = list(range(rules.players))
        rng.shuffle(seats)  # the arrays keep each seat's last tensor: any order must give the same numbers
        for seat in seats:
            want = np.array(table.observation(seat), np.float32)
            assert np.array_equal(dense(table, seat), want)
            assert np.array_equal(dense(table, seat, out), want)
            assert np.array_equal(dense(table, seat, wide), want)
            assert dense_list(table, seat) == want.tolist()
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


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_the_masks_are_the_legal_atoms_and_the_arrays_are_the_callers(variant: str) -> None:
    """The mask writer clears what it set last time; what a caller was given does not change afterwards
    (the buffers behind both are reused every step)."""
    rules = canasta.rules(variant)
    table = Table(rules, 3)
    rng = random.Random(4)
    kept = []
    for _ in range(200):
        if table.terminal:
            break
        for seat in range(rules.players):
            want = np.zeros(table.space.size, np.int8)
            if seat == table.to_move:
                want[table.legal_actions()] = 1
            got = mask(table, seat)
            assert np.array_equal(got, want)
            kept.append((got, want, dense(table, seat), np.array(table.observation(seat), np.float32)))
        table.apply_action(rng.choice(table.legal_actions()))
    assert all(np.array_equal(a, b) and np.array_equal(c, d) for a, b, c, d in kept)


def test_tables_and_action_spaces_pickle_and_copy() -> None:
    """OpenSpiel serializes states by pickling them, and clones them with copy.deepcopy; the action space,
    a frozen dataclass, must survive both when mypyc compiles it too."""
    import copy
    import pickle

    from canasta.rl.actions import ActionSpace

    space = ActionSpace.for_rules(canasta.rules("hand-and-foot", players=3))
    assert pickle.loads(pickle.dumps(space)) == space == copy.deepcopy(space)
    table = Table(canasta.rules("classic"), 2)
    rng = random.Random(0)
    for _ in range(20):
        table.apply_action(rng.choice(table.legal_actions()))
    dense(table, 0)
    again = pickle.loads(pickle.dumps(table))
    assert again.legal_actions() == table.legal_actions()
    assert np.array_equal(dense(again, 1), dense(table, 1))
