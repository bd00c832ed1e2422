"""§8.2 [S1-rummy]: after a stalemate "all players get 0 points, and the game is considered a loss for all of
them in the statistics": the browser's player statistics, the arena's games and ``canasta tournament``."""

from __future__ import annotations

from typing import Any

import canasta
from canasta.play.arena import summarize
from canasta.play.strength import shares
from canasta.server.stats import player_stats

STALEMATE = {"scores": [0, 0], "winner": None, "hands": 1, "by": "stalemate", "stalemate": True}


def _row(seat: int, result: dict[str, Any]) -> dict[str, Any]:
    return {"rules": {"variant": "basic-rummy", "options": {}}, "seat": seat, "status": "over", "result": result,
            "pad": []}


def test_the_browser_statistics_count_a_stalemate_as_a_loss_for_every_player() -> None:
    for seat in (0, 1):
        total = player_stats("p", [_row(seat, STALEMATE)])["total"]
        assert (total["won"], total["lost"], total["drawn"]) == (0, 1, 0)
    drawn = player_stats("p", [_row(0, {**STALEMATE, "stalemate": False, "by": "target"})])["total"]
    assert drawn["drawn"] == 1  # a plain draw stays a draw


def test_the_arena_and_the_tournament_count_a_stalemate_as_lost_by_both() -> None:
    assert shares(STALEMATE, 0) == (0.0, 0.0) == shares(STALEMATE, 1)
    assert shares({"winner": 1}, 1) == (1.0, 0.0) and shares({"winner": None}, 0) == (0.5, 0.5)
    rules = canasta.rules("basic-rummy")
    stalemate = {"seating": [0, 1], "hands": [[0, 0]], "scores": [0, 0], "winner": None, "finished": True,
                 "stalemate": True}
    won = {"seating": [1, 0], "hands": [[-20, 20]], "scores": [-20, 20], "winner": 1, "finished": True}  # a won
    deal = {"pair": 0, "deal": 0, "seed": 0, "games": [stalemate, won, stalemate]}
    summary = summarize(rules, ["a", "b"], [("a", "b")], [deal], seed=0, games=1, hands=0, jobs=1, elapsed=0.0)
    row = summary["pairs"][0]
    assert (row["wins"], row["draws"], row["losses"], row["stalemates"]) == (1, 0, 2, 2)
    standings = {e["player"]: e for e in summary["standings"]}
    assert standings["a"]["game_win_rate"]["value"] == round(1 / 3, 4)
    assert standings["b"]["game_win_rate"]["value"] == 0.0  # b lost all three: one to a, two to the stalemates
    # the Elo fit sees one game, a's win: the stalemates say nothing of who is the stronger
    alone = summarize(rules, ["a", "b"], [("a", "b")], [{**deal, "games": [won]}], seed=0, games=1, hands=0,
                      jobs=1, elapsed=0.0)
    assert row["elo_difference"] == alone["pairs"][0]["elo_difference"] and row["elo_difference"]["value"] > 0
