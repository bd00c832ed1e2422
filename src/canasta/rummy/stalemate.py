"""Basic Rummy's second stalemate [S1-rummy]: "when the game detects that none of the players will be able to
finish their hands. This can for example happen when all players have only one card left, and there are no
possible lay offs on the melds on the table."

``nobody_can_finish`` proves it cheaply, in one of two ways, both needing that no card off the table (stock,
pile, hands, the dealer's joker) fits a meld on the table, so that nobody can ever lay off again:

- every player holds one card and no turn can bring more than one card into a hand (one card drawn, the
  top discard only): nobody ever holds the three cards a meld needs;
- no three cards off the table make a meld: nobody can ever meld either.

Either way a hand never shrinks (a turn draws one card or more and discards one), so nobody can go out.
"""

from __future__ import annotations

from ..canasta.cards import JOKER, rank_of
from .generate import meld_candidates
from .melds import lay_off_end, suit_of
from .rules import RummyRules
from .state import RummyState


def nobody_can_finish(s: RummyState) -> bool:
    r = s.rules
    pool = [*s.stock, *s.pile, *s.aside, *(c for h in s.hands for c in h)]
    if any(lay_off_end(r, m, c) for c in set(pool) for m in s.melds):
        return False
    if all(len(h) == 1 for h in s.hands) and r.draw_count == 1 and r.pile_take == "top" and not s.aside:
        return True
    return not _may_meld(r, pool)


def _may_meld(r: RummyRules, cards: list[int]) -> bool:
    """Do three or more of ``cards`` make a meld? (a set of three suits answers at once; else every meld)"""
    suits: dict[int, set[int]] = {}
    for c in cards:
        if c != JOKER:
            suits.setdefault(rank_of(c), set()).add(suit_of(c))
    if any(len(found) >= 3 for found in suits.values()):
        return True
    return bool(meld_candidates(r, tuple(sorted(cards))))
