"""Several server processes on one PostgreSQL database and one Redis broker (docs/deploy.md, "Several
processes"): seats on different processes, the owner of a table killed, two processes racing for a lease.

Needs a PostgreSQL server (``CANASTA_TEST_POSTGRES``) and a Redis server (``CANASTA_TEST_REDIS``, e.g.
redis://localhost:6379/5); .ci/run starts both. Each test gets its own database and channel prefix.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from canasta.record import FORMAT
from canasta.server.storage import SeatRow, Store, TableRow
from server_helpers import POSTGRES_URL, WsClient, free_port, fresh_postgres
from test_server_play import check_frames

REDIS_URL = os.environ.get("CANASTA_TEST_REDIS")

pytestmark = pytest.mark.skipif(POSTGRES_URL is None or REDIS_URL is None,
                                reason="no PostgreSQL and Redis servers: .ci/run starts them and sets "
                                       "CANASTA_TEST_POSTGRES and CANASTA_TEST_REDIS")


@pytest.fixture
def site() -> Iterator[tuple[str, str]]:
    """(database URL, channel prefix): a fresh database, and channels no other test uses."""
    with fresh_postgres() as url:
        yield url, f"test-{uuid.uuid4().hex[:10]}"


class Process:
    """``canasta serve --broker`` in a process of its own, waited for until it prints its address."""

    def __init__(self, database: str, prefix: str, grace: float = 600, broker: str | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        broker = broker or REDIS_URL
        assert broker is not None
        self.proc = subprocess.Popen([sys.executable, "-m", "canasta", "serve", "--port", str(self.port),
                                      "--database", database, "--broker", broker, "--broker-prefix", prefix,
                                      "--workers", "0", "--grace", str(grace), "--bot-delay", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.proc.stdout is not None
        lines = []
        while f"http://localhost:{self.port}/" not in (line := self.proc.stdout.readline()):
            lines.append(line)
            if not line or len(lines) > 50:
                self.stop()
                raise AssertionError("".join(lines))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)

    @contextmanager
    def client(self, table: str, token: str | None = None) -> Iterator[WsClient]:
        with connect(f"ws://127.0.0.1:{self.port}/ws/tables/{table}" + (f"?token={token}" if token else ""),
                     max_size=2**24) as ws:
            yield WsClient(ws)


@contextmanager
def processes(database: str, prefix: str, count: int, grace: float = 600,
              broker: str | None = None) -> Iterator[list[Process]]:
    started: list[Process] = []
    try:
        for _ in range(count):
            started.append(Process(database, prefix, grace, broker))
        yield started
    finally:
        for p in started:
            p.stop()


def record_of(database: str, table: str) -> dict[str, Any]:
    """The table's game record as far as it has been played, read from the database itself."""
    import psycopg

    with psycopg.connect(database) as conn:
        rules, deals = conn.execute("SELECT rules, deals FROM game_tables WHERE id = %s", (table,)).fetchone()
        moves = conn.execute("SELECT version, seat, move FROM moves WHERE table_id = %s ORDER BY version",
                             (table,)).fetchall()
    assert [v for v, _, _ in moves] == list(range(1, len(moves) + 1))  # every version once
    return {"format": FORMAT, "rules": rules, "seed": None, "deals": deals, "players": [],
            "moves": [f"{seat} {move}" for _, seat, move in moves]}


def owner_pid(database: str, table: str) -> int:
    """The process holding the table's lease (waited for)."""
    import psycopg

    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        with psycopg.connect(database) as conn:
            found = conn.execute("SELECT owner FROM table_leases WHERE table_id = %s", (table,)).fetchone()
        if found:
            return int(found[0].split(":")[1])
        time.sleep(0.1)
    raise AssertionError("nobody took the table's lease")


def events(client: WsClient) -> list[tuple[int, str]]:
    return [(f["version"], f"{f['seat']} {f['move']}") for f in client.frames if f["type"] == "event"]


