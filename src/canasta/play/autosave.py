"""The game a front end saves as it goes, and the save file it lives in: written whole or not at all, claimed by
one program at a time (``canasta.play.savefile``), and never replaced without asking while it holds a game in
progress.

``saved_game(path)`` describes the unfinished game a file holds (``None``: nothing worth asking about), and
``resume(path)`` carries it on, whichever family it is of.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..text.names import plural, variant_title
from .record import replay
from .savefile import SaveBusy, claim, read_record, release, write
from .session import Session


def saved_game(path: Path) -> str | None:
    """A line describing the unfinished game saved in ``path`` ("Classic, hand 2, 31 moves"), or ``None``
    when there is none (no file, a finished game, no move yet). A file that is not a game record that replays
    is described too: replacing it would lose it just the same."""
    if not path.exists():
        return None
    try:
        record = read_record(path)
        state = replay(record)
    except ValueError as exc:
        return f"a file that is not a game that can be carried on ({exc})"
    moves = record.get("moves") or []
    if state.result is not None or not moves:
        return None
    return f"{variant_title(state.rules.name)}, hand {state.hand_number}, {plural(len(moves), 'move')}"


def resume(path: Path, seats: Sequence[str] | None = None, save_path: Path | None = None) -> Session:
    """The game saved in ``path`` carried on, whichever family it is of (``ValueError`` saying what is wrong
    with the file): ``Session.resume``."""
    return Session.resume(path, seats, save_path)


__all__ = ["SaveBusy", "claim", "read_record", "release", "resume", "saved_game", "write"]
