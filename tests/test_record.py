"""Game records: build, JSON round trip, replay, and tampering (canasta.play.record)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import canasta
from canasta.play.record import FORMAT, Recorder, RecordError, dumps, play_game, replay
from canasta.players import make_player


def _game(seed: int | None, **options: Any) -> tuple[canasta.State, dict[str, Any]]:
    bots = [make_player("greedy" if s % 2 else "random", seed=s) for s in range(4)]
    return play_game(bots, canasta.rules("classic", **options), seed=seed)


@pytest.fixture(scope="module")
def seeded() -> tuple[canasta.State, dict[str, Any]]:
    return _game(7)


@pytest.fixture(scope="module")
def unseeded() -> tuple[canasta.State, dict[str, Any]]:
    return _game(None, target=2000)


def test_record_shape(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    final, record = seeded
    assert record["format"] == FORMAT
    assert record["rules"] == {"variant": "classic", "options": {}}
    assert record["seed"] == 7 and "deals" not in record
    assert record["players"] == ["random", "greedy", "random", "greedy"]
    assert record["result"] == canasta.outcome(final) and record["result"] is not None
    first = canasta.new_game(canasta.rules(), 7).to_move
    assert record["moves"][0].startswith(f"{first} ")


@pytest.mark.parametrize("which", ["seeded", "unseeded"])
def test_round_trip(which: str, request: pytest.FixtureRequest) -> None:
    final, record = request.getfixturevalue(which)
    text = dumps(record)
    again = replay(json.loads(text))
    assert again.to_json() == final.to_json()
    assert replay(text).to_json() == final.to_json()  # JSON text works too


def test_unseeded_record_carries_every_deal(unseeded: tuple[canasta.State, dict[str, Any]]) -> None:
    final, record = unseeded
    assert record["seed"] is None and record["rules"]["options"] == {"target": 2000}
    assert len(record["deals"]) == final.hand_number
    assert all(len(d) == 108 for d in record["deals"])
    assert [str(c) for c in canasta.parse_cards(" ".join(record["deals"][-1]))] == record["deals"][-1]


def test_moves_without_seats_replay(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    final, record = seeded
    bare = {**record, "moves": [m.split(" ", 1)[1] for m in record["moves"]]}
    assert replay(bare).to_json() == final.to_json()


def test_on_move_callback(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    _, record = seeded
    seen: list[int] = []
    replay(record, on_move=lambda n, before, move, after: seen.append(n))
    assert seen == list(range(1, len(record["moves"]) + 1))


def _first_index(record: dict[str, Any], action: str) -> int:
    return next(i for i, m in enumerate(record["moves"]) if m.split()[1] == action)


def test_tampered_move_is_rejected_with_its_number(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    _, record = seeded
    bad = copy.deepcopy(record)
    i = _first_index(bad, "discard")
    seat = bad["moves"][i].split()[0]
    bad["moves"][i] = f"{seat} meld 4 4 4 4 4 4 4 4 4"
    with pytest.raises(RecordError, match=rf"^move {i + 1}: '{seat} meld 4 4 4 4 4 4 4 4 4': [A-Z_]+: ") as info:
        replay(bad)
    assert info.value.move_number == i + 1
    assert isinstance(info.value, ValueError)


def test_tampered_notation_and_seat(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    _, record = seeded
    bad = copy.deepcopy(record)
    bad["moves"][4] = bad["moves"][4].split()[0] + " flip the table"
    with pytest.raises(RecordError, match=r"^move 5: .*BAD_NOTATION: unknown move 'flip'"):
        replay(bad)
    bad = copy.deepcopy(record)
    seat, move = bad["moves"][2].split(" ", 1)
    bad["moves"][2] = f"{(int(seat) + 1) % 4} {move}"
    with pytest.raises(RecordError, match=rf"^move 3: .*seat {(int(seat) + 1) % 4} is not to move, seat {seat} is"):
        replay(bad)


def test_dropped_move_and_wrong_result(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    _, record = seeded
    bad = copy.deepcopy(record)
    del bad["moves"][10]
    with pytest.raises(RecordError, match=r"^move (1[0-9]|[2-9][0-9]|[0-9]{3,}): "):
        replay(bad)
    bad = copy.deepcopy(record)
    bad["result"] = {**bad["result"], "winner": 1 - bad["result"]["winner"]}
    with pytest.raises(RecordError, match="does not match"):
        replay(bad)
    bad = copy.deepcopy(record)
    bad["moves"].append(bad["moves"][-1])
    with pytest.raises(RecordError, match=rf"^move {len(bad['moves'])}: .*already over"):
        replay(bad)


def test_tampered_deal(unseeded: tuple[canasta.State, dict[str, Any]]) -> None:
    _, record = unseeded
    bad = copy.deepcopy(record)
    deck = bad["deals"][0]
    deck[-1] = "AS" if deck[-1] != "AS" else "KS"  # no longer a whole pack
    with pytest.raises(RecordError, match="deal 1 is not a whole pack"):
        replay(bad)
    bad = copy.deepcopy(record)
    del bad["deals"]
    with pytest.raises(RecordError, match="no seed and no deal"):
        replay(bad)


def test_bad_headers(seeded: tuple[canasta.State, dict[str, Any]]) -> None:
    _, record = seeded
    with pytest.raises(RecordError, match="unknown record format"):
        replay({**record, "format": "chess-pgn"})
    with pytest.raises(RecordError, match="valid variants"):
        replay({**record, "rules": {"variant": "bridge", "options": {}}})
    with pytest.raises(RecordError, match="valid options"):
        replay({**record, "rules": {"variant": "classic", "options": {"colour": "blue"}}})
    with pytest.raises(RecordError, match="not valid JSON"):
        replay("{nope")


def test_recorder_by_hand() -> None:
    state = canasta.new_game(canasta.rules(), seed=3)
    rec = Recorder(state)
    rec.apply(canasta.legal_moves(state)[0])
    with pytest.raises(canasta.IllegalMove):
        rec.apply(canasta.Move("draw"))
    assert len(rec.moves) == 1
    partial = rec.record()
    assert partial["result"] is None and "players" not in partial
    assert replay(partial).to_json() == rec.state.to_json()
    with pytest.raises(ValueError, match="beginning of a game"):
        Recorder(rec.state)
