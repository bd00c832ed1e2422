"""Who sits at a face's table: ``human`` or a computer player's name (a level, or a player of the family), one
name per seat; and where a game is saved when no file is named. The game at the table itself is
``canasta.play.session.Session`` (``SeatedGame`` here is its old name, kept for old imports)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HUMAN = "human"


def default_save_path() -> Path:
    """Where a game is saved when no file is named: ``$XDG_STATE_HOME/canasta/autosave.json``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "canasta" / "autosave.json"


def parse_seat_names(text: str | Sequence[str], players: int, choices: Sequence[str]) -> list[str]:
    """``"human,hard,expert,medium"`` as one name per seat, each among ``choices`` and exactly one of them
    human (the front ends seat one person); ``ValueError`` naming the problem."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) != players:
        raise ValueError(f"give one name per seat ({players}), got {len(names)}: {', '.join(names)}")
    for name in names:
        if name not in choices:
            raise ValueError(f"unknown player {name!r} for a seat; valid players: {', '.join(choices)}")
    humans = names.count(HUMAN)
    if humans != 1:
        raise ValueError(f"{'no seat is' if not humans else f'{humans} seats are'} human: "
                         "give 'human' to exactly one seat")
    return names


def __getattr__(name: str) -> Any:
    if name == "SeatedGame":  # the old name of the one game class; imported when asked (session imports this)
        from .session import Session

        return Session
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["HUMAN", "default_save_path", "parse_seat_names"]
