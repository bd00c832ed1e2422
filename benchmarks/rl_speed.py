#!/usr/bin/env python3
"""Throughput of the rl environments next to the engine's own, on the same games (docs/rl.md).

Random players pick uniformly from ``canasta.legal_moves`` with a seeded ``random.Random``; game *g* is
dealt with seed ``SEED * 1000 + g`` and played to the end of its first hand. Those move lists are then
replayed, untimed setup aside, through:

* ``engine``: ``canasta.legal_moves(state)`` then ``canasta.apply(state, move)``, per move;
* ``table``: ``canasta.rl.Table`` (the layer under the three APIs): legal atoms, then ``apply_action``
  for each atom of the move;
* ``openspiel``: ``state.legal_actions()`` and ``state.apply_action(atom)`` per atom; then the same with
  the acting player's observation read before each atom, as a learner would, through
  ``state.observation_tensor(player)`` (a Python list each time) and through OpenSpiel's observer
  (``make_observation(game).set_from(state, player)``, a numpy array filled in place);
* ``pettingzoo``: ``env.last()`` (observation and mask) and ``env.step(atom)`` per atom;
* ``gymnasium``: ``SingleAgentEnv``'s ``step(atom)`` (which returns seat 0's observation and mask) per atom of
  seat 0, the other seats played by the environment through the players' interface (``view`` of their seat,
  ``legal_moves``, ``choose``) with players that return the game's recorded moves.

The games are the same in every row, so the engine's cost per move is the same work in each: the
*overhead* is (row's time per move - engine's time per move) / engine's time per move. Rounds alternate
the rows (engine, table, openspiel, ..., engine, table, ...) and the median round is quoted, so that
load on a shared machine hits every row alike; the times are the process's CPU time (``time.process_time``),
which time spent waiting for a busy CPU does not inflate. Each row starts after ``gc.collect()``, so the
collector's young generations hold nothing of the rows before it (or of the recording). Usage::

    python benchmarks/rl_speed.py --games 20 --rounds 5 --seed 0 [--variant classic] [--layers]

``--layers`` times the PettingZoo step piece by piece instead: the engine, then the legal tree of each
position, the table's stepping, the known cards, the observation encoder, the numpy observation and mask,
and the environment itself, each row adding one piece to the row before.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import canasta
from canasta.canasta.moves import Move
from canasta.players import Player
from canasta.rl.table import Table

Game = tuple[int, list[Move], list[list[int]]]  # seed, engine moves, the atoms of each move


def record(rules: canasta.Rules, seed: int, games: int) -> list[Game]:
    """Random first hands, with each move's atoms (found by replaying through a Table)."""
    out = []
    for g in range(games):
        deal = seed * 1000 + g
        rng = random.Random(deal)
        state = canasta.new_game(rules, seed=deal)
        moves = []
        while not canasta.is_over(state) and state.hand_number == 1:
            move = rng.choice(canasta.legal_moves(state))
            moves.append(move)
            state = canasta.apply(state, move)
        table = Table(rules, deal)
        atoms = []
        for move in moves:
            atoms.append(list(table.tree().encode(move)))
            table.play(move)
        out.append((deal, moves, atoms))
    return out


def run_engine(rules: canasta.Rules, games: list[Game]) -> None:
    for deal, moves, _ in games:
        state = canasta.new_game(rules, seed=deal)
        for move in moves:
            canasta.legal_moves(state)
            state = canasta.apply(state, move)


def run_table(rules: canasta.Rules, games: list[Game]) -> None:
    for deal, _, atoms in games:
        table = Table(rules, deal)
        for move_atoms in atoms:
            for atom in move_atoms:
                table.legal_actions()
                table.apply_action(atom)


def _openspiel(rules: canasta.Rules, games: list[Game], observe: str) -> None:
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_canasta", {"variant": rules.name, "deals": 1 << 20})
    observer = make_observation(game)
    for deal, _, atoms in games:
        state = game.new_initial_state()
        state.apply_action(deal)
        for move_atoms in atoms:
            for atom in move_atoms:
                if observe == "tensor":
                    state.observation_tensor(state.current_player())
                elif observe == "observer":
                    observer.set_from(state, state.current_player())
                state.legal_actions()
                state.apply_action(atom)


def run_openspiel(rules: canasta.Rules, games: list[Game]) -> None:
    _openspiel(rules, games, "")


def run_openspiel_tensor(rules: canasta.Rules, games: list[Game]) -> None:
    _openspiel(rules, games, "tensor")


def run_openspiel_observer(rules: canasta.Rules, games: list[Game]) -> None:
    _openspiel(rules, games, "observer")


def run_pettingzoo(rules: canasta.Rules, games: list[Game]) -> None:
    from canasta.rl.pettingzoo_env import raw_env

    env = raw_env(rules.name)
    for deal, _, atoms in games:
        env.reset(options={"deal": deal})
        for move_atoms in atoms:
            for atom in move_atoms:
                env.last()
                env.step(atom)


class _Replay(Player):
    """The other seats of the Gymnasium row: each plays the game's next recorded move (reading nothing of its
    view, so a lean view: the row times the environment, not a player's reading)."""

    lean_views = True

    def __init__(self) -> None:
        self.moves: list[canasta.Move] = []
        self.at = 0

    def choose(self, view: dict[str, Any], legal: list[canasta.Move]) -> canasta.Move:
        move = self.moves[self.at]
        self.at += 1
        return move


