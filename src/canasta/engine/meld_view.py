"""A side's melds read by rank code, made once per melds dict and shared by the move generator and ``can_go_out``.

The generator reads a side's group melds rank by rank in every play phase, and ``can_go_out`` wants each meld's
naturals, wild cards and size; the same dict of melds comes back turn after turn (it changes only when the side
melds). A view is kept for the last few dicts met, found by identity: the melds of a ``State`` are never changed
in place (a transition copies the dict before it adds a meld), and a kept view holds its dict, so that an id is
never reused while the view lives.
"""

from __future__ import annotations

from typing import Final

from ..state import Melds
from .core import meld_counts

MeldInfo = dict[int, tuple[int, int, int]]  # meld key -> (naturals, wild cards, size)


class MeldView:
    """``melds`` by rank code: the group meld whose key is that code (below 15, the first slot), else None, with its
    naturals and wild cards (0 where there is none); ``info`` for every key, made when first asked for."""

    __slots__ = ("by_rank", "info_made", "melds", "naturals", "wilds")

    melds: Melds
    by_rank: list[tuple[int, ...] | None]
    naturals: list[int]
    wilds: list[int]
    info_made: MeldInfo | None

    def __init__(self, melds: Melds) -> None:
        self.melds = melds
        by_rank: list[tuple[int, ...] | None] = [None] * 15
        naturals = [0] * 15
        wilds = [0] * 15
        for key, cards in melds.items():
            if key < 15:
                by_rank[key] = cards
                nat, wild = meld_counts(cards)
                naturals[key] = nat
                wilds[key] = wild
        self.by_rank = by_rank
        self.naturals = naturals
        self.wilds = wilds
        self.info_made = None

    def info(self) -> MeldInfo:
        """(naturals, wild cards, size) of every meld, by key. Shared: copy it before changing it."""
        made = self.info_made
        if made is None:
            made = {}
            for key, cards in self.melds.items():  # (not ``(*meld_counts(m), len(m))``: compiled, a list)
                nat, wild = meld_counts(cards)
                made[key] = (nat, wild, len(cards))
            self.info_made = made
        return made


_KEPT: Final = 8  # views kept: every side's melds and the few dicts a turn makes (the searches make more)
_VIEWS: Final[list[MeldView]] = []
_NEXT: Final[list[int]] = [0]  # the slot the next new view takes (round robin)


def meld_view(melds: Melds) -> MeldView:
    """The view of ``melds``, made if none of the last few dicts met is this one."""
    for view in _VIEWS:  # (a plain loop of identity tests: compiled, native; no hashing of an id)
        if view.melds is melds:
            return view
    view = MeldView(melds)
    if len(_VIEWS) < _KEPT:
        _VIEWS.append(view)
    else:
        slot = _NEXT[0]
        _VIEWS[slot] = view
        _NEXT[0] = (slot + 1) % _KEPT
    return view
