"""The rummy family at the server's tables: the same lobby, seats, protocol, storage and records as Canasta,
each seat sent only its own view (docs/protocol.md, "The rummy family")."""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.play.record import replay
from canasta.rummy import RummyState
from server_helpers import LiveServer, WsClient, settle_review


def joined(server: LiveServer, made: dict[str, Any], seat: int, stack: ExitStack, **query: str) -> WsClient:
    client: WsClient = stack.enter_context(server.client(made["table"], made["seats"][seat]["token"], **query))
    client.until("state")
    return client


def positions_of(record: dict[str, Any]) -> list[RummyState]:
    states: list[RummyState] = []

    def keep(_n: int, before: RummyState, _m: Any, after: RummyState) -> None:
        if not states:
            states.append(before)
        states.append(after)

    replay(record, keep)
    return states


def walk(value: Any, path: str = "") -> Any:
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key, item
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


def expected_view(state: RummyState, seat: int | None) -> dict[str, Any]:
    """What the server must send a seat: the engine's view plus the legal moves of the seat to move."""
    if seat is None:
        want = canasta.public_view(state)
        want.update(seat=None, hand=[], legal_moves=[])
    else:
        want = canasta.view(state, seat)
        want["legal_moves"] = [str(m) for m in canasta.legal_moves(state)] \
            if not canasta.is_over(state) and state.to_move == seat else []
    return json.loads(json.dumps(want))  # type: ignore[no-any-return]


def test_catalog_lists_every_rummy_preset(server: LiveServer) -> None:
    entries = {e["name"]: e for e in server.get("/api/variants?family=all").json()}
    for name in canasta.variant_names("rummy"):
        entry = entries[name]
        rules = canasta.rules(name)
        assert entry["family"] == "rummy" and entry["players"] == rules.players and entry["teams"] == rules.teams
        assert rules.players in entry["player_counts"]
        assert {o["name"] for o in entry["options"]} >= {"target", "ace"}
        assert "players" not in {o["name"] for o in entry["options"]}
    assert entries["classic"]["family"] == "canasta"
    assert entries["500-rum-partnership"]["player_counts"] == [4]  # a partnership game stays one
    assert entries["500-rum"]["player_counts"] == [2, 3, 4]
    # the default list is every family's, as variant_names(), grouped; ?family=rummy the rummy family's alone
    assert [e["name"] for e in server.get("/api/variants").json()] == canasta.variant_names()
    assert [e["name"] for e in server.get("/api/variants?family=canasta").json()] == canasta.variant_names("canasta")
    assert {e["name"] for e in server.get("/api/variants?family=rummy").json()} == \
        set(canasta.variant_names("rummy"))
    answer = server.get("/api/variants?family=chess")
    assert answer.status_code == 422 and answer.json()["error"] == "BAD_FAMILY"


def test_one_table_page_with_the_familys_plugin(server: LiveServer) -> None:
    rummy = server.create(variant="500-rum", seats=["human", "bot:easy", "bot:easy"], delay=0)
    classic = server.create(variant="classic", delay=0)
    script = '<script type="module" src="/static/{}"></script>'
    pages = {name: server.get(f"/t/{table}").text
             for name, table in (("rummy", rummy["table"]), ("classic", classic["table"]), ("unknown", "no-such"))}
    assert script.format("table_rummy.js") in pages["rummy"] and "table_canasta" not in pages["rummy"]
    assert script.format("table_canasta.js") in pages["classic"] and "table_rummy" not in pages["classic"]
    assert pages["unknown"] == pages["classic"]  # Canasta's plug-in says there is no such table
    # the same page but for the plug-in, with the head every page shares
    assert pages["rummy"].replace("table_rummy", "table_canasta") == pages["classic"]
    assert pages["classic"].startswith("<!doctype html>") and '<meta charset="utf-8">' in pages["classic"]
    assert "<!--#" not in pages["classic"]


def test_bad_rummy_tables_are_refused(server: LiveServer) -> None:
    for body, words in ((dict(variant="500-rum", options={"players": 7}), "players"),
                        (dict(variant="500-rum", options={"ace": "sideways"}), "ace"),
                        (dict(variant="500-rum", options={"target": 1e30}), "target=1e+30: must be an integer from 0"),
                        (dict(variant="500-rum", seats=["human", "bot:easy"]), "3 seats"),
                        (dict(variant="dealers-gambit", options={"jokers": 1}), "dealers_joker")):
        answer = server.post("/api/tables", body)
        assert answer.status_code == 422 and answer.json()["error"] == "BAD_TABLE", answer.text
        assert words in answer.json()["message"]


