"""The rummy family (docs/rummy.md): 500 Rum with its partnership game and Persian Rummy, and Basic Rummy,
behind the same entry points as Canasta (``canasta.rules("500-rum")``, ``new_game``, ``legal_moves``,
``apply``, ``why_illegal``, ``view``, ``outcome``). Standard library only; one module per concern."""

from __future__ import annotations

from .api import apply, can_go_out, is_over, legal_moves, minimum_needed, outcome, parse_move, why_illegal
from .deal import new_game, redeal
from .moves import RummyMove
from .presets import ALIASES, PRESETS, UNSUPPORTED, rummy_key, rummy_names, rummy_rules
from .rules import RummyRules
from .scoring import game_result, score_hand
from .state import RummyState
from .view import public_view, view

__all__ = ["ALIASES", "PRESETS", "UNSUPPORTED", "RummyMove", "RummyRules", "RummyState", "apply", "can_go_out",
           "game_result", "is_over", "legal_moves", "minimum_needed", "new_game", "outcome", "parse_move",
           "public_view", "redeal", "rummy_key", "rummy_names", "rummy_rules", "score_hand", "view", "why_illegal"]
