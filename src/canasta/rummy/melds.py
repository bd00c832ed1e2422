"""Rummy melds: sets of 3-4 of a rank, same-suit runs of 3 or more (the ace where the rules allow it), and
Persian Rummy's sets of jokers; card points and meld labels (docs/sources.md §8).

A run's cards are kept in order, low to high. A *position* places a card in its suit: 2..13 for 2..K, 1 for
an ace used low, 14 for an ace used high; runs "around the corner" count positions round a 13-card cycle.

Wild jokers (``RummyRules.wild_jokers``): a meld holds at least two natural cards, which say whether it is a
set or a run. In a run each joker stands for the card at its place, fixed when it is melded: the cards are
read in the order written (``5H JK 7H``, ``JK 5H 6H``); cards not written in run order are sorted, jokers
fill the gaps and the rest extend the run upward (downward only past the top). A joker laid off on a run
goes on its high end (its low end when the run already ends at the top). A set holds at most four cards,
jokers included.
"""

from __future__ import annotations

from typing import NamedTuple

from ..canasta.cards import JOKER, card_str, rank_of
from .rules import RummyRules

ACE = 14
RANK_TEXT = "23456789TJQKA"


class Meld(NamedTuple):
    """A meld on the table. ``seats[i]`` laid ``cards[i]`` and is credited ``points[i]`` for it."""

    kind: str  # "set", "run" or "jokers"
    cards: tuple[int, ...]
    seats: tuple[int, ...]
    points: tuple[int, ...]
    start: int  # a run's first position (1..14); a set's rank; 0 for jokers


def suit_of(card: int) -> int:
    return card & 3


def card_at(position: int, suit: int) -> int:
    """The card at a run position (1 and 14 are the ace)."""
    rank = ACE if position in (1, 14) else position
    return (rank - 2) * 4 + suit


def _position(card: int, low_ace: bool) -> int:
    rank = rank_of(card)
    return (1 if low_ace else 14) if rank == ACE else rank


def run_positions(r: RummyRules, meld: Meld) -> list[int]:
    """The positions of a run's cards, in order."""
    if r.ace == "around":
        return [(meld.start - 1 + i) % 13 + 1 for i in range(len(meld.cards))]
    return [meld.start + i for i in range(len(meld.cards))]


def position_range(r: RummyRules) -> tuple[int, int]:
    """The lowest and highest run positions the ace option allows (not for ``around``)."""
    return (1 if r.ace in ("low", "both") else 2), (14 if r.ace in ("high", "both") else 13)


def _ace_readings(r: RummyRules, naturals: list[int]) -> list[list[int]]:
    """The naturals' positions, once per way the ace option lets an ace be read (low first)."""
    has_ace = any(rank_of(c) == ACE for c in naturals)
    lows = [True, False] if has_ace and r.ace == "both" else [r.ace == "low"] if has_ace else [False]
    return [[_position(c, low) for c in naturals] for low in lows]


def wild_run(r: RummyRules, cards: tuple[int, ...] | list[int]) -> tuple[int, tuple[int, ...]] | None:
    """(first position, cards in run order) for a run holding wild jokers, else None (see the module text)."""
    naturals = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    if len(naturals) < 2 or len({suit_of(c) for c in naturals}) != 1 or len(cards) > 13:
        return None
    lo, hi = position_range(r)
    n = len(cards)
    for pos in _ace_readings(r, naturals):  # as written: every natural at its written place
        first = next(i for i, c in enumerate(cards) if c != JOKER)
        start = pos[0] - first
        if lo <= start and start + n - 1 <= hi:
            placed = [start + i for i, c in enumerate(cards) if c != JOKER]
            if placed == pos:
                return start, tuple(cards)
    for pos in _ace_readings(r, naturals):  # sorted: jokers in the gaps, then upward, then downward
        order = sorted(zip(pos, naturals, strict=True))
        ps = [p for p, _c in order]
        if len(set(ps)) != len(ps) or ps[0] < lo or ps[-1] > hi:
            continue
        spare = jokers - (ps[-1] - ps[0] + 1 - len(ps))
        if spare < 0:
            continue
        up = min(spare, hi - ps[-1])
        start = ps[0] - (spare - up)
        if start < lo:
            continue
        at = dict((p, c) for p, c in order)
        return start, tuple(at.get(start + i, JOKER) for i in range(n))
    return None


