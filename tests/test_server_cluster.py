"""Several server processes on one PostgreSQL database and one Redis broker (docs/deploy.md, "Several
processes"): seats on different processes, the owner of a table killed and a process that does not own it,
a rolling restart (each process drained by SIGTERM in turn), one live connection per seat across processes,
two processes racing for a lease.

Needs a PostgreSQL server (``CANASTA_TEST_POSTGRES``) and a Redis server (``CANASTA_TEST_REDIS``, e.g.
redis://localhost:6379/5); .ci/run starts both. Each test gets its own database and channel prefix.
"""

from __future__ import annotations

import json
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
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from canasta.play.record import FORMAT
from canasta.server.storage import SeatRow, Store, TableRow
from server_helpers import POSTGRES_URL, WsClient, free_port, fresh_postgres
from test_server_play import check_frames, positions_of

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

    def __init__(self, database: str, prefix: str, grace: float = 600, broker: str | None = None,
                 options: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        broker = broker or REDIS_URL
        assert broker is not None
        self.proc = subprocess.Popen([sys.executable, "-m", "canasta", "serve", "--port", str(self.port),
                                      "--database", database, "--broker", broker, "--broker-prefix", prefix,
                                      "--workers", "0", "--grace", str(grace), "--bot-delay", "0", *options],
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
        with connect(self.url(table, token), max_size=2**24) as ws:
            yield WsClient(ws)

    def url(self, table: str, token: str | None = None, since: int | None = None) -> str:
        query = "&".join(f"{k}={v}" for k, v in (("token", token), ("since", since)) if v is not None)
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table}" + (f"?{query}" if query else "")

    def reconnect(self, client: WsClient, table: str, token: str | None, stack: ExitStack) -> None:
        """``client``'s connection ended (its process died or sent it away): it opens one here naming the
        last version it saw (``since``), as the browser page does, and reads on to its state frame."""
        with suppress(Exception):
            client.ws.close()
        seen = [f["version"] for f in client.frames if f["type"] in ("event", "state")]
        client.ws = stack.enter_context(connect(self.url(table, token, max(seen, default=None)), max_size=2**24))
        client.until("state")


@contextmanager
def processes(database: str, prefix: str, count: int, grace: float = 600, broker: str | None = None,
              options: tuple[str, ...] = ()) -> Iterator[list[Process]]:
    """``count`` processes, and any the test adds to the list or puts in it instead, stopped at the end."""
    started: list[Process] = []
    try:
        for _ in range(count):
            started.append(Process(database, prefix, grace, broker, options))
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
    """The player to move once the computer players have moved (None: the game is over); at a hand's end
    each player has seen its review (says Continue)."""
    deadline, said = time.monotonic() + 60, set()
    while True:
        assert time.monotonic() < deadline, "nobody came to move within 60 s"
        mover = next((c for c in players if c.state and c.state["legal"]), None)
        if mover is not None or any(c.state and c.state["status"] == "over" for c in players):
            return mover
        for c in players:
            review = c.state and c.state["review"]
            if review and c.state["seat"] in review["waiting"] and (id(c), review["hand"]) not in said:  # type: ignore[index]
                c.send({"type": "continue", "hand": review["hand"]})
                said.add((id(c), review["hand"]))
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
        for c in players + watchers:  # everybody, on any process, sees the move
            reach(c, version)
    return acked


def reach(client: WsClient, version: int) -> None:
    """Read until ``client`` has been shown ``version`` or a later one (a process that caught up several
    moves at once sends one state frame for them, after each one's event)."""
    while client.state is None or client.state["version"] < version:
        client.recv()


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
                reach(mover, version)  # (a computer player's next move may share the state frame)
                other = second if mover is first else first
                other.until("event", version=version)
                reach(other, version)
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


# --- no process indispensable -------------------------------------------------------------------------


def open_client(process: Process, table: str, token: str | None, stack: ExitStack) -> WsClient:
    client = WsClient(stack.enter_context(connect(process.url(table, token), max_size=2**24)))
    client.until("state")
    return client


def turn_of(target: WsClient, players: list[WsClient], watchers: list[WsClient], rng: random.Random,
            acked: list[tuple[Any, int]]) -> None:
    """Play on until it is ``target``'s turn."""
    for _ in range(200):
        if next_mover(players) is target:
            return
        acked += play(players, watchers, 1, rng)
    raise AssertionError("the target player never came to move")


def resend(client: WsClient, text: str, version: int, frame_id: Any) -> tuple[Any, int] | None:
    """Send again a move whose answer was lost with its process (same id and version, as the page does):
    (id, version) if it is applied now, None if it had been applied before the process died."""
    client.move(text, version=version, frame_id=frame_id)
    while True:
        frame = client.recv()
        if frame["type"] == "ack" and frame["id"] == frame_id:
            return frame_id, frame["version"]
        if frame["type"] == "error" and frame["id"] == frame_id:
            assert frame["code"] == "DUPLICATE_MOVE", frame
            return None


def chats(client: WsClient) -> list[str]:
    """The chat messages ``client`` was shown, each once (a reconnection is sent the recent ones again)."""
    return list({(f["time"], f["seat"]): f["text"] for f in client.frames if f["type"] == "chat"}.values())


def shown_events(client: WsClient) -> list[tuple[int, str]]:
    """The moves ``client`` was shown, each once, in order of version (a reconnection may repeat some)."""
    return sorted(dict(events(client)).items())


def stored_ids(database: str, table: str) -> dict[int, str]:
    """The client id of every stored move a player sent, by version; no seat's id stored twice."""
    import psycopg

    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT version, seat, client_id FROM moves WHERE table_id = %s AND client_id IS NOT "
                            "NULL", (table,)).fetchall()
    assert len({(seat, frame_id) for _, seat, frame_id in rows}) == len(rows), "a move applied twice"
    return {version: frame_id for version, _, frame_id in rows}


