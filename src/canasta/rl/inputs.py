"""What the PettingZoo and Gymnasium environments take from their caller, checked the same way for every family:
an action (a whole atom number) and the deal ``reset(options={"deal": n})`` asks for."""

from __future__ import annotations

import operator
from typing import Any


def chosen_atom(action: Any) -> int:
    """An environment's ``step(action)`` as an atom number: an integer, Python's or numpy's (``TypeError`` for
    anything else: ``int()`` would have played atom 3 for 3.5)."""
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is a whole atom number (see the action mask), got {action!r}") from None


def chosen_deal(options: object) -> int | None:
    """The deal an environment's ``reset(options={"deal": n})`` asks for (the deal of ``canasta.new_game(rules,
    seed=n)``), None when it asks for none; ``ValueError`` with a one-line message for anything malformed."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict such as {{'deal': 7}}, got {options!r}")
    deal: object = options.get("deal")
    if deal is None:
        return None
    if type(deal) is not int or deal < 0:
        raise ValueError(f"options['deal'] must be a whole number >= 0, got {deal!r}")
    return deal
