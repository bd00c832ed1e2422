"""Whole games over websockets against a live server: several seats and a spectator, every frame checked
against the engine's own per-seat view (the leak test of issue 15)."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.play.record import replay
from server_helpers import LiveServer, WsClient, settle_review

HIDDEN_KEYS = ("deal", "seed", "stock")


def play_table(server: LiveServer, variant: str, seats: list[str], options: dict[str, Any], seed: int,
               max_moves: int = 3000) -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    """Humans (random legal moves) and computer players play one game; returns the record and every frame
    each seat (None: a spectator) received."""
    rng = random.Random(seed)
    made = server.create(variant=variant, options=options, seats=seats, delay=0)
    table = made["table"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    with ExitStack() as stack:
        watcher = stack.enter_context(server.client(table))
        clients: dict[int, WsClient] = {seat: stack.enter_context(server.client(table, token, name=f"P{seat}"))
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
            to_move = watcher.state["view"]["to_move"]
            mover = clients.get(to_move)
            if mover is not None:
                assert mover.state is not None and mover.state["version"] == version
                frame_id = mover.move(rng.choice(mover.state["legal"]))
                ack = mover.until("ack", id=frame_id)
                assert ack["version"] == version + 1
            version += 1
            for c in everyone:
                c.until("state", version=version)
            moves += 1
            settle_review(clients, everyone)
        record = server.get(f"/api/tables/{table}/record").json()
        frames = {seat: c.frames for seat, c in clients.items()}
        frames[None] = watcher.frames
    return record, frames


def positions_of(record: dict[str, Any]) -> list[canasta.State]:
    states: list[canasta.State] = []

    def keep(_n: int, before: canasta.State, _m: Any, after: canasta.State) -> None:
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


def check_frames(record: dict[str, Any], frames: dict[int | None, list[dict[str, Any]]]) -> int:
    """Every state frame is exactly that seat's view at that version; nothing hidden anywhere."""
    states = positions_of(record)
    checked = 0
    for seat, received in frames.items():
        for frame in received:
            for path, key, item in walk(frame):
                if key in HIDDEN_KEYS:
                    assert item is None, f"seat {seat} got {path} = {str(item)[:60]}"
            if frame["type"] == "state":
                state = states[frame["version"]]
                want = canasta.public_view(state) if seat is None else canasta.view(state, seat)
                assert frame["view"] == json.loads(json.dumps(want)), f"seat {seat}, version {frame['version']}"
                hands = frame["view"]["public_state"]["hands"]
                assert all(h is None for i, h in enumerate(hands) if i != seat)
                checked += 1
            elif frame["type"] == "event":
                state = states[frame["version"]]
                if state.hand_number == states[frame["version"] - 1].hand_number:
                    assert frame["history"] == list(state.history[len(states[frame["version"] - 1].history):])
                    if frame["move"].startswith("discard"):
                        assert frame["card"] == str(canasta.parse_cards(canasta.view(state, 0)["pile_top"])[0])
    return checked


GAMES = [
    ("classic", ["human", "human", "human", "human"], {}),
    ("samba", ["human", "bot:easy", "human", "bot:easy"], {}),
    ("cutthroat", ["human", "bot:easy", "bot:medium"], {}),
    ("hand-and-foot", ["human", "human"], {"players": 2}),
    ("modern-american", ["human", "bot:easy", "bot:easy", "bot:easy"], {}),
    ("british", ["bot:easy", "human", "bot:easy", "human"], {}),
]


@pytest.mark.parametrize(("variant", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_whole_game_over_websockets_leaks_nothing(tmp_path: Path, variant: str, seats: list[str],
                                                 options: dict[str, Any]) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        record, frames = play_table(server, variant, seats, {"hands_per_game": 1, **options}, seed=len(variant))
    assert record["result"] is not None
    final = replay(record)  # the record the server gives replays move for move
    assert canasta.is_over(final)
    assert check_frames(record, frames) > len(record["moves"])
    for seat, received in frames.items():
        kinds = {f["type"] for f in received}
        assert {"welcome", "state", "event"} <= kinds
        if seat is not None:  # one acknowledgement for each move this seat made, none for anybody else's
            made = sum(1 for m in record["moves"] if m.split()[0] == str(seat))
            assert sum(1 for f in received if f["type"] == "ack") == (made if seats[seat] == "human" else 0)
