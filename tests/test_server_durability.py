"""Nothing lost: a server killed mid-game resumes every table; dropped players get stand-ins and their seat
back; the turn timer; rematch, records and replays of finished games. On SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

import canasta
from canasta.play.record import replay
from server_helpers import LiveServer, WsClient, free_port, settle_review


@contextmanager
def server_process(database: str, port: int) -> Iterator[subprocess.Popen[str]]:
    """``canasta serve`` in its own process, waited for until it prints its address."""
    proc = subprocess.Popen([sys.executable, "-m", "canasta", "serve", "--port", str(port), "--database", database,
                             "--workers", "0", "--grace", "600"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        assert proc.stdout is not None
        lines = []
        while f"http://localhost:{port}/" not in (line := proc.stdout.readline()):
            lines.append(line)
            assert line and len(lines) < 50, "".join(lines)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def ws(port: int, table: str, token: str | None = None) -> Any:
    return connect(f"ws://127.0.0.1:{port}/ws/tables/{table}" + (f"?token={token}" if token else ""),
                   max_size=2**24)


def test_sigkill_mid_game_loses_no_move(database: str) -> None:
    port = free_port()
    rng = random.Random(1)
    with server_process(database, port) as first:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(base + "/api/tables", json={"seats": ["human", "human", "bot:easy", "bot:easy"],
                                                      "delay": 0, "options": {"hands_per_game": 1}}).json()
        bots = httpx.post(base + "/api/tables", json={"seats": ["bot:easy"] * 4, "delay": 0.05}).json()
        tokens = [s["token"] for s in made["seats"]]
        seen: list[str] = []
        with ExitStack() as stack:
            clients = [WsClient(stack.enter_context(ws(port, made["table"], t))) for t in tokens]
            for c in clients:
                c.until("state", status="playing")
            acked = 0
            while acked < 12:
                while not any(c.state and c.state["legal"] for c in clients):  # the computer players move
                    for c in clients:
                        c.until("state")
                c = next(c for c in clients if c.state and c.state["legal"])
                frame_id = c.move(rng.choice(c.state["legal"]))
                acked = c.until("ack", id=frame_id)["version"]
                for other in clients:
                    other.until("state", version=acked)
            seen = [f["move"] for f in clients[0].frames if f["type"] == "event"]
            view_then = clients[0].state["view"] if clients[0].state else None
        bot_version = httpx.get(f"{base}/api/tables/{bots['table']}").json()["version"]
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
    with server_process(database, port):
        with ws(port, made["table"], tokens[0]) as raw:
            again = WsClient(raw)
            state = again.until("state")
            assert state["version"] >= acked and state["status"] == "playing"
            again.send({"type": "sync", "version": 0})
            events = []
            while True:
                frame = again.recv()
                if frame["type"] == "state":
                    break
                if frame["type"] == "event":
                    events.append(frame["move"])
            assert events[:len(seen)] == seen  # every move seen before the kill, in order
            if state["version"] == acked:
                assert state["view"] == view_then
        time.sleep(1.0)  # the bot-only table carries on by itself
        later = httpx.get(f"http://127.0.0.1:{port}/api/tables/{bots['table']}").json()["version"]
        assert later > bot_version


def play_out(client: WsClient, pick: Any = None) -> dict[str, Any]:
    """Play this seat's moves (the last legal move, or ``pick``) until the game is over."""
    while client.state is None or client.state["status"] != "over":
        if client.state and client.state["status"] == "playing" and client.state["legal"]:
            # a refused move fails here with the server's reason, not a timeout
            client.until("ack", id=client.move(pick(client.state["legal"]) if pick else client.state["legal"][-1]))
        client.until("state")
    return client.state


