"""The server's resource limits: each one's default, command-line option and meaning, in one place
(``canasta serve --help`` and docs/security.md list them). Standard library only: the CLI reads it
without the server's extra installed."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


def _limit(default: float, flag: str, meaning: str) -> Any:
    return field(default=default, metadata={"flag": flag, "meaning": meaning})


@dataclass(frozen=True)
class Limits:
    """What one server lets its clients use. Counts are per server process, in memory."""

    body_bytes: int = _limit(16_384, "--max-body", "bytes of an HTTP request body (refused before it is read)")
    tables_per_minute: int = _limit(10, "--tables-per-minute",
                                    "table requests (POST /api/tables, refused ones included) one client "
                                    "address may make in any 60 seconds")
    tables_per_address: int = _limit(20, "--tables-per-address",
                                     "open tables (waiting or being played, in memory) one address created")
    tables: int = _limit(1000, "--max-tables", "open tables in all")
    waiting_minutes: float = _limit(30.0, "--waiting-minutes",
                                    "minutes after which a table none of whose human seats was taken expires")
    idle_minutes: float = _limit(15.0, "--idle-minutes",
                                 "minutes after which a table nobody is connected to leaves memory (it stays in "
                                 "the database and loads again when opened); at start-up only tables changed "
                                 "this recently are loaded")
    bot_delay: float = _limit(1.0, "--bot-delay",
                              "the least seconds between moves at a table where no person holds a seat (0: none)")

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not (value > 0 or (f.name == "bot_delay" and value == 0)):
                raise ValueError(f"{f.metadata['flag']} must be more than 0, got {value}")


def limit_options() -> list[tuple[str, str, type, Any, str]]:
    """(field name, option, type, default, meaning) of each limit, in order."""
    return [(f.name, f.metadata["flag"], type(f.default), f.default, f.metadata["meaning"]) for f in fields(Limits)]


# A move makes thousands of containers (positions, views, frames) that mostly live until the next move: at
# Python's default (a young-generation collection every 700 net allocations) the cyclic collector took 8.6-9.0 %
# of a loaded server's CPU, at 10,000 2.1-2.6 % (gc.callbacks timing, two processes at 150 tables). The pauses of
# the older generations' collections, which grow with the tables a process holds, stay either way: the tail of
# one process's latency (docs/server-load.md, "What limits it").
COLLECT_EVERY = 10_000


def tune_collector() -> None:
    """For a long-running server process, once its app is built: collect the young generation less often,
    and leave the objects made at start (modules, the app) out of every later full collection."""
    import gc

    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(COLLECT_EVERY, middle, old)
