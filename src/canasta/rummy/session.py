"""Old import path (deprecated; it will go in a later release): a rummy game at a face's table is a
``canasta.play.session.Session`` like any other, and the rummy family's answers to it live in
``canasta.rummy.table``. ``RummyGame`` is kept for old code: a ``Session`` that plays the rummy family only
(``isinstance(game, RummyGame)`` is true of any session of a rummy game)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..play.family import RUMMY
from ..play.seated import parse_seat_names
from ..play.session import Session
from .rules import RummyRules
from .state import RummyState
from .table import hint_reason
from .table import undoable as rummy_undoable


class _RummyKind(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Session) and instance.family is RUMMY


class RummyGame(Session, metaclass=_RummyKind):
    """A ``Session`` of the rummy family (``start`` and ``resume`` refuse a Canasta game)."""

    ONLY = RUMMY

    @property
    def state(self) -> RummyState:
        state: RummyState = self.recorder.state
        return state

    @property
    def rules(self) -> RummyRules:
        return self.state.rules

    @staticmethod
    def parse_seats(text: str | Sequence[str], players: int) -> list[str]:
        return parse_rummy_seats(text, players)


def rummy_seat_choices() -> list[str]:
    """Every name a rummy seat may be given."""
    return RUMMY.seat_choices()


def parse_rummy_seats(text: str | Sequence[str], players: int) -> list[str]:
    """One name per seat, exactly one of them human; ``ValueError`` naming the problem."""
    return parse_seat_names(text, players, rummy_seat_choices())


__all__ = ["RummyGame", "hint_reason", "parse_rummy_seats", "rummy_seat_choices", "rummy_undoable"]
