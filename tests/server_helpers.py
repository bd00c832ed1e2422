"""A live server on a free loopback port, and a websocket client that keeps what it received."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from canasta.server.app import create_app
from canasta.server.config import Limits

POSTGRES_URL = os.environ.get("CANASTA_TEST_POSTGRES")  # .ci/run starts a server and sets it
# Tests make many tables from one address and run bot-only tables at full speed; tests of the limits
# themselves pass their own.
ROOMY = Limits(tables_per_minute=100_000, tables_per_address=100_000, tables=100_000, bot_delay=0)


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database on the server of ``POSTGRES_URL`` (whose user may create
    databases), dropped afterwards: tables left running by one test never reach another."""
    import psycopg

    assert POSTGRES_URL is not None
    name = f"canasta_{uuid.uuid4().hex[:12]}"
    admin = POSTGRES_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, database: str, grace: float = 60.0, workers: int = 0, rate: float = 1000.0,
                 **options: Any) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.app = create_app(database, workers=workers, grace=grace, rate=rate, **{"limits": ROOMY, **options})
        app = self.app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws_max_size=65536))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=30)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.base + path, timeout=30)

    def create(self, **body: Any) -> dict[str, Any]:
        answer = self.post("/api/tables", body)
        assert answer.status_code == 200, answer.text
        return answer.json()  # type: ignore[no-any-return]

    @contextmanager
    def client(self, table: str, token: str | None = None, **query: str) -> Iterator[WsClient]:
        params = "&".join(f"{k}={v}" for k, v in ({"token": token} if token else {}).items() | query.items())
        with connect(f"{self.ws_base}/ws/tables/{table}" + (f"?{params}" if params else ""),
                     max_size=2**24) as ws:
            yield WsClient(ws)


class WsClient:
    """Every frame received, in order; ``state`` is the latest state frame."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.next_id = 0

    def send(self, frame: dict[str, Any] | str) -> None:
        self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        return frame

    def until(self, kind: str, timeout: float = 30, **match: Any) -> dict[str, Any]:
        """Read frames until one of ``kind`` whose fields equal ``match``."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.01, deadline - time.monotonic()))
            if frame["type"] == "error" and kind != "error" and "id" in match and frame["id"] == match["id"]:
                raise AssertionError(f"refused: {frame}")
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def move(self, text: str, version: int | None = None, frame_id: Any = None) -> Any:
        if frame_id is None:
            self.next_id += 1
            frame_id = f"m{self.next_id}"
        assert self.state is not None
        self.send({"type": "move", "id": frame_id, "version": self.state["version"] if version is None else version,
                   "move": text})
        return frame_id


def settle_review(clients: dict[int, WsClient], everyone: list[WsClient]) -> None:
    """At a hand's end the table waits for its people: each seat asked says Continue, then every client reads
    on to the state frame that ends the review."""
    state = everyone[0].state
    waiting = ((state or {}).get("review") or {}).get("waiting") or []
    for seat in waiting:
        clients[seat].send({"type": "continue"})
    for c in everyone if waiting else []:
        while c.state is None or ((c.state.get("review") or {}).get("waiting")):
            c.recv()
