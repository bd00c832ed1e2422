"""The Canasta family's answers to the game protocol (``canasta.game.GameFamily``), the engine's entry points
with the checks the public API makes of what callers pass."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import apply, can_go_out, is_over, legal_moves, minimum_needed, new_game, outcome, parse_move, why_illegal
from .engine import game_result as _game_result
from .moves import Move
from .rules import Rules
from .sampling import determinize
from .scoring import score_hand as _score_hand
from .state import State
from .view import public_view, view

FAMILY = "Canasta"
RULES = Rules
STATE = State
MOVE = Move


def game_result(rules: Rules, scores: Sequence[int], hand_number: int, canastas: Sequence[int] | None = None,
                went_out: int | None = None) -> dict[str, Any] | None:
    """``canastas``: each side's canastas on the table (for ``canastas_to_win``); ``went_out`` plays no part."""
    return _game_result(rules, scores, hand_number, canastas)


def score_hand(rules: Rules, sides: Any) -> list[dict[str, Any]]:
    if not isinstance(sides, (list, tuple)):
        raise ValueError("sides must be a list with one object per side")
    return _score_hand(rules, sides)


__all__ = ["FAMILY", "MOVE", "RULES", "STATE", "apply", "can_go_out", "determinize", "game_result", "is_over",
           "legal_moves", "minimum_needed", "new_game", "outcome", "parse_move", "public_view", "score_hand", "view",
           "why_illegal"]
