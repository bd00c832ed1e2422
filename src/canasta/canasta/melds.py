"""Meld keys and meld kinds: groups, sequences and melds of wild cards (docs/sources.md §3.3, §4B).

A side's melds are a dict from a *meld key* to the meld's sorted cards. The key names the meld's slot:

* a **group** of one rank has key ``rank + 16 * slot``: ``9`` is the side's (first) meld of nines,
  ``9 + 16`` a second one where the rules allow several melds of a rank (Samba). Rank 0 is the meld
  of wild cards (Bolivia, Uruguayan, Cuban), rank 2 a meld of twos as their own rank (Italian);
* a **sequence** (Samba's samba, Bolivia's escalera) has key ``64 + 16 * suit + slot``.

Keys never change while a meld grows, so moves and records can name them. Their text labels are the
rank (``9``, ``JK`` for wild cards, ``2``) or ``seq`` plus the suit (``seqH``), with ``/2``, ``/3`` …
for a second or third meld of the same kind: ``9/2``, ``seqH/2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .kinds import JOKER, SUITS, is_wild, parse_rank, rank_of, rank_str

SEQUENCE_BASE: Final = 64
SLOTS: Final = 16
SEQUENCE_LOW: Final = 4  # runs use 4 (low) up to the ace (high); no twos or threes
SEQUENCE_MAX: Final = 7


def sequence_key(suit: int, slot: int = 0) -> int:
    return SEQUENCE_BASE + SLOTS * suit + slot


def is_sequence_key(key: int) -> bool:
    return key >= SEQUENCE_BASE


def key_rank(key: int) -> int:
    """The rank of a group's key (0 = wild cards); -1 for a sequence."""
    return -1 if key >= SEQUENCE_BASE else key % SLOTS


def key_suit(key: int) -> int:
    return (key - SEQUENCE_BASE) // SLOTS


def key_slot(key: int) -> int:
    return (key - SEQUENCE_BASE) % SLOTS if key >= SEQUENCE_BASE else key // SLOTS


def key_label(key: int) -> str:
    """``9``, ``9/2``, ``JK``, ``seqH``, ``seqH/2``."""
    slot = key_slot(key)
    base = f"seq{SUITS[key_suit(key)]}" if key >= SEQUENCE_BASE else rank_str(key_rank(key))
    return base if slot == 0 else f"{base}/{slot + 1}"


def parse_key(text: str) -> int:
    """The key of a meld label (``9``, ``10/2``, ``JK``, ``seqH``, ``seq♥/2``)."""
    label = text.strip()
    base, _, slot_text = label.partition("/")
    try:
        slot = int(slot_text) - 1 if slot_text else 0
    except ValueError:
        slot = -1
    if not 0 <= slot < SLOTS:
        raise ValueError(f"{text!r}: the number after '/' names the 2nd, 3rd ... meld of a kind (e.g. 9/2)")
    if base.lower().startswith("seq"):
        suit = base[3:].upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
        if len(suit) != 1 or suit not in SUITS:
            raise ValueError(f"{text!r} is not a sequence label; write seq and a suit, e.g. seqH")
        return sequence_key(SUITS.index(suit), slot)
    return parse_rank(base) + SLOTS * slot


def sequence_span(cards: tuple[int, ...]) -> tuple[int, int]:
    """(lowest rank, highest rank) of a sequence's cards."""
    ranks = [rank_of(c) for c in cards]
    return min(ranks), max(ranks)


def is_run(cards: tuple[int, ...] | list[int]) -> bool:
    """Cards of one suit and distinct consecutive ranks from 4 to the ace (a sequence)."""
    if len(cards) < 2 or any(is_wild(c) for c in cards):
        return False
    suits = {c & 3 for c in cards}
    ranks = sorted(rank_of(c) for c in cards)
    return (len(suits) == 1 and ranks[0] >= SEQUENCE_LOW and ranks == list(range(ranks[0], ranks[0] + len(ranks))))


def meld_kind(cards: Sequence[int], twos_as_rank: bool = False) -> str:
    """``sequence``, ``wild`` (wild cards only), ``twos`` (twos as their own rank, Italian), ``natural``
    or ``mixed`` (a group with wild cards)."""
    return _kind(tuple(cards), twos_as_rank)  # compiled, a tuple's items are read natively (a meld is one)


def _kind(cards: tuple[int, ...], twos_as_rank: bool) -> str:
    # One pass, the naturals' suits and ranks as bit sets (scoring asks this of every canasta at the end of a
    # hand; ``is_run`` and the ``any``/``all`` passes cost about 2,500 instructions a meld, compiled).
    n = len(cards)
    wilds = twos = suits = ranks = 0
    low = 15
    for c in cards:
        if is_wild(c):
            wilds += 1
            if c != JOKER:
                twos += 1
        else:
            rank = rank_of(c)
            suits |= 1 << (c & 3)  # (the suit as ``is_run`` reads it)
            ranks |= 1 << rank
            if rank < low:
                low = rank
    # ``is_run``: one suit, ranks from 4 up, each once and consecutive (n ranks making n consecutive bits)
    if wilds == 0 and n >= 2 and suits & (suits - 1) == 0 and low >= SEQUENCE_LOW and ranks == ((1 << n) - 1) << low:
        return "sequence"
    if wilds == n:
        return "twos" if twos_as_rank and twos >= 2 else "wild"
    return "natural" if wilds == 0 else "mixed"


__all__ = [
    "SEQUENCE_BASE", "SEQUENCE_LOW", "SEQUENCE_MAX", "SLOTS", "is_run", "is_sequence_key", "key_label", "key_rank",
    "key_slot", "key_suit", "meld_kind", "parse_key", "sequence_key", "sequence_span",
]
