"""On PostgreSQL a server process commits several tables' moves at once, each table's on a database thread
of its own (``Lobby.table_db``): two tables' commits run at the same time, each table's moves still commit
in order at consecutive versions, and a commit that fails on one thread acknowledges and applies nothing
while another table's commit goes through.

Needs a PostgreSQL server (``CANASTA_TEST_POSTGRES``; .ci/run starts one): SQLite has one writer, so one
database thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from canasta.server.storage import MoveRow, Store
from server_helpers import POSTGRES_URL, LiveServer, WsClient, fresh_postgres
from test_server_security import players, to_move

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="no PostgreSQL server: .ci/run starts one and "
                                                             "sets CANASTA_TEST_POSTGRES")
MOVES = 12


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with fresh_postgres() as url, LiveServer(url) as live:
        yield live


def two_tables_on_two_threads(server: LiveServer) -> list[dict[str, Any]]:
    """Two new four-person tables whose calls run on different database threads."""
    lobby = server.app.state.lobby
    assert len(lobby.db_threads) > 1
    first = server.create(seats=["human"] * 4, delay=0)
    while True:
        other = server.create(seats=["human"] * 4, delay=0)
        if lobby.db_thread_of(other["table"]) != lobby.db_thread_of(first["table"]):
            return [first, other]


def meeting(store: Store, tables: list[str], fail: str | None = None) -> tuple[threading.Barrier, dict[str, set[int]]]:
    """Wrap ``store.commit_move``: the first commit of each of ``tables`` waits (on its database thread)
    until the other's has started too, so both are in flight at once; commits run one at a time would
    break the barrier instead. ``fail``: that table's first commit then fails as a lost connection does.
    Returns the barrier and the threads each table's commits ran on."""
    barrier = threading.Barrier(len(tables), timeout=30)
    threads: dict[str, set[int]] = {table: set() for table in tables}
    waiting = set(tables)
    commit: Callable[..., None] = store.commit_move

    def racing(table_id: str, move: MoveRow, state: str, **changed: Any) -> None:
        threads[table_id].add(threading.get_ident())
        if table_id in waiting:
            waiting.discard(table_id)
            barrier.wait()
            if table_id == fail:
                raise OperationalError("COMMIT", {}, ConnectionError("server closed the connection"))
        commit(table_id, move, state, **changed)

    store.commit_move = racing  # type: ignore[method-assign]
    return barrier, threads


def play(server: LiveServer, table: dict[str, Any]) -> list[tuple[int, str, int]]:
    """Each seat to move plays its first legal move, ``MOVES`` times: (version sent, move, version acked)."""
    played = []
    with ExitStack() as stack:
        clients = players(server, table, stack)
        for _ in range(MOVES):
            mover = to_move(clients)
            assert mover.state is not None
            version, move = mover.state["version"], mover.state["legal"][0]
            frame_id = mover.move(move)
            played.append((version, move, mover.until("ack", id=frame_id)["version"]))
    return played


def test_two_tables_commit_at_once_each_in_order(server: LiveServer) -> None:
    store = server.app.state.lobby.store
    tables = two_tables_on_two_threads(server)
    ids = [t["table"] for t in tables]
    barrier, threads = meeting(store, ids)
    with ThreadPoolExecutor(len(tables)) as clients:
        games = list(clients.map(lambda table: play(server, table), tables))
    assert not barrier.broken  # the first commits of both tables were in flight at the same time
    assert all(len(threads[t]) == 1 for t in ids) and threads[ids[0]] != threads[ids[1]]
    for table_id, played in zip(ids, games, strict=True):
        assert [(sent, acked) for sent, _, acked in played] == [(v, v + 1) for v in range(MOVES)]
        assert [(m.version, m.move) for m in store.moves(table_id)] == [(acked, move) for _, move, acked in played]
        row = store.load_table(table_id)
        assert row is not None and row.version == MOVES


def test_a_commit_that_fails_on_one_thread_acknowledges_nothing(server: LiveServer) -> None:
    store = server.app.state.lobby.store
    tables = two_tables_on_two_threads(server)
    failing, going = (t["table"] for t in tables)
    barrier, _ = meeting(store, [failing, going], fail=failing)
    with ExitStack() as stack:
        movers: list[WsClient] = []
        for table in tables:
            movers.append(to_move(players(server, table, stack)))
        sent = []
        for mover in movers:
            assert mover.state is not None
            sent.append((mover.move(mover.state["legal"][0]), mover.state["legal"][0]))
        lost, kept = movers
        refused = lost.until("error", id=sent[0][0])
        assert refused["code"] == "UNAVAILABLE", refused
        assert kept.until("ack", id=sent[1][0])["version"] == 1
        assert not barrier.broken
        assert not any(f["type"] == "ack" for f in lost.frames)
        assert server.get(f"/api/tables/{failing}").json()["version"] == 0
        assert store.moves(failing) == []
        lost.move(sent[0][1], version=0, frame_id=sent[0][0])  # the same move again: now it is stored
        assert lost.until("ack", id=sent[0][0])["version"] == 1
    assert [m.move for m in store.moves(failing)] == [sent[0][1]]
