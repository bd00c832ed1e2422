"""``canasta pad`` as a Textual app: the score sheet, the last hand line by line, and a form per side.

The form's answers are the line mode's (``canasta.pad.entry``): cards or points in each box. Every change is
saved to the pad's file at once; a hand the pad refuses leaves the pad and the form as they were.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Footer, Input, Label, Static

from ..pad.entry import answers_of, hand_entry, prompt, questions
from ..pad.game import Pad, PadError
from ..pad.line import save
from ..textui import render_breakdown


class PadApp(App[None]):
    """The score pad of one game, kept in ``path``."""

    TITLE = "Canasta score pad"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "add", "add the hand"), Binding("ctrl+z", "undo", "undo"),
        Binding("ctrl+q", "quit", "quit"),
    ]
    DEFAULT_CSS = """
    #top { height: auto; max-height: 50%; }
    #sheet { width: 1fr; height: auto; max-height: 16; }
    #detail { width: 1fr; height: auto; padding: 0 1; }
    #form { height: 1fr; }
    .side { width: 1fr; height: auto; padding: 0 1; }
    .side Input { width: 1fr; }
    #problem { color: $error; height: auto; }
    #buttons { height: auto; }
    #buttons Input { width: 16; }
    """

    def __init__(self, pad: Pad, path: Path) -> None:
        super().__init__()
        self.pad = pad
        self.path = path
        self.fixing: int | None = None  # the hand the form corrects, None: the form adds a hand

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="title")
        with Horizontal(id="top"):
            yield DataTable(id="sheet", cursor_type="row", zebra_stripes=True)
            yield Static(id="detail")
        with VerticalScroll(id="form"), Horizontal():
            for i, name in enumerate(self.pad.names):
                with Vertical(classes="side"):
                    yield Label(f"[b]{name}[/b]")
                    for key in questions(self.pad.rules):
                        yield Input(placeholder=prompt(self.pad.rules, key), id=f"s{i}-{key}")
        yield Static(id="problem")
        with Horizontal(id="buttons"):
            yield Button("Add hand", id="add", variant="primary")
            yield Button("Undo", id="undo")
            yield Input(placeholder="hand no.", id="fix-number", type="integer")
            yield Button("Correct hand", id="fix")
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    def _title(self) -> str:
        options = ", ".join(f"{k}={v}" for k, v in self.pad.options.items())
        return f"{self.pad.rules.name} score pad" + (f" ({options})" if options else "") + f" — {self.path.name}"

    def _show(self, hand: int | None = None) -> None:
        table = self.query_one("#sheet", DataTable)
        table.clear(columns=True)
        table.add_columns("hand", *self.pad.names)
        for scored in self.pad.sheet:
            table.add_row(str(scored["number"]), *(f"{s['cumulative']} ({s['total']:+})" for s in scored["sides"]))
        lines: list[str] = []
        if self.pad.hands:
            number = hand or len(self.pad.hands)
            lines = [f"hand {number}:", *render_breakdown(self.pad.sheet[number - 1]["sides"], list(self.pad.names))]
        result = self.pad.result
        if result is not None:
            winner = result["winner"]
            lines.append("game over: " + ("a draw" if winner is None else f"{self.pad.names[winner]} wins"))
        elif any(self.pad.minimums()):
            lines.append("minimum next hand: " + ", ".join(
                f"{n} {m}" for n, m in zip(self.pad.names, self.pad.minimums(), strict=True)))
        self.query_one("#detail", Static).update("\n".join(lines))
        self.query_one("#add", Button).label = f"Save hand {self.fixing}" if self.fixing else "Add hand"

    def _answers(self) -> list[dict[str, str]]:
        return [{key: self.query_one(f"#s{i}-{key}", Input).value for key in questions(self.pad.rules)}
                for i in range(len(self.pad.names))]

    def _fill(self, answers: list[dict[str, str]] | None) -> None:
        for i in range(len(self.pad.names)):
            for key in questions(self.pad.rules):
                self.query_one(f"#s{i}-{key}", Input).value = answers[i].get(key, "") if answers else ""

    def _problem(self, text: str) -> None:
        self.query_one("#problem", Static).update(text)

    def _change(self, pad: Pad, shown: int | None = None) -> None:
        save(pad, self.path)
        self.pad = pad
        self._problem("")
        self._show(shown)

    def action_add(self) -> None:
        try:
            hand = hand_entry(self.pad.rules, self._answers())
            fixing = self.fixing
            pad = self.pad.correct(fixing, hand) if fixing else self.pad.add(hand)
        except (PadError, ValueError) as exc:
            self._problem(f"Refused: {exc}. Nothing changed.")
            return
        self.fixing = None
        self._fill(None)
        self._change(pad, fixing)

    def action_undo(self) -> None:
        try:
            self._change(self.pad.undo())
        except PadError as exc:
            self._problem(str(exc))

    def _start_fix(self) -> None:
        text = self.query_one("#fix-number", Input).value.strip()
        if not text.isdigit() or not 1 <= int(text) <= len(self.pad.hands):
            self._problem(f"Correct which hand? 1 to {len(self.pad.hands)}" if self.pad.hands else "No hands yet.")
            return
        self.fixing = int(text)
        self._fill(answers_of(self.pad.rules, self.pad.hands[self.fixing - 1]))
        self._problem(f"Correcting hand {self.fixing}: change the answers and save.")
        self._show(self.fixing)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions: dict[str | None, Any] = {"add": self.action_add, "undo": self.action_undo, "fix": self._start_fix}
        actions[event.button.id]()
