"""The rummy family's PettingZoo step next to the engine's own move (docs/rl.md, "Throughput"): random first
hands of a preset through ``canasta.apply`` alone, then through ``canasta.rl.env`` with each step's observation
and mask, in CPU time per move and per step.

    python benchmarks/rl_rummy_speed.py [--variant 500-rum] [--deals 20]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import canasta
import canasta.rl


def engine_seconds_per_move(variant: str, deals: int) -> float:
    rules, moves, start = canasta.rules(variant), 0, time.process_time()
    for deal in range(deals):
        state, rng = canasta.new_game(rules, deal), random.Random(deal)
        while state.hand_number == 1 and not canasta.is_over(state):
            state, moves = canasta.apply(state, rng.choice(canasta.legal_moves(state))), moves + 1
    return (time.process_time() - start) / moves


def pettingzoo_seconds_per_step(variant: str, deals: int) -> float:
    env, rng, steps, start = canasta.rl.env(variant), np.random.default_rng(0), 0, time.process_time()
    for deal in range(deals):
        env.reset(seed=deal)
        for _agent in env.agent_iter():
            obs, _, over, cut, _ = env.last()
            env.step(None if over or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return (time.process_time() - start) / steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="500-rum")
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args(argv)
    engine = engine_seconds_per_move(args.variant, args.deals)
    step = pettingzoo_seconds_per_step(args.variant, args.deals)
    print(f"engine {engine * 1e6:.0f} us a move, PettingZoo {step * 1e6:.0f} us a step")


if __name__ == "__main__":
    main()
