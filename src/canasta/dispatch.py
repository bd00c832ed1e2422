"""The public entry points for play (re-exported by ``canasta``), serving every family: each call goes to the
family of its rules or state (``family_of``: ``canasta.canasta.family`` or ``canasta.rummy.family``, each a
``canasta.game.GameFamily``).

This module is compiled with the engine (setup.py), so that a call from Python reaches the family's engine
without an interpreted frame in between (three calls a move in a random game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, overload

from .canasta import family as canasta_family
from .canasta.moves import Move
from .canasta.rules import Rules
from .canasta.state import State
from .errors import IllegalMove
from .game import GameFamily
from .rummy import family as rummy_family
from .rummy.moves import RummyMove
from .rummy.rules import RummyRules
from .rummy.state import RummyState

FAMILIES: Final[tuple[GameFamily, ...]] = (canasta_family, rummy_family)
_BY_TYPE: Final[dict[type, GameFamily]] = {t: f for f in FAMILIES for t in (f.RULES, f.STATE)}


def family_of(game: object) -> GameFamily:
    """The family whose rules or state ``game`` is; ``TypeError`` for anything else."""
    family = _BY_TYPE.get(type(game))
    if family is None:
        family = next((f for f in FAMILIES if isinstance(game, (f.RULES, f.STATE))), None)
        if family is None:
            raise TypeError(f"wants a game's rules (canasta.rules(NAME)) or state, got {type(game).__name__}")
    return family


@overload
def new_game(rules: Rules, seed: int | None = None) -> State: ...
@overload
def new_game(rules: RummyRules, seed: int | None = None) -> RummyState: ...
def new_game(rules: Rules | RummyRules, seed: int | None = None) -> State | RummyState:
    """A new game of these rules, its first hand dealt; an integer ``seed`` makes every deal reproducible."""
    result: State | RummyState = family_of(rules).new_game(rules, seed)
    return result


@overload
def legal_moves(state: State) -> list[Move]: ...
@overload
def legal_moves(state: RummyState) -> list[RummyMove]: ...
def legal_moves(state: State | RummyState) -> list[Move] | list[RummyMove]:
    """Every legal move for ``state.to_move``, in a fixed order."""
    result: list[Move] | list[RummyMove] = family_of(state).legal_moves(state)
    return result


@overload
def apply(state: State, move: Move | str) -> State: ...
@overload
def apply(state: RummyState, move: RummyMove | str) -> RummyState: ...
def apply(state: State | RummyState, move: Any) -> State | RummyState:
    """The state after ``move`` (a move or its notation); ``IllegalMove`` (with a code) if it is not legal."""
    result: State | RummyState = family_of(state).apply(state, move)
    return result


def why_illegal(state: State | RummyState, move: Any) -> IllegalMove | None:
    """None if ``move`` is legal, else an ``IllegalMove`` with a stable code and a message."""
    return family_of(state).why_illegal(state, move)


def is_over(state: State | RummyState) -> bool:
    """Whether the whole game is over."""
    return family_of(state).is_over(state)


def outcome(state: State | RummyState) -> dict[str, Any] | None:
    """Final scores per side and the winning side (None for a draw); None while play goes on."""
    return family_of(state).outcome(state)


def view(state: State | RummyState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see of the game, JSON-ready, and nothing more."""
    return family_of(state).view(state, seat)


def public_view(state: State | RummyState) -> dict[str, Any]:
    """What a spectator sees."""
    return family_of(state).public_view(state)


def can_go_out(state: State | RummyState) -> bool:
    """Can the player whose turn it is go out this turn, from here (after drawing)?"""
    return family_of(state).can_go_out(state)


def minimum_needed(state: State | RummyState, side: int, seat: int | None = None) -> int:
    """The minimum count ``side`` still has to meet this hand, 0 once it has opened (Cutthroat: name the
    ``seat``, whose own score sets it). In the rummy family, where each player opens for himself, the points
    his first meld must still be worth (``first_meld``): ``seat``'s, by default the side's player to move,
    else its first."""
    return family_of(state).minimum_needed(state, side, seat)


def game_result(rules: Rules | RummyRules, scores: Sequence[int], hand_number: int,
                canastas: Sequence[int] | None = None, went_out: int | None = None) -> dict[str, Any] | None:
    """The result ``outcome`` would give if hand ``hand_number`` ended with these cumulative ``scores`` (one per
    side), None while play goes on. Canasta: ``canastas``, each side's canastas on the table (for
    ``canastas_to_win``). Rummy: ``went_out``, the seat that went out (for ``tie=went_out``)."""
    return family_of(rules).game_result(rules, scores, hand_number, canastas, went_out)


def score_hand(rules: Rules | RummyRules, sides: Any) -> list[dict[str, Any]]:
    """Score one hand line by line, ``{"lines": {...}, "total": N}`` per side, for either family (the sides'
    fields: docs/index.md for Canasta, docs/rummy.md for the rummy family); ``ValueError`` names the problem."""
    family = family_of(rules)
    if not isinstance(rules, family.RULES):  # a state where the rules belong
        raise TypeError(f"score_hand wants a game's rules (canasta.rules(NAME)), got {type(rules).__name__}")
    return family.score_hand(rules, sides)


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
    result: Move | RummyMove = family_of(state).parse_move(state, text)
    return result


__all__ = ["FAMILIES", "apply", "can_go_out", "family_of", "game_result", "is_over", "legal_moves", "minimum_needed",
           "new_game", "outcome", "parse_move", "public_view", "score_hand", "view", "why_illegal"]
