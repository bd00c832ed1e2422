#!/usr/bin/env python3
"""What limits the learned player's imitation of the heuristic (docs/strength.md, "The learned player").

The heuristic player plays ``--games`` whole games of Classic against itself (stage 1 of
``examples/train_learned.py``, its ``imitation_data``); each of its decisions with more than one legal atom
is an example. The same examples train networks of each ``--hidden`` width on two inputs:

* ``plain``: the observation tensor of ``canasta.rl`` (what the ``learned`` player reads);
* ``history``: the same, plus the heuristic's own memory of the hand that the tensor does not carry: for
  each seat, the ranks it has discarded, and the ranks it drew rather than take a pile topped by, since it
  last took the pile (``canasta.players.heuristic.Memory``, read from the seat's view).

Printed: the held-out agreement with the heuristic after each epoch (5 % of the examples, as the
example's imitation stage does) and, for each network, its wrong answers by the kind of atom the heuristic
chose (a discard, a meld's head, a number, a draw, ...)::

    python benchmarks/imitation_probe.py --games 400 --epochs 10 --hidden 256,512

Needs ``pip install 'canasta[rl,train]'``. Deterministic for a seed (one torch thread).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from train_learned import Net, fit_features, imitate, imitation_data

import canasta
from canasta.players.heuristic import Memory
from canasta.rl.actions import RANKS, ActionSpace
from canasta.rl.observation import Layout


class Remembered:
    """``imitation_data``'s ``extra``: each seat's ``Memory`` of the hand, read from its views, as entries
    after the observation tensor's (from ``at``): discarded ranks, then declined ranks, seat by seat from the
    one to move."""

    def __init__(self, rules: canasta.Rules, at: int) -> None:
        self.players, self.at = rules.players, at
        self.black_threes_aside = rules.pile_black_threes == "bonus"
        self.memories = [Memory() for _ in range(rules.players)]

    @property
    def width(self) -> int:
        return 2 * self.players * RANKS

    def __call__(self, seat: int, view: dict[str, Any]) -> dict[int, float]:
        memory = self.memories[seat]
        memory.update(view, self.black_threes_aside)  # (a new hand or game resets it)
        entries: dict[int, float] = {}
        for j in range(self.players):
            s = (seat + j) % self.players
            for block, ranks in enumerate((memory.discarded[s], memory.declined[s])):
                for rank in ranks:
                    if 0 <= rank < RANKS:
                        entries[self.at + (block * self.players + j) * RANKS + rank] = 1.0
        return entries


def widths(text: str) -> list[int]:
    try:
        return [int(h) for h in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not comma-separated numbers of units: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--hidden", type=widths, default="256,512", help="widths of the networks, comma-separated")
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    rules = canasta.rules("classic")
    space, size = ActionSpace.for_rules(rules), Layout.for_rules(rules).size
    remembered = Remembered(rules, size)
    log = sys.stdout
    # the same games twice (a seed fixes every deal and move): the examples differ only in the added inputs
    inputs = {"plain": (imitation_data(rules, a.games, a.seed, "heuristic", log), size),
              "history": (imitation_data(rules, a.games, a.seed, "heuristic", log, extra=remembered),
                          size + remembered.width)}

    def kind(atom: int) -> str:  # (``ActionSpace.name``: "discard 9H", "meld on 9", "#3", ...)
        name = space.name(atom)
        return "number" if name.startswith("#") else name.split()[0]

    for hidden in a.hidden:
        for name, (data, width) in inputs.items():
            torch.manual_seed(a.seed)
            features = fit_features(data[0], width)
            net = Net(len(features.inputs), space.size, hidden)
            print(f"== {name}, {hidden} units: {len(features.inputs)} inputs", flush=True)
            held, chosen = imitate(net, features, data, space.size, a.epochs, a.seed, log)
            targets = data[2]
            asked, wrong, instead = Counter[str](), Counter[str](), Counter[tuple[str, str]]()
            for i, atom in zip(held, chosen, strict=True):
                want = kind(targets[i])
                asked[want] += 1
                if atom != targets[i]:
                    wrong[want] += 1
                    instead[want, kind(atom)] += 1
            errors = max(sum(wrong.values()), 1)
            for want, count in asked.most_common():
                print(f"   heuristic's {want:8s} {count:6d} held out, {wrong[want]:5d} answered otherwise "
                      f"({wrong[want] / count:.1%}; {wrong[want] / errors:.1%} of the wrong answers)")
            print("   most frequent: " + ", ".join(f"{w} -> {c} {k}" for (w, c), k in instead.most_common(6)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
