"""Every table in memory, the database thread and the computer players' pool; creating tables."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from .. import new_game
from .room import Room, deck_text, token_hash
from .spec import TableSpec
from .storage import SeatRow, Store, TableRow
from .workers import BotPool

T = TypeVar("T")
log = logging.getLogger("canasta.server")


@dataclass
class Lobby:
    """Every room in memory, the database thread and the computer players' pool."""

    store: Store
    pool: BotPool
    grace: float = 60.0
    rooms: dict[str, Room] = field(default_factory=dict)
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_thread, partial(fn, *args, **kwargs))

    async def room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self.loading:
            if table_id in self.rooms:
                return self.rooms[table_id]
            row = await self.db(self.store.load_table, table_id)
            if row is None:
                return None
            history = await self.db(self.store.moves, table_id)
            try:
                room = Room(self, row, history)
            except ValueError as exc:  # rules stored before the bounds that now refuse them (issue 40): not served
                log.warning("table %s cannot be loaded: %s", table_id, type(exc).__name__)
                return None
            self.rooms[table_id] = room
            room.start()
            return room

    async def resume_all(self) -> int:
        """Load every unfinished table (after a restart), so computer players and timers carry on."""
        ids = await self.db(self.store.active_table_ids)
        for table_id in ids:
            await self.room(table_id)
        return len(ids)

    async def create(self, spec: TableSpec, rematch_of: str | None = None) -> tuple[Room, dict[int, str]]:
        """A new table; returns the room and each human seat's token (shown once, never stored)."""
        state = new_game(spec.rules)  # seed None: secrets.SystemRandom
        table_id = secrets.token_urlsafe(9)
        tokens: dict[int, str] = {}
        seat_rows = []
        for seat, kind in enumerate(spec.seats):
            human = kind == "human"
            if human and rematch_of is None:
                tokens[seat] = secrets.token_urlsafe(24)
            seat_rows.append(SeatRow(seat=seat, kind="human" if human else "bot",
                                     level=None if human else kind[4:],
                                     token_hash=token_hash(tokens[seat]) if seat in tokens else None,
                                     name=spec.names[seat], player=spec.player if seat == 0 and human else None))
        status = "waiting" if any(k == "human" for k in spec.seats) else "playing"
        settings = {"delay": spec.delay, "turn_seconds": spec.turn_seconds, "rematch_of": rematch_of,
                    "rematch": None}
        row = TableRow(id=table_id, rules=spec.rules.to_dict(), settings=settings, status=status, version=0,
                       state=state.to_json(), deals=[deck_text(state)], pad=[], result=None, seats=seat_rows)
        await self.db(self.store.create_table, row)
        room = self.rooms[table_id] = Room(self, row, [])
        room.start()
        return room, tokens

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
        self.db_thread.shutdown(wait=True)
