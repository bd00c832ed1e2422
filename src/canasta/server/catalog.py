"""``GET /api/variants``: every preset with its summary, player counts and house rules, for the create form."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..rules import PARAMETERS
from ..variant_docs import NOTES
from ..variants import ALIASES, player_counts, variant_names
from ..variants import rules as make_rules

# Parameters that shape the pack and the table rather than the play: the preset (and `players`) set them.
STRUCTURAL = frozenset({"players", "teams", "decks", "jokers", "hand_size", "foot_size", "cutthroat"})


def option_entries(name: str) -> list[dict[str, Any]]:
    """The preset's simple parameters (true/false, a number, one of some words) with its own defaults."""
    r = make_rules(name)
    out = []
    for key, (meaning, _source, choices) in PARAMETERS.items():
        if key in STRUCTURAL:
            continue
        value = getattr(r, key)
        if isinstance(value, bool):
            kind = "bool"
        elif isinstance(value, int):
            kind = "int"
        elif isinstance(value, str) and choices:
            kind = "choice"
        else:
            continue  # tables of values (thresholds, scales) are left to the presets
        out.append({"name": key, "type": kind, "default": value, "choices": list(choices or ()), "meaning": meaning})
    return out


@cache
def catalog() -> list[dict[str, Any]]:
    entries = []
    for name in variant_names():
        title, summary = NOTES[name][:2]
        entries.append({"name": name, "title": title, "summary": summary, "players": make_rules(name).players,
                        "player_counts": list(player_counts(name)),
                        "aliases": sorted(a for a, target in ALIASES.items() if target == name),
                        "options": option_entries(name)})
    return entries