def order_run(r: RummyRules, cards: tuple[int, ...] | list[int]) -> tuple[int, tuple[int, ...]] | None:
    """(first position, cards in order) if the cards make a run under the rules, else None."""
    if len(cards) < 3 or JOKER in cards or len({suit_of(c) for c in cards}) != 1:
        return None
    ranks = sorted(rank_of(c) for c in cards)
    if len(set(ranks)) != len(ranks):
        return None
    suit = suit_of(cards[0])
    has_ace = ranks[-1] == ACE
    options: list[list[int]] = []
    if not has_ace:
        options.append(ranks)
    else:
        if r.ace in ("low", "both", "around"):
            options.append([1, *ranks[:-1]])
        if r.ace in ("high", "both", "around"):
            options.append(ranks)
    for pos in options:
        if pos[-1] - pos[0] == len(pos) - 1:
            return pos[0], tuple(card_at(p, suit) for p in pos)
    if r.ace == "around" and len(ranks) <= 13:
        present = {1 if k == ACE else k for k in ranks}  # on the 13-card cycle, the ace is 1
        gaps = [p for p in range(1, 14) if p in present and (p - 2) % 13 + 1 not in present]
        if len(gaps) == 1:
            start = gaps[0]
            return start, tuple(card_at((start - 1 + i) % 13 + 1, suit) for i in range(len(ranks)))
    return None


def meld_kind(r: RummyRules, cards: tuple[int, ...]) -> tuple[str, int, tuple[int, ...]] | None:
    """(kind, start, ordered cards) for a new meld of these cards, None if they make none."""
    if len(cards) < 3:
        return None
    if all(c == JOKER for c in cards):
        return ("jokers", 0, tuple(cards)) if r.joker_sets and len(cards) <= 4 else None
    naturals = [c for c in cards if c != JOKER]
    if len(set(naturals)) != len(naturals) and len({rank_of(c) for c in naturals}) != 1:
        return None  # a run holds each card once
    if JOKER in cards:
        if r.doubling_jokers:  # one joker laid over a new set of 3-4 naturals: it doubles and seals it
            if len(cards) - len(naturals) != 1 or not 3 <= len(naturals) <= 4 or len(
                    {rank_of(c) for c in naturals}) != 1 or len({suit_of(c) for c in naturals}) != len(naturals):
                return None
            return "set", rank_of(naturals[0]), (*sorted(naturals), JOKER)
        if not r.wild_jokers or len(naturals) < 2:
            return None
        if len({rank_of(c) for c in naturals}) == 1:
            if len(cards) > 4 or len({suit_of(c) for c in naturals}) != len(naturals):
                return None
            return "set", rank_of(naturals[0]), (*sorted(naturals), *([JOKER] * (len(cards) - len(naturals))))
        run = wild_run(r, cards)
        return None if run is None else ("run", run[0], run[1])
    if len({rank_of(c) for c in cards}) == 1:
        if len(cards) > 4 or len({suit_of(c) for c in cards}) != len(cards):
            return None  # two packs: a set still holds each suit once
        return "set", rank_of(cards[0]), tuple(sorted(cards))
    run = order_run(r, cards)
    if run is None:
        return None
    return "run", run[0], run[1]


def run_suit(meld: Meld) -> int:
    return suit_of(next(c for c in meld.cards if c != JOKER))


def lay_off_end(r: RummyRules, meld: Meld, card: int) -> int:
    """Where ``card`` goes on ``meld``: 1 at the top (high end or a set), -1 at the low end, 0 nowhere."""
    if meld.kind == "jokers":
        return 1 if card == JOKER and len(meld.cards) < 4 else 0
    if card == JOKER and not r.wild_jokers:
        return 0
    if meld.kind == "set":
        if len(meld.cards) >= 4 or (r.doubling_jokers and JOKER in meld.cards):
            return 0  # full, or sealed by a doubling joker
        if card == JOKER:
            return 1
        return 1 if rank_of(card) == meld.start and all(c == JOKER or suit_of(c) != suit_of(card)
                                                            for c in meld.cards) else 0
    pos = run_positions(r, meld)
    if card == JOKER:  # wild: the high end, else the low end (never around the corner)
        lo, hi = position_range(r)
        if len(pos) >= 13:
            return 0
        return 1 if pos[-1] < hi else -1 if pos[0] > lo else 0
    if suit_of(card) != run_suit(meld):
        return 0
    rank = rank_of(card)
    if r.ace == "around":
        if len(pos) >= 13:
            return 0
        mine = 1 if rank == ACE else rank
        if mine == pos[-1] % 13 + 1:
            return 1
        return -1 if mine == (pos[0] - 2) % 13 + 1 else 0
    if len(pos) >= 13:
        return 0
    high, low = pos[-1] + 1, pos[0] - 1
    if high <= 14 and (rank == high if high < 14 else rank == ACE and r.ace in ("high", "both")):
        return 1
    if low >= 1 and (rank == low or (low == 1 and rank == ACE and r.ace in ("low", "both"))):
        return -1
    return 0


