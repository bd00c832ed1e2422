#!/usr/bin/env python3
"""This engine next to an outside Canasta written as an OpenSpiel Python game, on random play.

    git clone https://github.com/jhtschultz/canasta-openspiel DIR
    python benchmarks/openspiel_canasta.py DIR [--rounds 5] [--seconds 5] [--seed 0]

Both sides play random Classic games, each picking uniformly among its legal actions with a seeded
``random.Random``: this engine through its public API (``new_game``, ``legal_moves``, ``apply``), the
other through pyspiel's interface (``chance_outcomes``, ``legal_actions``, ``apply_action``; the deal is
its chance nodes). Both packages are called ``canasta``, so each round runs in its own process, the two
taking turns (this engine first in even rounds); a round plays for ``--seconds`` of CPU time. It prints
each side's median actions and hands per second and the median of the per-round ratios.

The two model a turn differently (what one plays as one action the other may split or join), so hands per
second is the fairer figure. A game of the other that reaches a position with nothing to choose (a chance
node with nothing left to deal, or a player with no legal action: random play reaches both) is stopped
there and counted with the actions it made and the hands it began.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

OURS = r"""
import json, random, sys, time
import canasta

def main(seconds, seed):
    rules = canasta.rules("classic")
    moves = hands = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        rng = random.Random(seed + games)
        state = canasta.new_game(rules, seed=seed + games)
        while True:  # a loop CPython 3.11 specializes (compare.py says why)
            if canasta.is_over(state):
                break
            state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
            moves += 1
        hands += state.hand_number
        games += 1
    return moves, hands, games, time.process_time() - start

print(json.dumps(main(float(sys.argv[1]), int(sys.argv[2]))))
"""

THEIRS = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[3])
from canasta.canasta_game import CanastaGame

def main(seconds, seed):
    game = CanastaGame()
    moves = hands = games = stopped = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        rng = random.Random(seed + games)
        state = game.new_initial_state()
        while True:
            if state.is_terminal():
                break
            if state.current_player() < 0:  # the chance player: the deal
                actions = [outcome for outcome, _ in state.chance_outcomes()]
            else:
                actions = state.legal_actions()
            if not actions:
                stopped += 1
                break
            action = rng.choice(actions)
            state.apply_action(action)
            moves += 1
        hands += state._hand_number
        games += 1
    return moves, hands, games, time.process_time() - start, stopped

print(json.dumps(main(float(sys.argv[1]), int(sys.argv[2]))))
"""


def run(code: str, seconds: float, seed: int, other: str) -> list[float]:
    out = subprocess.run([sys.executable, "-c", code, str(seconds), str(seed), other],
                         capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="a directory holding the other project's canasta package")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per side per round")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows: dict[str, list[tuple[float, float]]] = {"this engine": [], "the other": []}
    stopped = games = 0
    for r in range(args.rounds):
        order = [("this engine", OURS), ("the other", THEIRS)]
        for name, code in order if r % 2 == 0 else order[::-1]:
            result = run(code, args.seconds, args.seed, args.other)
            moves, hands, played, cpu = result[:4]
            rows[name].append((moves / cpu, hands / cpu))
            if name == "the other":
                stopped += int(result[4])
                games += int(played)
    print(f"random Classic play, {args.rounds} alternating rounds of {args.seconds:g} CPU seconds each; "
          f"the other's games stopped with nothing to choose: {stopped} of {games}")
    print(f"{'':14}{'actions/s':>12}{'hands/s':>10}")
    for name, values in rows.items():
        print(f"{name:14}{statistics.median(v[0] for v in values):12,.0f}"
              f"{statistics.median(v[1] for v in values):10,.1f}")
    ours, theirs = rows["this engine"], rows["the other"]
    for i, label in enumerate(("actions", "hands")):
        ratios = [a[i] / b[i] for a, b in zip(ours, theirs, strict=True)]
        spread = ", ".join(f"{x:.2f}" for x in ratios)
        print(f"this engine / the other, {label} per second: {statistics.median(ratios):.2f} ({spread})")


if __name__ == "__main__":
    main()
