"""Issue 17: ``State.from_json`` refuses every malformed position with a ``ValueError`` (never an
``AttributeError`` or a later crash), and every position it accepts plays."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta.players import make_player

State = canasta.State


def positions() -> list[str]:
    """Positions from random games of a few presets: the start, mid-hand and after a hand."""
    out = []
    for variant in ("classic", "samba", "hand-and-foot", "cutthroat", "modern-american"):
        rules = canasta.rules(variant)
        state = canasta.new_game(rules, seed=3)
        bots = [make_player("random", seed=s) for s in range(rules.players)]
        for i in range(400):
            if canasta.is_over(state):
                break
            if i % 97 == 0:
                out.append(state.to_json())
            state = canasta.apply(state, bots[state.to_move].choose(canasta.view(state, state.to_move),
                                                                    canasta.legal_moves(state)))
    return out


POSITIONS = positions()


@pytest.mark.parametrize("text", ["[]", "null", "5", '"a position"', "true", "[1, 2]"])
def test_json_that_is_not_an_object(text: str) -> None:
    with pytest.raises(ValueError, match="a position is a JSON object"):
        State.from_json(text)


def change(text: str, edit: Any) -> str:
    data = json.loads(text)
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda d: d["melds"].__setitem__(0, ["9S 9H 9D"]), "field 'melds': want an object, got a list"),
    (lambda d: d["stock"].__setitem__(0, 5), "field 'stock': want text, got the number 5"),
    (lambda d: d["history"].append(7), "field 'history': want text"),
    (lambda d: d["history"].append("9 draw"), "history entry '9 draw'"),
    (lambda d: d.__setitem__("seat_sides", [0, 1, 2, 1]), "seat_sides"),
    (lambda d: d.__setitem__("result", {"scores": [0, 0], "winner": 0, "hands": 1}), "result is set exactly"),
    (lambda d: d.__setitem__("seed", "7"), "field 'seed': want a whole number, got the text '7'"),
    (lambda d: d.__setitem__("hand_number", "x"), "field 'hand_number': want a whole number"),
    (lambda d: d.pop("pile"), "lacks the field 'pile'"),
    (lambda d: d["turn"].pop("melded"), "lacks the field 'melded' (in 'turn')"),
    (lambda d: d.__setitem__("rules", None), "field 'rules': want an object, got null"),
])
def test_named_refusals(edit: Any, needle: str) -> None:
    text = change(canasta.new_game(canasta.rules(), seed=1).to_json(), edit)
    with pytest.raises(ValueError) as info:
        State.from_json(text)
    assert needle in str(info.value)
    assert "Error(" not in str(info.value) and "invalid literal" not in str(info.value)


def test_wrong_types_for_the_api() -> None:
    with pytest.raises(TypeError, match="variant name"):
        canasta.rules(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="variant name"):
        canasta.rules(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a move is text"):
        canasta.parse_move(canasta.new_game(canasta.rules(), seed=1), None)  # type: ignore[arg-type]


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.sampled_from(["", "AS", "x", "9", "3 draw"]),
                        st.just([]), st.just({}), st.just(["AS"]), st.just([0]))


def nodes(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += nodes(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += nodes(v, (*path, i))
    return out


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(POSITIONS) - 1), st.integers(0, 10**9), JSON_VALUES, st.booleans())
def test_mutated_positions_are_refused_or_play(index: int, pick: int, value: Any, delete: bool) -> None:
    data = json.loads(POSITIONS[index])
    paths = nodes(data)[1:]
    path = paths[pick % len(paths)]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    try:
        state = State.from_json(json.dumps(data))
    except ValueError:
        return  # a refusal, as it should be: a ValueError with a message
    # Accepted: it plays, it shows and it round-trips.
    assert State.from_json(state.to_json()) == state
    for seat in range(state.rules.players):
        canasta.view(state, seat)
    rng = random.Random(pick)
    for _ in range(20):
        if canasta.is_over(state):
            break
        state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))


def test_british_acaba_with_a_staged_opening_round_trips() -> None:
    state = canasta.new_game(canasta.rules("british"), seed=12)
    rng = random.Random(12)
    while True:  # seed 12 reaches a staged opening with acaba legal at its 23rd move
        legal = canasta.legal_moves(state)
        acaba = [m for m in legal if m.action == "acaba"]
        if acaba and state.stage is not None:
            break
        state = canasta.apply(state, rng.choice(legal))
    over = canasta.apply(state, acaba[0])
    assert State.from_json(over.to_json()) == over
    # The hand ends at once: the staged melds never stood, they went back to the caller's hand first.
    assert over.stage is None
    caller, side = state.turn_seat, state.side_of(state.turn_seat)
    assert over.hands[caller] == state.stage.hand and over.melds[side] == state.stage.melds