def next_mover(players: list[WsClient]) -> WsClient | None:
    """The player to move once the computer players have moved (None: the game is over)."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "nobody came to move within 60 s"
        mover = next((c for c in players if c.state and c.state["legal"]), None)
        if mover is not None or any(c.state and c.state["status"] == "over" for c in players):
            return mover
        for c in players:
            c.drain(0.05)


def play(players: list[WsClient], watchers: list[WsClient], moves: int, rng: random.Random) -> list[tuple[Any, int]]:
    """The players move (a random legal move each turn; the computer players move in between) until they
    have made ``moves`` moves or the game is over; returns every (move id, acknowledged version)."""
    acked: list[tuple[Any, int]] = []
    while len(acked) < moves:
        mover = next_mover(players)
        if mover is None:
            break
        frame_id = mover.move(rng.choice(mover.state["legal"]))  # type: ignore[index]
        version = mover.until("ack", id=frame_id)["version"]
        acked.append((frame_id, version))
        for c in players + watchers:  # everybody, on either process, sees the move
            c.until("state", version=version)
    return acked


def test_seats_on_two_processes(site: tuple[str, str]) -> None:
    database, prefix = site
    with processes(database, prefix, 2) as (a, b):
        made = httpx.post(a.base + "/api/tables", json={"seats": ["human", "human", "bot:easy", "bot:easy"],
                                                        "delay": 0}).json()
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        with a.client(table, tokens[0]) as first, b.client(table, tokens[1]) as second, \
                b.client(table) as watcher, a.client(table) as other_watcher:
            for c in (first, second):
                c.until("state", status="playing")
            # each process knows the seat connected at the other
            second.until("seats", seats=[s | {"connected": s["seat"] in (0, 1)}
                                         for s in second.state["seats"]])  # type: ignore[index]
            acked = play([first, second], [watcher, other_watcher], 24, random.Random(7))
            assert len(acked) == 24
            first.send({"type": "chat", "text": "from process A"})
            second.until("chat", text="from process A")
            watcher.until("chat", text="from process A")
            # a move made on a stale version is refused by the database, whichever process takes it
            for c in (first, second, watcher, other_watcher):
                c.drain(0.3)
            behind = second if first.state["legal"] else first  # type: ignore[index]
            frame_id = behind.move("draw", version=0)
            assert behind.until("error", id=frame_id)["code"] in ("STALE_VERSION", "NOT_YOUR_TURN")
            record = record_of(database, table)
            frames = {0: first.frames, 1: second.frames, None: watcher.frames + other_watcher.frames}
            assert check_frames(record, frames) > 4 * len(acked)
            # every client saw every move once, in order, whichever process it was on and made it
            for c in (first, second, watcher, other_watcher):
                seen = events(c)
                assert [v for v, _ in seen] == list(range(seen[0][0], seen[-1][0] + 1))
                assert [m for _, m in seen] == record["moves"][seen[0][0] - 1:seen[-1][0]]
            assert httpx.get(b.base + f"/api/tables/{table}").json()["version"] == len(record["moves"])


def test_owner_killed_another_process_takes_over(site: tuple[str, str]) -> None:
    database, prefix = site
    rng = random.Random(3)
    with processes(database, prefix, 2) as both:
        made = httpx.post(both[0].base + "/api/tables", json={"seats": ["human", "bot:easy", "bot:easy",
                                                                        "bot:easy"], "delay": 0}).json()
        table, token = made["table"], made["seats"][0]["token"]
        owner = next(p for p in both if p.proc.pid == owner_pid(database, table))
        survivor = next(p for p in both if p is not owner)
        with ExitStack() as stack:
            player = stack.enter_context(survivor.client(table, token))
            watcher = stack.enter_context(survivor.client(table))
            player.until("state", status="playing")
            before = play([player], [watcher], 6, rng)
            os.kill(owner.proc.pid, signal.SIGKILL)
            owner.proc.wait(10)
            # the computer players carry on at the survivor once the lease lapses (seconds): the player gets
            # the move back
            after = play([player], [watcher], 6, rng)
            assert after, "the computer players never moved again"
            assert owner_pid(database, table) == survivor.proc.pid
        record = record_of(database, table)
        import psycopg

        with psycopg.connect(database) as conn:
            stored = dict(conn.execute("SELECT client_id, version FROM moves WHERE table_id = %s AND "
                                       "client_id IS NOT NULL", (table,)).fetchall())
        # every acknowledged move is in the database once, at the version acknowledged
        assert stored == {frame_id: version for frame_id, version in before + after}
        assert check_frames(record, {0: player.frames, None: watcher.frames}) > 0
        seen = events(watcher)
        assert [m for _, m in seen] == record["moves"][seen[0][0] - 1:seen[-1][0]]


def test_a_player_connected_at_another_process_is_not_stood_in_for(site: tuple[str, str]) -> None:
    """The owner knows the player is connected at the other process (no stand-in after ``--grace``), and
    stands in once the player has left there; both processes show it."""
    database, prefix = site
    with processes(database, prefix, 2, grace=1.0) as both:
        made = httpx.post(both[0].base + "/api/tables", json={"seats": ["human", "bot:easy", "bot:easy",
                                                                        "bot:easy"], "delay": 0}).json()
        table, token = made["table"], made["seats"][0]["token"]
        owner = next(p for p in both if p.proc.pid == owner_pid(database, table))
        other = next(p for p in both if p is not owner)
        with owner.client(table) as watcher:
            with other.client(table, token) as player:
                state = player.until("state", status="playing")
                while not state["legal"]:  # the player's turn
                    state = player.until("state")
                time.sleep(3.0)  # three times the grace: nobody moves for a player who is connected
                watcher.drain(0.1)
                assert watcher.state is not None and watcher.state["version"] == state["version"]
                assert not any(s["stand_in"] for s in watcher.state["seats"])
            # gone: after the grace the owner's computer player moves for the seat, and says so
            watcher.until("seats", seats=[s | {"connected": False, "stand_in": s["seat"] == 0}
                                          for s in watcher.state["seats"]])
            watcher.until("event", seat=0)


def redis_server(port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout != b"PONG\n":
        assert time.monotonic() < deadline and proc.poll() is None, "redis-server did not start"
        time.sleep(0.05)
    return proc


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server to start and stop")
def test_the_broker_restarted_mid_game(site: tuple[str, str]) -> None:
    """Moves made while the broker is down reach the other process's clients once it is back (that process
    catches its tables up from the database)."""
    database, prefix = site
    port = free_port()
    broker = redis_server(port)
    try:
        with processes(database, prefix, 2, broker=f"redis://127.0.0.1:{port}/0") as (a, b):
            made = httpx.post(a.base + "/api/tables", json={"seats": ["human", "human", "bot:easy", "bot:easy"],
                                                            "delay": 0}).json()
            table, tokens = made["table"], [s["token"] for s in made["seats"]]
            with a.client(table, tokens[0]) as first, b.client(table, tokens[1]) as second:
                for c in (first, second):
                    c.until("state", status="playing")
                rng = random.Random(5)
                play([first, second], [], 4, rng)
                mover = next_mover([first, second])  # chosen before the broker stops: a computer player's
                assert mover is not None           # moves at one process reach the other only through it
                broker.kill()
                broker.wait(10)
                frame_id = mover.move(rng.choice(mover.state["legal"]))  # type: ignore[index]
                version = mover.until("ack", id=frame_id)["version"]  # the database has it: acknowledged
                broker = redis_server(port)
                mover.until("state", version=version)
                other = second if mover is first else first
                other.until("event", version=version)
                other.until("state", version=version)
                play([first, second], [], 2, rng)  # and the game goes on across the processes
            assert check_frames(record_of(database, table), {0: first.frames, 1: second.frames}) > 0
    finally:
        broker.kill()
        broker.wait(10)


def test_two_processes_race_for_a_lease(site: tuple[str, str]) -> None:
    database, _ = site
    stores = [Store(database), Store(database)]
    try:
        stores[0].create_table(TableRow(id="raced", rules={}, settings={}, status="playing", version=0, state="{}",
                                        deals=[], pad=[], result=None,
                                        seats=[SeatRow(seat=0, kind="bot", level="easy", token_hash=None)]))
        wins = []
        for _ in range(30):
            stores[0].engine.dispose()  # nothing of one round's connections leaks into the next
            with stores[0].engine.begin() as c:  # the lease has lapsed: both want it at once
                c.exec_driver_sql("UPDATE table_leases SET expires = 0")
            gate = threading.Barrier(2)
            got: list[list[str]] = [[], []]

            def take(i: int, gate: threading.Barrier = gate, got: list[list[str]] = got) -> None:
                gate.wait()
                got[i] = stores[i].take_leases(["raced"], f"process-{i}", 30.0)

            threads = [threading.Thread(target=take, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            winners = [i for i in range(2) if got[i] == ["raced"]]
            assert len(winners) == 1, got
            wins.append(winners[0])
            # while it holds, the other cannot take it; the holder renews it
            loser = 1 - winners[0]
            assert stores[loser].take_leases(["raced"], f"process-{loser}", 30.0) == []
            assert stores[winners[0]].take_leases(["raced"], f"process-{winners[0]}", 30.0) == ["raced"]
        assert stores[0].orphaned_tables(0.0) == []
        stores[1].release_leases(["raced"], "process-1")
        stores[0].release_leases(["raced"], "process-0")
        assert stores[0].take_leases(["raced"], "process-1", 30.0) == ["raced"]  # released: free at once
    finally:
        for s in stores:
            s.close()
