"""Observation tensors as numpy arrays (the one place the environments turn them into arrays)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .table import Table


def dense(table: Table, seat: int, out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
    """The seat's observation tensor as a float32 array (written into ``out`` when given)."""
    entries = table.observation_entries(seat).values
    if out is None:
        out = np.zeros(table.layout.size, np.float32)
    else:
        out.fill(0)
    if entries:
        out[np.fromiter(entries.keys(), np.intp, len(entries))] = np.fromiter(entries.values(), np.float32,
                                                                              len(entries))
    return out
