"""The Gymnasium spaces both the PettingZoo and the Gymnasium environments use (docs/rl.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from .actions import ActionSpace
from .observation import Layout
from .table import Table
from .tensor import dense_and_mask

BOUND = 1_000_000.0  # no count, size or score in an observation comes near it


def observation_space(layout: Layout, space: ActionSpace) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(-BOUND, BOUND, shape=(layout.size,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(space.size,), dtype=np.int8),
    })


def observe(table: Table, seat: int) -> dict[str, Any]:
    """The seat's observation and its mask of legal atoms (all zero when it is not to act)."""
    observation, action_mask = dense_and_mask(table, seat)
    return {"observation": observation, "action_mask": action_mask}

