"""Canasta: the card game and its family, exactly by the rules (see docs/ and docs/sources.md)."""

from __future__ import annotations

from . import moved, positions
from .canasta import engine as _engine
from .canasta.cards import Card, parse_cards
from .canasta.moves import Move
from .canasta.rules import Rules
from .canasta.state import State
from .dispatch import (
    apply,
    can_go_out,
    game_result,
    is_over,
    legal_moves,
    minimum_needed,
    new_game,
    outcome,
    parse_move,
    public_view,
    score_hand,
    view,
    why_illegal,
)
from .errors import IllegalMove
from .presets import game_rules as rules
from .presets import variant_names
from .rummy import RummyMove, RummyRules, RummyState


def is_compiled() -> bool:
    """Whether the rules engine runs as code compiled by mypyc (``pip install .`` compiles it when a C
    compiler is present; ``CANASTA_PURE=1`` or an editable install keeps the pure-Python modules)."""
    import sys

    return not str(sys.modules[_engine.apply.__module__].__file__).endswith(".py")


moved.install()  # the old import paths (canasta.cards, canasta.bots …) keep working

__version__ = "0.1.0"

__all__ = [
    "Card", "IllegalMove", "Move", "Rules", "RummyMove", "RummyRules", "RummyState", "State", "apply",
    "can_go_out", "game_result", "is_compiled", "is_over", "legal_moves", "minimum_needed", "new_game", "outcome",
    "parse_cards", "parse_move", "positions", "public_view", "rules", "score_hand", "variant_names", "view",
    "why_illegal",
]
