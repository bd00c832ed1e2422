"""The Cython encoder and mask writer (``canasta.rl.native``, when built) write exactly the bytes of the
mypyc/pure ones (``canasta.rl.encoder``), whatever order the seats and positions are asked in."""

from __future__ import annotations

import pickle
import random

import pytest

import canasta
from canasta.rl.encoder import DenseEncoder, MaskWriter
from canasta.rl.table import Table

native = pytest.importorskip("canasta.rl.native", reason="canasta.rl.native is not built (Cython)")


def _pairs(table: Table) -> tuple[tuple[DenseEncoder, object], tuple[MaskWriter, object]]:
    return ((DenseEncoder(table.layout), native.NativeEncoder(table.layout)),
            (MaskWriter(table.space.size), native.NativeMaskWriter(table.space.size)))


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_the_native_buffers_are_the_encoders_along_whole_games(variant: str) -> None:
    rules = canasta.rules(variant)
    table = Table(rules, 11, whole_game=True)
    (dense, fast), (masks, fast_masks) = _pairs(table)
    rng = random.Random(variant)
    for _ in range(400):
        if table.terminal:
            break
        seats = list(range(rules.players))
        rng.shuffle(seats)  # each keeps every seat's last tensor: any order must give the same bytes
        for seat in seats[: rng.randint(1, len(seats))]:
            prefix = table.prefix if seat == table.to_move else ()
            known = table.known_ranks()
            assert fast.encode(table.state, seat, prefix, known) == dense.encode(table.state, seat, prefix, known)
        atoms = table.legal_actions()
        assert fast_masks.write(atoms) == masks.write(atoms)
        table.apply_action(rng.choice(atoms))


def test_jumping_between_positions_and_a_pickled_encoder() -> None:
    """Positions out of order (OpenSpiel's search rewinds) and an unpickled encoder (fresh buffers)."""
    rules = canasta.rules("classic")
    table = Table(rules, 9)
    rng = random.Random(2)
    saved = []
    for _ in range(200):
        if table.terminal:
            break
        saved.append(table.copy())
        table.apply_action(rng.choice(table.legal_actions()))
    rng.shuffle(saved)
    (dense, fast), (masks, fast_masks) = _pairs(table)
    for k, old in enumerate(saved):
        if k == len(saved) // 2:
            fast, fast_masks = pickle.loads(pickle.dumps(fast)), pickle.loads(pickle.dumps(fast_masks))
        for seat in range(rules.players):
            prefix = old.prefix if seat == old.to_move else ()
            known = old.known_ranks()
            assert fast.encode(old.state, seat, prefix, known) == dense.encode(old.state, seat, prefix, known)
        atoms = old.legal_actions()
        assert fast_masks.write(atoms) == masks.write(atoms)


def test_the_native_copies_are_new_arrays_of_the_buffers_bytes() -> None:
    np = pytest.importorskip("numpy")
    arrays = pytest.importorskip("canasta.rl.arrays", reason="canasta.rl.arrays is not built (Cython, numpy)")
    observation = bytearray(np.arange(7, dtype=np.float32).tobytes())
    mask = bytearray([0, 1, 1, 0, 1])
    obs, act = arrays.copies(observation, mask)
    assert obs.dtype == np.float32 and obs.shape == (7,) and obs.tolist() == list(range(7))
    assert act.dtype == np.int8 and act.tolist() == [0, 1, 1, 0, 1]
    observation[:4] = np.float32(9).tobytes()
    mask[0] = 1
    assert obs[0] == 0 and act[0] == 0  # their own memory: later writes to the buffers do not reach them
    obs[1] = 5  # and writable, as numpy's copy() is
    assert obs.flags.owndata and act.flags.writeable
    given = arrays.observation_dict(observation, mask)
    assert sorted(given) == ["action_mask", "observation"]
    assert given["observation"].tobytes() == bytes(observation) and given["action_mask"].tobytes() == bytes(mask)


def test_the_native_fill_and_float_list_give_numpys_numbers() -> None:
    np = pytest.importorskip("numpy")
    arrays = pytest.importorskip("canasta.rl.arrays", reason="canasta.rl.arrays is not built (Cython, numpy)")
    values = np.array([0, 1.5, 0, -2, 3e-8, 0, 7], dtype=np.float32)
    observation = bytearray(values.tobytes())
    assert arrays.float_list(observation) == values.tolist()
    assert all(type(x) is float for x in arrays.float_list(observation))
    out = np.full(7, 9, np.float32)
    arrays.fill(observation, out)
    assert out.tolist() == values.tolist()
    for wrong in (np.zeros(7, np.float64), np.zeros(8, np.float32), np.zeros(14, np.float32)[::2]):
        with pytest.raises(ValueError, match="float32"):
            arrays.fill(observation, wrong)
    frozen = np.zeros(7, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError):
        arrays.fill(observation, frozen)


def test_the_built_modules_are_the_ones_in_use() -> None:
    """canasta.rl.tensor falls back to the pure writers and numpy's copies when canasta.rl.native or
    canasta.rl.arrays is missing; a build that has them must not fall back because one of their names is
    missing (an ImportError the fallback would hide)."""
    pytest.importorskip("numpy")
    from canasta.rl import tensor

    assert tensor.ENCODER is native.NativeEncoder and tensor.MASKS is native.NativeMaskWriter
    pytest.importorskip("canasta.rl.arrays", reason="canasta.rl.arrays is not built (Cython, numpy)")
    assert None not in (tensor.COPIES, tensor.OBSERVATION, tensor.FLOATS, tensor.FILL)
    observer = pytest.importorskip("canasta.rl.observer", reason="canasta.rl.observer is not built (Cython)")
    pytest.importorskip("pyspiel", reason="open-spiel is not installed (extra [rl])")
    from canasta.rl.openspiel_game import CanastaObserver

    assert issubclass(CanastaObserver, observer.TensorFiller)


def test_the_openspiel_game_is_compiled_where_the_writers_are() -> None:
    """setup.py compiles OpenSpiel's game module with Cython beside the writers (a build that has the writers
    has it, or a failure of its own fell back silently)."""
    pytest.importorskip("pyspiel", reason="open-spiel is not installed (extra [rl])")
    from canasta.rl import openspiel_game

    assert not str(openspiel_game.__file__).endswith(".py")
