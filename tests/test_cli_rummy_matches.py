"""``canasta simulate`` and ``canasta tournament`` with the rummy family: the same code as Canasta's
(``canasta.play.simulate``, ``canasta.play.arena``), through ``canasta.cli.main``."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.play.arena import DealTask, deal_difference, play_deal, run_tournament
from canasta.play.simulate import simulate
from canasta.play.strength import play_game
from canasta.players.rummy import make_rummy_player


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_500_rum_matches_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--variant", "500-rum", "-n", "3", "--seed", "4",
                       "--players", "greedy,random,heuristic", "--json", "--no-progress")
    assert code == 0
    summary = json.loads(out)
    assert summary["variant"] == "500-rum" and summary["games"] == 3
    assert [s["players"] for s in summary["sides"]] == [["greedy"], ["random"], ["heuristic"]]
    # the same games played by the rummy arena directly, with the seeds simulate documents
    rules = canasta.rules("500-rum")
    results = [play_game(rules, g, [make_rummy_player(n, g * 16 + s) for s, n in enumerate(["greedy", "random",
                                                                                             "heuristic"])])
               for g in (4, 5, 6)]
    assert [s["wins"] for s in summary["sides"]] == [sum(r["winner"] == side for r in results) for side in range(3)]
    assert summary["hands"] == sum(r["hands"] for r in results)
    assert summary["sides"][2]["average_score"] == round(sum(r["scores"][2] for r in results) / 3, 1)
    assert summary["moves"] > summary["hands"] > 0 and summary["draws"] + summary["unfinished"] == \
        3 - sum(s["wins"] for s in summary["sides"])


def test_simulate_text_jobs_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--variant", "basic-rummy", "-n", "2", "--players", "heuristic,random", "--no-progress"]
    code, one, _ = run(capsys, *args, "--json")
    code2, two, _ = run(capsys, *args, "--json", "--jobs", "2", "--records", str(tmp_path))
    assert code == code2 == 0
    a, b = json.loads(one), json.loads(two)
    assert {k: v for k, v in a.items() if k not in ("jobs", "elapsed", "hands_per_second", "moves_per_second")} == \
        {k: v for k, v in b.items() if k not in ("jobs", "elapsed", "hands_per_second", "moves_per_second")}
    records = sorted(tmp_path.glob("game-*.json"))
    assert len(records) == 2
    code, out, _ = run(capsys, "replay", str(records[0]))
    assert code == 0 and out.startswith("ok:")
    code, out, _ = run(capsys, *args)
    assert code == 0 and "2 games of basic-rummy" in out and "side 1 (seats 0, heuristic)" in out


def test_simulate_goes_through_the_shared_path() -> None:
    """``simulate`` with a rummy preset's name: the same games as the command's, the players from the family."""
    summary = simulate(2, seed=9, players=["greedy", "heuristic"], variant="basic-rummy", progress=False)
    assert summary["players"] == ["greedy", "heuristic"] and summary["games"] == 2
    ended = summary["stalemates"] + summary["draws"] + summary["unfinished"]
    assert ended + sum(s["wins"] for s in summary["sides"]) == 2
    assert all(g["finished"] and g["hands"] >= 1 for g in summary["results"])


@pytest.mark.parametrize(("argv", "needle"), [
    (["simulate", "--variant", "500-rum", "-n", "1", "--players", "minimax"], "unknown rummy player"),
    (["simulate", "--variant", "500-rum", "-n", "1", "--players", "greedy,random"], "one per side (3)"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--players", "greedy"], "at least two players"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--players", "greedy,alphazero"], "unknown rummy player"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--hands", "-1"], "0 or more"),
])
def test_bad_rummy_arguments_are_usage_errors(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv, "--no-progress")
    assert code == 2 and needle in err and "Traceback" not in err


def test_tournament_whole_games_with_elo_and_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rummy family's tournament is Canasta's: duplicate deals, Elo, JSON and CSV, the same figures with
    two processes as with one."""
    target, table = tmp_path / "t.json", tmp_path / "t.csv"
    argv = ["tournament", "--variant", "basic-rummy", "-n", "2", "--seed", "3", "--players", "heuristic,random",
            "--no-progress"]
    code, out, _ = run(capsys, *argv, "--jobs", "2", "--json", str(target), "--csv", str(table))
    assert code == 0 and "heuristic vs random" in out and "Elo" in out and f"written: {target}, {table}" in out
    summary = json.loads(target.read_text())
    assert summary["format"] == "canasta-tournament/1" and summary["family"] == "rummy"
    assert summary["seatings"] == [[0, 1], [1, 0]] and summary["games"] == 4
    (pair,) = summary["pairs"]
    assert pair["wins"] + pair["draws"] + pair["losses"] == 4
    elo = {e["player"]: e["elo"]["value"] for e in summary["standings"]}
    assert elo["heuristic"] - elo["random"] == pytest.approx(pair["elo_difference"]["value"], abs=0.2)
    assert (elo["heuristic"] > elo["random"]) == (pair["wins"] > pair["losses"])
    # every deal is played both ways round, with the seeds the arena documents
    rules = canasta.rules("basic-rummy")
    deal = play_deal(DealTask(rules, 0, ("heuristic", "random"), 0, 3, 0))
    assert [g["seating"] for g in deal["games"]] == [[0, 1], [1, 0]]
    assert pair["deal_differences"][0] == round(deal_difference(deal), 2)
    code, out, _ = run(capsys, *argv, "--jobs", "1", "--json", "-")
    again = json.loads(out)
    assert {k: v for k, v in again.items() if k not in ("jobs", "elapsed")} == \
        {k: v for k, v in summary.items() if k not in ("jobs", "elapsed")}


def test_tournament_single_hands_with_three_sides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--variant", "500-rum", "-n", "1", "--hands", "1", "--seed", "2",
                       "--players", "greedy,random", "--json", "-", "--no-progress", "--jobs", "1")
    assert code == 0
    summary = json.loads(out)
    assert len(summary["seatings"]) == 6 and summary["games"] == summary["hands"] == 6
    assert all(p["hands"] == 6 for p in summary["standings"])


def test_tournament_on_ray_with_a_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The --ray path for the rummy family, run by a stand-in for Ray (tasks run at once, in order)."""
    fake = types.ModuleType("ray")
    fake.init = lambda address=None, **kw: None  # type: ignore[attr-defined]
    fake.remote = lambda fn: types.SimpleNamespace(remote=fn)  # type: ignore[attr-defined]
    fake.wait = lambda refs, num_returns=1: (refs[:num_returns], refs[num_returns:])  # type: ignore[attr-defined]
    fake.get = lambda refs: refs  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", fake)
    rules = canasta.rules("basic-rummy")
    with_ray = run_tournament(["greedy", "random"], 1, seed=4, rules=rules, hands=1, ray="auto", progress=False)
    local = run_tournament(["greedy", "random"], 1, seed=4, rules=rules, hands=1, jobs=1, progress=False)
    assert with_ray["ray"] == "auto" and with_ray["pairs"] == local["pairs"]
