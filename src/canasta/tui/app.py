"""The Textual app: ``CanastaApp(session).run()``, or ``CanastaApp(None, save_path=...)`` to open the
start screen first. The session (``canasta.play.session``) keeps the game and saves it after every move; the
table (``game.TableScreen``) is the same for every family, with the family's part of it (``faces``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical

from ..play.session import Session
from .game import TableScreen
from .screens import SavedGameScreen, StartScreen


class CanastaApp(App[None]):
    """``canasta play``: the start screen (without a session), then the table of the session's game."""

    TITLE = "Canasta"
    ENABLE_COMMAND_PALETTE = False  # its footer key would push "? help" and "q quit" off an 80-column footer

    def __init__(self, session: Any = None, *, save_path: Path | None = None,
                 seed: int | None = None, hint_level: str = "medium", delay: float = 0.6,
                 saved: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.saved = saved  # the unfinished game in save_path that a new game would replace: ask first
        self.save_path = save_path
        self.seed = seed
        self.hint_level = hint_level
        self.delay = delay

    def on_mount(self) -> None:
        if self.saved is not None and self.save_path is not None:
            self.push_screen(SavedGameScreen(self.save_path, self.saved), self.saved_answer)
        else:
            self.begin()

    def begin(self) -> None:
        if self.session is not None:
            self.open_table(self.session)
        else:
            self.push_screen(StartScreen(), self.start)

    def saved_answer(self, kept: Any) -> None:
        """The saved game carried on, a new one (False), or leave with nothing changed (None)."""
        if kept is None:
            self.exit()
        elif kept is False:
            self.begin()
        elif kept is not True:
            self.session = kept
            self.open_table(kept)

    def open_table(self, session: Any) -> None:
        self.push_screen(TableScreen(session, self.hint_level, self.delay))

    def start(self, chosen: tuple[Any, list[str]] | None) -> None:
        if chosen is None:
            self.exit()
            return
        rules, seats = chosen
        self.session = Session.start(rules, seats, self.seed, self.save_path)
        self.open_table(self.session)

    def compose(self) -> ComposeResult:
        yield Vertical()


__all__ = ["CanastaApp", "TableScreen"]
