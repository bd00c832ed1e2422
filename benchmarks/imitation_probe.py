#!/usr/bin/env python3
"""What limits the learned player's imitation of the heuristic (docs/strength.md, "The learned player").

The heuristic player plays ``--games`` whole games of Classic against itself (as stage 1 of
``examples/train_learned.py``); each of its decisions with more than one legal atom is an example. The same
examples train networks of each ``--hidden`` width on two inputs:

* ``plain``: the observation tensor of ``canasta.rl`` (what the ``learned`` player reads);
* ``history``: the same, plus the heuristic's own memory of the hand that the tensor does not carry: for
  each seat, the ranks it has discarded, and the ranks it drew rather than take a pile topped by, since it
  last took the pile (``canasta.bots.heuristic.Memory``, read from the seat's view).

Printed: the held-out agreement with the heuristic after each epoch (5 % of the examples, as the
example's imitation stage does) and, for each network, its wrong answers by the kind of atom the heuristic
chose (a discard, the head of a meld, a draw, ...)::

    python benchmarks/imitation_probe.py --games 400 --epochs 10 --hidden 256,512

Needs ``pip install 'canasta[rl,train]'``. Deterministic for a seed (one torch thread).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from train_learned import Net, Sparse, fit_features, hand_diffs, imitate

import canasta
from canasta.bots import make_player
from canasta.bots.heuristic import Memory
from canasta.engine import legal_moves
from canasta.rl import actions as A
from canasta.rl.observation import Layout
from canasta.rl.table import Table
from canasta.view import view


def memory_entries(memory: Memory, seat: int, players: int, at: int) -> dict[int, float]:
    """The memory's discarded and declined ranks of each seat (from ``seat`` round), as entries from ``at``."""
    entries: dict[int, float] = {}
    for j in range(players):
        s = (seat + j) % players
        for block, ranks in enumerate((memory.discarded[s], memory.declined[s])):
            for rank in ranks:
                if 0 <= rank < A.RANKS:
                    entries[at + (block * players + j) * A.RANKS + rank] = 1.0
    return entries


def sparse(entries: dict[int, float]) -> Sparse:
    return (np.fromiter(entries.keys(), np.int16, len(entries)),
            np.fromiter(entries.values(), np.float32, len(entries)))


def kind(atom: int) -> str:
    """The kind of an atom (canasta.rl.actions): a simple move's name, or discard / meld head / ..."""
    for base, name in ((A.DISCARD_BASE, "declare"), (A.COMBINE_BASE, "discard"), (A.MELD_BASE, "combine"),
                       (A.TAKE_BASE, "meld head"), (A.NUMBER_BASE, "take head")):
        if atom < base:
            return A.SIMPLE[atom] if atom < A.DECLARE_BASE else name
    return "number"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--hidden", default="256,512", help="widths of the networks, comma-separated")
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    rules = canasta.rules("classic")
    players, size = rules.players, Layout.for_rules(rules).size
    actions = A.ActionSpace.for_rules(rules).size
    black_threes_aside = rules.pile_black_threes == "bonus"
    plain: list[Sparse] = []
    history: list[Sparse] = []
    masks: list[list[int]] = []
    targets: list[int] = []
    values: list[float] = []
    started = time.time()
    for g in range(a.games):
        deal = a.seed * 100_000 + g
        table = Table(rules, deal, whole_game=True)
        heuristic = [make_player("heuristic", deal * 8 + s) for s in range(players)]
        memories = [Memory() for _ in range(players)]
        pending: list[tuple[int, int]] = []
        hand, moves = table.state.hand_number, 0
        while not table.terminal and moves < 5000:
            seat = table.to_move
            legal = legal_moves(table.state)
            seen = view(table.state, seat)
            memories[seat].update(seen, black_threes_aside)
            move = heuristic[seat].choose(seen, legal)
            if len(legal) == 1:
                table.play(move)
            else:
                remembered = memory_entries(memories[seat], seat, players, size)
                for atom in table.tree().encode(move):
                    legal_atoms = table.legal_actions()
                    if len(legal_atoms) > 1:
                        pending.append((len(targets), seat))
                        entries = dict(table.observation_entries(seat).values)
                        plain.append(sparse(entries))
                        history.append(sparse(entries | remembered))
                        masks.append(legal_atoms)
                        targets.append(atom)
                        values.append(0.0)
                    table.apply_action(atom)
            moves += 1
            if table.state.hand_number != hand or table.terminal:
                for i, s in pending:
                    values[i] = hand_diffs(table, s)
                pending, hand = [], table.state.hand_number
    print(f"{a.games} games, {len(targets)} examples, {time.time() - started:.0f} s", flush=True)
    n = len(targets)
    held = torch.randperm(n, generator=torch.Generator().manual_seed(a.seed))[: n // 20].tolist()  # as imitate's
    for hidden in (int(h) for h in a.hidden.split(",")):
        for name, observations, width in (("plain", plain, size), ("history", history, size + 2 * players * A.RANKS)):
            torch.manual_seed(a.seed)
            features = fit_features(observations, width)
            net = Net(len(features.inputs), actions, hidden)
            print(f"== {name}, {hidden} units: {len(features.inputs)} inputs", flush=True)
            imitate(net, features, (observations, masks, targets, values), actions, a.epochs, a.seed, sys.stdout)
            x = np.zeros((len(held), len(features.inputs)), np.float32)
            m = np.zeros((len(held), actions), np.bool_)
            for k, i in enumerate(held):
                features.row(dict(zip(observations[i][0].tolist(), observations[i][1].tolist(), strict=True)), x[k])
                m[k, masks[i]] = True
            with torch.no_grad():
                chosen = net(torch.from_numpy(x), torch.from_numpy(m))[0].argmax(-1).tolist()
            asked, wrong, instead = Counter[str](), Counter[str](), Counter[tuple[str, str]]()
            for k, i in enumerate(held):
                want = kind(targets[i])
                asked[want] += 1
                if chosen[k] != targets[i]:
                    wrong[want] += 1
                    instead[want, kind(chosen[k])] += 1
            errors = sum(wrong.values())
            for want, count in asked.most_common():
                print(f"   heuristic's {want:9s} {count:6d} held out, {wrong[want]:5d} answered otherwise "
                      f"({wrong[want] / count:.1%}; {wrong[want] / max(errors, 1):.1%} of the wrong answers)")
            print("   most frequent: " + ", ".join(f"{w} -> {c} {k}" for (w, c), k in instead.most_common(6)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