def test_stand_in_for_a_dropped_player_and_seat_back(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", grace=0.3) as server:
        made = server.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
        table, token = made["table"], made["seats"][0]["token"]
        with server.client(table, token) as me:
            me.until("state", status="playing")
        with server.client(table) as watcher:  # the player is gone: after the grace period a stand-in plays
            event = watcher.until("event", seat=0, timeout=30)
            assert event["by"] == "stand-in"
        with server.client(table, token) as back:
            state = back.until("state")
            assert state["seats"][0]["stand_in"] is False and state["seats"][0]["connected"] is True
            while not back.state or back.state["view"]["to_move"] != 0:
                # a hand the stand-in ended: the table waits for the player to say Continue
                if back.state and (back.state.get("review") or {}).get("waiting"):
                    settle_review({0: back}, [back])
                else:
                    back.until("state")
            version = back.state["version"]
            time.sleep(0.8)  # well past the grace period: nobody moves for a connected player
            back.send({"type": "sync", "version": version})
            assert back.until("state")["version"] == version


def test_turn_timer(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        made = server.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0, turn_seconds=1)
        with server.client(made["table"], made["seats"][0]["token"]) as me:
            state = me.until("state", status="playing")
            assert state["timer"]["seat"] == 0 and state["timer"]["deadline"] > time.time()
            assert me.until("event", seat=0, timeout=10)["by"] == "timer"


def test_finished_game_record_replay_and_rematch(database: str) -> None:
    with LiveServer(database) as server:
        made = server.create(variant="classic", options={"hands_per_game": 1},
                             seats=["human", "bot:easy", "bot:easy", "bot:easy"], names=["Ann", None, None, None],
                             delay=0)
        table, token = made["table"], made["seats"][0]["token"]
        with server.client(table, token) as me:
            me.until("state", status="playing")
            final = play_out(me)
            assert final["pad"] and final["pad"][0]["hand"] == 1 and len(final["pad"][0]["sides"]) == 2
            assert final["view"]["result"]["winner"] in (0, 1, None)
            me.send({"type": "move", "id": "late", "version": final["version"], "move": "draw"})
            assert me.until("error")["code"] == "GAME_OVER"
            me.send({"type": "rematch"})
            rematch = me.until("rematch")
        record = server.get(f"/api/tables/{table}/record").json()
        assert record["players"][0] == "Ann" and record["seed"] is None
        assert canasta.is_over(replay(record))
        first = server.get(f"/api/tables/{table}/replay/0").json()
        last = server.get(f"/api/tables/{table}/replay/{first['moves']}").json()
        assert first["entry"] is None and last["entry"] == record["moves"][-1]
        assert sum(len(h) for h in first["state"]["hands"]) == 44  # every hand face up once the game is over
        assert server.get(f"/api/tables/{table}/replay/99999").status_code == 404
        # the rematch: same seats and settings, a fresh deal, this seat's new token in the url
        new_table, new_token = rematch["table"], rematch["url"].split("token=")[1]
        assert rematch["url"].startswith(f"/t/{new_table}?token=") and new_token != token
        with server.client(new_table, new_token) as me_again:
            state = me_again.until("state", status="playing")
            assert state["seat"] == 0 and [s["kind"] for s in state["seats"]] == ["human", "bot", "bot", "bot"]
            assert state["seats"][0]["name"] == "Ann"
        public = server.get(f"/api/tables/{table}").json()
        assert public["settings"]["rematch"] == new_table


def test_computer_players_think_in_worker_processes(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", workers=1) as server:
        made = server.create(seats=["bot:easy", "bot:medium", "bot:easy", "bot:medium"], delay=0)
        assert made["seats"] == []  # no human seat, no token
        with server.client(made["table"]) as watcher:
            watcher.until("state", version=20, timeout=60)
            assert {f["by"] for f in watcher.frames if f["type"] == "event"} == {"bot"}


def test_an_abandoned_game_is_marked_and_left_out_of_statistics(tmp_path: Path) -> None:
    """The one person leaves for good: a computer player stands in to the end; the table says the game was
    abandoned and the player's statistics count it as abandoned, not as won or lost."""
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", grace=0.05) as server:
        made = server.create(options={"hands_per_game": 1}, seats=["human", "bot:easy", "bot:easy", "bot:easy"],
                             player="leaver", delay=0)
        with server.client(made["table"], made["seats"][0]["token"], player="leaver") as me:
            me.until("state", status="playing")
        deadline = time.monotonic() + 120
        while (public := server.get(f"/api/tables/{made['table']}").json())["status"] != "over":
            assert time.monotonic() < deadline, "the computer players did not finish"
            time.sleep(0.2)
        assert public["settings"]["abandoned"] == [0]
        total = server.get("/api/players/leaver/stats").json()["total"]
        assert (total["played"], total["abandoned"], total["won"] + total["lost"] + total["drawn"]) == (1, 1, 0)
        assert total["hands"] == 0


def test_a_table_loaded_again_mid_game_rebuilds_the_hand_log_it_kept(tmp_path: Path) -> None:
    """The hand log a room keeps move by move (from the views it makes for its frames) equals the one it
    rebuilds from the record when the table is loaded again in a later hand (its earlier hands only replayed)."""
    url, rng = f"sqlite:///{tmp_path / 'db.sqlite'}", random.Random(5)
    with LiveServer(url) as live:
        made = live.create(variant="classic", options={"hands_per_game": 3}, seats=["human"] * 4, delay=0)
        table = made["table"]
        with ExitStack() as stack:
            clients = {s["seat"]: stack.enter_context(live.client(table, s["token"])) for s in made["seats"]}
            everyone = list(clients.values())
            for c in everyone:
                c.until("state", status="playing")
            state = everyone[0].state
            for _ in range(3000):
                assert state is not None and state["status"] == "playing"
                if state["view"]["hand_number"] == 2 and len(state["hand_log"]) >= 20:
                    break
                mover = clients[state["view"]["to_move"]]
                assert mover.state is not None
                version = mover.state["version"]
                mover.until("ack", id=mover.move(rng.choice(mover.state["legal"])))
                for c in everyone:
                    c.until("state", version=version + 1)
                settle_review(clients, everyone)
                state = everyone[0].state
            assert state is not None and state["view"]["hand_number"] == 2
            kept = state["hand_log"]
            assert any(entry["melds"] for entry in kept) and kept[0]["version"] > 1
    with LiveServer(url) as again, again.client(table) as watcher:
        assert watcher.until("state")["hand_log"] == kept
