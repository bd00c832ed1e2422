"""Random seeded games through the public API, for callgrind: python benchmarks/drive.py PRESET MOVES [SEED].

The loop of compare.py's worker (games stopped at 3,000 moves), stopped after exactly MOVES moves (the fifth
round's driver in README.md played the last game to its end: 30,445 moves for 30000 in Classic). Compiled
build: count only the engine with --toggle-collect=CPyPy_api___legal_moves
--toggle-collect=CPyPy_api___apply. Interpreted: count the whole run and subtract the same with MOVES 0
(imports and set-up).
"""
import random
import sys

import canasta

preset, total = sys.argv[1], int(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
rules = canasta.rules(preset)
moves = 0
while moves < total:
    rng = random.Random(seed)
    state = canasta.new_game(rules, seed=seed)
    n = 0
    while not canasta.is_over(state) and n < 3000 and moves + n < total:
        legal = canasta.legal_moves(state)
        if not legal:
            break
        state = canasta.apply(state, rng.choice(legal))
        n += 1
    moves += n
    seed += 1
print(preset, moves, "moves", "compiled" if canasta.is_compiled() else "interpreted", file=sys.stderr)
