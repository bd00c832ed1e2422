"""Old import path (deprecated; it will go in a later release): the line mode is ``canasta.line``."""

from __future__ import annotations

from .line.game import COMMANDS, LineGame, wrap

__all__ = ["COMMANDS", "LineGame", "wrap"]