def test_create_join_play_refuse_reconnect(server: LiveServer) -> None:
    made = server.create(variant="500-rum", seats=["human", "human", "bot:easy"], delay=0)
    with ExitStack() as stack:
        a = joined(server, made, 0, stack, name="Ann")
        b = joined(server, made, 1, stack, name="Bob")
        a.until("state", status="playing")
        assert a.state is not None
        seen = a.state["view"]
        assert seen["family"] == "rummy" and seen["seat"] == 0 and len(seen["hand"]) == 7
        assert seen["stock"] == 52 - 3 * 7 - 1 and len(seen["pile"]) == 1  # the size only; every pile card
        assert seen["to_move"] == 0 and "draw" in a.state["legal"]
        b.until("state", version=0)
        assert b.state is not None and b.state["legal"] == []
        assert set(b.state["view"]["hand"]).isdisjoint(seen["hand"])
        # out of turn, bad notation and an illegal move each get their code; nothing changes
        b.move("draw", frame_id="b1")
        assert b.until("error", id="b1")["code"] == "NOT_YOUR_TURN"
        a.move("meld 2S", frame_id="a0")
        assert a.until("error", id="a0")["code"] == "BAD_NOTATION"
        bad = next(f"discard {c}" for c in ("2S", "3S", "4S", "5S") if c not in seen["hand"])
        a.move(bad, frame_id="a1")
        refusal = a.until("error", id="a1")
        assert refusal["code"] == "ILLEGAL_MOVE" and refusal["reason"] and refusal["message"]
        assert refusal["reason"] == canasta.why_illegal(_state(server, made), bad).code  # type: ignore[union-attr]
        # a legal move: acknowledged, shown to everyone
        a.move("draw", frame_id="a2")
        assert a.until("ack", id="a2")["version"] == 1
        event = b.until("event", version=1)
        assert event["move"] == "draw" and event["by"] == "human" and event["seat"] == 0
        b.until("state", version=1)
        assert a.until("state", version=1)["view"]["phase"] == "play"
        hand = a.state["view"]["hand"]
        assert len(hand) == 8
        discard = next(m for m in a.state["legal"] if m.startswith("discard"))
    # Ann drops; she reconnects with her token and a sync: the moves she missed, then her own view
    with ExitStack() as stack:
        back = joined(server, made, 0, stack)
        assert back.state is not None and back.state["view"]["hand"] == hand and back.state["version"] == 1
        back.send({"type": "sync", "version": 0})
        assert back.until("event")["version"] == 1
        back.until("state", version=1)
        back.move(discard, frame_id="a3")
        back.until("ack", id="a3")
        event = back.until("event", version=2)
        assert event["card"] == discard.split()[1]
        back.move(discard, frame_id="a3")  # the same id again: refused as a duplicate
        assert back.until("error", id="a3")["code"] == "DUPLICATE_MOVE"


def test_hint_and_spectator(server: LiveServer) -> None:
    made = server.create(variant="basic-rummy", seats=["human", "bot:medium"], delay=0)
    with ExitStack() as stack:
        a = joined(server, made, 0, stack)
        a.until("state", status="playing")
        assert a.state is not None
        a.send({"type": "hint", "id": "h"})
        hint = a.until("hint", id="h")
        assert hint["move"] in a.state["legal"]
        # the searching player says why in codes (the browser translates them): what its search found
        a.send({"type": "hint", "id": "s", "level": "hard"})
        codes = {w["code"] for w in a.until("hint", id="s")["why"]}
        assert codes & {"better_by_points", "no_better_in_deals"}, codes
        watcher = stack.enter_context(server.client(made["table"]))
        watcher.until("state")
        assert watcher.state is not None
        assert watcher.state["view"]["hand"] == [] and watcher.state["legal"] == []
        assert watcher.state["view"]["hand_sizes"] == [10, 10]


def _state(server: LiveServer, made: dict[str, Any]) -> RummyState:
    """The table's position in the server's memory (the public API never gives hidden cards)."""
    room = _room(server, made["table"])
    state = room.state
    assert isinstance(state, RummyState)
    return state


def _lobby(server: LiveServer) -> Any:
    return server.server.config.app.state.lobby


def _room(server: LiveServer, table: str) -> Any:
    return _lobby(server).rooms[table]


