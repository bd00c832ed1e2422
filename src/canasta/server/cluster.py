"""Several server processes on one site: what a room tells the others, and which process runs its
computer players and timers (docs/deploy.md, "Several processes").

A room calls four things here: ``publish`` (something changed at the table: the others catch up from the
database, or show a chat message), ``watch``/``unwatch`` (this process has the table in memory) and
``owns`` (may this process run the table's computer players, stand-ins and timer now?). ``drain`` (the
process is stopping: ``Lobby.drain``) gives every table up and takes none any more.

``LocalCluster`` is the one-process default (SQLite or PostgreSQL without a broker): it publishes nothing and
owns every table. ``RedisCluster`` carries messages over Redis pub/sub, one channel per table that only the
processes holding the table subscribe to (and one that every process's presence repeat goes to), and keeps
ownership as a lease row per table in PostgreSQL (``Store.take_leases``), renewed every ``RENEW_SECONDS`` and
taken over by another process once it has expired. Messages never carry a hidden card: they say "table T
changed" (with the move's public row when that move is all that changed: the others play it themselves), and a
process that cannot simply play it reads the table from the database, the system of record, so a lost or late
message costs a delay, never a wrong state (and a process that lost the broker catches every table up when it
is back).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .guard import Unavailable

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("canasta.server")

Handler = Callable[[dict[str, Any]], None]

LEASE_SECONDS = 3.0   # a lease not renewed for this long is free: a dead owner's tables move within it
RENEW_SECONDS = 1.0   # the owner renews (and every process takes what is free) this often
ADOPT_EVERY = 3       # every this many renewals, load the tables whose owner died that nobody here holds
PRESENCE_STALE = 3 * RENEW_SECONDS  # a process's word on who is connected there holds this long
RETRY_SECONDS = 1.0   # between attempts to reach a broker that failed
SEND_BATCH = 500      # messages published in one round trip at most


def process_name() -> str:
    """This process's name in leases and messages: host, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()[:48]}:{os.getpid()}:{secrets.token_hex(4)}"


class LocalCluster:
    """One process: nothing to tell anybody, every table its own. Also the interface a room and the
    lobby use (``RedisCluster`` extends it)."""

    shared = False

    def __init__(self) -> None:
        self.name = process_name()
        self.draining = False

    async def start(self, lobby: Lobby) -> None:
        return None

    async def close(self) -> None:
        return None

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        return None

    def watch(self, table_id: str, handler: Handler) -> None:
        return None

    def unwatch(self, table_id: str) -> None:
        return None

    def owns(self, table_id: str) -> bool:
        return not self.draining

    async def drain(self) -> None:
        """Run no table any more (the process is stopping)."""
        self.draining = True

    async def check(self) -> None:
        """Raise ``Unavailable`` unless the broker answers (there is none here)."""
        return None


