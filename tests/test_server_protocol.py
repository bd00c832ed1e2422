"""Every refused frame gets its stable code and changes nothing (issue 15, "Authority and secrecy")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

import canasta
from canasta.canasta.kinds import is_red_three
from server_helpers import LiveServer, WsClient


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("protocol") / "db.sqlite"
    with LiveServer(f"sqlite:///{path}", rate=20) as live:
        yield live


@pytest.fixture()
def table(server: LiveServer) -> dict[str, Any]:
    return server.create(variant="classic", seats=["human", "human", "bot:easy", "bot:easy"], delay=0)


def joined(server: LiveServer, table: dict[str, Any], seat: int, stack: Any) -> WsClient:
    client: WsClient = stack.enter_context(server.client(table["table"], table["seats"][seat]["token"]))
    client.until("state")
    return client


def snapshot(server: LiveServer, table: dict[str, Any]) -> tuple[int, Any]:
    public = server.get(f"/api/tables/{table['table']}").json()
    return public["version"], public["view"]


def refused(client: WsClient, frame: dict[str, Any] | str, code: str) -> dict[str, Any]:
    client.send(frame)
    answer = client.until("error")
    assert answer["code"] == code, answer
    return answer


def test_forged_and_missing_tokens(server: LiveServer, table: dict[str, Any]) -> None:
    with server.client(table["table"], "forged-token") as forged:
        assert forged.recv()["code"] == "BAD_TOKEN"
        with pytest.raises(ConnectionClosed) as closed:
            forged.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    with server.client("no-such-table") as lost:
        assert lost.recv()["code"] == "NO_TABLE"
    from contextlib import ExitStack

    with ExitStack() as stack:
        a, b = joined(server, table, 0, stack), joined(server, table, 1, stack)
        a.until("state", status="playing")
        before = snapshot(server, table)
        # no token: a spectator, who may watch but not act
        watcher = stack.enter_context(server.client(table["table"]))
        watcher.until("state")
        assert watcher.state is not None and watcher.state["seat"] is None and watcher.state["view"]["hand"] == []
        refused(watcher, {"type": "move", "id": 1, "version": 0, "move": "draw"}, "SPECTATOR")
        refused(watcher, {"type": "hint", "id": 2}, "SPECTATOR")
        refused(watcher, {"type": "chat", "text": "hi"}, "SPECTATOR")
        # a frame carrying another seat's token is refused, even a well-formed move
        refused(b, {"type": "move", "id": 3, "version": 0, "move": "draw", "token": table["seats"][0]["token"]},
                "BAD_TOKEN")
        refused(a, {"type": "move", "id": 4, "version": 0, "move": "draw", "token": "x" * 32}, "BAD_TOKEN")
        assert snapshot(server, table) == before


def test_out_of_turn_stale_repeated_and_bad_moves(server: LiveServer, table: dict[str, Any]) -> None:
    from contextlib import ExitStack

    with ExitStack() as stack:
        a, b = joined(server, table, 0, stack), joined(server, table, 1, stack)
        a.until("state", status="playing")
        assert a.state is not None and a.state["view"]["to_move"] == 0 and "draw" in a.state["legal"]
        before = snapshot(server, table)
        refused(b, {"type": "move", "id": "b1", "version": 0, "move": "draw"}, "NOT_YOUR_TURN")
        refused(a, {"type": "move", "id": "a1", "version": 7, "move": "draw"}, "STALE_VERSION")
        refused(a, {"type": "move", "id": "a2", "version": 0, "move": "fly away"}, "BAD_NOTATION")
        error = refused(a, {"type": "move", "id": "a3", "version": 0, "move": "discard 5"}, "ILLEGAL_MOVE")
        assert error["reason"] and error["message"] and error["id"] == "a3"
        assert snapshot(server, table) == before
        # the move itself, then the same id again: answered, not applied twice
        a.send({"type": "move", "id": "a4", "version": 0, "move": "draw"})
        assert a.until("ack", id="a4")["version"] == 1
        after = snapshot(server, table)
        assert after[0] == 1
        error = refused(a, {"type": "move", "id": "a4", "version": 1, "move": "draw"}, "DUPLICATE_MOVE")
        assert "version 1" in error["message"]
        refused(a, {"type": "move", "id": "a5", "version": 0, "move": "discard 5"}, "STALE_VERSION")
        assert snapshot(server, table) == after


@pytest.mark.parametrize(("frame", "code"), [
    ("not json", "BAD_FRAME"),
    ("[1, 2]", "BAD_FRAME"),
    ('{"type": "move", "id": 1, "version": "0", "move": "draw"}', "BAD_FRAME"),
    ('{"type": "move", "id": 1, "version": 0}', "BAD_FRAME"),
    ('{"type": "move", "id": true, "version": 0, "move": "draw"}', "BAD_FRAME"),
    ('{"type": "move", "id": "' + "x" * 65 + '", "version": 0, "move": "draw"}', "BAD_FRAME"),
    ('{"type": "teleport"}', "UNKNOWN_TYPE"),
    ('{"type": "chat", "text": ""}', "BAD_FRAME"),
    (json.dumps({"type": "chat", "text": "x" * 301}), "BAD_FRAME"),
    (json.dumps({"type": "move", "id": 1, "version": 0, "move": "draw " + "9 " * 3000}), "FRAME_TOO_LARGE"),
    ('{"type": "rematch"}', "NOT_OVER"),
    ('{"type": "hint", "id": 9}', "NOT_YOUR_TURN"),
])
def test_malformed_frames(server: LiveServer, table: dict[str, Any], frame: str, code: str) -> None:
    from contextlib import ExitStack

    with ExitStack() as stack:
        joined(server, table, 0, stack)
        b = joined(server, table, 1, stack)
        before = snapshot(server, table)
        refused(b, frame, code)
        b.send({"type": "sync", "version": 0})  # the connection is still good
        b.until("state")
        assert snapshot(server, table) == before


def test_rate_limit(server: LiveServer, table: dict[str, Any]) -> None:
    from contextlib import ExitStack

    with ExitStack() as stack:
        a = joined(server, table, 0, stack)
        for i in range(60):
            a.send({"type": "sync", "id": f"s{i}", "version": 10_000 + i})
        a.drain(0.5)
        limited = [f for f in a.frames if f["type"] == "error" and f["code"] == "RATE_LIMITED"]
        assert limited
        # each refusal names its frame, so a client knows which of its moves was refused
        assert all(f["id"] is not None and f["id"].startswith("s") for f in limited)
        assert len({f["id"] for f in limited}) == len(limited)


def test_hint_chat_and_waiting_room(server: LiveServer) -> None:
    made = server.create(variant="classic", seats=["human", "human", "bot:easy", "bot:easy"], names=["Ann", None,
                         None, None], delay=0)
    from contextlib import ExitStack

    with ExitStack() as stack:
        a = stack.enter_context(server.client(made["table"], made["seats"][0]["token"], name="Ann"))
        a.until("state")
        assert a.state is not None and a.state["status"] == "waiting" and a.state["legal"] == []
        refused(a, {"type": "move", "id": 1, "version": 0, "move": "draw"}, "NOT_STARTED")
        b = stack.enter_context(server.client(made["table"], made["seats"][1]["token"], name="Bob"))
        b.until("state")
        refused(b, {"type": "start"}, "NOT_HOST")
        seats = a.until("state", status="playing")["seats"]  # every human seat joined: play starts
        assert [(s["joined"], s["name"]) for s in seats][:2] == [(True, "Ann"), (True, "Bob")]
        b.send({"type": "chat", "text": "  good luck <b>all</b> "})
        said = a.until("chat")
        assert (said["name"], said["text"], said["seat"]) == ("Bob", "good luck <b>all</b>", 1)
        a.send({"type": "hint", "id": "h"})
        hint = a.until("hint", id="h")
        assert hint["move"] in a.state["legal"] and hint["reason"]
    # the chat is kept: a later connection gets it
    with server.client(made["table"], made["seats"][0]["token"]) as again:
        assert again.until("chat")["text"] == "good luck <b>all</b>"


def test_host_starts_with_computer_players(server: LiveServer) -> None:
    made = server.create(variant="two-player", seats=["human", "human"], delay=0)
    with server.client(made["table"], made["seats"][0]["token"]) as host:
        host.until("state", status="waiting")
        host.send({"type": "start"})
        state = host.until("state", status="playing")
        assert [s["kind"] for s in state["seats"]] == ["human", "bot"]
    # the unclaimed seat's token no longer opens anything
    with server.client(made["table"], made["seats"][1]["token"]) as late:
        assert late.recv()["code"] == "BAD_TOKEN"


def test_http_errors_and_public_state(server: LiveServer, table: dict[str, Any]) -> None:
    assert server.get("/api/tables/nope").json()["error"] == "NO_TABLE"
    assert server.get(f"/api/tables/{table['table']}/record").status_code == 409
    for body, code in [({"variant": "nope"}, "BAD_TABLE"), ({"seats": ["human"]}, "BAD_TABLE"),
                       ({"seats": ["human", "bot:godlike", "human", "human"]}, "BAD_TABLE"),
                       ({"delay": -1}, "BAD_TABLE"), ({"seats": 5}, "BAD_REQUEST")]:
        answer = server.post("/api/tables", body)
        assert answer.status_code == 422 and answer.json()["error"] == code, answer.text
    # issue 40's examples: each option refused by its bounds, before any deal, naming it and its range
    for options, message in [
            ({"jokers": 1000000}, "option jokers=1000000: must be an integer from 0 to 24"),
            ({"decks": 1000}, "option decks=1000: must be an integer from 1 to 8"),
            ({"target": -5}, "option target=-5: must be an integer from 1 to 100000"),
            ({"target": 1e30}, "option target=1e+30: must be an integer from 1 to 100000"),
            ({"target": "lots"}, "option target='lots': must be an integer from 1 to 100000"),
            ({"upcard": 1}, "option upcard=1: must be true or false"),
            ({"decks": 6, "jokers": 12}, "decks=6 is out of proportion for 4 players"),
            ({"wild": True}, "unknown option 'wild' for classic; valid options: ")]:
        answer = server.post("/api/tables", {"options": options})
        assert answer.status_code == 422 and set(answer.json()) == {"error", "message"}, answer.text
        assert answer.json()["error"] == "BAD_TABLE" and answer.json()["message"].startswith(message), answer.text
    public = server.get(f"/api/tables/{table['table']}").json()
    text = json.dumps(public)
    assert public["view"]["hand"] == [] and public["view"]["public_state"]["stock"] is None
    assert "token" not in text and all(h is None for h in public["view"]["public_state"]["hands"])
    variants = server.get("/api/variants").json()
    assert {v["name"] for v in variants} == set(canasta.variant_names("all"))


def test_statistics(tmp_path: Path) -> None:
    # A whole game played as fast as the acks come: on its own server, not the module's rate-limited one
    with LiveServer(f"sqlite:///{tmp_path / 'stats.sqlite'}") as server:
        made = server.create(variant="classic", options={"hands_per_game": 1}, seats=["human", "bot:easy", "bot:easy",
                             "bot:easy"], player="p-123", delay=0)
        with server.client(made["table"], made["seats"][0]["token"], player="p-123") as me:
            me.until("state", status="playing")
            while me.state is not None and me.state["status"] != "over":
                if me.state["legal"]:  # a refused move fails here with the server's reason, not a timeout
                    me.until("ack", id=me.move(me.state["legal"][-1]))
                me.until("state")
        stats = server.get("/api/players/p-123/stats").json()
        classic = stats["variants"][0]
        assert classic["variant"] == "classic" and classic["played"] == 1 and classic["hands"] == 1
        assert classic["won"] + classic["lost"] + classic["drawn"] == 1 and classic["unfinished"] == 0
        assert isinstance(classic["points_per_hand"], float)
        assert server.get("/api/players/nobody/stats").json()["total"]["played"] == 0


def test_hand_review_explain_and_one_connection_per_seat(server: LiveServer) -> None:
    """A hand's end pauses the table until its person continues (moves refused meanwhile, the computer players
    waiting); ``explain`` gives the engine's reason without playing; a second connection to the seat takes it
    over and the first is closed with 4409."""
    made = server.create(variant="classic", options={"hands_per_game": 2},
                         seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
    room = server.server.config.app.state.lobby.rooms[made["table"]]
    # seat 0 to move with one card left in the stock: its draw and discard end the hand (a test's hook). Not a red
    # three: drawn last, that would end the hand at the draw, with nothing to discard.
    last = next(c for c in room.state.stock if not is_red_three(c))
    room.state = room.state.replace(stock=(last,), turn_seat=0, to_move=0)
    token = made["seats"][0]["token"]
    with server.client(made["table"], token) as me:
        me.until("state")
        me.send({"type": "explain", "id": "x", "move": "meld 5 5"})
        answer = me.until("explain", id="x")
        assert (answer["legal"], answer["code"]) == (False, "MUST_DRAW_FIRST") and answer["version"] == 0
        me.until("ack", id=me.move("draw"))
        me.until("state", version=1)
        assert me.state is not None
        me.until("ack", id=me.move(next(m for m in me.state["legal"] if m.startswith("discard"))))
        ended = me.until("state", version=2)
        review = ended["review"]
        assert review["hand"] == 1 and review["waiting"] == [0] and review["deadline"] is None
        assert ended["legal"] == [] and len(review["table"]["hands"]) == 4 and len(review["table"]["sides"]) == 2
        assert ended["view"]["hand_number"] == 2
        refused(me, {"type": "move", "id": "early", "version": 2, "move": "draw"}, "IN_REVIEW")
        me.drain(0.3)
        assert room.version == 2  # nobody moved: the computer players wait for the review too
        me.send({"type": "continue", "hand": 1})
        assert me.until("state", version=2)["review"]["waiting"] == []
        # the next hand is played (if seat 0 is not the first to move, a computer player moves now)
        if room.state.to_move != 0:
            me.until("event", version=3)
        with server.client(made["table"], token) as again:
            again.until("state")
            assert me.until("replaced")["seat"] == 0
            with pytest.raises(ConnectionClosed) as closed:
                me.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
            assert room.seats[0].connections == 1


def test_a_stored_table_whose_rules_are_now_refused_is_not_served(tmp_path: Path) -> None:
    """A table created before the options' bounds (issue 40), with a value they now refuse, neither stops the
    server's start nor answers 500: it is no table; the others carry on."""
    import sqlite3

    path = tmp_path / "db.sqlite"
    with LiveServer(f"sqlite:///{path}") as live:
        old = live.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"])
        kept = live.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE game_tables SET rules = ? WHERE id = ?",
                   (json.dumps({"variant": "classic", "options": {"jokers": 1000000}}), old["table"]))
    with LiveServer(f"sqlite:///{path}") as live:
        assert live.get(f"/api/tables/{old['table']}").json()["error"] == "NO_TABLE"
        assert live.get(f"/api/tables/{kept['table']}").json()["status"] == "waiting"
