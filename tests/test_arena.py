"""The arena (canasta.play.arena, canasta tournament): statistics with known answers, duplicate deals,
reproducibility, and the command end to end."""

from __future__ import annotations

import csv
import doctest
import io
import json
import math
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import canasta
import canasta.play.record
from canasta.cli import main
from canasta.play import arena
from canasta.play.arena import (
    ELO_MEAN,
    ELO_PER_NAT,
    DealTask,
    elo_ratings,
    mean_interval,
    play_deal,
    run_tournament,
    seatings,
    wilson,
)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal results, apart from the timing and the number of processes."""
    def strip(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if k not in ("elapsed", "jobs", "ray")}
    return strip(a) == strip(b)


# --- statistics ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (7, 10, 0.3968, 0.8922),   # the textbook example (Newcombe 1998 / any Wilson calculator)
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
    (81, 263, 0.2553, 0.3662),  # Newcombe 1998, table I, example (c)
])
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    e = wilson(k, n)
    assert e.value == pytest.approx(k / n)
    assert e.low == pytest.approx(low, abs=5e-5)
    assert e.high == pytest.approx(high, abs=5e-5)


def test_wilson_edge_cases() -> None:
    assert wilson(0, 0).to_dict() == {"value": 0.5, "low": 0.0, "high": 1.0}
    half = wilson(2.5, 5)  # draws count half: fractional successes are fine
    assert half.value == 0.5 and half.low is not None and half.high is not None
    assert half.low == pytest.approx(1 - half.high)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_mean_interval_on_a_hand_made_list() -> None:
    e = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 1.959963984540054 * math.sqrt(2.5) / math.sqrt(5)  # z · s / √n, s² = 2.5
    assert e.value == 3.0
    assert e.low == pytest.approx(3 - half) and e.high == pytest.approx(3 + half)
    assert e.low == pytest.approx(1.6141, abs=1e-4)
    e = mean_interval([-120.0, 40.0, 10.0, 310.0])  # mean 60, s² = (180² + 20² + 50² + 250²) / 3 = 32600
    assert e.value == 60.0
    assert e.low == pytest.approx(-116.940, abs=1e-3) and e.high == pytest.approx(236.940, abs=1e-3)
    assert mean_interval([7.0]) == arena.Estimate(7.0, None, None)
    assert mean_interval([]) == arena.Estimate(0.0, None, None)


def test_elo_winner_above_loser() -> None:
    r = elo_ratings(["a", "b"], [("a", "b", 20, 20)])  # a won all 20 games
    a, b = r.estimate("a"), r.estimate("b")
    assert a.value > ELO_MEAN > b.value
    assert a.value + b.value == pytest.approx(2 * ELO_MEAN)
    # With one virtual drawn game: a scored 20.5 of 21, so the difference is 400·log10(20.5 / 0.5).
    assert a.value - b.value == pytest.approx(400 * math.log10(41))


def test_elo_symmetric_results_give_equal_ratings() -> None:
    r = elo_ratings(["a", "b"], [("a", "b", 15, 30)])
    assert r.elo[0] == pytest.approx(ELO_MEAN) and r.elo[1] == pytest.approx(ELO_MEAN)
    cycle = elo_ratings(["a", "b", "c"], [("a", "b", 7, 10), ("b", "c", 7, 10), ("c", "a", 7, 10)])
    assert cycle.elo == pytest.approx((ELO_MEAN,) * 3)


def test_elo_order_and_interval() -> None:
    r = elo_ratings(["a", "b", "c"], [("a", "b", 30, 40), ("b", "c", 30, 40), ("a", "c", 36, 40)])
    assert r.elo[0] > r.elo[1] > r.elo[2]
    assert sum(r.elo) / 3 == pytest.approx(ELO_MEAN)
    # Two players: the interval of the difference is the delta-method one, 1/(n p q) in logit units.
    two = elo_ratings(["a", "b"], [("a", "b", 30, 40)])
    p, n = 30.5 / 41, 41
    se = ELO_PER_NAT * math.sqrt(1 / (n * p * (1 - p)))
    d = two.difference("a", "b")
    assert d.value == pytest.approx(400 * math.log10(30.5 / 10.5))
    assert d.high is not None and d.high - d.value == pytest.approx(1.959964 * se, rel=1e-5)
    assert two.estimate("a").high == pytest.approx(two.elo[0] + 1.959964 * se / 2, rel=1e-5)


def test_module_examples_run() -> None:
    assert doctest.testmod(arena).failed == 0


# --- duplicate deals ----------------------------------------------------------------------------

def test_seatings() -> None:
    assert seatings(canasta.rules("classic")) == [(0, 1), (1, 0)]
    three = seatings(canasta.rules("three-player"))
    assert len(three) == 6 and len(set(three)) == 6
    for column in range(3):  # each player holds each column in half the games
        assert sum(s[column] for s in three) == 3
    assert arena.seat_names(canasta.rules("classic"), (1, 0), ("greedy", "random")) == \
        ["random", "greedy", "random", "greedy"]


def test_duplicate_deals_use_the_same_decks_with_the_sides_swapped(monkeypatch: pytest.MonkeyPatch) -> None:
    starts: list[canasta.State] = []
    seated: list[tuple[list[str], int | None]] = []
    real_new_game, real_play_game = canasta.play.record.new_game, arena.play_game

    def new_game(rules: canasta.Rules, seed: int | None = None) -> canasta.State:
        state = real_new_game(rules, seed)
        starts.append(state)
        return state

    def play_game(players: Any, rules: Any = None, seed: int | None = None, **kw: Any) -> Any:
        seated.append(([p.name for p in players], seed))
        return real_play_game(players, rules, seed, **kw)

    monkeypatch.setattr(canasta.play.record, "new_game", new_game)
    monkeypatch.setattr(arena, "play_game", play_game)
    rules = canasta.rules("classic")
    deal = play_deal(DealTask(rules, 0, ("greedy", "random"), 3, 103, 2))
    assert len(starts) == 2 and len(seated) == 2
    first, second = starts
    assert first.deal == second.deal and first.hands == second.hands and first.pile == second.pile
    assert first.seed == second.seed == 103 and deal["seed"] == 103
    assert seated[0] == (["greedy", "random", "greedy", "random"], 103)
    assert seated[1] == (["random", "greedy", "random", "greedy"], 103)
    assert [g["seating"] for g in deal["games"]] == [[0, 1], [1, 0]]
    # Later hands are dealt from the same seed too: hand k of both games has the same deck.
    shuffled_deck = canasta.canasta.engine.shuffled_deck
    assert shuffled_deck(rules, first.seed, 2) == shuffled_deck(rules, second.seed, 2)


def test_bot_seeds_differ_per_seat_and_seating() -> None:
    seeds = {arena.bot_seed(d, j, s) for d in range(20) for j in range(6) for s in range(6)}
    assert len(seeds) == 20 * 6 * 6


def test_hand_scores_add_up_and_the_hand_limit() -> None:
    rules = canasta.rules("classic")
    names = arena.seat_names(rules, (0, 1), ("greedy", "random"))
    whole = arena.play_seated(rules, names, 5, 0)
    assert whole["finished"] and len(whole["hands"]) >= 2
    assert [sum(col) for col in zip(*whole["hands"], strict=True)] == whole["scores"]
    assert max(whole["scores"]) >= rules.target
    two = arena.play_seated(rules, names, 5, 0, hands=2)
    assert not two["finished"] and two["hands"] == whole["hands"][:2]
    assert two["scores"] == [sum(col) for col in zip(*two["hands"], strict=True)]
    one = arena.play_seated(rules, names, 5, 0, hands=1)
    assert one["hands"] == whole["hands"][:1]
    assert one["winner"] == (None if one["scores"][0] == one["scores"][1] else one["scores"].index(max(one["scores"])))


def test_measures_from_one_side() -> None:
    game = {"seating": [1, 0], "hands": [[100, 300], [50, 50]], "winner": 1}
    assert arena.game_view(game, 0) == (1.0, [1.0, 0.5], [200.0, 0.0])
    assert arena.game_view(game, 1) == (0.0, [0.0, 0.5], [-200.0, 0.0])
    deal = {"games": [game, {"seating": [0, 1], "hands": [[-40, 60]], "winner": 1}]}
    assert arena.deal_difference(deal, 0) == pytest.approx((200 + 0 - 100) / 3)
    three = {"seating": [0, 1, 1], "hands": [[500, 400, 700]], "winner": None}
    assert arena.game_view(three, 0) == (0.5, [0.0], [500 - 550])


# --- whole tournaments --------------------------------------------------------------------------

def test_head_to_head_single_hands() -> None:
    s = run_tournament(["greedy", "random"], 4, seed=11, hands=1, jobs=1, progress=False)
    (pair,) = s["pairs"]
    assert pair["players"] == ["greedy", "random"]
    assert pair["deals"] == 4 and pair["games"] == 8 and pair["hands"] == 8
    assert pair["wins"] + pair["draws"] + pair["losses"] == 8
    assert len(pair["deal_differences"]) == 4
    assert pair["points_per_hand"]["value"] == pytest.approx(sum(pair["deal_differences"]) / 4, abs=0.1)
    greedy, random_ = sorted(s["standings"], key=lambda p: p["player"])
    assert greedy["wins"] == random_["losses"] and greedy["games"] == 8
    assert greedy["points_per_hand"]["value"] == -random_["points_per_hand"]["value"]
    assert s["standings"][0]["player"] == "greedy"  # greedy beats random
    assert "greedy vs random" in arena.format_table(s)


def test_reproducible_from_the_seed_whatever_the_jobs() -> None:
    one = run_tournament(["greedy", "random"], 3, seed=7, hands=1, jobs=1, progress=False)
    again = run_tournament(["greedy", "random"], 3, seed=7, hands=1, jobs=1, progress=False)
    two = run_tournament(["greedy", "random"], 3, seed=7, hands=1, jobs=2, progress=False)
    other = run_tournament(["greedy", "random"], 3, seed=8, hands=1, jobs=1, progress=False)
    assert _same(one, again) and _same(one, two)
    assert not _same(one, other)


def test_round_robin_with_self_play_and_three_sides() -> None:
    bar = io.StringIO()
    s = run_tournament(["random", "greedy", "random"], 1, seed=2, hands=1, jobs=2,
                       variant="three-player", progress="always", stream=bar)
    assert s["players"] == ["random", "greedy", "random#2"]
    assert [p["players"] for p in s["pairs"]] == [["random", "greedy"], ["random", "random#2"], ["greedy", "random#2"]]
    assert all(p["games"] == 6 for p in s["pairs"])  # one deal, six seatings
    assert {p["player"]: p["games"] for p in s["standings"]} == {"random": 12, "greedy": 12, "random#2": 12}
    assert "18/18 games" in bar.getvalue()


def test_no_games() -> None:
    s = run_tournament(["greedy", "random"], 0, jobs=1, progress=False)
    assert s["games"] == 0 and s["pairs"][0]["elo_difference"] == {"value": 0.0, "low": None, "high": None}
    json.dumps(s, allow_nan=False)  # valid JSON: no infinities
    assert "greedy vs random" in arena.format_table(s)
    unconnected = elo_ratings(["a", "b", "c"], [("a", "b", 3, 4)])
    assert unconnected.estimate("c").low is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least two players"):
        run_tournament(["greedy"], 1, progress=False)
    with pytest.raises(ValueError, match="valid players"):
        run_tournament(["greedy", "alphazero"], 1, progress=False)
    with pytest.raises(ValueError, match="0 or more"):
        run_tournament(["greedy", "random"], -1, progress=False)


# --- the command --------------------------------------------------------------------------------

def test_tournament_command_writes_json_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json, out_csv = tmp_path / "t.json", tmp_path / "t.csv"
    status = main(["tournament", "--players", "greedy,random", "--games", "3", "--hands", "1", "--seed", "4",
                   "--jobs", "1", "--json", str(out_json), "--csv", str(out_csv), "--no-progress"])
    text = capsys.readouterr().out
    assert status == 0
    assert "greedy vs random" in text and "Elo" in text and f"written: {out_json}, {out_csv}" in text
    data = json.loads(out_json.read_text())
    assert data["format"] == "canasta-tournament/1" and data["seed"] == 4 and data["deals_per_pair"] == 3
    assert data["variant"] == "classic" and data["hands_per_game"] == 1 and data["games"] == 6
    (pair,) = data["pairs"]
    for key in ("game_win_rate", "hand_win_rate", "points_per_hand", "elo_difference"):
        assert set(pair[key]) >= {"value", "low", "high"}
    assert {p["player"] for p in data["standings"]} == {"greedy", "random"}
    rows = list(csv.DictReader(out_csv.open()))
    assert [r["kind"] for r in rows] == ["pair", "player", "player"]
    assert rows[0]["player"] == "greedy" and rows[0]["opponent"] == "random" and rows[0]["games"] == "6"
    assert float(rows[0]["game_win_rate"]) == pair["game_win_rate"]["value"]
    assert float(rows[1]["elo"]) == data["standings"][0]["elo"]["value"]
    assert set(rows[0]) == set(arena.CSV_FIELDS)
    # The same run again, printing the JSON: the same results.
    assert main(["tournament", "--players", "greedy,random", "-n", "3", "--hands", "1", "--seed", "4",
                 "-j", "2", "--json", "-", "--no-progress"]) == 0
    assert _same(json.loads(capsys.readouterr().out), data)


def test_tournament_command_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--players", "greedy,nobody", "-n", "1", "--no-progress"]) == 2
    assert "valid players" in capsys.readouterr().err
    assert main(["tournament", "--players", "greedy", "-n", "1", "--no-progress"]) == 2
    assert main(["tournament", "--variant", "nosuch", "-n", "1"]) == 2
    assert main(["tournament", "--games", "-1"]) == 2


@pytest.mark.parametrize(("flag", "module", "extra"), [("--plot", "matplotlib", "plot"), ("--ray", "ray", "ray")])
def test_missing_optional_library_says_how_to_install(flag: str, module: str, extra: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # importing it now fails, as when it is not installed
    value = str(tmp_path / "plots") if flag == "--plot" else "auto"
    assert main(["tournament", "-n", "1", "--hands", "1", flag, value, "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert f"pip install 'canasta[{extra}]'" in captured.err and captured.out == ""
    assert not (tmp_path / "plots").exists()  # refused before any game was played


def test_ray_path_with_a_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The --ray code path, run by a stand-in for Ray that finishes tasks in reverse order."""
    calls: dict[str, Any] = {}

    class Ref:
        def __init__(self, value: Any) -> None:
            self.value = value

    def init(address: str | None = None, **kw: Any) -> None:
        calls["address"] = address

    def remote(fn: Any) -> Any:
        return types.SimpleNamespace(remote=lambda *a: Ref(fn(*a)))

    def wait(refs: list[Ref], num_returns: int = 1) -> tuple[list[Ref], list[Ref]]:
        return refs[-num_returns:], refs[:-num_returns]

    def get(refs: Any) -> Any:
        return [r.value for r in refs] if isinstance(refs, list) else refs.value

    fake = types.ModuleType("ray")
    fake.init, fake.remote, fake.wait, fake.get = init, remote, wait, get  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", fake)
    with_ray = run_tournament(["greedy", "random"], 3, seed=5, hands=1, ray="auto", progress=False)
    local = run_tournament(["greedy", "random"], 3, seed=5, hands=1, jobs=1, progress=False)
    assert calls["address"] == "auto" and with_ray["ray"] == "auto"
    assert _same(with_ray, local)


def test_plot_writes_pngs(tmp_path: Path) -> None:
    s = run_tournament(["greedy", "random"], 2, seed=1, hands=1, jobs=1, progress=False)
    paths = arena.plot(s, tmp_path)
    assert [p.name for p in paths] == ["ratings.png", "score-differences.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in paths)
