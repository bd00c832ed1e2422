"""The rummy family's answers to the game protocol (``canasta.game.GameFamily``): its engine's entry points,
with the arguments the protocol gives every family (a side for ``minimum_needed``, ``canastas`` for
``game_result``, a view alone for ``determinize``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from . import api
from .api import apply, can_go_out, is_over, legal_moves, outcome, parse_move, why_illegal
from .deal import new_game
from .moves import RummyMove
from .presets import rules_of_view
from .rules import RummyRules
from .sampling import determinize as _determinize
from .scoring import game_result as _game_result
from .scoring import score_hand
from .state import RummyState
from .view import public_view, view

FAMILY = "rummy"
RULES = RummyRules
STATE = RummyState
MOVE = RummyMove


def minimum_needed(state: RummyState, side: int, seat: int | None = None) -> int:
    """The points the first meld of ``seat`` (by default ``side``'s player to move, else its first) must still
    be worth this hand: in the rummy family each player opens for himself (``first_meld``)."""
    r = state.rules
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < r.teams:
        raise ValueError(f"side must be 0..{r.teams - 1}, got {side!r}")
    if seat is None:
        seat = state.turn_seat if r.side_of(state.turn_seat) == side else r.seats_of(side)[0]
    elif r.side_of(seat) != side:
        raise ValueError(f"seat {seat} does not play for side {side}")
    return api.minimum_needed(state, seat)


def game_result(rules: RummyRules, scores: Sequence[int], hand_number: int, canastas: Sequence[int] | None = None,
                went_out: int | None = None) -> dict[str, Any] | None:
    """``went_out``: the seat that went out (for ``tie=went_out``); ``canastas`` plays no part."""
    if len(scores) != rules.teams:
        raise ValueError(f"{rules.name} has {rules.teams} sides; give {rules.teams} scores")
    return _game_result(rules, scores, hand_number, went_out)


def determinize(view: dict[str, Any], rng: random.Random) -> RummyState:
    return _determinize(rules_of_view(view), view, rng)


__all__ = ["FAMILY", "MOVE", "RULES", "STATE", "apply", "can_go_out", "determinize", "game_result", "is_over",
           "legal_moves", "minimum_needed", "new_game", "outcome", "parse_move", "public_view", "score_hand", "view",
           "why_illegal"]
