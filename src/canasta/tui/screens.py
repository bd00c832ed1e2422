"""The app's screens besides the table: the start screen, the end of a hand, the end of the game, help."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, Markdown, Select, Static

from ..canasta.view import seat_name
from ..play import autosave
from ..play.session import HUMAN
from ..players.levels import LEVELS
from ..presets import game_rules as make_rules
from ..presets import variant_names
from ..rummy.pages import NOTES as RUMMY_NOTES
from ..text.how_to_play import how_to_play
from ..text.variant_docs import NOTES, variant_page
from .faces import face_for


def _notes(name: str) -> tuple[str, str]:
    """A preset's title and summary, whichever family it is of."""
    title, summary = (RUMMY_NOTES[name] if name in RUMMY_NOTES else NOTES[name])[:2]
    return title, summary


class SavedGameScreen(Screen[Any]):
    """Before a new game would replace an unfinished one: continue it, or start a new one. Dismissed with
    the saved game carried on, False for a new one, None to leave with nothing changed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "keep", "continue"), Binding("n", "new", "new game"), Binding("q,escape", "leave", "quit")]
    DEFAULT_CSS = """
    SavedGameScreen { align: center middle; }
    SavedGameScreen > Vertical { width: 70; max-width: 100%; height: auto; border: round $accent; padding: 0 1; }
    SavedGameScreen Horizontal { height: auto; }
    SavedGameScreen #problem { color: $error; height: auto; }
    """

    def __init__(self, path: Path, saved: str) -> None:
        super().__init__()
        self.path, self.saved = path, saved

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"A game in progress is saved in {self.path}:\n{self.saved}.\n\n"
                         "A new game would replace it.", id="saved")
            with Horizontal():
                yield Button("Continue the saved game (c)", id="keep", variant="primary")
                yield Button("Start a new one (n)", id="new")
            yield Static(id="problem")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "keep":
            self.action_keep()
        elif event.button.id == "new":
            self.action_new()

    def action_keep(self) -> None:
        try:
            self.dismiss(autosave.resume(self.path, None, self.path))
        except ValueError as exc:
            self.query_one("#problem", Static).update(f"It cannot be carried on: {exc}")

    def action_new(self) -> None:
        self.dismiss(False)

    def action_leave(self) -> None:
        self.dismiss(None)


class StartScreen(Screen[tuple[Any, list[str]]]):
    """Variant (with its summary), options, target and each seat: dismissed with (rules, seats). The
    presets of every family are offered (Canasta's, then the rummy family's)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "start")]
    DEFAULT_CSS = """
    StartScreen { padding: 0 1; }
    StartScreen Horizontal { height: auto; }
    StartScreen #summary { height: auto; max-height: 8; margin: 0 0 1 0; }
    StartScreen #seats Select { width: 1fr; }
    StartScreen Input { width: 1fr; }
    StartScreen #problem { color: $error; height: auto; }
    """

    def compose(self) -> ComposeResult:
        names = variant_names()
        yield Label("Canasta: a new game", classes="title")
        yield Select([(f"{n}: {_notes(n)[0]}", n) for n in names], value="classic", allow_blank=False, id="variant")
        yield Static(id="summary")
        with Horizontal():
            yield Input(placeholder="target (the preset's by default)", id="target", type="integer")
            yield Input(placeholder="options: KEY=VALUE KEY=VALUE", id="options")
        yield Horizontal(id="seats")
        yield Static(id="problem")
        yield Button("Start", id="start", variant="primary")
        yield Footer()

    async def on_mount(self) -> None:
        await self._variant_chosen("classic")

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and isinstance(event.value, str):
            await self._variant_chosen(event.value)

    async def on_input_changed(self, event: Input.Changed) -> None:
        """Options that change the number of players (``players=2``) change the seats offered."""
        try:
            rules, _ = self.chosen(seats=False)
        except ValueError:
            return
        if len(self.query_one("#seats", Horizontal).children) != rules.players:
            await self._show_seats(rules)

    async def _variant_chosen(self, name: str) -> None:
        rules = make_rules(name)
        target = face_for(rules).target()
        title, summary = _notes(name)
        self.query_one("#summary", Static).update(f"{title}. {summary} Target {target}.")
        with contextlib.suppress(ValueError):
            rules, _ = self.chosen(seats=False)  # with the options already typed
        await self._show_seats(rules)

    async def _show_seats(self, rules: Any) -> None:
        seats = self.query_one("#seats", Horizontal)
        await seats.remove_children()
        def choices(seat: int) -> list[tuple[str, str]]:
            return [(f"{seat_name(rules.players, seat)}: {name}", name) for name in (HUMAN, *LEVELS)]

        await seats.mount(*(Select(choices(s), value=HUMAN if s == 0 else "medium", allow_blank=False,
                                   id=f"seat-{s}") for s in range(rules.players)))

    def chosen(self, seats: bool = True) -> tuple[Any, list[str]]:
        """The rules and seats on the screen (``ValueError`` for a bad option; ``seats`` False: the rules
        alone)."""
        name = str(self.query_one("#variant", Select).value)
        options: dict[str, Any] = {}
        for item in self.query_one("#options", Input).value.split():
            key, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"options are KEY=VALUE, got {item!r}")
            options[key] = value
        target = self.query_one("#target", Input).value.strip()
        if target:
            options["target"] = target
        rules = make_rules(name, **options)
        if not seats:
            return rules, []
        names = [str(self.query_one(f"#seat-{s}", Select).value) for s in range(rules.players)]
        if names.count(HUMAN) != 1:
            raise ValueError("give exactly one seat to a human")
        return rules, names

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def action_start(self) -> None:
        try:
            self.dismiss(self.chosen())
        except ValueError as exc:
            self.query_one("#problem", Static).update(str(exc))


class HandEndScreen(ModalScreen[None]):
    """A finished hand: the breakdown line by line and the score pad of every hand."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space", "close", "continue")]
    DEFAULT_CSS = """
    HandEndScreen { align: center middle; }
    HandEndScreen > VerticalScroll { width: 78; max-width: 100%; height: auto; max-height: 100%;
                                     border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, breakdown: str, pad: Any, footer: str) -> None:
        super().__init__()
        self.breakdown, self.pad, self.footer = breakdown, pad, footer

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Group(Text(self.breakdown), Text(""), self.pad, Text(self.footer, style="bold")),
                         id="breakdown")

    def action_close(self) -> None:
        self.dismiss(None)


class GameOverScreen(ModalScreen[bool]):
    """The result; dismissed with True for another game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "again", "play again"), Binding("q,escape", "leave", "quit")]
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical { width: 60; max-width: 100%; height: auto; border: round $accent; padding: 0 1;
                                background: $surface; }
    GameOverScreen Horizontal { height: auto; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="result")
            with Horizontal():
                yield Button("Play again (a)", id="again", variant="primary")
                yield Button("Quit (q)", id="leave")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "again")

    def action_again(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)


class HelpScreen(ModalScreen[None]):
    """How to play the variant in plain words, the keys, then its parameters with their sources."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", "close")]
    DEFAULT_CSS = "HelpScreen > VerticalScroll { background: $surface; border: round $accent; }"

    def __init__(self, rules: Any, keys: str) -> None:
        super().__init__()
        self.rules, self.keys = rules, keys

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            page = "\n".join([how_to_play(self.rules), self.keys, variant_page(self.rules)])
            yield Markdown(page, id="rules-page")

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["GameOverScreen", "HandEndScreen", "HelpScreen", "SavedGameScreen", "StartScreen"]
