"""Old import path (deprecated; it will go in a later release): the rummy family's table is the app's one
table, ``canasta.tui.game.TableScreen``, with the rummy family's part of it in ``canasta.tui.rummy_face``."""

from __future__ import annotations

from .game import TableScreen as RummyTableScreen
from .rummy_face import KEYS as RUMMY_KEYS

__all__ = ["RUMMY_KEYS", "RummyTableScreen"]
