"""Canasta: the card game and its family, exactly by the rules (see docs/ and docs/sources.md)."""

from __future__ import annotations

from . import positions
from .cards import Card, parse_cards
from .engine import apply, can_go_out, game_result, is_over, legal_moves, minimum_needed, new_game, outcome, why_illegal
from .errors import IllegalMove
from .moves import Move
from .rules import Rules
from .scoring import score_hand
from .state import State
from .variants import rules, variant_names
from .view import public_view, view


def parse_move(state: State, text: str) -> Move:
    """Parse move notation in the context of ``state`` (syntax only: legality is ``apply``'s job).

    Raises ``ValueError`` quoting the bad part."""
    from .cards import rank_of
    from .moves import parse_move_text

    if not isinstance(text, str):
        raise TypeError(f"a move is text such as 'draw' or 'meld 9 9 9', got {type(text).__name__}")
    top = rank_of(state.pile[-1]) if state.pile else None
    return _in_context(state, parse_move_text(text, top))


def _in_context(state: State, move: Move) -> Move:
    """Fill in what the notation may leave to the position: which sequence a run goes to, the suit of a
    discard in games with sequences, and twos melded as their own rank (Italian)."""
    from .melds import is_sequence_key, key_rank, key_suit

    r = state.rules
    if move.action == "discard":
        if move.rank == 1:  # a red three keeps its suit ("discard 3D")
            return move
        if not r.sequences or move.rank < 4:
            return move._replace(suit=-1)
        if move.suit < 0:  # "discard 9": the first 9 in suit order the hand holds
            hand = state.hands[state.turn_seat]
            suit = next((s for s in range(4) if hand[(move.rank - 2) * 4 + s]), 0)
            return move._replace(suit=suit)
        return move
    if move.action == "meld" and r.twos_as_rank and not r.wild_melds and move.rank == 0 and move.twos:
        move = move._replace(rank=2)  # "meld 2 2 2": no melds of wild cards here, so a meld of twos
    if move.action == "meld" and r.twos_as_rank and key_rank(move.rank) == 2:
        return move._replace(naturals=move.naturals + move.twos, twos=0)
    if move.action == "meld" and is_sequence_key(move.rank):
        # "meld 4H 5H 6H" names no sequence: the one these cards extend, else a new one.
        same = [m for m in legal_moves(state) if m.action == "meld" and is_sequence_key(m.rank)
                and key_suit(m.rank) == key_suit(move.rank) and (m.low, m.naturals) == (move.low, move.naturals)]
        if move not in same and same:
            return same[0]
    return move


def is_compiled() -> bool:
    """Whether the rules engine runs as code compiled by mypyc (``pip install .`` compiles it when a C
    compiler is present; ``CANASTA_PURE=1`` or an editable install keeps the pure-Python modules)."""
    import sys

    return not str(sys.modules[apply.__module__].__file__).endswith(".py")


__version__ = "0.1.0"

__all__ = [
    "Card", "IllegalMove", "Move", "Rules", "State", "apply", "can_go_out", "game_result", "is_compiled",
    "is_over", "legal_moves", "minimum_needed", "new_game", "outcome", "parse_cards", "parse_move", "positions",
    "public_view", "rules", "score_hand", "variant_names", "view", "why_illegal",
]
