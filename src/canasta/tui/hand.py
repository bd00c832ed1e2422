"""The player's hand as a widget: cards in colour, a cursor, and a selection made with the keyboard
(left/right, space) or the mouse (click a card)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .cards import TILE, sort_hand, tiles


def rank_group(card: str) -> str:
    """Canasta's grouping: by rank, wild cards (twos, jokers) together."""
    return "wild" if card == "JK" or card[0] == "2" else card[:-1]


def suit_group(card: str) -> str:
    """By suit (jokers apart): sequences lie together."""
    return card[-1]


class HandView(Widget, can_focus=True):
    """Cards sorted and grouped by rank; ``selected`` holds the positions picked.

    ``order`` arranges the cards (``sort_hand`` by default; ``list`` keeps them as given, as a pile),
    ``group`` names each card's group (a wider gap between groups), ``single`` allows one picked card at a
    time, and ``cursor_at_end`` puts the cursor on the last card whenever the cards change (a pile's top)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "card left", show=False),
        Binding("right", "move(1)", "card right", show=False),
        Binding("space", "pick", "select card", show=False),
        Binding("escape", "clear", "clear selection", show=False),
    ]
    DEFAULT_CSS = "HandView { height: auto; min-height: 1; padding: 0 0 0 1; }"

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

    def rows(self) -> list[list[int]]:
        """The cards' positions row by row: as many card shapes as the width holds, the rest below."""
        width = max(self.content_size.width, TILE + 1)
        rows: list[list[int]] = [[]]
        used = 1
        for i, card in enumerate(self.cards):
            gap = 1 if rows[-1] and self.group(card) != self.group(self.cards[i - 1]) else 0
            if rows[-1] and used + gap + TILE > width:
                rows.append([])
                used, gap = 1, 0
            rows[-1].append(i)
            used += gap + TILE
        return rows

    def _gaps(self, row: Sequence[int]) -> list[bool]:
        return [k > 0 and self.group(self.cards[i]) != self.group(self.cards[row[k - 1]]) for k, i in enumerate(row)]

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)")
        lines: list[Text] = []
        cursor = self.cursor if self.has_focus else None
        for row in self.rows():
            local = {k for k, i in enumerate(row) if i in self.selected}
            here = next((k for k, i in enumerate(row) if i == cursor), None)
            lines += tiles([self.cards[i] for i in row], gaps=self._gaps(row), picked=local, cursor=here)
        return Text("\n").join(lines)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 3 * len(self.rows()) if self.cards else 1

    def on_click(self, event: Click) -> None:
        rows = self.rows()
        row = rows[min(event.y // 3, len(rows) - 1)] if self.cards else []
        x = 0
        for k, (i, gap) in enumerate(zip(row, self._gaps(row), strict=True)):
            x += gap
            last = k == len(row) - 1
            if x <= event.x < x + TILE + (1 if last else 0):
                self.cursor = i
                self.action_pick()
                return
            x += TILE

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


__all__ = ["HandView", "rank_group", "suit_group"]
