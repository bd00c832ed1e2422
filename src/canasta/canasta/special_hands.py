"""Modern American special hands (docs/sources.md §4C, D20; GOLDEN GC-S20).

An unopened player holding 14 cards after drawing may lay them all down as a special hand; the hand ends
and his side scores only the special hand's value (``scoring.score_special_hand``). ``rules.special_hands``
names the hands a variant has and their values. docs/sources.md gives only their names and values, so the
definitions below are this program's readings (docs/variants/modern-american.md lists them as thinly
sourced):

* ``garbage``: two four-of-a-kinds and two three-of-a-kinds of four different natural ranks (4 to ace),
  no wild cards.
* ``pairs``: seven pairs of seven different natural ranks (4 to ace), none of them sevens or aces, no wild
  cards.
* ``pairs_twos_sevens_aces``: seven pairs of seven different ranks with no jokers, at least one of them a
  pair of twos, sevens or aces (a pair of twos counts as a pair, not as wild cards).

* ``straight``: one card of each rank from the three to the ace (twelve cards) and two wild cards (pagat:
  the three is the one a player whose side has not opened may keep in his hand, ``Rules.keeps_a_three``).

Other threes never appear in a hand: they are laid out. The CLA's other special hands and its Dream Hands
are not in the rules reference and are not implemented.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .cards import JOKER, JOKER_RANK, THREE, TWO, rank_of
from .rules import Rules

SPECIAL_HAND_SIZE = 14

SPECIAL_HANDS: dict[str, str] = {
    "garbage": "two four-of-a-kinds and two three-of-a-kinds of four different natural ranks (4 to ace), "
               "no wild cards",
    "pairs": "seven pairs of seven different natural ranks (4 to ace), none of them sevens or aces, "
             "no wild cards",
    "pairs_twos_sevens_aces": "seven pairs of seven different ranks, no jokers, at least one pair of twos, "
                              "sevens or aces (twos count as a rank here)",
    "straight": "one card of each rank from the three to the ace (twelve cards) and two wild cards",
}

ACE, SEVEN = 14, 7


def _natural(rank: int) -> bool:
    return 4 <= rank <= ACE


def forms(name: str, cards: Iterable[int]) -> bool:
    """Do these cards (all of a player's cards) form the special hand ``name``? False for a name this
    module does not define."""
    cards = list(cards)
    if len(cards) != SPECIAL_HAND_SIZE:
        return False
    ranks = Counter(rank_of(c) for c in cards)
    if name == "garbage":
        return all(_natural(r) for r in ranks) and sorted(ranks.values()) == [3, 3, 4, 4]
    if name in ("pairs", "pairs_twos_sevens_aces"):
        if JOKER in cards or len(ranks) != 7 or any(n != 2 for n in ranks.values()):
            return False
        if not all(_natural(r) or r == TWO for r in ranks):
            return False
        special = any(r in (TWO, SEVEN, ACE) for r in ranks)
        return special if name == "pairs_twos_sevens_aces" else not special
    if name == "straight":
        wild = ranks.pop(TWO, 0) + ranks.pop(JOKER_RANK, 0)
        return wild == 2 and sorted(ranks) == list(range(THREE, ACE + 1)) and set(ranks.values()) == {1}
    return False


def special_hands_formed(cards: Iterable[int]) -> list[str]:
    """Every special hand of ``SPECIAL_HANDS`` these cards form (under any rules)."""
    cards = list(cards)
    return [name for name in SPECIAL_HANDS if forms(name, cards)]


def special_hand_of(rules: Rules, cards: Iterable[int]) -> str | None:
    """The best-valued special hand named in ``rules.special_hands`` that these 14 cards form, or None
    (always None where the rules have no special hands)."""
    cards = list(cards)
    best: tuple[int, str] | None = None
    for name, value in rules.special_hands:
        if forms(name, cards) and (best is None or value > best[0]):
            best = (value, name)
    return None if best is None else best[1]
