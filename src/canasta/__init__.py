"""Canasta: the card game and its family, exactly by the rules (see docs/ and RULES.md)."""

from __future__ import annotations

from . import positions
from .cards import Card, parse_cards
from .engine import apply, can_go_out, is_over, legal_moves, minimum_needed, new_game, outcome, why_illegal
from .errors import IllegalMove
from .moves import Move
from .rules import Rules
from .scoring import score_hand
from .state import State
from .variants import rules, variant_names
from .view import view


def parse_move(state: State, text: str) -> Move:
    """Parse move notation in the context of ``state`` (syntax only: legality is ``apply``'s job).

    Raises ``ValueError`` quoting the bad part."""
    from .cards import rank_of
    from .moves import parse_move_text

    top = rank_of(state.pile[-1]) if state.pile else None
    return parse_move_text(text, top)


__version__ = "0.1.0"

__all__ = [
    "Card", "IllegalMove", "Move", "Rules", "State", "apply", "can_go_out", "is_over", "legal_moves",
    "minimum_needed", "new_game", "outcome", "parse_cards", "parse_move", "positions", "rules", "score_hand",
    "variant_names", "view", "why_illegal",
]
