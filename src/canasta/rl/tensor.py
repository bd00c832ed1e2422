"""Observation tensors and legal-atom masks as numpy arrays (the one place the environments turn them into
arrays).

The numbers are written by ``canasta.rl.encoder`` (standard library, compiled with the engine) into
flat buffers kept per game; this module only looks at those buffers through numpy arrays made once per
buffer (``np.frombuffer``: the same memory, no copy), and copies out what a caller keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .encoder import DenseEncoder, Encoder, Masks, MaskWriter
from .observation import Layout
from .table import Table

try:  # the Cython writers, when built (setup.py): the same bytes as DenseEncoder and MaskWriter, faster
    from .native import NativeEncoder, NativeMaskWriter

    ENCODER: Callable[[Layout], Encoder] = NativeEncoder
    MASKS: Callable[[int], Masks] = NativeMaskWriter
except ImportError:
    ENCODER, MASKS = DenseEncoder, MaskWriter

Array = np.ndarray[Any, Any]

try:  # new arrays holding the buffers' bytes, made through numpy's C API (setup.py): cheaper than ndarray.copy
    from .arrays import copies as native_copies
    from .arrays import fill as native_fill
    from .arrays import float_list as native_float_list
    from .arrays import observation_dict as native_observation_dict

    COPIES: Callable[[bytearray, bytearray], tuple[Array, Array]] | None = native_copies
    OBSERVATION: Callable[[bytearray, bytearray], dict[str, Array]] | None = native_observation_dict
    FLOATS: Callable[[bytearray], list[float]] | None = native_float_list
    FILL: Callable[[bytearray, Array], None] | None = native_fill
except ImportError:
    COPIES = OBSERVATION = FLOATS = FILL = None


class _Arrays:
    """One game's encoder and mask writer, with numpy views of their buffers."""

    def __init__(self, table: Table) -> None:
        self.encoder: Encoder = ENCODER(table.layout)
        self.masks: Masks = MASKS(table.space.size)
        self._view()

    def _view(self) -> None:
        self.views = [np.frombuffer(b, np.float32) for b in self.encoder.buffers]
        self.mask_view = np.frombuffer(self.masks.mask, np.int8)

    # A pickled view would come back as a copy of its buffer, no longer the buffer the encoder writes
    # (OpenSpiel serializes states by pickling their table): views are made again on unpickling.
    def __getstate__(self) -> dict[str, Any]:
        return {"encoder": self.encoder, "masks": self.masks}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.encoder, self.masks = state["encoder"], state["masks"]
        self._view()


def _arrays(table: Table) -> _Arrays:
    arrays: _Arrays | None = table.encoders.get("dense")
    if arrays is None:
        arrays = table.encoders["dense"] = _Arrays(table)
    return arrays


def encoder_for(table: Table) -> Encoder:
    """The table's observation encoder (one per game, shared by its copies), whose buffers ``dense`` reads."""
    return _arrays(table).encoder


def dense(table: Table, seat: int, out: Array | None = None) -> Array:
    """The seat's observation tensor as a float32 array (written into ``out`` when given, else a new
    array): the same numbers as ``table.observation(seat)``. (Runs every step of OpenSpiel's observer: one
    compiled call writes the numbers, one native call copies them.)"""
    arrays = table.encoders.get("dense")
    if arrays is None:
        arrays = _arrays(table)
    buffer = table.write_dense(arrays.encoder, seat)
    if out is None:
        return arrays.views[seat].copy()
    if FILL is not None:
        try:
            FILL(buffer, out)
            return out
        except (TypeError, ValueError):  # not a float32 array of that size: numpy's assignment converts
            pass
    out[:] = arrays.views[seat]
    return out


def dense_list(table: Table, seat: int) -> list[float]:
    """``dense(table, seat)`` as a list of Python floats (OpenSpiel's ``observation_tensor()``)."""
    arrays = table.encoders.get("dense")
    if arrays is None:
        arrays = _arrays(table)
    buffer = table.write_dense(arrays.encoder, seat)
    if FLOATS is not None:
        return FLOATS(buffer)
    values: list[float] = arrays.views[seat].tolist()
    return values


def mask(table: Table, seat: int) -> Array:
    """The seat's legal-atom mask as a new int8 array (1 = legal; all zero when it is not to act)."""
    arrays = _arrays(table)
    arrays.masks.write(table.legal_actions() if table.to_move == seat and not table.terminal else [])
    return arrays.mask_view.copy()


def dense_and_mask(table: Table, seat: int) -> tuple[Array, Array]:
    """``dense(table, seat)`` and ``mask(table, seat)`` (what the environments hand out every step): both
    written by one compiled call, then copied out of the buffers."""
    arrays = table.encoders.get("dense")
    if arrays is None:
        arrays = _arrays(table)
    if COPIES is not None:
        return COPIES(*table.write_observation(arrays.encoder, arrays.masks, seat))
    table.write_observation(arrays.encoder, arrays.masks, seat)
    return arrays.views[seat].copy(), arrays.mask_view.copy()


def observe(table: Table, seat: int) -> dict[str, Array]:
    """``dense_and_mask`` as the environments' observation dict (``observation``, ``action_mask``).
    (Its body repeated, not called: this runs every step, and a Python call costs more than these lines.)"""
    arrays = table.encoders.get("dense")
    if arrays is None:
        arrays = _arrays(table)
    if OBSERVATION is not None:
        return OBSERVATION(*table.write_observation(arrays.encoder, arrays.masks, seat))
    table.write_observation(arrays.encoder, arrays.masks, seat)
    return {"observation": arrays.views[seat].copy(), "action_mask": arrays.mask_view.copy()}
