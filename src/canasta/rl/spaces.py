"""The Gymnasium spaces both the PettingZoo and the Gymnasium environments use, for every family (docs/rl.md)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .tensor import observe

BOUND = 1_000_000.0  # no count, size or score in an observation comes near it


def observation_space(observation_size: int, action_size: int) -> spaces.Dict:
    """A seat's observation dict: the flat tensor and the mask of legal atoms (either family)."""
    return spaces.Dict({
        "observation": spaces.Box(-BOUND, BOUND, shape=(observation_size,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(action_size,), dtype=np.int8),
    })


__all__ = ["BOUND", "observation_space", "observe"]  # observe: the seat's observation dict (canasta.rl.tensor)
