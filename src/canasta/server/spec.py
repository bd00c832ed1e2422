"""What ``POST /api/tables`` asks for, checked: the rules, each seat human or a computer level, the pace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..canasta.rules import Rules
from ..players.levels import LEVELS
from ..presets import game_rules as make_rules
from ..rummy import RummyRules
from .protocol import clean_name

STAND_IN_LEVEL = "medium"  # the default computer seat; who moves for a dropped player or when time runs out


class TableSpecError(ValueError):
    """A table that cannot be created as asked (unknown variant or option, wrong seats)."""


@dataclass
class TableSpec:
    """What ``POST /api/tables`` asks for, checked."""

    rules: Rules | RummyRules
    seats: list[str]
    names: list[str | None]
    player: str | None = None
    delay: float = 0.8
    turn_seconds: float | None = None

    @classmethod
    def parse(cls, variant: str, options: dict[str, Any], seats: list[str] | None, names: list[str | None] | None,
              player: str | None, delay: float, turn_seconds: float | None) -> TableSpec:
        try:  # every option within its bounds, the pack in proportion to the players: before anything is dealt
            rules = make_rules(variant, **options)
        except (TypeError, ValueError) as exc:
            raise TableSpecError(str(exc)) from None
        players = rules.players
        seats = seats if seats is not None else ["human"] + [f"bot:{STAND_IN_LEVEL}"] * (players - 1)
        if len(seats) != players:
            raise TableSpecError(f"{rules.name} has {players} seats; 'seats' lists {len(seats)}")
        for kind in seats:
            if kind != "human" and not (kind.startswith("bot:") and kind[4:] in LEVELS):
                raise TableSpecError(f"a seat is 'human' or 'bot:LEVEL' with a level of {', '.join(LEVELS)}; "
                                     f"got {kind!r}")
        names = list(names) if names is not None else [None] * players
        if len(names) != players:
            raise TableSpecError(f"'names' needs one entry per seat ({players}), got {len(names)}")
        if not 0 <= delay <= 10:
            raise TableSpecError(f"'delay' is 0 to 10 seconds, got {delay}")
        if turn_seconds is not None and not 1 <= turn_seconds <= 3600:
            raise TableSpecError(f"'turn_seconds' is 1 to 3600 seconds or null, got {turn_seconds}")
        return cls(rules, seats, [clean_name(n) for n in names], player, delay, turn_seconds)
