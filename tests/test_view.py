"""``canasta.view`` and the lean view the computer players' play-outs read come from one builder: on many
positions of every kind they agree field by field, for every seat."""

import ast
import json
import random
from pathlib import Path

import pytest

import canasta
from canasta.canasta.view import LeanView, lean_view


def positions(variant: str, seed: int, every: float, games: int = 3):
    """Positions along seeded random games of ``variant`` (the first three hands of each)."""
    for game in range(games):
        rng = random.Random(seed + game)
        state = canasta.new_game(canasta.rules(variant), seed=seed + game)
        while not canasta.is_over(state) and state.hand_number <= 3:
            if rng.random() < every:
                yield state
            legal = canasta.legal_moves(state)
            if not legal:
                break
            state = canasta.apply(state, rng.choice(legal))


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_lean_view_equals_the_view(variant: str) -> None:
    checked = 0
    for state in positions(variant, seed=11, every=0.05, games=5):
        for seat in range(state.rules.players):
            full = canasta.view(state, seat)
            lean = lean_view(state, seat)
            assert lean.to_dict() == full
            assert list(lean.to_dict()) == list(full)  # the same fields, in the same order
            fresh = lean_view(state, seat)  # read one field first: what a player does
            for key in ("pile", "sides", "hand", "history"):
                assert fresh[key] == full[key], key
        checked += 1
    assert checked >= 3


def test_lean_view_reads_like_a_dict() -> None:
    state = canasta.new_game(canasta.rules(), seed=2)
    lean = lean_view(state, 1)
    assert "sides" in lean and "no such field" not in lean
    assert lean.get("hand") == canasta.view(state, 1)["hand"]
    assert lean.get("no such field", 7) == 7
    with pytest.raises(KeyError):
        lean["no such field"]
    assert isinstance(lean, LeanView) and json.loads(json.dumps(lean.to_dict())) == canasta.view(state, 1)


