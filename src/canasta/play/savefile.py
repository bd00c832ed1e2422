"""The file a game at the table is saved in, kept safe: written whole or not at all, claimed by one program
at a time. (``canasta.play.autosave`` adds what is asked of the game inside: describing it, carrying it on.)

``write(path, text)`` replaces the file atomically (a private temporary file renamed over it; a failure
leaves the old file and no temporary behind). ``claim(path)`` locks it for this process, so that a second
``canasta play`` saving to the same file stops with a clear message instead of overwriting the first one's
game. ``read_record(path)`` reads the game record it holds.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Any

from .record import load


class SaveBusy(ValueError):
    """Another program is saving a game to the same file right now."""


def read_record(path: Path) -> dict[str, Any]:
    """The game record saved in ``path``; ``ValueError`` saying what is wrong with the file."""
    try:
        return load(path)
    except OSError as exc:
        raise ValueError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{str(path)!r} is not UTF-8 text") from None
    except ValueError as exc:  # JSONDecodeError and a record that is not an object
        raise ValueError(f"{str(path)!r} is not a game record: {exc}") from None


# path -> the open lock file (kept open: the lock lasts until the process ends or ``release``)
_CLAIMS: dict[Path, IO[bytes]] = {}


def claim(path: Path) -> None:
    """Take the save file ``path`` for this process (``SaveBusy`` when another program has it; a no-op where
    the platform has no advisory locks). Claiming the same file twice in one process is fine."""
    key = path.resolve()
    if key in _CLAIMS:
        return
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        return
    key.parent.mkdir(parents=True, exist_ok=True)
    handle = open(key.with_name(key.name + ".lock"), "ab")  # noqa: SIM115 - held open for the lock's life
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SaveBusy(f"another canasta game is being saved to {str(path)!r} right now; finish that one first, "
                       "or give this game a file of its own with --save FILE") from None
    _CLAIMS[key] = handle


def release(path: Path) -> None:
    """Give the save file back (tests; a program's end does it anyway)."""
    handle = _CLAIMS.pop(path.resolve(), None)
    if handle is not None:
        handle.close()


def write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically: readers see the old file or the new one, never half of one;
    an error (a full disk, ``path`` being a directory) leaves the old file and no temporary file behind."""
    if path.is_dir():
        raise IsADirectoryError(21, "is a directory", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


__all__ = ["SaveBusy", "claim", "read_record", "release", "write"]
