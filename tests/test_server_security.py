"""The server facing the public internet (issue 40, docs/security.md): every limit refuses with its code
and the documented error shape while the server keeps answering others; a database outage loses no move
and half-applies none; no log line holds a card list, a token or a password."""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from canasta.server.config import Limits
from canasta.server.logs import JsonFormatter, TextFormatter
from canasta.server.protocol import MAX_FRAME_BYTES
from canasta.server.storage import Store
from server_helpers import ROOMY, LiveServer, WsClient

HEADERS = {"content-security-policy", "referrer-policy", "x-content-type-options", "x-frame-options"}
CARD_RUN = re.compile(r"(?:\b(?:[2-9TJQKA][SHDC]|JK)\b[\s,'\"]*){3,}")  # three cards in a row: a hand, a deck


def shaped(answer: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    """The answer has ``status`` and the documented error body (and the security headers)."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = answer.json()
    assert set(body) == {"error", "message"} and isinstance(body["message"], str), body
    assert code is None or body["error"] == code, body
    assert set(answer.headers) >= HEADERS, answer.headers
    return body


@pytest.fixture()
def logs() -> Iterator[list[str]]:
    """Every log line the server writes while the test runs, tracebacks included, at every level, in every
    format (the test's own clients' lines left out)."""
    lines: list[str] = []

    formats = (logging.Formatter("%(name)s %(levelname)s %(message)s"), TextFormatter(), JsonFormatter())

    class Keep(logging.Handler):  # each line as Python's default shows it (traceback and all) and in both of
        def emit(self, record: logging.LogRecord) -> None:  # ``canasta serve --log-format``'s forms
            if not record.name.startswith(("websockets.client", "httpx", "httpcore")):
                lines.extend(f.format(record) for f in formats)

    root = logging.getLogger()
    handler, level = Keep(logging.DEBUG), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield lines
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def assert_quiet(lines: list[str], *secrets: str) -> None:
    """No line holds a card list, a position's JSON, a seed or any of ``secrets`` (tokens, passwords)."""
    for line in lines:
        assert not CARD_RUN.search(line), line
        assert '"stock"' not in line and '"deal"' not in line and "seed" not in line.lower(), line
        for secret in secrets:
            assert secret not in line, line


def players(server: LiveServer, table: dict[str, Any], stack: ExitStack) -> list[WsClient]:
    clients = []
    for seat in table["seats"]:
        client = stack.enter_context(server.client(table["table"], seat["token"]))
        client.until("state")
        clients.append(client)
    clients[0].until("state", status="playing")
    return clients


def to_move(clients: list[WsClient]) -> WsClient:
    for client in clients:
        client.drain(0.05)
    state = clients[0].state
    assert state is not None
    return clients[state["view"]["to_move"]]


# --- resource limits -----------------------------------------------------------------------------


def test_limits_refuse_with_their_codes_and_the_server_answers_others(tmp_path: Path) -> None:
    limits = Limits(body_bytes=2048, tables_per_minute=4, tables_per_address=3, tables=100, bot_delay=0)
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", limits=limits) as server:
        url = server.base + "/api/tables"
        # a body over the limit: refused by its Content-Length before it is read, or as it streams in
        shaped(httpx.post(url, content=b"{" + b" " * 100_000 + b"}", headers={"content-type": "application/json"}),
               413, "TOO_LARGE")
        shaped(httpx.post(url, content=iter([b"{", b" " * 4000, b"}"]),
                          headers={"content-type": "application/json"}), 413, "TOO_LARGE")
        body = {"seats": ["human", "bot:easy", "bot:easy", "bot:easy"], "delay": 0}
        for _ in range(3):
            server.create(**body)
        shaped(server.post("/api/tables", body), 429, "TOO_MANY_TABLES")  # three open for this address
        answer = server.post("/api/tables", body)  # the fifth in a minute
        shaped(answer, 429, "RATE_LIMITED")
        assert int(answer.headers["retry-after"]) >= 1
        assert server.get("/api/variants").status_code == 200
        assert len(server.app.state.lobby.rooms) == 3


def test_the_server_wide_cap(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", limits=Limits(tables=2, bot_delay=0)) as server:
        server.create(), server.create()
        shaped(server.post("/api/tables", {}), 503, "SERVER_FULL")


def test_unjoined_tables_expire_and_idle_ones_leave_memory(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    limits = Limits(waiting_minutes=0.01, idle_minutes=0.02, bot_delay=0)  # 0.6 s and 1.2 s
    with LiveServer(database, limits=limits) as server:
        lobby = server.app.state.lobby
        waiting = server.create()  # nobody takes seat 0
        bots = server.create(seats=["bot:easy"] * 4, delay=10)
        deadline = time.monotonic() + 20
        while lobby.rooms and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not lobby.rooms
        assert server.get(f"/api/tables/{waiting['table']}").json()["status"] == "expired"
        with server.client(waiting["table"], waiting["seats"][0]["token"]) as late:
            assert late.recv()["code"] == "EXPIRED"
        assert server.get(f"/api/tables/{bots['table']}").json()["status"] == "playing"  # loaded again
    store = Store(database)
    try:  # at start-up only tables that changed within idle_minutes are loaded
        assert store.active_table_ids(time.time() + 1) == []
        assert store.active_table_ids() == [bots["table"]]
    finally:
        store.close()


# --- the protocol's edges --------------------------------------------------------------------------


def test_http_errors_headers_and_api_docs(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        shaped(server.get("/api/nowhere"), 404, "NOT_FOUND")
        shaped(server.get("/api/tables/nope"), 404, "NO_TABLE")
        shaped(httpx.delete(server.base + "/api/tables"), 405, "METHOD_NOT_ALLOWED")
        shaped(server.post("/api/tables", {"seats": 5}), 422, "BAD_REQUEST")
        shaped(httpx.post(server.base + "/api/tables", content=b"{", headers={"content-type": "application/json"}),
               422, "BAD_REQUEST")
        shaped(server.get("/api/docs"), 404)
        shaped(server.get("/api/openapi.json"), 404)
        page = server.get("/")
        assert page.status_code == 200 and set(page.headers) >= HEADERS
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe" not in csp and "frame-ancestors 'none'" in csp
        assert page.headers["referrer-policy"] == "no-referrer"
        for path in (Path(__file__).parents[1] / "src/canasta/server/web").glob("*.html"):
            html = path.read_text()
            assert "style=" not in html and not re.search(r"<script(?![^>]*\bsrc=)", html), path.name

        lobby = server.app.state.lobby

        def broken(_player: str) -> Any:
            raise RuntimeError("/* a position */")

        lobby.store.player_games, kept = broken, lobby.store.player_games
        try:
            shaped(server.get("/api/players/someone/stats"), 500, "INTERNAL")
        finally:
            lobby.store.player_games = kept
    with LiveServer(f"sqlite:///{tmp_path / 'docs.sqlite'}", api_docs=True) as server:
        assert server.get("/api/openapi.json").status_code == 200


def test_frames_in_utf8_bytes_and_malformed_frames_rate_limited(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", rate=5) as server:
        table = server.create(seats=["human", "human", "bot:easy", "bot:easy"], delay=0)
        with server.client(table["table"], table["seats"][0]["token"]) as a:
            a.until("state")
            text = "€" * (MAX_FRAME_BYTES // 3 + 10)  # fewer characters than the limit, more bytes
            a.send({"type": "chat", "text": text})
            assert a.until("error")["code"] == "FRAME_TOO_LARGE"
            time.sleep(1)
            for _ in range(30):
                a.send("not json")
            codes = [a.until("error")["code"] for _ in range(30)]
            assert "RATE_LIMITED" in codes and "BAD_FRAME" in codes
        assert server.get("/api/variants").status_code == 200


def test_websocket_origin(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", allow_origins=["https://cards.example.org/"]) as server:
        table = server.create()
        url = f"{server.ws_base}/ws/tables/{table['table']}"
        with connect(url, origin="https://evil.example") as ws:  # type: ignore[arg-type]
            assert '"BAD_ORIGIN"' in str(ws.recv(timeout=10))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        for origin in (f"http://127.0.0.1:{server.port}", "https://cards.example.org"):
            with connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                assert '"welcome"' in str(ws.recv(timeout=10))


# --- a database outage ----------------------------------------------------------------------------


@contextmanager
def outage(database: str) -> Iterator[None]:
    """The server's database unusable for a while, then back: an SQLite file locked by another writer;
    a PostgreSQL database closed to new connections and its sessions ended (that database only: the
    server may be shared)."""
    if database.startswith("sqlite"):
        holder = sqlite3.connect(database.split("///", 1)[1], isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    import psycopg

    base, name = database.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        try:
            yield
        finally:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")


def test_a_database_outage_loses_no_move(database: str, logs: list[str]) -> None:
    with LiveServer(database) as server:
        table = server.create(seats=["human"] * 4, delay=0)
        with ExitStack() as stack:
            clients = players(server, table, stack)
            mover = to_move(clients)
            assert mover.state is not None
            move = mover.state["legal"][0]
            with outage(database):
                frame_id = mover.move(move)
                refused = mover.until("error", timeout=60)
                assert refused["code"] == "UNAVAILABLE" and refused["id"] == frame_id, refused
                assert server.get(f"/api/tables/{table['table']}").json()["version"] == 0
                shaped(server.post("/api/tables", {}), 503, "UNAVAILABLE")
            mover.move(move, version=0, frame_id=frame_id)  # the same move again, once the database is back
            assert mover.until("ack", timeout=60, id=frame_id)["version"] == 1
            again = to_move(clients)
            assert again.state is not None and again.state["version"] == 1
            again.move(again.state["legal"][0])
            again.until("ack", timeout=60)
    store = Store(database)
    try:
        row = store.load_table(table["table"])
        assert row is not None and row.version == 2
        assert [m.version for m in store.moves(table["table"])] == [1, 2]
    finally:
        store.close()
    assert any("UNAVAILABLE" in line or "unavailable" in line for line in logs)
    assert_quiet(logs, *(seat["token"] for seat in table["seats"]), "canasta:canasta")


def test_logs_hold_no_secret_when_things_fail(tmp_path: Path, logs: list[str]) -> None:
    """A computer player that fails and a request that fails are logged by the table id and the error's
    class: never the position, the deck or a token (the error's own text may hold them)."""
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", limits=ROOMY) as server:
        table = server.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
        lobby = server.app.state.lobby
        room = lobby.rooms[table["table"]]
        leak = " ".join(room.deals[0])  # what a careless message would carry

        async def failing(*_args: Any, **_kwargs: Any) -> Any:
            raise RuntimeError(leak)

        lobby.pool.choose, kept = failing, lobby.pool.choose
        with server.client(table["table"], table["seats"][0]["token"]) as person:
            person.until("state", status="playing")
            deadline = time.monotonic() + 10
            while not any("RuntimeError" in line for line in logs) and time.monotonic() < deadline:
                if person.state and person.state["legal"]:  # the person moves first: then a computer player
                    person.until("ack", id=person.move(person.state["legal"][0]))
                person.drain(0.1)
            lobby.pool.choose = kept
    assert any(f"table {table['table']}" in line and "RuntimeError" in line for line in logs), logs
    assert_quiet(logs, leak, table["seats"][0]["token"])


# --- fair compute ----------------------------------------------------------------------------------


def test_people_tables_think_first_and_keep_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """With two workers, bot-only tables use one at most; a person's table takes the other at once, and
    a freed worker goes to a waiting person's table before a waiting bot-only one."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from canasta.server import workers

    started: list[str] = []
    gates = {name: threading.Event() for name in ("b1", "b2", "u1", "u2")}

    def think(_level: str, view: dict[str, Any], _legal: list[Any]) -> tuple[Any, str]:
        started.append(view["name"])
        gates[view["name"]].wait(30)
        return view["name"], ""

    monkeypatch.setattr(workers, "think", think)

    async def scenario() -> None:
        pool = workers.BotPool(0)
        pool.executor = ThreadPoolExecutor(max_workers=4)
        pool.slots, pool.background_slots = 2, 1

        def decide(name: str, urgent: bool) -> asyncio.Task[tuple[Any, str]]:
            return asyncio.create_task(pool.choose("easy", {"name": name}, [], urgent=urgent))

        async def until(count: int) -> None:  # the worker threads have started ``count`` decisions
            for _ in range(3000):
                if len(started) >= count:
                    return
                await asyncio.sleep(0.01)

        b1, b2 = decide("b1", False), decide("b2", False)
        await until(1)
        assert pool.running == [0, 1] and len(pool.queues[1]) == 1  # one worker is kept for people's tables
        u1 = decide("u1", True)
        await until(2)
        assert started == ["b1", "u1"] and pool.running == [1, 1]
        u2 = decide("u2", True)
        await asyncio.sleep(0)
        assert pool.running == [1, 1] and len(pool.queues[0]) == 1
        gates["b1"].set()
        await b1
        await until(3)
        assert started == ["b1", "u1", "u2"]  # the freed worker went to the person's table
        for gate in gates.values():
            gate.set()
        assert [(await t)[0] for t in (u1, u2, b2)] == ["u1", "u2", "b2"]
        pool.close()

    asyncio.run(scenario())


def test_every_limit_is_documented_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main
    from canasta.server.config import limit_options

    docs = Path(__file__).parents[1] / "docs"
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for _name, flag, _type, default, _meaning in limit_options():
        row = f"| `{flag}` | {default:g} |"
        assert row in (docs / "security.md").read_text() and row in (docs / "protocol.md").read_text(), flag
        assert flag in help_text and f"(default {default:g})" in help_text, flag


def test_the_database_password_is_never_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main
    from canasta.server.storage import redact

    assert main(["serve", "--database", "postgresql://canasta:hunter2@127.0.0.1:1/nowhere"]) != 0
    out = capsys.readouterr()
    assert "hunter2" not in out.out + out.err and "canasta:***@127.0.0.1:1" in out.err
    assert redact("postgresql+psycopg://u:p%40ss@h:5432/d and sqlite:///x.db") == \
        "postgresql+psycopg://u:***@h:5432/d and sqlite:///x.db"