def card_points(r: RummyRules, card: int, low_ace: bool = False) -> int:
    """A card's points: on the table (``low_ace``: an ace used low in a run) or left in a hand."""
    if card == JOKER:
        return r.joker_points
    rank = rank_of(card)
    if rank == ACE:
        if low_ace:  # "A-9 are 5" [S2] covers an ace used low
            return 5 if r.low_cards_five else r.ace_low_value
        return r.ace_high_value
    if rank <= 9:
        return 5 if r.low_cards_five else rank
    return 10


def hand_points(r: RummyRules, cards: tuple[int, ...] | list[int]) -> int:
    return sum(card_points(r, c) for c in cards)


def new_meld(r: RummyRules, kind: str, start: int, cards: tuple[int, ...], seat: int) -> Meld:
    """A meld laid down by ``seat`` with each card's points (a meld of four at once doubled where the rules say)."""
    if kind == "run":
        if r.ace == "around":  # round the corner the ace counts low only in a run with the two and no king
            ranks = {rank_of(c) for c in cards}
            low = [rank_of(c) == ACE and 2 in ranks and 13 not in ranks for c in cards]
        else:
            low = [start + i == 1 for i in range(len(cards))]
        points = [card_points(r, c, lo) for c, lo in zip(cards, low, strict=True)]
    else:
        points = [card_points(r, c) for c in cards]
        if kind == "set" and start == ACE and len(cards) == 4 and JOKER not in cards and r.four_aces_value:
            points = [r.four_aces_value // 4] * 3 + [r.four_aces_value - 3 * (r.four_aces_value // 4)]
    if r.four_at_once_double and len(cards) == 4:
        points = [2 * p for p in points]
    if kind == "set" and r.doubling_jokers and JOKER in cards:
        points = [2 * p for p in points]  # "the joker doubles the value of any set" (it is worth zero itself)
    return Meld(kind, cards, (seat,) * len(cards), tuple(points), start)


def lay_off(r: RummyRules, meld: Meld, card: int, seat: int) -> Meld:
    """``meld`` with ``card`` laid off on it by ``seat`` (credited to him)."""
    end = lay_off_end(r, meld, card)
    if meld.kind == "run":
        low_ace = end < 0 and rank_of(card) == ACE
        pts = card_points(r, card, low_ace)
        if end < 0:
            start = meld.start - 1 if r.ace != "around" else (meld.start - 2) % 13 + 1
            return Meld("run", (card, *meld.cards), (seat, *meld.seats), (pts, *meld.points), start)
        return Meld("run", (*meld.cards, card), (*meld.seats, seat), (*meld.points, pts), meld.start)
    pts = card_points(r, card)
    if (meld.kind == "set" and meld.start == ACE and len(meld.cards) == 3 and r.four_aces_value
            and JOKER not in (card, *meld.cards)):
        pts = r.four_aces_value - sum(meld.points)
    return Meld(meld.kind, (*meld.cards, card), (*meld.seats, seat), (*meld.points, pts), meld.start)


def label(meld: Meld) -> str:
    """The meld's name in move notation: ``5H-7H`` for a run, ``7-set`` for a set, ``JK-set`` for jokers."""
    if meld.kind == "run":  # by the cards its ends stand for (a joker at an end is named as that card)
        pos = [meld.start, meld.start + len(meld.cards) - 1]
        suit = run_suit(meld)
        ends = [c if c != JOKER else card_at(p, suit) for c, p in zip((meld.cards[0], meld.cards[-1]), pos,
                                                                        strict=True)]
        return f"{card_str(ends[0])}-{card_str(ends[1])}"
    if meld.kind == "jokers":
        return "JK-set"
    return f"{RANK_TEXT[meld.start - 2]}-set"


def labels(melds: tuple[Meld, ...] | list[Meld]) -> list[str]:
    """Every meld's label in table order, unique: with two packs a second meld of the same name is ``7-set#2``."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for m in melds:
        name = label(m)
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def table_after(r: RummyRules, melds: tuple[Meld, ...], seat: int, cards: tuple[int, ...], on: str) -> tuple[Meld, ...]:
    """The melds on the table after ``seat`` lays ``cards`` down as a new meld (``on`` empty) or lays its one card
    off on the meld labelled ``on``; the play is legal (the move generator said so)."""
    if not on:
        kind = meld_kind(r, cards)
        assert kind is not None
        return (*melds, new_meld(r, kind[0], kind[1], kind[2], seat))
    index = labels(melds).index(on)
    return tuple(lay_off(r, m, cards[0], seat) if i == index else m for i, m in enumerate(melds))


def meld_text(meld: Meld) -> str:
    return " ".join(card_str(c) for c in meld.cards)
