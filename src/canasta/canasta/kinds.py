"""Card kinds, their ranks and values, and the card notation: the plain functions and constants of
``canasta.canasta.cards`` (which re-exports them), in a module of their own so that the compiled engine calls them
as native code (``cards.Card`` subclasses ``int``, which mypyc cannot compile).

A card is an ``int`` kind: ``(rank - 2) * 4 + suit`` for the 52 standard cards (rank 2..14, suit
S=0 H=1 D=2 C=3) and 52 for the joker. Two copies of a kind in a two-pack game are interchangeable,
so hands, melds and the stock are counts or tuples of these small ints.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

# Compiled by mypyc (a module file that is not ``.py``), some loops are written for native code.
_COMPILED: Final = not __file__.endswith(".py")

RANK_CHARS: Final = "23456789TJQKA"  # rank 2..14
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
JOKER: Final = 52
NUM_KINDS: Final = 53

# Rank codes used by moves and melds. Naturals are 4..14; 3 is a black three, 2 a two, 0 the joker.
JOKER_RANK: Final = 0
TWO: Final = 2
THREE: Final = 3
RED_THREES: Final = (5, 6)  # 3H, 3D
BLACK_THREES: Final = (4, 7)  # 3S, 3C


def kind(rank: int, suit: int) -> int:
    return (rank - 2) * 4 + suit


def rank_of(card: int) -> int:
    """The rank code of a card: 0 for the joker, 2..14 otherwise."""
    return JOKER_RANK if card == JOKER else (card >> 2) + 2


def is_wild(card: int) -> bool:
    return card == JOKER or card < 4


def is_red_three(card: int) -> bool:
    return card in RED_THREES


# Classic card values (docs/sources.md §2). A red three has no card value: it is a bonus card (§3.6).
VALUE: Final[tuple[int, ...]] = tuple(
    50 if c == JOKER
    else 20 if rank_of(c) in (2, 14)
    else 10 if rank_of(c) >= 8
    else 0 if c in RED_THREES
    else 5
    for c in range(NUM_KINDS)
)
RANK_VALUE: Final = {0: 50, 2: 20, 3: 5, **{r: (20 if r == 14 else 10 if r >= 8 else 5) for r in range(4, 15)}}


def card_str(card: int) -> str:
    if card == JOKER:
        return "JK"
    return RANK_CHARS[card >> 2] + SUITS[card & 3]


def rank_str(rank: int) -> str:
    if rank == JOKER_RANK:
        return "JK"
    return RANK_CHARS[rank - 2] if 2 <= rank <= 14 else "?"


def a_rank(rank: int) -> str:
    """'an A', 'an 8', 'a K': a rank with its article, for messages."""
    text = rank_str(rank)
    return f"an {text}" if text in ("A", "8") else f"a {text}"


def parse_rank(token: str) -> int:
    """A rank token (``9``, ``10``, ``T``, ``q``, ``JK``) to its rank code."""
    t = token.strip().upper()
    if t in ("JK", "JOKER", "JKR"):
        return JOKER_RANK
    if t == "10":
        t = "T"
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t) + 2
    raise ValueError(f"{token!r} is not a rank (use A K Q J T 9 8 7 6 5 4 3 2 or JK)")


def parse_card(token: str) -> int:
    t = token.strip().upper()
    if t in ("JK", "JOKER", "JKR"):
        return JOKER
    if t and t[-1] in SUIT_SYMBOLS:
        t = t[:-1] + SUIT_SYMBOLS[t[-1]]
    if len(t) >= 2 and t[-1] in SUITS:
        try:
            rank = parse_rank(t[:-1])
        except ValueError:
            rank = JOKER_RANK
        if rank != JOKER_RANK:
            return kind(rank, SUITS.index(t[-1]))
    raise ValueError(f"{token!r} is not a card (write rank then suit, e.g. AS, 10H, 7d, Q♠, or JK)")


def cards_str(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def counts_of(cards: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] = counts[c] + 1
    return counts


def cards_of(counts: Iterable[int]) -> list[int]:
    out: list[int] = []
    if _COMPILED and isinstance(counts, tuple):
        # A hand (a tuple): compiled, read by native indexing; ``enumerate`` over an ``Iterable`` is generic.
        held: tuple[int, ...] = counts
        for c in range(len(held)):
            n = held[c]
            while n > 0:
                out.append(c)
                n = n - 1
        return out
    for c, n in enumerate(counts):
        if n:
            out.extend([c] * n)
    return out


def pack(decks: int, jokers: int) -> list[int]:
    """An unshuffled pack: ``decks`` × 52 cards plus ``jokers`` (docs/sources.md §2)."""
    return [c for _ in range(decks) for c in range(52)] + [JOKER] * jokers
