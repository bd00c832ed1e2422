"""What a family brings to the one table of the Textual app (``canasta.tui.game.TableScreen``): how its table is
laid out between the seats line and the log, its texts (status, log lines, end of hand, score pad, result), how
the hand sorts, and how its keys turn selected cards into moves. ``Face`` is the plug-in's shape; each family's
lives in its own module (``canasta_face``, ``rummy_face``) and ``faces.face_for`` picks the game's."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen

from .cards import label


class Order(NamedTuple):
    """One way to sort the hand: its name in messages, the order and each card's group (a gap between groups)."""

    name: str
    order: Callable[[Sequence[str]], list[str]]
    group: Callable[[str], str]


class Face(ABC):
    """One family's part of the table, for a game of ``rules``."""

    KEYS: ClassVar[str]  # the help page's table of keys
    ACTIONS: ClassVar[frozenset[str]] = frozenset()  # the family's own keys' actions ("lay", "answer")
    CSS: ClassVar[str] = ""  # the layout of the widgets ``compose`` yields (by their ids)
    MOVES_WIDTH: ClassVar[int] = 28  # columns of the list of legal moves
    SELECTED: ClassVar[str] = ""  # after "Selected: …": what the keys do with a selection
    MELD_MIN: ClassVar[int] = 1  # fewer selected cards: ``MELD_PROMPT`` instead of a meld
    MELD_PROMPT: ClassVar[str] = "Select the cards to meld first (space, or click them)."

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    # --- the table ---------------------------------------------------------------------------------
    @abstractmethod
    def compose(self) -> ComposeResult:
        """The family's widgets between the seats line and the log."""
        raise NotImplementedError

    @abstractmethod
    def show(self, screen: Screen[Any], v: dict[str, Any]) -> None:
        """Fill those widgets from the human seat's view ``v``."""
        raise NotImplementedError

    @abstractmethod
    def seats(self, v: dict[str, Any], names: Sequence[str]) -> Text:
        """The seats line: who plays each seat (``names``), their cards, whose turn it is."""
        raise NotImplementedError

    @abstractmethod
    def status(self, v: dict[str, Any]) -> Text:
        """The status line: the hand, whose turn it is and what to do."""
        raise NotImplementedError

    @abstractmethod
    def orders(self) -> list[Order]:
        """The hand's sort orders, the first shown at the start; ``s`` goes to the next."""
        raise NotImplementedError

    # --- words ---------------------------------------------------------------------------------------
    @abstractmethod
    def title(self) -> str:
        """The game, as the log's first line names it."""
        raise NotImplementedError

    @abstractmethod
    def seat_label(self, v: dict[str, Any], seat: int) -> str:
        raise NotImplementedError

    @abstractmethod
    def lines(self, before: Any, move: Any, after: Any, seen: dict[str, Any], me: int) -> list[str]:
        """The log's lines for a move as seat ``me`` saw it (``seen``: its view before the move)."""
        raise NotImplementedError

    def explain(self, move: Any, v: dict[str, Any]) -> str | None:
        """What a move highlighted in the list would do, or None."""
        return None

    def pile_chosen(self, card: str) -> str:
        """The message for a card chosen in a pile shown as cards."""
        return f"Chosen in the pile: {label(card)}"

    @abstractmethod
    def hand_end(self, before: Any, after: Any, v: dict[str, Any]) -> str:
        """The breakdown of the hand that ``before``'s move ended, line by line."""
        raise NotImplementedError

    @abstractmethod
    def score_pad(self, hands: Sequence[Any], v: dict[str, Any]) -> Table:
        """Every finished hand's totals (``hands``: their summaries)."""
        raise NotImplementedError

    @abstractmethod
    def result(self, result: dict[str, Any], v: dict[str, Any]) -> str:
        """The game's result, for the seat whose view ``v`` is."""
        raise NotImplementedError

    # --- moves from the keys -------------------------------------------------------------------------
    def token(self, card: str) -> str:
        """A selected card as ``meld`` writes it."""
        return card

    @abstractmethod
    def take(self, screen: Screen[Any]) -> str:
        """The move ``t`` plays (``ValueError``: why there is none)."""
        raise NotImplementedError

    @abstractmethod
    def target(self) -> int:
        """The score that ends the game."""
        raise NotImplementedError


__all__ = ["Face", "Order"]
