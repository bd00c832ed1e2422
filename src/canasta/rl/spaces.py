"""The Gymnasium spaces both the PettingZoo and the Gymnasium environments use (docs/rl.md)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .actions import ActionSpace
from .observation import Layout
from .tensor import observe

BOUND = 1_000_000.0  # no count, size or score in an observation comes near it


def observation_space(layout: Layout, space: ActionSpace) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(-BOUND, BOUND, shape=(layout.size,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(space.size,), dtype=np.int8),
    })


__all__ = ["BOUND", "observation_space", "observe"]  # observe: the seat's observation dict (canasta.rl.tensor)