def run_gymnasium(rules: canasta.Rules, games: list[Game]) -> None:
    from canasta.rl.gym_env import SingleAgentEnv

    replay = _Replay()
    env = SingleAgentEnv(rules.name, seat=0, opponents=replay)
    for deal, moves, atoms in games:
        replay.moves, replay.at = moves, 0
        env.reset(options={"deal": deal})  # the other seats play up to seat 0's first move
        done = False
        while not done:
            move_atoms = atoms[replay.at]
            replay.at += 1  # (the last atom's step plays the other seats' moves after this one)
            for atom in move_atoms:
                _, _, done, _, _ = env.step(atom)


def run_tree(rules: canasta.Rules, games: list[Game]) -> None:
    """The engine's moves with the table's legal tree of every position (its legal moves, as atoms)."""
    for deal, moves, _ in games:
        table = Table(rules, deal)
        for move in moves:
            table.tree()
            table.state = canasta.apply(table.state, move)


def run_known(rules: canasta.Rules, games: list[Game]) -> None:
    """``table`` with the cards known in hands read before every atom (what an observation needs)."""
    for deal, _, atoms in games:
        table = Table(rules, deal)
        for move_atoms in atoms:
            for atom in move_atoms:
                table.known_ranks()
                table.legal_actions()
                table.apply_action(atom)


def run_encoder(rules: canasta.Rules, games: list[Game]) -> None:
    """``known`` with the acting seat's observation written into its buffer (no numpy, no mask)."""
    from canasta.rl.encoder import DenseEncoder

    for deal, _, atoms in games:
        table = Table(rules, deal)
        encoder = DenseEncoder(table.layout)
        for move_atoms in atoms:
            for atom in move_atoms:
                encoder.encode(table.state, table.to_move, table.prefix, table.known_ranks())
                table.legal_actions()
                table.apply_action(atom)


def run_observe(rules: canasta.Rules, games: list[Game]) -> None:
    """What PettingZoo hands out every step (numpy observation and mask, copied) and the atom played,
    without the environment's own bookkeeping."""
    from canasta.rl.spaces import observe

    for deal, _, atoms in games:
        table = Table(rules, deal)
        for move_atoms in atoms:
            for atom in move_atoms:
                observe(table, table.to_move)
                table.apply_action(atom)


RUNS: dict[str, Callable[[canasta.Rules, list[Game]], None]] = {
    "engine": run_engine, "table": run_table, "openspiel": run_openspiel,
    "openspiel+tensor": run_openspiel_tensor, "openspiel+observer": run_openspiel_observer,
    "pettingzoo": run_pettingzoo, "gymnasium": run_gymnasium,
}
# Layers, each adding one piece of the PettingZoo step to the one before (--layers): the difference
# between a row and the one above it is that piece's cost.
LAYERS: dict[str, Callable[[canasta.Rules, list[Game]], None]] = {
    "engine": run_engine, "legal tree": run_tree, "table": run_table, "known cards": run_known,
    "encoder": run_encoder, "observe (numpy)": run_observe, "pettingzoo": run_pettingzoo,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Steps per second through the rl APIs next to the engine's moves.")
    parser.add_argument("--games", type=int, default=20, help="random first hands to replay (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; the median is quoted (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="classic", help="a preset (default classic)")
    parser.add_argument("--layers", action="store_true",
                        help="time the PettingZoo step layer by layer instead (engine, legal tree, table, known "
                             "cards, encoder, numpy observation and mask, pettingzoo): where the overhead goes")
    parser.add_argument("--only", metavar="ROW",
                        help="run only this row (of the --layers rows with --layers), e.g. under callgrind: "
                             "valgrind --tool=callgrind --toggle-collect=CPyDef_encoder___DenseEncoder___encode "
                             "python benchmarks/rl_speed.py --layers --only encoder --rounds 1")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    try:
        rules = canasta.rules(args.variant)
    except ValueError as exc:
        parser.error(str(exc))
    games = record(rules, args.seed, args.games)
    moves = sum(len(m) for _, m, _ in games)
    atoms = sum(len(a) for _, _, g in games for a in g)
    runs = LAYERS if args.layers else RUNS
    if args.only is not None:
        if args.only not in runs:
            parser.error(f"--only: no row {args.only!r} (rows: {', '.join(runs)})")
        runs = {"engine": run_engine, args.only: runs[args.only]}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            gc.collect()  # every row starts with nothing left for the collector by the rows before it
            start = time.process_time()
            run(rules, games)
            times[name].append(time.process_time() - start)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent).stdout.strip() or "?"
    print(f"python {platform.python_version()} on {platform.platform()}; commit {commit}")
    print(f"{args.variant}: {args.games} first hands, {moves} engine moves, {atoms} atoms "
          f"({atoms / moves:.2f} per move); median of {args.rounds} alternating rounds")
    engine = statistics.median(times["engine"]) / moves
    print(f"{'':24}{'atoms/s':>10}{'moves/s':>10}{'us/move':>10}{'overhead':>10}"
          + (f"{'layer us':>10}" if args.layers else ""))
    previous = 0.0
    for name, values in times.items():
        t = statistics.median(values)
        per_move = t / moves
        overhead = (per_move - engine) / engine
        row: list[Any] = [f"{name:24}", f"{atoms / t if name != 'engine' else float('nan'):10.0f}",
                          f"{moves / t:10.0f}", f"{per_move * 1e6:10.1f}", f"{overhead:9.2f}x"]
        if args.layers:  # what this layer adds to the one above (noisy: a difference of two medians)
            row.append(f"{(per_move - previous) * 1e6:10.1f}")
            previous = per_move
        print("".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