def test_lean_view_refuses_a_bad_seat() -> None:
    state = canasta.new_game(canasta.rules(), seed=2)
    with pytest.raises(ValueError, match="seat must be"):
        lean_view(state, 4)
    with pytest.raises(ValueError, match="seat must be"):
        canasta.view(state, -1)


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot", "cutthroat", "italian"])
def test_lean_views_along_a_game_share_only_what_is_unchanged(variant: str) -> None:
    """Lean views share parts (meld entries, sides, the hand's and the pile's texts) with earlier lean views
    where the state's part is unchanged: along every position of a game they still equal the view."""
    checked = 0
    for state in positions(variant, seed=21, every=1.0, games=1):
        seat = state.to_move
        full, lean = canasta.view(state, seat), lean_view(state, seat)
        for key in ("sides", "hand", "pile", "history", "hand_sizes", "pending_pile", "staged_points"):
            assert lean[key] == full[key], key
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_lean_view_history_since_and_newest_first_match_the_history(variant: str) -> None:
    """The lean view's history readers (what a player's memory reads) give the view's history's tail and
    its entries newest first, whether or not the history was built for that view."""
    checked = 0
    for state in positions(variant, seed=5, every=0.1):
        first = lean_view(state, 0).history_since(0)  # before anything wrote the history out
        history = canasta.view(state, state.to_move)["history"]
        assert first == (len(history), history)
        for start in {0, len(history) // 2, max(0, len(history) - 3), len(history), len(history) + 2}:
            assert lean_view(state, 0).history_since(start) == (len(history), history[start:])
        assert list(lean_view(state, 0).recent_history()) == history[::-1]
        built = lean_view(state, 0)
        assert built["history"] == history  # from the field once it is built
        assert built.history_since(1) == (len(history), history[1:])
        assert list(built.recent_history()) == history[::-1]
        checked += 1
    assert checked >= 10


def _public_state_from_to_dict(state: canasta.State, seat: int) -> dict:
    """What a seat may know of the position, made the plain way: ``state.to_dict()`` with every hidden part
    blanked or left out (``public_state``'s documented content)."""
    d = state.to_dict()
    d["hands"] = [cards if i == seat else None for i, cards in enumerate(d["hands"])]
    d["stock"] = None
    if "feet" in d:
        d["feet"] = [None] * len(d["feet"])
    d["pile"] = [None] * state.pile_hidden + d["pile"][state.pile_hidden:]
    del d["deal"], d["seed"]
    if d["stage"] is not None and state.turn_seat != seat:
        d["stage"] = {**d["stage"], "hand": None}
    return d


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_the_views_public_state_is_the_positions_json_with_the_hidden_parts_blanked(variant: str) -> None:
    """``view`` builds the position's JSON itself, from texts kept between views: along games of every preset
    it equals ``state.to_dict()`` blanked, field for field and in the same order, and so does the history."""
    from canasta.canasta.view import history_text, public_view, seat_views

    checked = 0
    for state in positions(variant, seed=31, every=0.25, games=3):
        assert history_text(state) == state.history
        views = seat_views(state, [*range(state.rules.players), None])
        for seat in range(state.rules.players):
            want = _public_state_from_to_dict(state, seat)
            for got in (canasta.view(state, seat)["public_state"], views[seat]["public_state"]):
                assert got == want
                assert list(got) == list(want)
        assert public_view(state)["public_state"] == {**_public_state_from_to_dict(state, state.turn_seat),
                                                       "hands": [None] * state.rules.players,
                                                       "stage": want["stage"] and {**want["stage"], "hand": None}}
        checked += 1
    assert checked >= 10


def test_a_view_is_its_callers_to_change() -> None:
    """Parts kept between views (the hand's, the pile's and the melds' texts) are copied into each view: changing
    one view leaves the next one as it should be."""
    state = canasta.new_game(canasta.rules(), seed=4)
    rng = random.Random(4)
    while not any(state.melds) or not state.pile:
        state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
    seat = state.to_move
    first = canasta.view(state, seat)
    want = json.loads(json.dumps(first))
    first["hand"].clear()
    first["pile"].clear()
    first["history"].clear()
    public = first["public_state"]
    public["pile"].clear()
    public["hands"][seat].clear()
    public["history"].clear()
    for melds in public["melds"]:
        for cards in melds.values():
            cards.clear()
    for side in first["sides"]:
        for meld in side["melds"]:
            meld["cards"].clear()
    assert canasta.view(state, seat) == want


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_lean_view_history_after_and_hand_counts(variant: str) -> None:
    """``history_after`` gives the entries since an earlier lean view's mark (their text is the history's tail)
    and None when the history does not continue it; ``hand_counts`` is the hand the view shows, as counts."""
    from canasta.canasta.cards import counts_of, parse_card
    from canasta.canasta.state import entry_text

    checked = 0
    previous = None
    for state in positions(variant, seed=7, every=1.0, games=1):
        lean = lean_view(state, state.to_move)
        history = lean["history"]
        assert list(lean.hand_counts()) == counts_of([parse_card(c) for c in lean["hand"]])
        if previous is not None:
            since = lean.history_after(previous.history_mark)
            old = previous["history"]
            if state.hand_number == previous["hand_number"] and len(history) - len(old) < 32:
                assert since is not None
                assert old + [entry_text(seat, event) for seat, event in since] == history
                checked += 1
            else:
                assert since is None
        assert lean.history_after(lean.history_mark) == []
        previous = lean
    assert checked > 50
    other = lean_view(canasta.new_game(canasta.rules(variant), seed=99), 0)
    assert other.history_after(previous.history_mark) is None  # another game's history does not continue it


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_lean_view_numbers_are_the_views_fields(variant: str) -> None:
    """``numbers``, ``side_numbers``, ``own_minimum`` and ``game_rules`` (what the heuristic player reads in
    play-outs instead of the fields) give the view's fields as numbers, for every seat."""
    from canasta.canasta.cards import card_str
    from canasta.canasta.view import meld_order

    checked = 0
    for state in positions(variant, seed=5, every=0.2, games=3):
        for seat in range(state.rules.players):
            full, lean = canasta.view(state, seat), lean_view(state, seat)
            keys = ("seat", "side", "players", "hand_number", "phase", "stock_size", "staged_points", "permission",
                    "pile_frozen", "seat_sides")
            numbers = lean.numbers()
            assert dict(zip(keys[:-1], numbers[:-1], strict=True)) == {k: full[k] for k in keys[:-1]}
            assert list(numbers[-1]) == full["seat_sides"]
            assert lean.own_minimum() == full["sides"][full["side"]]["minimum_needed"]
            assert lean.game_rules().to_dict() == full["rules"]
            for side, entry in enumerate(full["sides"]):
                seats, score, opened, threes, melds = lean.side_numbers(side)
                assert (list(seats), score, opened) == (entry["seats"], entry["score"], entry["opened"])
                assert [card_str(c) for c in threes] == entry["red_threes"]
                assert [[card_str(c) for c in cards] for _, cards in sorted(melds.items(), key=meld_order)] == \
                    [m["cards"] for m in entry["melds"]]
                assert sum(len(cards) >= 7 for cards in melds.values()) == entry["canastas"]
            checked += 1
    assert checked > 8


def test_the_views_texts_are_held_by_the_games_states_and_never_grow() -> None:
    """What views share (``state.ViewParts``) goes from state to state with the hand, one entry per seat or side
    (no module-level cache, nothing that grows over a game), and a state under other rules makes its own: a meld
    or a side written under one rules object is never shown under another."""
    source = ast.parse((Path(canasta.__file__).parent / "canasta" / "view.py").read_text(encoding="utf-8"))
    containers = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
    assert [ast.unparse(node.target) for node in source.body  # the module's only container: its field builders
            if isinstance(node, ast.AnnAssign) and isinstance(node.value, containers)] == ["_FIELDS"]
    assert not [node for node in source.body if isinstance(node, ast.Assign) and isinstance(node.value, containers)]
    rng = random.Random(4)
    state = canasta.new_game(canasta.rules("classic"), seed=4)
    first, hand = None, 0
    for _ in range(400):
        lean_view(state, state.to_move)["sides"]
        canasta.view(state, state.to_move)
        parts = state.view_parts
        assert parts is not None and (state.hand_number != hand or parts is first)  # passed on within a hand
        first, hand = parts, state.hand_number
        assert (len(parts.hands), len(parts.melds), len(parts.sides)) == (4, 2, 2)
        state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
    italian = state.replace(rules=canasta.rules("italian"))  # the same melds and pile, other rules
    assert italian.view_parts is first
    assert canasta.view(italian, 0)["rules"]["variant"] == "italian"
    assert lean_view(italian, 0)["rules"]["variant"] == "italian"
    assert italian.view_parts is not first and italian.view_parts.rules is italian.rules
    assert state.view_parts is first
