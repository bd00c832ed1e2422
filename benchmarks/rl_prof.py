#!/usr/bin/env python3
"""One row of ``rl_speed.py`` run once, for callgrind (docs/rl.md, "Throughput").

The games are recorded first; the row then runs inside ``math.fsum(...)``, so that
``--toggle-collect=math_fsum`` counts the replay and nothing else (imports, recording and set-up left out:
the row runs once on no games first)::

    PYTHONPATH=DIR valgrind --tool=callgrind --toggle-collect=math_fsum \\
        python benchmarks/rl_prof.py pettingzoo classic 10

ROW is a row of ``rl_speed.py`` (``engine``, ``table``, ``pettingzoo``, ...) or of its ``--layers``;
then the preset and the number of games (dealt with ``--seed 0``). Divide the instructions by the moves
it prints.
"""

from __future__ import annotations

import gc
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rl_speed import LAYERS, RUNS, record

import canasta


def main() -> None:
    row, variant, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rules = canasta.rules(variant)
    recorded = record(rules, 0, games)
    run = {**LAYERS, **RUNS}[row]
    run(rules, [])  # imports and first-call set-up, outside the count
    gc.collect()  # as rl_speed.py does before each row
    math.fsum(run(rules, recorded) or 0.0 for _ in range(1))
    moves = sum(len(moves) for _, moves, _ in recorded)
    atoms = sum(len(a) for _, _, atoms in recorded for a in atoms)
    print(f"{row} {variant}: {games} games, {moves} moves, {atoms} atoms")


if __name__ == "__main__":
    main()
