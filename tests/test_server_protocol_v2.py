"""Protocol version 2 (docs/protocol.md): a whole state on connecting and on ``sync``, then per move one
frame carrying the change to the client's own state as a JSON Patch (RFC 6902, applied here by the
``jsonpatch`` package). Along one game of every preset each seat and a spectator rebuild their state from
the stream and it equals the engine's view of the replayed record after every move; a version 1 client at
the same table keeps getting whole state frames equal to the rebuilt ones; a patch holds nothing that is
not in the seat's own new view (no other seat's hidden cards); the hand log every client holds, kept move by
move from the views the server made anyway, equals the one made from the record's positions."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.play.record import replay
from canasta.presets import game_rules
from canasta.server.games import played, seat_view
from canasta.server.patch import apply, diff
from server_helpers import LiveServer, WsClient

jsonpatch = pytest.importorskip("jsonpatch")

MAX_MOVES = 3000  # one random hand ends long before


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("protocol2") / "db.sqlite"
    with LiveServer(f"sqlite:///{path}") as live:
        yield live


def at(doc: Any, path: str) -> Any:
    for token in path.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


def only_new_values(patch: list[dict[str, Any]], new: dict[str, Any]) -> None:
    """Every value the patch carries is in the new document at the place the patch puts it: a patch tells
    the client nothing its new state does not hold (the state is the seat's view: secrecy is ``view``'s)."""
    appended: dict[str, int] = {}
    for op in patch:
        if op["path"].endswith("/-"):
            appended[op["path"]] = appended.get(op["path"], 0) + 1
    seen: dict[str, int] = {}
    for op in patch:
        assert op["op"] in {"add", "remove", "replace"}, op
        if "value" not in op:
            continue
        path = op["path"]
        if path.endswith("/-"):
            items = at(new, path[:-2])
            index = len(items) - appended[path] + seen.get(path, 0)
            seen[path] = seen.get(path, 0) + 1
            assert items[index] == op["value"], op
        else:
            assert at(new, path) == op["value"], op


class Rebuilt:
    """A version 2 client: its state as rebuilt from the stream, and the rebuilt ``view`` at each version."""

    def __init__(self, client: WsClient) -> None:
        self.client = client
        self.doc: dict[str, Any] | None = None
        self.views: dict[int, dict[str, Any]] = {}
        self.legal: dict[int, list[str]] = {}
        self.logs: dict[int, list[tuple[Any, ...]]] = {}
        self.patches = 0

    def read(self) -> dict[str, Any]:
        frame = self.client.recv()
        if frame["type"] == "state":
            self.doc = frame
        elif frame["type"] in ("event", "patch") and "patch" in frame:
            assert self.doc is not None
            self.doc = jsonpatch.apply_patch(self.doc, frame["patch"])
            only_new_values(frame["patch"], self.doc)
            self.patches += 1
        if frame["type"] in ("state", "event", "patch") and self.doc is not None:
            self.views[self.doc["version"]] = copy.deepcopy(self.doc["view"])
            self.legal[self.doc["version"]] = list(self.doc["legal"])
            self.logs[self.doc["version"]] = [logged(e) for e in self.doc["hand_log"]]
        return frame

    def until_version(self, version: int) -> None:
        while self.doc is None or self.doc["version"] < version:
            self.read()


def logged(entry: dict[str, Any]) -> tuple[Any, ...]:
    return entry["version"], entry["seat"], entry["move"], entry["took"], copy.deepcopy(entry["melds"])


def play(server: LiveServer, variant: str, seed: int) -> None:
    players = game_rules(variant).players
    made = server.create(variant=variant, options={"hands_per_game": 1}, seats=["human"] * players, delay=0)
    table, rng = made["table"], random.Random(seed)
    with ExitStack() as stack:
        seats = [Rebuilt(stack.enter_context(server.client(table, s["token"], protocol="2")))
                 for s in made["seats"]]
        watcher = Rebuilt(stack.enter_context(server.client(table, protocol="2")))
        old = stack.enter_context(server.client(table))  # version 1, unchanged
        everyone = [*seats, watcher]
        assert seats[0].read()["protocol"] == 2 and old.recv().get("protocol") is None  # the welcome frames
        for c in everyone:
            while c.doc is None or c.doc["status"] != "playing":
                c.read()
        version = max(c.doc["version"] for c in everyone if c.doc)
        for c in everyone:
            c.until_version(version)
        while True:
            mover = next((c for c in seats if c.doc and c.doc["legal"] and c.doc["version"] == version), None)
            waiting = ((watcher.doc and watcher.doc["review"]) or {}).get("waiting")
            if mover is None and waiting:  # a hand ended and the game goes on (a tie at the top)
                for seat in waiting:
                    seats[seat].client.send({"type": "continue"})
                for c in everyone:  # the review ends with a patch frame (no move: the same version)
                    while c.doc is None or (c.doc["review"] or {}).get("waiting"):
                        c.read()
                continue
            if mover is None or version >= MAX_MOVES:
                break
            assert mover.doc is not None
            mover.client.send({"type": "move", "id": f"m{version}", "version": version,
                               "move": rng.choice(mover.doc["legal"])})
            version += 1
            for c in everyone:
                c.until_version(version)
            frame = old.until("state", version=version)
            assert frame == watcher.doc  # the version 1 spectator's whole frame is the rebuilt one
        assert all(c.patches for c in everyone)
        # a sync gives the whole state again, equal to the rebuilt one
        seats[0].client.send({"type": "sync", "version": version})
        assert seats[0].client.until("state", version=version) == seats[0].doc

    assert watcher.doc is not None and watcher.doc["status"] == "over", f"{variant}: no end in {MAX_MOVES} moves"
    record = server.get(f"/api/tables/{table}/record").json()
    for number, state in replayed_positions(record).items():
        for seat, c in enumerate(seats):
            assert c.views[number] == seat_view(state, seat), (variant, number, seat)
            assert c.legal[number] == ([] if number == version else c.views[number]["legal_moves"])
        assert watcher.views[number] == seat_view(state, None), (variant, number)
    # the hand log, made from scratch: each move of the hand, with what the public views before and after it show
    positions, log = replayed_positions(record), []
    for number, (seat, move) in enumerate((m.split(" ", 1) for m in record["moves"]), start=1):
        before, after = positions[number - 1], positions[number]
        if after.hand_number != before.hand_number:
            log = []
        else:
            shown = played(seat_view(before, None), seat_view(after, None), move, int(seat))
            log = [*log, (number, int(seat), move, shown["took"], shown["melds"])]
        for c in everyone:
            assert c.logs[number] == log, (variant, number)


def replayed_positions(record: dict[str, Any]) -> dict[int, Any]:
    """The engine's state after every move of a game record (0: as dealt)."""
    out: dict[int, Any] = {}

    def keep(number: int, before: Any, move: Any, after: Any) -> None:
        if number == 1:
            out[0] = before
        out[number] = after

    replay(record, keep)
    return out


