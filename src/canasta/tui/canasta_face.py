"""Canasta's part of the app's table: each side's score, canastas, threes and melds side by side, the stock and
the pile's top cards with its size and why it is frozen; the hand sorted by rank (wild cards together) or by
suit; ``t`` takes the pile with the selected cards, ``y``/``n`` answer a partner. The texts are ``table``'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from ..canasta.view import seat_name
from ..play.session import news
from ..text.names import variant_title
from ..textui import describe_history, explain_move, render_result
from . import table
from .cards import label, sort_by_suit, sort_hand
from .face import Face, Order
from .hand import HandView, rank_group, suit_group

KEYS = """\
## Keys

| key | what it does |
|---|---|
| left / right, space, click | move along your hand, select a card |
| d | draw from the stock |
| t | take the pile (with the selected cards) |
| m | meld the selected cards (or add them to your side's meld) |
| x | discard the selected card (or the one under the cursor) |
| enter | play the move highlighted in the list of legal moves (from your hand too) |
| tab | move between your hand and the list of legal moves (up / down to choose one, or click it) |
| s | sort your hand by rank or by suit (sequences) |
| c | four suit colours (♦ blue, ♣ green) or the usual two |
| h | hint: the move the hint level would play, and why |
| u | undo: take back this turn's last meld, one at a time (a draw, a take, an answer are final) |
| y / n | answer your partner's question |
| ? | this page; escape closes it |
| q | quit (the game is saved after every move: `canasta play --resume FILE`) |
| click | a card selects it; a key at the bottom does what it says |
"""


def rank_token(card: str) -> str:
    """A card as move notation wants it in ``meld``/``take``: its rank (``JK`` for a joker)."""
    return card if card == "JK" else card[:-1]


class CanastaFace(Face):
    KEYS = KEYS
    ACTIONS = frozenset({"answer"})
    CSS = """
    #sides { height: auto; max-height: 10; }
    #sides > Static { width: 1fr; height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    #pile-row { height: auto; }
    #pile-cards { width: auto; margin-right: 2; }
    #pile-row > #pile { width: 1fr; }
    """
    SELECTED = "(m meld, x discard, t take)"

    def compose(self) -> ComposeResult:
        with Horizontal(id="sides"):
            yield Static(id="us")
            yield Static(id="them")
        with Horizontal(id="pile-row"):
            yield Static(id="pile-cards")
            yield Static(id="pile")

    def show(self, screen: Screen[Any], v: dict[str, Any]) -> None:
        them = [i for i in range(len(v["sides"])) if i != v["side"]]
        screen.query_one("#us", Static).update(table.side(v, v["side"]))
        screen.query_one("#them", Static).update(Text("\n").join(table.side(v, i) for i in them))
        screen.query_one("#pile-cards", Static).update(table.pile_cards(v))
        screen.query_one("#pile", Static).update(table.pile(v))

    def seats(self, v: dict[str, Any], names: Sequence[str]) -> Text:
        return table.seats(v, names)

    def status(self, v: dict[str, Any]) -> Text:
        return table.status(v)

    def orders(self) -> list[Order]:
        return [Order("rank", sort_hand, rank_group), Order("suit", sort_by_suit, suit_group)]

    def title(self) -> str:
        return variant_title(self.rules.name)

    def seat_label(self, v: dict[str, Any], seat: int) -> str:
        return seat_name(v["players"], seat)

    def lines(self, before: Any, move: Any, after: Any, seen: dict[str, Any], me: int) -> list[str]:
        """Every public history entry the move added, as ``me`` saw it; the cards taken with the pile."""
        out = [describe_history(entry, before.rules.players, me, before.turn_seat, symbols=True)
               for entry in news(before, move, after)]
        if move.action == "take" and seen["pile"]:
            who = "You" if before.to_move == me else self.seat_label(seen, before.to_move)
            out.append(f"{who} took the pile: {' '.join(label(c) for c in seen['pile'])}")
        return out

    def explain(self, move: Any, v: dict[str, Any]) -> str | None:
        return f"{move}: {explain_move(move, v)}"

    def hand_end(self, before: Any, after: Any, v: dict[str, Any]) -> str:
        assert after.last_hand is not None
        return table.hand_end(after.last_hand, before.hand_number, v)

    def score_pad(self, hands: Sequence[Any], v: dict[str, Any]) -> Table:
        return table.score_pad(hands, v)

    def result(self, result: dict[str, Any], v: dict[str, Any]) -> str:
        return render_result(result, v["players"], v["side"])

    def token(self, card: str) -> str:
        return rank_token(card)

    def take(self, screen: Screen[Any]) -> str:
        """``take``, with the ranks of the selected cards (none selected: the pile alone)."""
        hand = screen.query_one("#hand", HandView)
        return " ".join(["take", *(rank_token(c) for c in (hand.picked() if hand.selected else []))])

    def target(self) -> int:
        target: int = self.rules.target
        return target


__all__ = ["KEYS", "CanastaFace", "rank_token"]
