#!/usr/bin/env python3
"""Speed benchmark: random players play whole games (Classic, or --variant NAME) through the public API.

Every player picks uniformly from ``canasta.legal_moves(state)`` with a seeded ``random.Random``,
so a run is reproducible move for move. The script measures, in one process and one thread:

* hands per second and moves per second over the whole run (dealing, choosing and applying);
* the average number of moves (``apply`` calls, including ``ask``/``yes``/``no``) per hand;
* the mean cost of ``canasta.legal_moves(state)``, timed on the first call on each new state
  (``legal_moves`` caches its list on the state object, so later calls would be nearly free);
* the mean cost of ``canasta.apply(state, move)`` on the chosen legal move.

Standard library only. Usage::

    python benchmarks/speed.py --games 100 --seed 0

Figures depend on the machine, the Python build and the engine version: quote them with the
command and the Python/platform lines the script prints.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

import canasta


def play_game(game_seed: int, rng: random.Random, rules: canasta.Rules, max_moves: int,
              legal_ns: list[int], apply_ns: list[int]) -> tuple[int, int, bool]:
    """Play one game; returns (hands played, moves applied, finished)."""
    clock = time.perf_counter_ns
    state = canasta.new_game(rules, seed=game_seed)
    moves = 0
    while not canasta.is_over(state):
        if moves >= max_moves:
            return state.hand_number, moves, False
        t0 = clock()
        legal = canasta.legal_moves(state)  # first call on this state: not cached
        t1 = clock()
        move = rng.choice(legal)
        t2 = clock()
        state = canasta.apply(state, move)
        t3 = clock()
        legal_ns.append(t1 - t0)
        apply_ns.append(t3 - t2)
        moves += 1
    result = canasta.outcome(state)
    assert result is not None
    return int(result["hands"]), moves, True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time random games (Classic, or any preset) through the canasta API.")
    parser.add_argument("--games", type=int, default=100, help="number of whole games to play (default 100)")
    parser.add_argument("--variant", default="classic", help="the preset to play (default classic)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed for the deals and the players' choices (default 0)")
    parser.add_argument("--max-moves", type=int, default=200_000,
                        help="give up on a game after this many moves (default 200000)")
    parser.add_argument("--cpu", type=int, default=None,
                        help="pin the process to this CPU first (Linux only)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    if args.cpu is not None:
        if not hasattr(os, "sched_setaffinity"):
            parser.error("--cpu needs os.sched_setaffinity (Linux)")
        os.sched_setaffinity(0, {args.cpu})

    rules = canasta.rules(args.variant)
    rng = random.Random(args.seed)
    legal_ns: list[int] = []
    apply_ns: list[int] = []
    hands = moves = unfinished = 0
    start = time.perf_counter()
    for g in range(args.games):
        h, m, finished = play_game(args.seed * 1_000_003 + g, rng, rules, args.max_moves, legal_ns, apply_ns)
        hands += h
        moves += m
        unfinished += not finished
    wall = time.perf_counter() - start

    def us(values: list[int]) -> tuple[float, float]:
        return statistics.fmean(values) / 1000, statistics.median(values) / 1000

    legal_mean, legal_median = us(legal_ns)
    apply_mean, apply_median = us(apply_ns)
    figures = {
        "command": " ".join(["python", "benchmarks/speed.py", *(argv if argv is not None else sys.argv[1:])]),
        "canasta": canasta.__version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "cpus_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "games": args.games,
        "unfinished_games": unfinished,
        "seed": args.seed,
        "hands": hands,
        "moves": moves,
        "wall_seconds": round(wall, 3),
        "hands_per_second": round(hands / wall, 2),
        "moves_per_second": round(moves / wall, 1),
        "moves_per_hand": round(moves / hands, 1),
        "legal_moves_mean_us": round(legal_mean, 1),
        "legal_moves_median_us": round(legal_median, 1),
        "apply_mean_us": round(apply_mean, 1),
        "apply_median_us": round(apply_median, 1),
        "api_share_of_wall": round((sum(legal_ns) + sum(apply_ns)) / 1e9 / wall, 3),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0

    rows = [
        ("games (unfinished)", f"{args.games} ({unfinished})"),
        ("hands", f"{hands}"),
        ("moves", f"{moves}"),
        ("wall time", f"{wall:.2f} s"),
        ("hands/s", f"{hands / wall:.2f}"),
        ("moves/s", f"{moves / wall:,.0f}"),
        ("moves per hand (avg)", f"{moves / hands:.1f}"),
        ("legal_moves, first call", f"{legal_mean:.1f} µs mean, {legal_median:.1f} µs median"),
        ("apply", f"{apply_mean:.1f} µs mean, {apply_median:.1f} µs median"),
        ("legal_moves + apply", f"{figures['api_share_of_wall']:.0%} of wall time"),
    ]
    print(f"canasta {canasta.__version__} speed benchmark: random players, {rules.name}, seed {args.seed}, one process")
    print(f"python   {figures['python']}")
    print(f"platform {figures['platform']} ({figures['machine']}, {figures['processor']}, "
          f"{figures['cpus_available']} CPUs available{'' if args.cpu is None else f', pinned to CPU {args.cpu}'})")
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
