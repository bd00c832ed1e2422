"""``GET /api/variants``: every preset with its summary, player counts and house rules, for the create form."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..bounds import Bound
from ..canasta.rules import PARAMETERS
from ..canasta.variants import ALIASES, player_counts
from ..canasta.variants import rules as make_rules
from ..presets import variant_names
from ..rummy import ALIASES as RUMMY_ALIASES
from ..rummy import rummy_names, rummy_rules
from ..rummy.pages import NOTES as RUMMY_NOTES
from ..rummy.rules import PARAMETERS as RUMMY_PARAMETERS
from ..text.variant_docs import NOTES

# Parameters that shape the pack and the table rather than the play: the preset (and `players`) set them.
STRUCTURAL = frozenset({"players", "teams", "decks", "jokers", "hand_size", "foot_size", "cutthroat", "joker_sets"})


def option_entries(name: str) -> list[dict[str, Any]]:
    """The preset's simple parameters (true/false, a number, one of some words) with its own defaults."""
    return _entries(make_rules(name), PARAMETERS)


def _entries(r: Any, parameters: dict[str, tuple[str, str, Bound]]) -> list[dict[str, Any]]:
    out = []
    for key, (meaning, _source, bound) in parameters.items():
        spec = bound.to_json()
        if key in STRUCTURAL or spec["type"] not in ("bool", "int", "choice"):
            continue  # tables of values (thresholds, scales) are left to the presets
        value = getattr(r, key)
        if key == "target" and hasattr(r, "game_target"):  # a rummy preset may set it by the number of players
            value = r.game_target()
        entry = {"name": key, "type": spec["type"], "default": value, "choices": spec.get("choices", []),
                 "meaning": meaning}
        out.append(entry | {k: spec[k] for k in ("min", "max") if k in spec})
    return out


def rummy_player_counts(name: str) -> list[int]:
    """The numbers of players a rummy preset takes through its ``players`` option: a partnership game
    stays a partnership game (four players), the others are each for himself."""
    base = rummy_rules(name, {})
    partnership = base.teams != base.players
    counts = []
    for n in range(2, 9):
        try:
            r = rummy_rules(name, {"players": n})
        except ValueError:
            continue
        if (r.teams != r.players) == partnership:
            counts.append(n)
    return counts


def rummy_entries() -> list[dict[str, Any]]:
    entries = []
    for name in rummy_names():
        r = rummy_rules(name, {})
        title, summary = RUMMY_NOTES[name][:2]
        entries.append({"name": name, "family": "rummy", "title": title, "summary": summary, "players": r.players,
                        "teams": r.teams, "player_counts": rummy_player_counts(name),
                        "aliases": sorted(a for a, target in RUMMY_ALIASES.items() if target == name),
                        "options": _entries(r, RUMMY_PARAMETERS)})
    return entries


@cache
def catalog() -> list[dict[str, Any]]:
    """Every preset of both families; an entry's ``family`` is "canasta" or "rummy"."""
    entries = []
    for name in variant_names("canasta"):
        title, summary = NOTES[name][:2]
        r = make_rules(name)
        entries.append({"name": name, "family": "canasta", "title": title, "summary": summary, "players": r.players,
                        "teams": r.teams, "player_counts": list(player_counts(name)),
                        "aliases": sorted(a for a, target in ALIASES.items() if target == name),
                        "options": option_entries(name)})
    return entries + rummy_entries()
