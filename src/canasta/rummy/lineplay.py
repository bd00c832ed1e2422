"""Old import path (deprecated; it will go in a later release): the line mode is one for every family,
``canasta.line.LineGame``; the rummy family's table as text is ``canasta.line.rummy``."""

from __future__ import annotations

from typing import TextIO

from ..line.game import LineGame
from ..line.rummy import render_hand_end
from ..line.rummy import render_view as render
from ..play.session import Session


class RummyLineGame(LineGame):
    """The human seat of ``game``, line by line (``LineGame`` with the old signature)."""

    def __init__(self, game: Session, stdin: TextIO, stdout: TextIO, hint_level: str = "hard") -> None:
        super().__init__(game, game.humans[0], stdin, stdout, hint_level=hint_level)


__all__ = ["RummyLineGame", "render", "render_hand_end"]
