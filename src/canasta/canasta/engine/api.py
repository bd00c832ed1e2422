"""The engine's public entry points for play: ``legal_moves`` (cached on the state), ``apply`` (checked
against that list, then the transition) and ``why_illegal``.

``legal_moves`` is the single source of truth: ``apply`` accepts exactly the moves it lists, and
``why_illegal`` explains any other move with a stable code.
"""

from __future__ import annotations

from typing import Final

from ...errors import IllegalMove
from ..cards import rank_of
from ..melds import is_sequence_key, key_rank, key_suit
from ..moves import Move, parse_move_text
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
        move = parse_move(state, move)
    if move in (state.legal_cache or legal_moves(state)):
        return None
    code, message = diagnose(state, move)
    return IllegalMove(code, message, move=str(move))


def parse_move(state: State, text: str) -> Move:
    """Parse move notation in the context of ``state`` (syntax only: legality is ``apply``'s job);
    ``ValueError`` quoting the bad part."""
    top = rank_of(state.pile[-1]) if state.pile else None
    return _in_context(state, parse_move_text(text, top))


def _in_context(state: State, move: Move) -> Move:
    """Fill in what the notation may leave to the position: which sequence a run goes to, the suit of a
    discard in games with sequences, and twos melded as their own rank (Italian)."""
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
