#!/usr/bin/env python3
"""OpenSpiel's ``ISMCTSBot`` on ``python_canasta`` against this project's players (docs/strength.md).

Single hands of Classic on duplicate deals: deal *i* (the OpenSpiel chance outcome ``seed + i``) is
played twice, ISMCTS holding side 0 (seats 0 and 2) and then side 1 with the same cards, against
``--opponent`` (a ``canasta.players`` player, e.g. ``heuristic`` or ``search``) on the other side. ISMCTS
is OpenSpiel's own, unchanged: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a
``RandomRolloutEvaluator`` (random play-outs to the end of the hand), resampling hidden cards through
the game's ``resample_from_infostate`` (with a seeded sampler, so that a run repeats exactly). It plays atoms
(docs/rl.md); the project's player picks an
engine move from its view, played here as that move's atoms. Reported: the hand score difference
(ISMCTS side minus the other) per deal pair, its mean with a 95 % normal interval, and hands won::

    python benchmarks/ismcts.py --opponent heuristic --games 4 --simulations 30 --seed 0

Needs ``pip install 'canasta[rl]'``. Slow: every simulation plays a random hand to its end in Python.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import canasta.rl  # noqa: F401 - registers python_canasta
from canasta.canasta.engine import legal_moves
from canasta.canasta.view import view
from canasta.players import make_player, player_names


def play_hand(game: Any, deal: int, ismcts_side: int, opponent: str, simulations: int, seed: int) -> list[float]:
    """One hand; the returns per seat."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    # ISMCTSBot resamples with an unseeded pyspiel.UniformProbabilitySampler (a new random seed every decision),
    # which made runs differ; its own resampler hook with a seeded sampler makes a run repeat exactly.
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda s, player: s.resample_from_infostate(player, sampler))
    state = game.new_initial_state()
    state.apply_action(deal)
    rules = state.table.rules
    others = {s: make_player(opponent, seed * 8 + s) for s in range(rules.players)
              if rules.side_of(s) != ismcts_side}
    while not state.is_terminal():
        seat = state.current_player()
        table = state.table
        if seat in others:
            move = others[seat].choose(view(table.state, seat), legal_moves(table.state))
            for atom in table.tree().encode(move):
                state.apply_action(atom)
        elif len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
        else:
            state.apply_action(bot.step(state))
    return [float(r) for r in state.returns()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="OpenSpiel's ISMCTSBot against a canasta player, single hands.")
    p.add_argument("--opponent", default="heuristic", help=f"one of {', '.join(player_names())}")
    p.add_argument("--games", type=int, default=4, help="duplicate deals (each played twice)")
    p.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations per decision")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if a.opponent not in player_names():
        p.error(f"unknown opponent {a.opponent!r}; valid: {', '.join(player_names())}")
    if a.games < 1 or a.simulations < 1:
        p.error("--games and --simulations must be at least 1")
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "deals": 1 << 20})
    diffs, won, hands = [], 0.0, 0
    started = time.time()
    for i in range(a.games):
        deal = a.seed + i
        pair = 0.0
        for side in (0, 1):
            r = play_hand(game, deal, side, a.opponent, a.simulations, (deal * 2 + side) * 16)
            mine, theirs = r[side], r[1 - side]  # seats 0 and 1 are on sides 0 and 1
            pair += mine - theirs
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            hands += 1
        diffs.append(pair / 2)
        print(f"deal {deal}: ISMCTS minus {a.opponent} {pair / 2:+.0f} per hand ({time.time() - started:.0f} s)",
              flush=True)
    mean = statistics.mean(diffs)
    half = 1.959964 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    print(f"ISMCTS ({a.simulations} simulations) vs {a.opponent}: {a.games} deals, {hands} hands; points per hand "
          f"{mean:+.0f} [{mean - half:+.0f}, {mean + half:+.0f}]; hands won {won}/{hands}; "
          f"{time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
