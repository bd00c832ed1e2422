"""Every rules parameter of both families declares its valid values, and every way in refuses the others with
the parameter's name and range (issue 40, "every input bounded, from the rules' own metadata")."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta.bounds import BOOL, Bound, Choice, Int, Label, Row, Seq
from canasta.canasta.rules import PARAMETERS, Rules
from canasta.canasta.variants import PRESETS, player_counts
from canasta.cli import main
from canasta.rummy.presets import PRESETS as RUMMY_PRESETS
from canasta.rummy.rules import PARAMETERS as RUMMY_PARAMETERS
from canasta.rummy.rules import RummyRules

FAMILIES = [(PARAMETERS, Rules, PRESETS, "classic"), (RUMMY_PARAMETERS, RummyRules, RUMMY_PRESETS, "500-rum")]
EVERY = [(name, bound, variant) for params, _, _, variant in FAMILIES for name, (_, _, bound) in params.items()]
INTS = [(name, bound, variant) for name, bound, variant in EVERY if isinstance(bound, Int)]
NOT_INTEGERS = [1e30, -1e30, 5000.0, math.nan, math.inf, "abc", "1e30", "5.0", "", True, False, None, [5], {"a": 5}]


@pytest.mark.parametrize(("params", "cls"), [(p, c) for p, c, _, _ in FAMILIES])
def test_every_field_has_a_bound_and_meaning(params: dict[str, tuple[str, str, Bound]], cls: type) -> None:
    fields = {f.name for f in dataclasses.fields(cls)} - {"name", "family", "overrides", "joker_effect"}
    assert set(params) == fields
    for name, (meaning, source, bound) in params.items():
        assert meaning and source and isinstance(bound, Bound), name
        assert bound.describe() and json.loads(json.dumps(bound.to_json()))["type"], name


@pytest.mark.parametrize(("params", "cls", "presets"), [(p, c, s) for p, c, s, _ in FAMILIES])
def test_every_preset_and_default_passes_its_own_bounds(params: dict[str, tuple[str, str, Bound]], cls: type,
                                                         presets: dict[str, dict[str, Any]]) -> None:
    """The values the presets and the dataclass defaults hold are within bounds and already as the bounds keep
    them (a threshold table sorted, a list a tuple)."""
    defaults = cls()
    for name, (_, _, bound) in params.items():
        value = getattr(defaults, name)
        assert bound.check(name, value) == value, name
    for preset, values in presets.items():
        for name, value in values.items():
            assert params[name][2].check(name, value) == value, (preset, name)
        made = canasta.rules(preset)
        for name, (_, _, bound) in params.items():
            assert bound.check(name, getattr(made, name)) == getattr(made, name), (preset, name)


def test_hand_and_foot_for_every_player_count_is_within_bounds() -> None:
    for n in player_counts("hand-and-foot"):
        r = canasta.rules("hand-and-foot", players=n)
        assert r.decks == n + 1 and r.jokers == 2 * (n + 1)


# --- each kind of bound ------------------------------------------------------------------------

@pytest.mark.parametrize(("bound", "good", "bad"), [
    (Int(0, 24), [(0, 0), (24, 24), ("7", 7), (" +7 ", 7)],
     [-1, 25, 1000000, *NOT_INTEGERS]),
    (BOOL, [(True, True), (False, False), ("yes", True), (" OFF ", False), ("1", True), ("0", False)],
     [1, 0, None, "maybe", 1.0, [True]]),
    (Choice("red", "all", "none"), [("red", "red"), (" all ", "all")], ["Red", "blue", 1, None, True, ["red"]]),
    (Label(6), [("pure", "pure"), ("many_2", "many_2")], ["", "Pure", "x" * 7, "a b", 1, None]),
    (Row(("lowest score", Int(-10, 10)), ("kind", Choice("canasta", "natural"))),
     [([0, "canasta"], (0, "canasta")), ((-10, "natural"), (-10, "natural"))],
     [[0], [0, "canasta", 1], [11, "canasta"], [0, "mixed"], "0 canasta", {"0": "canasta"}]),
    (Seq(Int(4, 14), 0, 3), [((), ()), ([7], (7,)), ("[7, 14]", (7, 14)), ("7, 14 4", (7, 14, 4))],
     [[3], [7, 7, 7, 7], "7, x", 7, "[[7]]", [7.0]]),
    (Seq(Row(("score", Int(0, 9)), ("need", Int(0, 9))), 1, 2, ordered=True),
     [([[5, 1], [0, 2]], ((0, 2), (5, 1))), ("[[3, 3]]", ((3, 3),))],
     [[], [[0, 1]] * 3, [[0, 1, 2]], "[[0, 10]]", "0, 1"]),
])
def test_each_kind_of_bound(bound: Bound, good: list[tuple[Any, Any]], bad: list[Any]) -> None:
    for given_value, kept in good:
        assert bound.check("x", given_value) == kept
    for value in bad:
        with pytest.raises(ValueError) as refused:
            bound.check("x", value)
        assert str(refused.value).startswith("option x=") and str(refused.value).endswith(
            "must be " + bound.describe()), value


def test_a_huge_value_is_refused_by_its_size_and_echoed_short() -> None:
    bound = Seq(Int(0, 9), 0, 3)
    with pytest.raises(ValueError) as refused:
        bound.check("x", list(range(10**6)))
    assert len(str(refused.value)) < 200
    with pytest.raises(ValueError) as refused:
        Int(0, 9).check("x", "9" * 100_000)
    assert len(str(refused.value)) < 200


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(INTS), st.integers(min_value=-(10**20), max_value=10**20))
def test_integer_options_outside_their_range_are_refused_by_name(case: tuple[str, Int, str], value: int) -> None:
    name, bound, variant = case
    if bound.lo <= value <= bound.hi:
        assert bound.check(name, value) == value == bound.check(name, str(value))
        return
    with pytest.raises(ValueError, match=f"^option {name}={value}: must be an integer from {bound.lo} to "
                                         f"{bound.hi}$"):
        canasta.rules(variant, **{name: value})


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(EVERY), st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.none(),
                                         st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
def test_no_option_takes_a_float_null_or_object(case: tuple[str, Bound, str], value: Any) -> None:
    name, _, variant = case
    with pytest.raises(ValueError, match=f"^option {name}=.*: must be "):
        canasta.rules(variant, **{name: value})


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([c for c in EVERY if isinstance(c[1], Choice)]), st.text(max_size=12))
def test_choices_refuse_other_words(case: tuple[str, Choice, str], word: str) -> None:
    name, bound, variant = case
    if word.strip() in bound.choices:
        return
    with pytest.raises(ValueError, match=f"must be one of {', '.join(bound.choices)}$"):
        canasta.rules(variant, **{name: word})


# --- the parameters together ---------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "options", "words"), [
    ("classic", {"decks": 6, "jokers": 6}, "decks=6 is out of proportion for 4 players: at most players + 1 = 5"),
    ("two-player", {"decks": 4}, "out of proportion for 2 players"),
    ("classic", {"jokers": 7}, "jokers=7 is more than 3 a deck (6 for 2 decks)"),
    ("classic", {"hand_size": 27}, "4 hands of 27 do not fit in a pack of 108"),
    ("classic", {"teams": 3}, "teams must divide players"),
    ("hand-and-foot", {"players": 8}, "option players=8: must be an integer from 2 to 7"),
    ("hand-and-foot", {"players": 1e30}, "option players=1e+30: must be an integer from 2 to 7"),
    ("500-rum", {"players": 5}, "5-8 players need packs=2"),
    ("500-rum", {"players": "x"}, "option players='x': must be an integer from 2 to 8"),
    ("500-rum", {"hand_size_more": 25}, "3 hands of 25 do not fit in 52 cards"),
    ("persian-rummy", {"hands_per_game": 0}, "a game needs a target or a number of hands"),
])
def test_parameters_together(variant: str, options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError) as refused:
        canasta.rules(variant, **options)
    assert words in str(refused.value)


def test_the_largest_pack_the_bounds_allow_deals_a_small_position() -> None:
    """The issue's jokers=1000000 dealt a 10 MB position; the most the bounds allow (7 players, 8 decks, 24
    jokers, 30 cards and a foot of 30 each) is a few kB."""
    r = canasta.rules("hand-and-foot", players=7, jokers=24, hand_size=30, foot_size=30)
    assert r.pack_size == 440
    assert len(json.dumps(canasta.new_game(r, seed=1).to_json())) < 20_000
    rummy = canasta.rules("500-rum", players=8, teams=2, packs=2, jokers=4)
    assert len(json.dumps(canasta.new_game(rummy, seed=1).to_json())) < 20_000


def test_values_are_kept_as_the_bounds_read_them() -> None:
    r = canasta.rules("classic", target="9000", upcard="no", initial_meld="[[1500, 90], [0, 50]]")
    assert (r.target, r.upcard, r.initial_meld) == (9000, False, ((0, 50), (1500, 90)))
    assert r.to_dict()["options"] == {"initial_meld": [[0, 50], [1500, 90]], "target": 9000, "upcard": False}
    rummy = canasta.rules("basic-rummy", targets_by_players="100, 150 200", players="3")
    assert (rummy.players, rummy.teams, rummy.targets_by_players) == (3, 3, (100, 150, 200))
    assert rummy.to_dict()["options"] == {"players": 3, "targets_by_players": [100, 150, 200]}


# --- the command line ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["play", "--plain", "--option", "jokers=1000000"],
    ["simulate", "-n", "1", "--option", "decks=1000"],
    ["tournament", "-n", "1", "--option", "target=-5"],
    ["score", "-", "--option", "target=1e30"],
    ["rules", "classic", "--option", "target=abc"],
    ["play", "--plain", "--variant", "500-rum", "--option", "jokers=9"],
    ["simulate", "-n", "1", "--variant", "basic-rummy", "--option", "target=nan"],
])
def test_the_command_line_refuses_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"canasta {argv[0]}: option " in err and ": must be an integer from " in err


@pytest.mark.parametrize(("variant", "key"), [("classic", "name"), ("500-rum", "family"), ("classic", "x" * 10**5)])
def test_unknown_options_are_refused_in_one_short_line(capsys: pytest.CaptureFixture[str], variant: str,
                                                       key: str) -> None:
    assert main(["rules", variant, "--option", f"{key}=1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown" in err and len(err) < 2000


def test_score_refuses_out_of_range_options_in_its_input(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"options": {"target": 1e30}, "sides": []})))
    assert main(["score", "-"]) == 1
    err = capsys.readouterr().err
    assert err == "canasta score: the input's rules: option target=1e+30: must be an integer from 1 to 100000\n"


def test_rules_json_and_pages_show_each_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--json"]) == 0
    parameters = {p["name"]: p for p in json.loads(capsys.readouterr().out)["parameters"]}
    assert parameters["jokers"]["allowed"] == {"type": "int", "min": 0, "max": 24, "text": "an integer from 0 to 24"}
    assert parameters["tie"]["allowed"] == {"type": "choice", "choices": ["play_on", "draw"],
                                            "text": "one of play_on, draw"}
    assert main(["rules", "500-rum"]) == 0
    assert "| `packs` | `1` | an integer from 1 to 2 |" in capsys.readouterr().out