def play_table(server: LiveServer, variant: str, seats: list[str], options: dict[str, Any], seed: int,
               max_moves: int = 4000) -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    """Humans (random legal moves) and computer players play one game; every frame each seat received."""
    rng = random.Random(seed)
    made = server.create(variant=variant, options=options, seats=seats, delay=0)
    table = made["table"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    with ExitStack() as stack:
        watcher = stack.enter_context(server.client(table))
        clients = {seat: stack.enter_context(server.client(table, token, player=f"player{seat}"))
                   for seat, token in tokens.items()}
        everyone: list[WsClient] = [watcher, *clients.values()]
        for c in everyone:
            c.until("state", status="playing")
        version = max(c.state["version"] for c in everyone if c.state)
        for c in everyone:
            while c.state is None or c.state["version"] < version:
                c.recv()
        moves = 0
        while watcher.state is not None and watcher.state["status"] != "over":
            assert moves < max_moves, f"{variant}: no end after {max_moves} moves"
            mover = clients.get(watcher.state["view"]["to_move"])
            if mover is not None:
                assert mover.state is not None and mover.state["version"] == version
                # prefer melding and laying off, so that hands end in a test's time
                legal = mover.state["legal"]
                plays = [m for m in legal if m.split()[0] in ("meld", "lay")]
                frame_id = mover.move(rng.choice(plays or legal))
                mover.until("ack", id=frame_id)
            version += 1
            for c in everyone:
                c.until("state", version=version)
            moves += 1
            settle_review(clients, everyone)
        record = server.get(f"/api/tables/{table}/record").json()
        # a rematch: a new table of the same game, each human seat sent its own new invite
        first = clients[min(clients)]
        first.send({"type": "rematch"})
        offer = first.until("rematch")
        again = server.get(f"/api/tables/{offer['table']}").json()
        assert again["rules"] == record["rules"] and again["view"]["family"] == "rummy"
        assert offer["url"].startswith(f"/t/{offer['table']}?token=")
        frames = {seat: c.frames for seat, c in clients.items()}
        frames[None] = watcher.frames
    return record, frames


GAMES = [
    ("500-rum", ["human", "bot:easy", "human"], {"target": 100}),
    ("basic-rummy", ["human", "bot:medium"], {}),
    ("500-rum-partnership", ["human", "bot:easy", "human", "bot:medium"], {"target": 100}),
    ("persian-rummy", ["human", "bot:easy", "bot:easy", "human"], {"hands_per_game": 1}),
]


@pytest.mark.parametrize(("variant", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_whole_rummy_game_leaks_nothing(tmp_path: Path, variant: str, seats: list[str],
                                        options: dict[str, Any]) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        record, frames = play_table(server, variant, seats, options, seed=len(variant))
        # everyone left the finished table (the server lets it go): the page is chosen from the stored row
        deadline = time.monotonic() + 30
        while frames[None][0]["table"] in _lobby(server).rooms:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.05)
        assert "table_rummy.js" in server.get(f"/t/{frames[None][0]['table']}").text
        public = server.get(f"/api/tables/{frames[None][0]['table']}").json()
        replayed = server.get(f"/api/tables/{frames[None][0]['table']}/replay/1").json()
        human = seats.index("human")
        stats = server.get(f"/api/players/player{human}/stats").json()
    assert record["result"] is not None and record["result"] == public["result"]
    states = positions_of(record)  # the record the server gives replays move for move
    assert canasta.is_over(states[-1])
    assert replayed["moves"] == len(record["moves"]) and replayed["entry"] == record["moves"][0]
    assert replayed["state"]["family"] == "rummy" and "deal" not in replayed["state"]
    # the player's statistics count the finished game and its hands (and the rematch, not started yet)
    side = canasta.rules(variant, **options).side_of(human)
    winner = record["result"]["winner"]
    assert (stats["total"]["played"], stats["total"]["unfinished"]) == (2, 1)
    assert stats["total"]["hands"] == len(public["pad"])
    assert stats["total"]["won"] == (1 if winner == side else 0)
    assert stats["total"]["points"] == sum(hand["sides"][side]["total"] for hand in public["pad"])
    # the score pad has one entry per finished hand, with each side's total as the engine scored it
    assert len(public["pad"]) == states[-1].hand_number
    assert public["pad"][-1]["sides"] == states[-1].last_hand["sides"]  # type: ignore[index]
    checked = 0
    for seat, received in frames.items():
        for frame in received:
            if frame["type"] != "state":
                continue
            state = states[frame["version"]]
            assert frame["view"] == expected_view(state, seat), f"seat {seat}, version {frame['version']}"
            assert isinstance(frame["view"]["stock"], int)  # the stock's size, never its cards
            for path, key, item in walk(frame):
                if key in ("deal", "seed"):
                    assert item is None, f"seat {seat} got {path}"
                if key == "hands":  # the number of hands played, or the hands shown when a hand ended
                    assert isinstance(item, int) or path.endswith(("last_hand.hands", "review.table.hands")), \
                        f"seat {seat} got {path}"
            checked += 1
    assert checked > len(record["moves"])


def test_storage_round_trip_and_restart(tmp_path: Path) -> None:
    """A rummy table survives a restart: its position, seats and history come back from the database."""
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with LiveServer(database) as server:
        made = server.create(variant="500-rum", seats=["human", "bot:easy", "bot:easy"], delay=0)
        with ExitStack() as stack:
            a = joined(server, made, 0, stack)
            a.until("state", status="playing")
            a.move("draw", frame_id="x")
            a.until("ack", id="x")
            a.until("state", version=1)
            assert a.state is not None
            before = a.state["view"]
        stored = _state(server, made).to_json()
    with LiveServer(database) as server:
        assert _room(server, made["table"]).state.to_json() == stored
        with ExitStack() as stack:
            a = joined(server, made, 0, stack)
            assert a.state is not None and a.state["version"] == 1 and a.state["view"] == before
            a.send({"type": "sync", "version": 0})
            assert a.until("event")["move"] == "draw"
