"""The rummy family's part of the app's table (500 Rum, Basic Rummy ...): the melds on the table under each owner
with their points, the pile as cards (500 Rum's spread pile: any card may be chosen, and taking it takes every
card above it; Basic Rummy's top card) and the stock; the hand sorted by suit (runs together) or by rank; ``t``
takes the card chosen in the pile, ``l`` lays the selected card off. The texts are ``rummy_table``'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..text.names import move_label, plural, variant_title
from . import rummy_table
from .cards import label, sort_by_suit, sort_hand
from .face import Face, Order
from .hand import HandView, suit_group

KEYS = """\
## Keys

| key | what it does |
|---|---|
| left / right, space, click | move along your hand (or the pile), select cards |
| tab | move between your hand, the pile and the list of legal moves |
| d | draw from the stock |
| t | take the card chosen in the pile (500 Rum: with every card above it, to be used at once) |
| m | meld the selected cards (a set, or a run of one suit) |
| l | lay off the selected card on a meld on the table (several melds: choose in the list) |
| x | discard the selected card (or the one under the cursor) |
| s | sort your hand by suit or by rank |
| enter | play the move highlighted in the list of legal moves (from your hand too) |
| c | four suit colours (♦ blue, ♣ green) or the usual two |
| h | hint: the move the hint level would play, and why |
| u | undo: take back this turn's last meld or lay-off, one at a time (a draw, a take, a call are final) |
| ? | this page; escape closes it |
| q | quit (the game is saved after every move) |
"""


def _no_group(_: str) -> str:
    return ""


def _rank(card: str) -> str:
    return card[:-1]


class RummyFace(Face):
    KEYS = KEYS
    ACTIONS = frozenset({"lay"})
    CSS = """
    #table { height: auto; max-height: 30%; border-top: solid $primary; }
    #pile-title { height: auto; border-top: solid $primary; }
    """
    MOVES_WIDTH = 30
    SELECTED = "(m meld, l lay off, x discard)"
    MELD_MIN = 3
    MELD_PROMPT = "Select three or more cards to meld first (space, or click them)."

    @property
    def spread(self) -> bool:
        """Is the pile spread (any card may be taken), or is only its top card in play?"""
        return bool(self.rules.pile_take != "top")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="table"):
            yield Static(id="melds")
        yield Static(id="pile-title")
        yield HandView(id="pile", order=list, group=_no_group, single=True, cursor_at_end=True)

    def show(self, screen: Screen[Any], v: dict[str, Any]) -> None:
        screen.query_one("#melds", Static).update(rummy_table.melds(v))
        screen.query_one("#pile-title", Static).update(rummy_table.pile_title(v, self.spread))
        screen.query_one("#pile", HandView).show(v["pile"] if self.spread else v["pile"][-1:])

    def seats(self, v: dict[str, Any], names: Sequence[str]) -> Text:
        return rummy_table.players(v, names)

    def status(self, v: dict[str, Any]) -> Text:
        return rummy_table.status(v)

    def orders(self) -> list[Order]:
        ace_low = self.rules.ace == "low"
        return [Order("suit", lambda cards: sort_by_suit(cards, ace_low=ace_low), suit_group),
                Order("rank", sort_hand, _rank)]

    def title(self) -> str:
        return f"{variant_title(self.rules.name)}, {self.rules.players} players, game {self.target()}"

    def seat_label(self, v: dict[str, Any], seat: int) -> str:
        return rummy_table.seat_label(v, seat)

    def lines(self, before: Any, move: Any, after: Any, seen: dict[str, Any], me: int) -> list[str]:
        """The move itself; the cards taken above the one chosen in a spread pile."""
        who = before.to_move
        out = [f"{'You' if who == me else self.seat_label(seen, who)}: {move_label(str(move))}"]
        words = str(move).split()
        if move.action == "take" and len(words) > 1 and words[1] in seen["pile"]:
            taken = len(seen["pile"]) - seen["pile"].index(words[1])
            if taken > 1:
                out.append(f"  … with the {plural(taken - 1, 'card')} above it")
        return out

    def pile_chosen(self, card: str) -> str:
        above = " with every card above it" if self.spread else ""
        return f"Chosen in the pile: {label(card)}  (t takes it{above})"

    def hand_end(self, before: Any, after: Any, v: dict[str, Any]) -> str:
        assert after.last_hand is not None
        return rummy_table.hand_end(after.last_hand, v)

    def score_pad(self, hands: Sequence[Any], v: dict[str, Any]) -> Table:
        return rummy_table.score_pad(hands, v)

    def result(self, result: dict[str, Any], v: dict[str, Any]) -> str:
        return rummy_table.result_text(result, v)

    def take(self, screen: Screen[Any]) -> str:
        """``take`` the card chosen in the pile."""
        chosen = screen.query_one("#pile", HandView).picked()
        if not chosen:
            raise ValueError("The pile is empty.")
        return f"take {chosen[0]}"

    def target(self) -> int:
        target: int = self.rules.game_target()
        return target


__all__ = ["KEYS", "RummyFace"]
