"""What the opening search asks of a ``Rules`` object, answered once per object.

Compiled, a ``Rules`` cached property is recomputed at every access (a native class has no ``__dict__`` to keep
it in: a generic attribute look-up and a call, about 1.1 k instructions for ``greedy_opening_inexact``), and the
check after a withdraw asked the same questions of the same object for every meld it checked. ``search_rules``
keeps the answers in a slotted object, found by identity (the last one used first), as ``core.flags`` does for
the move generator's flags.
"""

from __future__ import annotations

from typing import Final

from ..rules import Rules
from .core import wild_caps


class SearchRules:
    """The search's questions of one ``Rules`` object, each exactly the "or" (or "and") of the fields it names."""

    __slots__ = ("caps", "compact_keys", "counts_decide", "may_search", "restricted", "rules")

    rules: Rules
    caps: tuple[int, ...]  # ``rules.max_wilds`` for 0..250 naturals (compiled, the method is a call and string tests)
    restricted: bool  # Modern American's limits: the greedy count is only a bound (``greedy_opening_inexact``)
    may_search: bool  # some way to meet the minimum the greedy count does not see (sequences, twos, the limits)
    counts_decide: bool  # after a withdraw, a group meld's check is the greedy count alone (``_meld_still_reachable``)
    compact_keys: bool  # the search may remember a hand by its rank counts (``search_step.counts_key``)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules  # kept, so that its id stays its own
        self.caps = wild_caps(rules)
        self.restricted = rules.greedy_opening_inexact
        self.may_search = rules.sequences or rules.twos_as_rank or self.restricted
        self.counts_decide = not (rules.sequences or rules.twos_as_rank or rules.natural_opening or self.restricted
                                  or rules.splash or rules.opening_canasta or rules.opening_needs_meld != "none")
        # Without sequences a meld takes the first cards of each rank it melds in a fixed order of kinds
        # (``core.take_cards``), so the hands of one search, all taken from one hand, are equal exactly when their
        # rank counts are; the counts fit four bits each while no rank has more than 15 cards (three packs).
        self.compact_keys = not rules.sequences and 4 * rules.decks <= 15 and rules.jokers <= 15


_BY_ID: Final[dict[int, SearchRules]] = {}
_LAST: Final[list[SearchRules]] = []  # the entry used last (one game asks of one Rules object)


def search_rules(rules: Rules) -> SearchRules:
    """The search's answers for ``rules``, made once per Rules object."""
    if _LAST:
        last = _LAST[0]
        if last.rules is rules:
            return last
    entry = _BY_ID.get(id(rules))
    if entry is None or entry.rules is not rules:
        if len(_BY_ID) >= 256:  # a server makes Rules objects as tables come and go: keep the newest
            _BY_ID.clear()
        entry = SearchRules(rules)
        _BY_ID[id(rules)] = entry
    if _LAST:
        _LAST[0] = entry
    else:
        _LAST.append(entry)
    return entry
