"""Shared by the rummy brute-force enumerators (tests/test_rummy_play.py, tests/test_rummy_options.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import canasta
from canasta.rummy import RummyState
from canasta.rummy.play import apply_move


def strands(s: RummyState, text: str, moves_of: Callable[[RummyState], set[str]]) -> bool:
    """Basic Rummy's taken card: does the meld or lay-off ``text`` leave the player only cards taken from the
    pile this turn (which he may not discard) and nothing to play next? (played without the engine's check)"""
    if text.split()[0] not in ("meld", "lay"):
        return False
    move = canasta.parse_move(s, text)
    left = Counter(s.hands[s.turn_seat]) - Counter(move.cards)
    if not left or left - Counter(s.taken):
        return False
    return not moves_of(apply_move(s, move))
