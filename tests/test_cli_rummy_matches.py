"""``canasta simulate`` and ``canasta tournament`` with the rummy family, through ``canasta.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.players.rummy import make_rummy_player
from canasta.rummy.arena import duplicate, games, play_game


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


@pytest.mark.parametrize(("argv", "needle"), [
    (["simulate", "--variant", "500-rum", "-n", "1", "--players", "minimax"], "unknown rummy player"),
    (["simulate", "--variant", "500-rum", "-n", "1", "--players", "greedy,random"], "one per side (3)"),
    (["tournament", "--variant", "500-rum", "-n", "1", "--hands", "1"], "need two sides"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--hands", "2"], "whole games"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--players", "greedy"], "at least two players"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--players", "greedy,alphazero"], "unknown rummy player"),
    (["tournament", "--variant", "basic-rummy", "-n", "1", "--csv", "x.csv"], "--csv is not available"),
])
def test_bad_rummy_arguments_are_usage_errors(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv, "--no-progress")
    assert code == 2 and needle in err and "Traceback" not in err


def test_tournament_duplicate_hands_match_the_arena(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "t.json"
    code, out, _ = run(capsys, "tournament", "--variant", "basic-rummy", "-n", "5", "--seed", "3", "--hands", "1",
                       "--players", "heuristic,random", "--json", str(target), "--no-progress")
    assert code == 0 and "heuristic vs random" in out and "points/hand" in out and f"written: {target}" in out
    summary = json.loads(target.read_text())
    pair = summary["pairs"][0]
    rules = canasta.rules("basic-rummy")

    def maker(name: str):  # type: ignore[no-untyped-def]
        return lambda seed: make_rummy_player(name, seed)

    want = duplicate(rules, maker("heuristic"), maker("random"), 5, 3)
    assert pair["points_per_hand"]["value"] == round(want["mean"], 1)
    assert pair["points_per_hand"]["low"] == round(want["low"], 1)
    assert pair["points_per_hand"]["high"] == round(want["high"], 1)
    assert len(pair["deal_differences"]) == 5
    assert summary["standings"][0]["player"] == ("heuristic" if want["mean"] > 0 else "random")


def test_tournament_whole_games_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--variant", "500-rum", "--option", "players=2", "-n", "3",
                       "--players", "greedy,random,greedy", "--json", "-", "--no-progress", "--jobs", "2")
    assert code == 0
    summary = json.loads(out)
    assert summary["format"] == "canasta-rummy-tournament/1" and summary["sides"] == 2
    assert [p["players"] for p in summary["pairs"]] == [["greedy", "random"], ["greedy", "greedy#2"],
                                                        ["random", "greedy#2"]]
    rules = canasta.rules("500-rum", players=2)
    want = games(rules, lambda s: make_rummy_player("greedy", s), lambda s: make_rummy_player("random", s), 3)
    first = summary["pairs"][0]
    assert first["game_win_rate"]["value"] == round(want["a_wins"], 4)
    assert first["wins"] + first["draws"] + first["losses"] == 3
    assert {e["player"] for e in summary["standings"]} == {"greedy", "random", "greedy#2"}
    assert all("elo" in e for e in summary["standings"])
    code, out, _ = run(capsys, "tournament", "--variant", "500-rum", "-n", "2", "--no-progress")
    assert code == 0 and "500-rum (3 players, 3 sides)" in out and "an even match wins 33%" in out