@pytest.mark.parametrize("variant", canasta.variant_names())
def test_every_seat_rebuilds_the_engines_view_from_version_2(server: LiveServer, variant: str) -> None:
    play(server, variant, seed=sum(map(ord, variant)))


def test_diff_is_a_json_patch_that_rebuilds_the_new_document_and_apply_applies_it() -> None:
    rng = random.Random(7)

    def value(depth: int) -> Any:
        kind = rng.randrange(6 if depth < 3 else 3)
        if kind == 0:
            return rng.choice([None, True, False, 0, 1, 1.5, "a/b", "~x", ""])
        if kind in (1, 2):
            return rng.randrange(4)
        if kind in (3, 4):
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(["a", "b", "c/d", "e~f", ""]): value(depth + 1) for _ in range(rng.randrange(4))}

    for _ in range(2000):
        old, new = value(0), value(0)
        if rng.random() < 0.5 and isinstance(old, list):  # a list that grows or shrinks at its end
            new = [*old, value(2)] if rng.random() < 0.5 else old[:-1]
        patch = diff(old, new)
        rebuilt = jsonpatch.apply_patch(copy.deepcopy(old), patch)
        assert apply(copy.deepcopy(old), patch) == rebuilt  # the module's own applier, for Python clients
        assert rebuilt == new and [type(x) for x in _leaves(rebuilt)] == [type(x) for x in _leaves(new)]
        assert diff(new, new) == []


def _leaves(doc: Any) -> list[Any]:
    if isinstance(doc, dict):
        return [x for k in sorted(doc) for x in _leaves(doc[k])]
    if isinstance(doc, list):
        return [x for item in doc for x in _leaves(item)]
    return [doc]


def test_an_unknown_protocol_is_refused(server: LiveServer, tmp_path: Path) -> None:
    made = server.create(variant="classic", seats=["human", "bot:easy", "human", "bot:easy"], delay=0)
    with server.client(made["table"], protocol="3") as c:
        assert c.recv()["code"] == "BAD_PROTOCOL"