def check_game(database: str, table: str, acked: list[tuple[Any, int]],
               frames: dict[int | None, list[WsClient]], final: int) -> dict[str, Any]:
    """Nothing acknowledged lost or applied twice; every frame each client got is the engine's view; every
    client was shown every move from its first on to ``final`` at least (computer players may have moved on
    since), once and in order, whichever processes it went through."""
    record = record_of(database, table)
    stored = stored_ids(database, table)
    assert all(stored.get(version) == frame_id for frame_id, version in acked), (acked, stored)
    assert check_frames(record, {seat: [f for c in clients for f in c.frames]
                                 for seat, clients in frames.items()}) > len(acked)
    for client in (c for clients in frames.values() for c in clients):
        seen = shown_events(client)
        assert seen[-1][0] >= final and [v for v, _ in seen] == list(range(seen[0][0], seen[-1][0] + 1))
        assert [m for _, m in seen] == record["moves"][seen[0][0] - 1:seen[-1][0]]
    return record


def test_three_processes_the_owner_and_another_killed(site: tuple[str, str]) -> None:
    """Seats on three processes play a game to its end while the table's owner is killed (a move in flight
    there) and then a process that does not own it: every client reconnects to another process, the
    computer players carry on, nothing acknowledged is lost or applied twice, chat arrives once. Two tables
    only computer players play, held by the first owner alone, carry on at another process."""
    database, prefix = site
    rng = random.Random(11)
    with processes(database, prefix, 3) as procs, ExitStack() as stack:
        made = httpx.post(procs[0].base + "/api/tables", json={"seats": ["human", "human", "bot:easy", "bot:easy"],
                                                               "options": {"hands_per_game": 1}, "delay": 0}).json()
        bot_tables = [httpx.post(procs[0].base + "/api/tables", json={"seats": ["bot:easy"] * 4, "delay": 0.1}
                                 ).json()["table"] for _ in range(2)]
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        owner = next(p for p in procs if p.proc.pid == owner_pid(database, table))
        b, c = (p for p in procs if p is not owner)
        first = open_client(owner, table, tokens[0], stack)
        second = open_client(b, table, tokens[1], stack)
        watcher = open_client(c, table, None, stack)
        where = {id(first): owner, id(second): b, id(watcher): c}
        token_of = {id(first): tokens[0], id(second): tokens[1], id(watcher): None}
        players, watchers = [first, second], [watcher]
        for client in players + watchers:
            reach(client, 0)
            while client.state is not None and client.state["status"] != "playing":
                client.recv()
        first.send({"type": "chat", "text": "before"})
        for client in players + watchers:
            client.until("chat", text="before")
        acked = play(players, watchers, 4, rng)

        # 1. kill -9 the owner while its player's move is on the way
        turn_of(first, players, watchers, rng, acked)
        assert first.state is not None
        made_on, text = first.state["version"], rng.choice(first.state["legal"])
        frame_id = first.move(text)
        os.kill(owner.proc.pid, signal.SIGKILL)
        owner.proc.wait(10)
        at_kill = [len(record_of(database, t)["moves"]) for t in bot_tables]
        fresh = Process(database, prefix)  # the orchestrator starts another
        procs.append(fresh)
        fresh.reconnect(first, table, tokens[0], stack)
        where[id(first)] = fresh
        again = resend(first, text, made_on, frame_id)
        acked += [again] if again is not None else []
        for client in players + watchers:  # everybody is shown that move before anybody moves again
            reach(client, again[1] if again is not None else made_on + 1)
        acked += play(players, watchers, 8, rng)  # the computer players moved again: the lease moved
        new_owner = owner_pid(database, table)
        assert new_owner in (b.proc.pid, c.proc.pid, fresh.proc.pid)
        second.send({"type": "chat", "text": "after the owner died"})
        for client in players + watchers:
            client.until("chat", text="after the owner died")

        # 2. kill -9 a process that holds a player's connection but not the table
        victim = b if new_owner != b.proc.pid else fresh
        os.kill(victim.proc.pid, signal.SIGKILL)
        victim.proc.wait(10)
        for client in [x for x in players + watchers if where[id(x)] is victim]:
            c.reconnect(client, table, token_of[id(client)], stack)
            where[id(client)] = c
        assert len({id(where[id(x)]) for x in players + watchers}) >= 2  # still on different processes
        acked += play(players, watchers, 10_000, rng)  # to the end
        assert any(x.state is not None and x.state["status"] == "over" for x in players)
        final = len(record_of(database, table)["moves"])
        for client in players + watchers:
            reach(client, final)
        record = check_game(database, table, acked, {0: [first], 1: [second], None: [watcher]}, final)
        assert {int(m.split()[0]) for m in record["moves"][final // 2:]} >= {2, 3}  # bots played on to the end
        for client in players + watchers:
            assert chats(client) == ["before", "after the owner died"]
        for t, moved in zip(bot_tables, at_kill, strict=True):
            assert moved > 0
            deadline = time.monotonic() + 30  # adopted once a dead owner's lease has run out (the victim's too)
            while (len((record := record_of(database, t))["moves"]) <= moved
                   or owner_pid(database, t) in (owner.proc.pid, victim.proc.pid)):
                assert time.monotonic() < deadline, "a table only computer players play stopped with its owner"
                time.sleep(0.2)
            moved = len(record["moves"])
            while len((record := record_of(database, t))["moves"]) <= moved:  # and a living process plays it
                assert time.monotonic() < deadline, "a table only computer players play stopped with its owner"
                time.sleep(0.2)
            positions_of(record)  # every move legal in turn


def test_a_rolling_restart_loses_nothing(site: tuple[str, str]) -> None:
    """Each of three processes in turn is stopped with SIGTERM and started again: it stops being ready and
    taking tables, hands its tables over (a table only computer players play, held nowhere else, too),
    sends its clients away with a reconnect frame and close code 1012, and exits; they reconnect to another
    process and the games go on. Its log lines are JSON and hold no token."""
    database, prefix = site
    rng = random.Random(13)
    options = ("--drain-seconds", "1", "--log-format", "json", "--log-level", "info")
    with processes(database, prefix, 3, options=options) as procs, ExitStack() as stack:
        made = httpx.post(procs[0].base + "/api/tables", json={"seats": ["human", "human", "bot:easy", "bot:easy"],
                                                               "delay": 0}).json()
        bots = httpx.post(procs[0].base + "/api/tables", json={"seats": ["bot:easy"] * 4, "delay": 0.2}).json()
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        first = open_client(procs[0], table, tokens[0], stack)
        second = open_client(procs[1], table, tokens[1], stack)
        watcher = open_client(procs[2], table, None, stack)
        where = {id(first): 0, id(second): 1, id(watcher): 2}
        token_of = {id(first): tokens[0], id(second): tokens[1], id(watcher): None}
        players, watchers = [first, second], [watcher]
        for client in players:
            while client.state is not None and client.state["status"] != "playing":
                client.recv()
        acked = play(players, watchers, 3, rng)
        for i in range(3):
            old = procs[i]
            moved = httpx.get(f"{procs[(i + 1) % 3].base}/api/tables/{bots['table']}").json()["version"]
            old.proc.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 10
            while (ready := httpx.get(old.base + "/readyz")).status_code == 200:
                assert time.monotonic() < deadline, "still ready after SIGTERM"
            assert ready.status_code == 503 and ready.json()["message"] == "the server is stopping"
            refused = httpx.post(old.base + "/api/tables", json={})
            assert refused.status_code == 503 and refused.json()["error"] == "DRAINING"
            for client in [x for x in players + watchers if where[id(x)] == i]:
                client.until("reconnect")
                with pytest.raises(ConnectionClosed) as closed:
                    client.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
                procs[(i + 1) % 3].reconnect(client, table, token_of[id(client)], stack)
                where[id(client)] = (i + 1) % 3
            assert old.proc.wait(30) == 0
            assert old.proc.stdout is not None
            lines = old.proc.stdout.read().splitlines()
            logged = [json.loads(line) for line in lines]  # every line a JSON object
            assert any(line["message"].startswith("draining:") for line in logged), lines
            assert not any(token in line for line in lines for token in tokens)
            procs[i] = Process(database, prefix, options=options)
            acked += play(players, watchers, 3, rng)
            deadline = time.monotonic() + 30  # the computer players' table carries on elsewhere
            while httpx.get(f"{procs[i].base}/api/tables/{bots['table']}").json()["version"] <= moved:
                assert time.monotonic() < deadline, "the bot-only table stopped with its process"
                time.sleep(0.2)
        final = len(record_of(database, table)["moves"])
        for client in players + watchers:
            reach(client, final)
        check_game(database, table, acked, {0: [first], 1: [second], None: [watcher]}, final)
        record_of(database, bots["table"])  # every version once


def test_one_live_connection_per_seat_across_processes(site: tuple[str, str]) -> None:
    """A seat opened at another process is taken over there: the first connection is told and closed with
    4409 (the page does not reconnect by itself); the newer one plays on. (And the processes share one
    budget of tables a minute per address, in Redis.)"""
    database, prefix = site
    with processes(database, prefix, 2, options=("--tables-per-minute", "3")) as (a, b):
        made = httpx.post(a.base + "/api/tables", json={"seats": ["human", "bot:easy", "bot:easy", "bot:easy"],
                                                        "delay": 0}).json()
        table, token = made["table"], made["seats"][0]["token"]
        with a.client(table, token) as first, a.client(table) as watcher:
            first.until("state", status="playing")
            with b.client(table, token) as second:
                second.until("state")
                assert first.until("replaced")["seat"] == 0
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        first.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
                play([second], [watcher], 2, random.Random(2))
                watcher.drain(0.5)  # the seat is still shown connected (at the other process)
                assert watcher.state is not None and watcher.state["seats"][0]["connected"]
        assert [httpx.post(p.base + "/api/tables", json={}).status_code for p in (b, a, b)] == [200, 200, 429]
