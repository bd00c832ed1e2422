"""Named presets and their aliases: the one place where variants differ (RULES.md §4, §9)."""

from __future__ import annotations

from typing import Any

from .rules import Rules, make_rules

PRESETS: dict[str, dict[str, Any]] = {
    # RULES.md §3: pagat Classic, with the §6 recommended readings.
    "classic": {},
}

ALIASES: dict[str, str] = {
    "partnership": "classic",
    "standard": "classic",
    "four-player": "classic",
}


def variant_names() -> list[str]:
    return sorted(PRESETS)


def canonical_name(name: str) -> str:
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        valid = ", ".join(sorted(PRESETS) + sorted(f"{a} (= {t})" for a, t in ALIASES.items()))
        raise ValueError(f"unknown variant {name!r}; valid variants: {valid}")
    return key


def rules(name: str = "classic", **overrides: Any) -> Rules:
    """The rules of a named variant with overrides, e.g. ``rules("classic", target=10000)``."""
    key = canonical_name(name)
    return make_rules(key, PRESETS[key], overrides)
