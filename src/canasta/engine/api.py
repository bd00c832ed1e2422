"""The engine's public entry points for play: ``legal_moves`` (cached on the state), ``apply`` (checked
against that list, then the transition) and ``why_illegal``.

``legal_moves`` is the single source of truth: ``apply`` accepts exactly the moves it lists, and
``why_illegal`` explains any other move with a stable code.
"""

from __future__ import annotations

from typing import Final

from ..errors import IllegalMove
from ..moves import Move
from ..state import State
from .explain import diagnose
from .legal import generate_moves
from .turn import apply_move

_COMPILED: Final = not __file__.endswith(".py")


def legal_moves(state: State) -> list[Move]:
    """Every legal move for ``state.to_move``, in a fixed order."""
    cached = state.legal_cache
    if cached is None:
        cached = generate_moves(state)
        state.cache_legal(cached)
    return list(cached)


def apply(state: State, move: Move | str) -> State:
    """The state after ``move`` (a Move or its notation); raises ``IllegalMove`` (with a code) if the
    move is not legal here, ``ValueError`` if the notation does not parse."""
    if not isinstance(move, Move):
        if not isinstance(move, str):
            raise TypeError(f"apply wants a Move or move notation, got {type(move).__name__}")
        from .. import parse_move

        move = parse_move(state, move)
    legal = state.legal_cache
    if legal is None:
        legal = generate_moves(state)
        state.cache_legal(legal)
    if not (_listed(move, legal) if _COMPILED else move in legal):
        raise why_illegal(state, move) or IllegalMove("NOT_ALLOWED_NOW", f"{move} is not allowed now")
    return apply_move(state, move)


def _listed(move: Move, legal: list[Move]) -> bool:
    """Is ``move`` in the list? Compiled, a native loop finds a move taken from ``legal_moves`` by identity
    without comparing it field by field with the moves before it, as ``in`` does (interpreted, ``in`` is
    quicker than any loop written in Python)."""
    for m in legal:
        if m is move:
            return True
    return move in legal


def why_illegal(state: State, move: Move | str) -> IllegalMove | None:
    """None if ``move`` (a Move or its notation) is legal, else an ``IllegalMove`` with a stable code
    and a message. Notation that does not parse raises ``ValueError``."""
    if not isinstance(move, Move):
        from .. import parse_move

        move = parse_move(state, move)
    if move in (state.legal_cache or legal_moves(state)):
        return None
    code, message = diagnose(state, move)
    return IllegalMove(code, message, move=str(move))
