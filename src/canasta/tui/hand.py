"""The player's hand as a widget: cards in colour, a cursor, and a selection made with the keyboard
(left/right, space) or the mouse (click a card)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .cards import card_text, label, sort_hand


def rank_group(card: str) -> str:
    """Canasta's grouping: by rank, wild cards (twos, jokers) together."""
    return "wild" if card == "JK" or card[0] == "2" else card[:-1]


class HandView(Widget, can_focus=True):
    """Cards sorted and grouped by rank; ``selected`` holds the positions picked.

    ``order`` arranges the cards (``sort_hand`` by default; ``list`` keeps them as given, as a pile),
    ``group`` names each card's group (a wider gap between groups), ``single`` allows one picked card at a
    time, and ``cursor_at_end`` puts the cursor on the last card whenever the cards change (a pile's top)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "card left", show=False),
        Binding("right", "move(1)", "card right", show=False),
        Binding("space", "pick", "select card"),
        Binding("escape", "clear", "clear selection", show=False),
    ]
    DEFAULT_CSS = "HandView { height: auto; min-height: 1; padding: 0 1; }"

    cursor: reactive[int] = reactive(0)

    class Changed(Message):
        """The selection changed (``control``: the HandView)."""

        def __init__(self, hand: HandView) -> None:
            super().__init__()
            self.hand = hand

        @property
        def control(self) -> HandView:
            return self.hand

    def __init__(self, *, id: str | None = None, order: Callable[[Sequence[str]], list[str]] = sort_hand,
                 group: Callable[[str], str] = rank_group, single: bool = False, cursor_at_end: bool = False) -> None:
        super().__init__(id=id)
        self.cards: list[str] = []
        self.selected: set[int] = set()
        self.order, self.group, self.single, self.cursor_at_end = order, group, single, cursor_at_end

    def show(self, cards: Sequence[str]) -> None:
        """A new hand: the selection is kept for cards still held at the same places, else cleared."""
        new = self.order(cards)
        if new != self.cards:
            self.selected = set()
            if self.cursor_at_end:
                self.cursor = max(0, len(new) - 1)
        self.cards = new
        self.cursor = min(self.cursor, max(0, len(new) - 1))
        self.refresh(layout=True)

    def picked(self) -> list[str]:
        """The selected cards, or the card under the cursor when none is selected."""
        if self.selected:
            return [self.cards[i] for i in sorted(self.selected)]
        return [self.cards[self.cursor]] if self.cards else []

    def render(self) -> Text:
        out = Text()
        previous = None
        for i, card in enumerate(self.cards):
            rank = self.group(card)
            if previous is not None:
                out.append("  " if rank != previous else " ")
            previous = rank
            text = card_text(card)
            if i in self.selected:
                text.stylize("reverse")
            if i == self.cursor and self.has_focus:
                text.stylize("underline")
            out.append_text(text)
        return out if self.cards else Text("(no cards)")

    def _offsets(self) -> list[tuple[int, int]]:
        """Each card's first and last column in ``render``'s line."""
        spans, x, previous = [], 0, None
        for card in self.cards:
            rank = self.group(card)
            if previous is not None:
                x += 2 if rank != previous else 1
            previous = rank
            spans.append((x, x + len(label(card)) - 1))
            x += len(label(card))
        return spans

    def on_click(self, event: Click) -> None:
        width = max(1, self.content_size.width)
        column = event.y * width + event.x - 1  # one cell of padding on the left
        for i, (start, end) in enumerate(self._offsets()):
            if start <= column <= end:
                self.cursor = i
                self.action_pick()
                return

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_pick(self) -> None:
        if self.cards:
            self.selected = (set() if self.cursor in self.selected else {self.cursor}) if self.single \
                else self.selected ^ {self.cursor}
            self.refresh()
            self.post_message(self.Changed(self))

    def action_clear(self) -> None:
        self.selected = set()
        self.refresh()
        self.post_message(self.Changed(self))


__all__ = ["HandView", "rank_group"]
