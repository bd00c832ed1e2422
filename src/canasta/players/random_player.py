"""The random player: a uniform choice among the legal moves (the baseline every bot must beat)."""

from __future__ import annotations

import random
from typing import Any

from ..canasta.moves import Move
from . import Player


class RandomPlayer(Player):
    name = "random"
    lean_views = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        return self.rng.choice(legal)
