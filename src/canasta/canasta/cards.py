"""Cards, card kinds and the card notation of the public contract (docs/).

A card is an ``int`` kind: ``(rank - 2) * 4 + suit`` for the 52 standard cards (rank 2..14, suit
S=0 H=1 D=2 C=3) and 52 for the joker. Two copies of a kind in a two-pack game are interchangeable,
so hands, melds and the stock are counts or tuples of these small ints.
"""

from __future__ import annotations

# The plain helpers and constants live in ``kinds`` (compiled with the engine); they are this module's public
# names too.
from .kinds import (
    BLACK_THREES,
    JOKER,
    JOKER_RANK,
    NUM_KINDS,
    RANK_CHARS,
    RANK_VALUE,
    RED_THREES,
    SUIT_SYMBOLS,
    SUITS,
    THREE,
    TWO,
    VALUE,
    a_rank,
    card_str,
    cards_of,
    cards_str,
    counts_of,
    is_red_three,
    is_wild,
    kind,
    pack,
    parse_card,
    parse_rank,
    rank_of,
    rank_str,
)

__all__ = [
    "BLACK_THREES",
    "JOKER",
    "JOKER_RANK",
    "NUM_KINDS",
    "RANK_CHARS",
    "RANK_VALUE",
    "RED_THREES",
    "SUITS",
    "SUIT_SYMBOLS",
    "THREE",
    "TWO",
    "VALUE",
    "Card",
    "a_rank",
    "card_str",
    "cards_of",
    "cards_str",
    "counts_of",
    "is_red_three",
    "is_wild",
    "kind",
    "pack",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "rank_of",
    "rank_str",
]


class Card(int):
    """A card kind with its canonical text form (``AS``, ``TH``, ``3D``, ``JK``)."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < NUM_KINDS:
            raise ValueError(f"no card kind {value}")
        return super().__new__(cls, value)

    @property
    def rank(self) -> int:
        return rank_of(self)

    @property
    def suit(self) -> str | None:
        return None if self == JOKER else SUITS[self & 3]

    def __str__(self) -> str:
        return card_str(self)

    def __repr__(self) -> str:
        return f"Card.parse({card_str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse space- or comma-separated cards; raises ``ValueError`` quoting the bad token."""
    return tuple(Card(parse_card(tok)) for tok in text.replace(",", " ").split())
