"""Every family's presets by name: ``game_rules(NAME, **options)`` (the package's ``canasta.rules``) gives a
Canasta preset's ``Rules`` or a rummy preset's ``RummyRules``; ``variant_names`` lists them. Each family
keeps its own presets (``canasta.canasta.variants``, ``canasta.rummy.presets``); this module only looks in
both."""

from __future__ import annotations

from typing import Any

from .canasta import variants as canasta_presets
from .canasta.rules import Rules
from .rummy import presets as rummy_presets
from .rummy.rules import RummyRules


def variant_names(family: str = "all") -> list[str]:
    """The presets ``canasta.rules`` accepts: ``"all"`` (the default: Canasta's, then the rummy family's,
    each family sorted), ``"canasta"`` (Canasta's alone, for callers that play the Canasta engine) or
    ``"rummy"`` (500 Rum, Basic Rummy ...)."""
    if family == "canasta":
        return sorted(canasta_presets.PRESETS)
    if family == "rummy":
        return rummy_presets.rummy_names()
    if family == "all":
        return [*sorted(canasta_presets.PRESETS), *rummy_presets.rummy_names()]
    raise ValueError(f"unknown family {family!r}; valid families: canasta, rummy, all")


def game_rules(name: str = "classic", /, **overrides: Any) -> Rules | RummyRules:
    """The rules of any family's preset with overrides: ``game_rules("500-rum")`` is a ``RummyRules``,
    Canasta's presets a ``Rules`` (``canasta.rules`` is this function)."""
    if isinstance(name, str):
        key = rummy_presets.rummy_key(name)
        if key is not None:
            return rummy_presets.rummy_rules(key, overrides)
        if not canasta_presets.knows(name):
            aliases = [*canasta_presets.ALIASES.items(), *rummy_presets.ALIASES.items()]
            valid = sorted([*canasta_presets.PRESETS, *rummy_presets.rummy_names()]) + sorted(
                f"{a} (= {t})" for a, t in aliases)
            raise ValueError(f"unknown variant {name!r}; valid variants: {', '.join(valid)}")
    return canasta_presets.rules(name, **overrides)


__all__ = ["game_rules", "variant_names"]
