"""Cards as people see them: suit symbols and colours, ``10`` not ``T``, a hand sorted and grouped.

Pure functions from card text (``"TH"``) to Rich ``Text``: no Textual here, so they test alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from ..cards import JOKER_RANK, TWO, parse_card, rank_of
from ..names import SYMBOLS, card_label

_RANK_ORDER = [*range(14, 3, -1), 3]  # aces down to fours, then threes; wild cards after them


def label(card: str) -> str:
    """``TH`` -> ``10♥``, ``JK`` -> ``JK``."""
    return card_label(card)


def style(card: str) -> str:
    if card == "JK":
        return "bold magenta"
    return "bold red" if card[-1] in "HD" else "bold"


def card_text(card: str) -> Text:
    return Text(label(card), style=style(card))


def sort_hand(cards: Iterable[str]) -> list[str]:
    """Ranks high to low, threes, then wild cards (twos, jokers); suits in a fixed order."""
    def key(card: str) -> tuple[int, int]:
        rank = rank_of(parse_card(card))
        if rank == JOKER_RANK:
            return (len(_RANK_ORDER) + 1, 0)
        if rank == TWO:
            return (len(_RANK_ORDER), "SHDC".find(card[-1]))
        return (_RANK_ORDER.index(rank), "SHDC".find(card[-1]))

    return sorted(cards, key=key)


def sort_by_suit(cards: Iterable[str], ace_low: bool = False) -> list[str]:
    """Suit by suit (♠ ♥ ♦ ♣), each low to high, so that runs lie together (the rummy family); aces first
    where they are low; jokers last."""
    order = "A23456789TJQK" if ace_low else "23456789TJQKA"

    def key(card: str) -> tuple[int, int]:
        if card == "JK":
            return (4, 0)
        return ("SHDC".find(card[-1]), order.find(card[0]))

    return sorted(cards, key=key)


def cards_line(cards: Sequence[str]) -> Text:
    """Cards separated by spaces, each in its colour."""
    return Text(" ").join(card_text(c) for c in cards)


__all__ = ["SYMBOLS", "card_text", "cards_line", "label", "sort_by_suit", "sort_hand", "style"]
