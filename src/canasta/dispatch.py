"""The public entry points for play (re-exported by ``canasta``), serving both families: a rummy game
(``RummyRules``, ``RummyState``) goes to ``canasta.rummy``, everything else straight to the Canasta engine,
with one type test in front.

This module is compiled with the engine (setup.py), so that a call from Python reaches the engine without an
interpreted frame in between: as Python functions these cost about 560 instructions a call, as much as a
compiled ``is_over`` itself, three calls a move in a random game. The Canasta type is tested first: compiled,
that is a comparison with a native type, where the rummy type (a pure-Python module's) is a dictionary
look-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from . import rummy as _rummy
from .engine import apply as _c_apply
from .engine import can_go_out as _c_can_go_out
from .engine import game_result as _c_game_result
from .engine import is_over as _c_is_over
from .engine import legal_moves as _c_legal_moves
from .engine import minimum_needed as _c_minimum_needed
from .engine import new_game as _c_new_game
from .engine import outcome as _c_outcome
from .engine import why_illegal as _c_why_illegal
from .errors import IllegalMove
from .moves import Move
from .rules import Rules
from .rummy import RummyMove, RummyRules, RummyState
from .scoring import score_hand as _c_score_hand
from .state import State
from .view import public_view as _c_public_view
from .view import view as _c_view


@overload
def new_game(rules: Rules, seed: int | None = None) -> State: ...
@overload
def new_game(rules: RummyRules, seed: int | None = None) -> RummyState: ...
def new_game(rules: Rules | RummyRules, seed: int | None = None) -> State | RummyState:
    """A new game of these rules, its first hand dealt; an integer ``seed`` makes every deal reproducible."""
    if type(rules) is RummyRules:
        return _rummy.new_game(rules, seed)
    return _c_new_game(rules, seed)  # type: ignore[arg-type]


@overload
def legal_moves(state: State) -> list[Move]: ...
@overload
def legal_moves(state: RummyState) -> list[RummyMove]: ...
def legal_moves(state: State | RummyState) -> list[Move] | list[RummyMove]:
    """Every legal move for ``state.to_move``, in a fixed order."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.legal_moves(state)
    return _c_legal_moves(state)  # type: ignore[arg-type]


@overload
def apply(state: State, move: Move | str) -> State: ...
@overload
def apply(state: RummyState, move: RummyMove | str) -> RummyState: ...
def apply(state: State | RummyState, move: Any) -> State | RummyState:
    """The state after ``move`` (a move or its notation); ``IllegalMove`` (with a code) if it is not legal."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.apply(state, move)
    return _c_apply(state, move)  # type: ignore[arg-type]


def why_illegal(state: State | RummyState, move: Any) -> IllegalMove | None:
    """None if ``move`` is legal, else an ``IllegalMove`` with a stable code and a message."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.why_illegal(state, move)
    return _c_why_illegal(state, move)  # type: ignore[arg-type]


def is_over(state: State | RummyState) -> bool:
    """Whether the whole game is over."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.is_over(state)
    return _c_is_over(state)  # type: ignore[arg-type]


def outcome(state: State | RummyState) -> dict[str, Any] | None:
    """Final scores per side and the winning side (None for a draw); None while play goes on."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.outcome(state)
    return _c_outcome(state)  # type: ignore[arg-type]


def view(state: State | RummyState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see of the game, JSON-ready, and nothing more."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.view(state, seat)
    return _c_view(state, seat)  # type: ignore[arg-type]


def public_view(state: State | RummyState) -> dict[str, Any]:
    """What a spectator sees."""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.public_view(state)
    return _c_public_view(state)  # type: ignore[arg-type]


def can_go_out(state: State | RummyState) -> bool:
    """Can the player whose turn it is go out this turn, from here (after drawing)?"""
    if type(state) is not State and type(state) is RummyState:
        return _rummy.can_go_out(state)
    return _c_can_go_out(state)  # type: ignore[arg-type]


def minimum_needed(state: State | RummyState, side: int, seat: int | None = None) -> int:
    """The minimum count ``side`` still has to meet this hand, 0 once it has opened (Cutthroat: name the
    ``seat``, whose own score sets it). In the rummy family, where each player opens for himself, the points
    his first meld must still be worth (``first_meld``): ``seat``'s, by default the side's player to move,
    else its first."""
    if type(state) is not State and type(state) is RummyState:
        r = state.rules
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < r.teams:
            raise ValueError(f"side must be 0..{r.teams - 1}, got {side!r}")
        if seat is None:
            seat = state.turn_seat if r.side_of(state.turn_seat) == side else r.seats_of(side)[0]
        elif r.side_of(seat) != side:
            raise ValueError(f"seat {seat} does not play for side {side}")
        return _rummy.minimum_needed(state, seat)
    return _c_minimum_needed(state, side, seat)  # type: ignore[arg-type]


def game_result(rules: Rules | RummyRules, scores: Sequence[int], hand_number: int,
                canastas: Sequence[int] | None = None, went_out: int | None = None) -> dict[str, Any] | None:
    """The result ``outcome`` would give if hand ``hand_number`` ended with these cumulative ``scores`` (one per
    side), None while play goes on. Canasta: ``canastas``, each side's canastas on the table (for
    ``canastas_to_win``). Rummy: ``went_out``, the seat that went out (for ``tie=went_out``)."""
    if type(rules) is RummyRules:
        if len(scores) != rules.teams:
            raise ValueError(f"{rules.name} has {rules.teams} sides; give {rules.teams} scores")
        return _rummy.game_result(rules, scores, hand_number, went_out)
    return _c_game_result(rules, scores, hand_number, canastas)  # type: ignore[arg-type]


def score_hand(rules: Rules | RummyRules, sides: Any) -> list[dict[str, Any]]:
    """Score one hand line by line, ``{"lines": {...}, "total": N}`` per side, for either family (the sides'
    fields: docs/index.md for Canasta, docs/rummy.md for the rummy family); ``ValueError`` names the problem."""
    if type(rules) is RummyRules:
        return _rummy.score_hand(rules, sides)
    if not isinstance(rules, Rules):
        raise TypeError(f"score_hand wants a game's rules (canasta.rules(NAME)), got {type(rules).__name__}")
    if not isinstance(sides, (list, tuple)):
        raise ValueError("sides must be a list with one object per side")
    return _c_score_hand(rules, sides)


@overload
def parse_move(state: State, text: str) -> Move: ...
@overload
def parse_move(state: RummyState, text: str) -> RummyMove: ...
def parse_move(state: State | RummyState, text: object) -> Move | RummyMove:
    """Parse move notation in the context of ``state`` (syntax only: legality is ``apply``'s job).

    Raises ``ValueError`` quoting the bad part, ``TypeError`` for anything but text."""
    # (``text`` is an object here, and checked below: compiled, a ``str`` parameter would refuse anything else
    # with mypyc's own message before this function's clearer one.)
    if not isinstance(text, str):
        raise TypeError(f"a move is text such as 'draw' or 'meld 9 9 9', got {type(text).__name__}")
    if type(state) is not State and type(state) is RummyState:
        return _rummy.parse_move(state, text)
    return _parse_canasta_move(state, text)  # type: ignore[arg-type]


def _parse_canasta_move(state: State, text: str) -> Move:
    from .cards import rank_of
    from .moves import parse_move_text

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
