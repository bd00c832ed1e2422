"""Decisions per second of each computer player and level, and the search player's samples/s.

Usage: python benchmarks/players.py [--games N] [--seed S]

Each player takes every seat of seeded Classic games (all four seats the same player), one core.
The search levels are timed on a sample of decisions (they think for a fixed time per searched decision),
and the search player's sampling speed on one discard decision.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import canasta
from canasta.bots import make_player, player_names
from canasta.bots.levels import LEVELS, level_player
from canasta.bots.search import SearchPlayer


def play(players: list[canasta.bots.Player], seed: int, max_decisions: int | None = None) -> tuple[int, float, int]:
    """(decisions, seconds spent choosing, hands) for one game, or until max_decisions."""
    state = canasta.new_game(canasta.rules(), seed=seed)
    decisions, spent, hands, hand = 0, 0.0, 0, state.hand_number
    while not canasta.is_over(state) and (max_decisions is None or decisions < max_decisions):
        seen, legal = canasta.view(state, state.to_move), canasta.legal_moves(state)
        start = time.perf_counter()
        move = players[state.to_move].choose(seen, legal)
        spent += time.perf_counter() - start
        decisions += 1
        state = canasta.apply(state, move)
        if state.hand_number != hand or canasta.is_over(state):
            hands, hand = hands + 1, state.hand_number
    return decisions, spent, hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(f"canasta {canasta.__version__} player benchmark: Classic, seed {a.seed}, one process")
    print(f"python   {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    print(f"{'player':<22}{'decisions':>10}{'decisions/s':>14}{'s per game':>12}")
    for name in player_names():
        total = spent = 0.0
        wall = time.perf_counter()
        for g in range(a.games):
            d, s, _ = play([make_player(name, a.seed + i) for i in range(4)], a.seed + g)
            total, spent = total + d, spent + s
        per_game = (time.perf_counter() - wall) / a.games
        print(f"{name:<22}{int(total):>10}{total / spent:>14,.0f}{per_game:>12.3f}")
    for level in LEVELS:
        if level in ("easy", "medium"):
            continue
        players = [level_player(level, a.seed + i) for i in range(4)]
        d, s, _ = play(players, a.seed, max_decisions=20 if level == "hard" else 4)
        print(f"{'level ' + level:<22}{d:>10}{d / s:>14,.1f}{'':>12}")
    state, view, legal = searched_decision(a.seed)
    search = SearchPlayer(a.seed, seconds=None, iterations=20)
    start = time.perf_counter()
    search.choose(view, legal)
    took = time.perf_counter() - start
    print(f"search: {20 / took:,.1f} samples/s on a discard decision of hand {state.hand_number} "
          f"({search.max_candidates} candidates, play-outs of up to {search.horizon} moves)")


def searched_decision(seed: int) -> tuple[canasta.State, dict[str, Any], list[canasta.Move]]:
    """The first position of a seeded heuristic game where the heuristic discards with a choice of cards
    (a decision the search player searches)."""
    state = canasta.new_game(canasta.rules(), seed=seed)
    bots = [make_player("heuristic", seed + i) for i in range(4)]
    while True:
        view, legal = canasta.view(state, state.to_move), canasta.legal_moves(state)
        move = bots[state.to_move].choose(view, legal)
        if move.action == "discard" and sum(m.action == "discard" for m in legal) > 1:
            return state, view, legal
        state = canasta.apply(state, move)

if __name__ == "__main__":
    main()
