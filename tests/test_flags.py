"""``core.flags``: the engine's and the search's questions of a ``Rules`` object, answered once per object, are
exactly the questions they asked of the object itself."""

from __future__ import annotations

import pytest

import canasta
from canasta.canasta.engine.core import flags
from canasta.canasta.variants import PRESETS


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_flags_answer_as_the_rules_object(variant: str) -> None:
    r = canasta.rules(variant)
    asks = flags(r)
    assert asks.rules is r
    assert asks.restricted == r.greedy_opening_inexact
    assert asks.may_search == bool(r.sequences or r.twos_as_rank or r.greedy_opening_inexact)
    assert asks.counts_decide == (not (r.sequences or r.twos_as_rank or r.natural_opening or r.greedy_opening_inexact
                                       or r.splash or r.opening_canasta or r.opening_needs_meld != "none"))
    assert asks.caps == tuple(r.max_wilds(n) for n in range(251))
    # Rank counts fit four bits each, and without sequences a meld takes each rank's cards in a fixed order.
    assert asks.compact_keys == (not r.sequences and max(4 * r.decks, r.jokers) <= 15)


def test_one_entry_per_rules_object() -> None:
    a = canasta.rules("modern-american")
    b = canasta.rules("modern-american")
    assert flags(a) is flags(a)
    assert flags(b).rules is b
    assert flags(a).rules is a  # found again by identity after another object was asked
