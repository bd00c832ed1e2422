"""Every table in memory, the database threads and the computer players' pool; creating tables, and
taking out of memory the tables nobody uses (they stay in the database and load again when asked for)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from .. import new_game
from .cluster import LocalCluster
from .config import Limits
from .guard import TableLimit, Unavailable, database_failed
from .metrics import Metrics
from .room import Room, deck_text, token_hash
from .spec import TableSpec
from .storage import SeatRow, Store, TableRow
from .workers import BotPool

T = TypeVar("T")
log = logging.getLogger("canasta.server")
SWEEP_SECONDS = 30.0


@dataclass
class Lobby:
    """Every room in memory, the database threads and the computer players' pool."""

    store: Store
    pool: BotPool
    grace: float = 60.0
    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)
    owners: dict[str, str] = field(default_factory=dict)  # table id -> the address that created it (memory only)
    cluster: LocalCluster = field(default_factory=LocalCluster)  # the other processes (RedisCluster), if any
    metrics: Metrics = field(default_factory=Metrics)

    def __post_init__(self) -> None:
        # One queue per database thread: a table's calls all go to one of them, so they run (and its moves
        # commit) in the order they were made, while other tables' commit on the other threads meanwhile.
        self.db_threads = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"db{i}")
                           for i in range(self.store.threads)]
        self.sweeper: asyncio.Task[None] | None = None
        self.metrics.watch(self)

    def db_thread_of(self, table_id: str) -> int:
        """The database thread that runs ``table_id``'s calls."""
        return zlib.crc32(table_id.encode()) % len(self.db_threads)

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn`` on the first database thread (calls about no one table)."""
        return await self._run(0, fn, *args, **kwargs)

    async def table_db(self, table_id: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(table_id, *args, **kwargs)`` on ``table_id``'s database thread, after the table's calls
        made before it."""
        return await self._run(self.db_thread_of(table_id), fn, table_id, *args, **kwargs)

    async def _run(self, thread: int, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn`` on database thread ``thread``; a database that fails raises ``Unavailable`` (logged by the
        error's class only: its text can hold the SQL parameters, a position and its deck among them)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.db_threads[thread],
                                                                    partial(fn, *args, **kwargs))
        except Exception as exc:
            if not database_failed(exc):
                raise
            log.error("database unavailable: %s", type(exc).__name__)
            raise Unavailable from None

    async def room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self.loading:
            if table_id in self.rooms:
                return self.rooms[table_id]
            row = await self.table_db(table_id, self.store.load_table)
            if row is None:
                return None
            history = await self.table_db(table_id, self.store.moves)
            try:
                room = Room(self, row, history)
            except ValueError as exc:  # rules stored before the bounds that now refuse them (issue 40): not served
                log.warning("table %s cannot be loaded: %s", table_id, type(exc).__name__)
                return None
            self.rooms[table_id] = room
            room.start()
            return room

    async def resume_all(self) -> int:
        """Load the tables that were live (changed within ``idle_minutes``) after a restart, so computer
        players and timers carry on; older unfinished tables load when somebody opens them."""
        ids = await self.db(self.store.active_table_ids, time.time() - self.limits.idle_minutes * 60)
        for table_id in ids:
            await self.room(table_id)
        return len(ids)

    def open_tables(self, owner: str | None = None) -> int:
        """Tables in memory not over (of those ``owner`` created, when given)."""
        return sum(1 for room in self.rooms.values() if room.status in ("waiting", "playing")
                   and (owner is None or self.owners.get(room.id) == owner))

    def check_room_for(self, owner: str | None) -> None:
        """Raise ``TableLimit`` if a table may not be created now (for ``owner``, a client address)."""
        if self.open_tables() >= self.limits.tables:
            raise TableLimit(503, "SERVER_FULL", f"the server has its {self.limits.tables} open tables: "
                             "try again later")
        cap = self.limits.tables_per_address
        if owner is not None and self.open_tables(owner) >= cap:
            raise TableLimit(429, "TOO_MANY_TABLES", f"at most {cap} open tables per address: finish one first")

    async def create(self, spec: TableSpec, rematch_of: str | None = None,
                     owner: str | None = None) -> tuple[Room, dict[int, str]]:
        """A new table; returns the room and each human seat's token (shown once, never stored). Raises
        ``TableLimit`` when the server or ``owner`` (the creator's address) has too many open tables."""
        self.check_room_for(owner)
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
        await self._run(self.db_thread_of(table_id), self.store.create_table, row)
        room = self.rooms[table_id] = Room(self, row, [])
        if owner is not None:
            self.owners[table_id] = owner
        room.start()
        return room, tokens

    async def unload(self, room: Room) -> None:
        """Take a table out of memory (it stays in the database)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        self.owners.pop(room.id, None)
        await room.stop()

    async def sweep(self) -> None:
        """Expire the tables whose human seats nobody took in ``waiting_minutes``; take out of memory the
        tables nobody has been connected to for ``idle_minutes`` and the finished ones nobody watches."""
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if room.clients:
                continue
            quiet = now - room.quiet_since
            if room.status == "waiting" and not room.anyone_joined():
                if quiet > self.limits.waiting_minutes * 60:
                    with contextlib.suppress(Unavailable):  # tried again at the next sweep
                        await room.expire()
                        await self.unload(room)
            elif room.status not in ("waiting", "playing") or quiet > self.limits.idle_minutes * 60:
                await self.unload(room)

    def start_sweeping(self) -> None:
        # every 30 s, or often enough for short limits (a quarter of the shorter one)
        every = min(SWEEP_SECONDS, 15 * min(self.limits.waiting_minutes, self.limits.idle_minutes))

        async def run() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.sweep()
                except Exception as exc:  # a sweep that failed is tried again at the next one
                    log.error("sweeping tables failed: %s", type(exc).__name__)

        self.sweeper = asyncio.get_running_loop().create_task(run(), name="sweeper")

    @property
    def draining(self) -> bool:
        return self.cluster.draining

    async def drain(self, pause: float = 0.0) -> None:
        """The process is stopping (SIGTERM): run no table any more and hand this process's over to the
        others; ``pause`` seconds later (a load balancer has seen ``/readyz`` fail meanwhile) send every
        connection away to reconnect elsewhere, each table's after any move under way is stored and
        acknowledged. New tables and connections are refused from the start (app.py)."""
        await self.cluster.drain()
        await asyncio.sleep(pause)
        for room in list(self.rooms.values()):
            async with room.lock:
                room.send_away()

    async def close(self) -> None:
        await self.cluster.close()  # first: hands this process's tables over at once
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        for room in list(self.rooms.values()):
            await room.stop()
        for thread in self.db_threads:
            thread.shutdown(wait=True)
