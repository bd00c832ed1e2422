"""Computer players for the rummy family: legal moves from the seat's view only, on every preset; the
duplicate-deal arena."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta.play.strength import duplicate, games, interval
from canasta.players.rummy import make_rummy_player, rummy_player_names
from canasta.rummy import RummyRules


@pytest.mark.parametrize("name", ["500-rum", "500-rum-partnership", "persian-rummy", "basic-rummy"])
@pytest.mark.parametrize("player", ["greedy", "heuristic"])
def test_players_choose_legal_moves_on_every_preset(name: str, player: str) -> None:
    r = canasta.rules(name)
    assert isinstance(r, RummyRules)
    bots = [make_rummy_player(player, s) for s in range(r.players)]
    rng = random.Random(5)
    for seed in range(2):
        s = canasta.new_game(r, seed=seed)
        for _ in range(400):
            if canasta.is_over(s):
                break
            legal = canasta.legal_moves(s)
            move = bots[s.to_move].choose(canasta.view(s, s.to_move), legal)
            assert move in legal
            s = canasta.apply(s, move if rng.random() < 0.8 else rng.choice(legal))


def test_player_names_and_levels() -> None:
    assert rummy_player_names() == ["greedy", "heuristic", "random", "search"]
    levels = {level: make_rummy_player(level).name for level in ("easy", "medium", "hard", "expert")}
    assert levels == {"easy": "greedy", "medium": "heuristic", "hard": "search", "expert": "search"}
    with pytest.raises(ValueError, match="valid players"):
        make_rummy_player("oracle")


def test_duplicate_deals_and_games() -> None:
    r = canasta.rules("500-rum", players=2)
    assert isinstance(r, RummyRules)
    same = duplicate(r, lambda s: make_rummy_player("greedy", s), lambda s: make_rummy_player("greedy", s), 3)
    assert same["mean"] == 0  # the same player on both seatings of a deal: exactly even
    better = duplicate(r, lambda s: make_rummy_player("heuristic", s), lambda s: make_rummy_player("random", s), 12)
    assert better["low"] <= better["mean"] <= better["high"] and better["mean"] > 0
    g = games(r, lambda s: make_rummy_player("heuristic", s), lambda s: make_rummy_player("random", s), 2)
    assert 0 <= g["a_wins"] <= 1
    assert interval([1.0, 1.0, 1.0]) == (1.0, 1.0, 1.0)