class RedisCluster(LocalCluster):
    """Many processes: Redis pub/sub between them, table leases in PostgreSQL."""

    shared = True

    def __init__(self, url: str, prefix: str = "canasta") -> None:
        super().__init__()
        self.url, self.prefix = url, prefix
        self.handlers: dict[str, Handler] = {}
        self.held: dict[str, float] = {}  # table id -> monotonic time until which this process may run it
        self.lobby: Lobby | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=10_000)
        self.pubsub: Any = None
        self.client: Any = None

    def channel(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    @property
    def presence_channel(self) -> str:
        """Every process's word, each second, on who is connected to it at each of its tables: one message
        for all of them (one per table was most of what a process's broker connection carried and parsed)."""
        return f"{self.prefix}:presence"

    async def start(self, lobby: Lobby) -> None:
        import redis.asyncio as redis

        self.lobby = lobby
        self.client = redis.from_url(self.url, socket_connect_timeout=5, health_check_interval=10)
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._listen(), name="broker listener"),
                      loop.create_task(self._send(), name="broker sender"),
                      loop.create_task(self._leases(), name="table leases")]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.lobby is not None and self.held:  # hand the tables over now rather than in LEASE_SECONDS
            with contextlib.suppress(Exception):
                await self.lobby.db(self.lobby.store.release_leases, list(self.held), self.name)
        self.held.clear()
        self.handlers.clear()
        for closing in (self.pubsub, self.client):
            if closing is not None:
                with contextlib.suppress(Exception):
                    await closing.aclose()
        self.pubsub = None  # the rooms stopping after this unsubscribe nothing

    # --- messages -------------------------------------------------------------------------------

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for the other processes holding ``table_id`` (never waits; dropped, with a log
        line, if the broker is so far behind that 10,000 are queued: the others catch up at the next one)."""
        self._queue(self.channel(table_id), message)

    def _queue(self, channel: str, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait((channel, json.dumps({**message, "from": self.name})))
        except asyncio.QueueFull:
            log.error("broker: message queue full, a table message was dropped")

    def watch(self, table_id: str, handler: Handler) -> None:
        self.handlers[table_id] = handler
        if self.pubsub is not None:
            self._spawn(self.pubsub.subscribe(self.channel(table_id)))

    def unwatch(self, table_id: str) -> None:
        self.handlers.pop(table_id, None)
        if self.pubsub is not None:
            self._spawn(self.pubsub.unsubscribe(self.channel(table_id)))
        if self.held.pop(table_id, None) is not None and self.lobby is not None:
            lobby = self.lobby
            self._spawn(lobby.db(lobby.store.release_leases, [table_id], self.name))

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception as exc:  # the listener resubscribes everything when the broker is back
                log.error("broker: %s", type(exc).__name__)
        asyncio.get_running_loop().create_task(run())

    def owns(self, table_id: str) -> bool:
        return time.monotonic() < self.held.get(table_id, 0.0)

    async def drain(self) -> None:
        """Give every lease back now (another process takes each table at its next renewal, or loads it
        within ``ADOPT_EVERY`` renewals if none holds it) and take none any more. The word on who is
        connected here goes on (``renew``): these connections are still here until they are sent away."""
        await super().drain()
        given, self.held = len(self.held), {}
        if self.lobby is not None:  # every table in memory: a renewal under way may have taken one more; the
            with contextlib.suppress(Exception):  # leases' database thread runs this after it. (Down: they lapse.)
                await self.lobby.db(self.lobby.store.release_leases, list(self.lobby.rooms), self.name)
        log.info("draining: %d table(s) handed over", given)

    async def check(self) -> None:
        try:
            await asyncio.wait_for(self.client.ping(), 2.0)
        except Exception:
            raise Unavailable from None

    async def _send(self) -> None:
        """Publish the queued messages, all those waiting in one round trip (a pipeline): with hundreds of
        tables a message each at a time was the largest share of a process's time."""
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < SEND_BATCH and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            while True:
                try:
                    pipe = self.client.pipeline(transaction=False)
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.error("broker: publishing failed: %s", type(exc).__name__)
                    await asyncio.sleep(RETRY_SECONDS)

    async def _listen(self) -> None:
        """Deliver each table's messages to its room; when the broker comes back after a failure,
        subscribe again and let every room catch up from the database (messages were missed)."""
        first = True
        while True:
            try:
                self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await self.pubsub.subscribe(self.presence_channel, *(self.channel(t) for t in self.handlers))
                if not first:
                    log.warning("broker: connected again; tables catch up from the database")
                    for handler in list(self.handlers.values()):
                        handler({"kind": "changed", "from": None})
                first = False
                while True:  # blocking: a read with a timeout cost twice the CPU a message (a lost broker raises)
                    message = await self.pubsub.get_message(timeout=None)
                    if message is not None and message.get("type") == "message":
                        self._deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("broker unavailable: %s", type(exc).__name__)
                pubsub, self.pubsub = self.pubsub, None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                first = False
                await asyncio.sleep(RETRY_SECONDS)

    def _deliver(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
        try:
            body = json.loads(message["data"])
        except (TypeError, ValueError):
            return
        if not isinstance(body, dict) or body.get("from") == self.name:
            return
        if channel == self.presence_channel:  # to each table held here, as that table's own message
            tables = body.get("tables")
            for table_id, counts in tables.items() if isinstance(tables, dict) else ():
                handler = self.handlers.get(table_id)
                if handler is not None:
                    handler({"kind": "presence", "seats": counts, "from": body["from"]})
            return
        handler = self.handlers.get(channel.rsplit(":", 1)[-1])
        if handler is not None:
            handler(body)

    # --- leases ---------------------------------------------------------------------------------

    async def _leases(self) -> None:
        """Every ``RENEW_SECONDS``: renew this process's leases and take the free ones of the tables it
        holds; now and then load the tables a dead process left, so that they carry on here."""
        assert self.lobby is not None
        lobby, tick = self.lobby, 0
        while True:
            tick += 1
            try:
                if tick % ADOPT_EVERY == 1 and not self.draining:
                    since = time.time() - lobby.limits.idle_minutes * 60
                    for table_id in await lobby.db(lobby.store.orphaned_tables, since):
                        await lobby.room(table_id)
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is down: leases lapse by themselves (see ``owns``)
                log.error("table leases: %s", type(exc).__name__)
            await asyncio.sleep(RENEW_SECONDS)

    async def renew(self) -> None:
        assert self.lobby is not None
        lobby = self.lobby
        live = [t for t, room in lobby.rooms.items() if room.status in ("waiting", "playing")]
        asked = time.monotonic()  # the lease runs from before the question, on the safe side
        taken = [] if self.draining else await lobby.db(lobby.store.take_leases, live, self.name, LEASE_SECONDS)
        held = set() if self.draining else set(taken)  # (draining may have begun during the question)
        until = asked + LEASE_SECONDS - RENEW_SECONDS / 2
        present: dict[str, list[int]] = {}
        for table_id in live:
            room = lobby.rooms.get(table_id)
            had = self.owns(table_id)
            if table_id in held:
                self.held[table_id] = until
            else:
                self.held.pop(table_id, None)
            if room is not None:
                if had != (table_id in held):
                    log.info("table %s: %s here", table_id, "runs" if table_id in held else "no longer runs")
                    room.wake.set()
                room.tick()
                counts = room.presence()
                if counts is not None:
                    present[table_id] = counts
        if present:  # who is connected here, repeated for every table at once
            self._queue(self.presence_channel, {"kind": "presence", "tables": present})
