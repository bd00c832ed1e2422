"""Shared by the player tests: full hands for the other seats, and a wrapper that checks what a bot sees."""

from __future__ import annotations

from typing import Any

import canasta
from canasta.canasta.moves import Move
from canasta.players import Player

# Full hands for seats 1-3, so that build_position deals nothing at random.
OTHERS = {1: "5H 5S 6H 6S 7H 7D 8S 8C TH TD JH", 2: "QH QS JD JC TC 6C 7C 8D 9H 4S 4C",
          3: "AC KC QC 5D 6D TS JS 9D 9S 4H 7S"}


class Spy(Player):
    """Wraps a bot and checks what it is given: a view dict and the legal moves, never the State."""

    def __init__(self, inner: Player) -> None:
        self.inner, self.name, self.calls = inner, inner.name, 0

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        assert isinstance(view, dict) and legal and all(isinstance(m, Move) for m in legal)
        assert [str(m) for m in legal] == view["legal_moves"]
        assert not any(isinstance(v, canasta.State) for v in view.values())
        move = self.inner.choose(view, legal)
        assert move in legal, f"{move} is not legal here: {view['legal_moves']}"
        self.calls += 1
        return move
