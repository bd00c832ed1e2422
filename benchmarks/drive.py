"""Random seeded games through the public API, for callgrind: python benchmarks/drive.py PRESET MOVES [SEED].

The game loop of compare.py's worker (games stopped at 3,000 moves), stopped after exactly MOVES moves (the fifth
round's driver in README.md played the last game to its end: 30,445 moves for 30000 in Classic). Compiled
build: count only the engine with --toggle-collect=CPyDef_api___legal_moves
--toggle-collect=CPyDef_api___apply (CPyPy_api___… up to 50ce9e3, before canasta.dispatch was compiled and
called the engine natively). Whole run (what the timed benchmark pays for, the engine's deallocations and
garbage collections included): count it and subtract the same with MOVES 0 (imports and set-up).

The loop is a function, as in compare.py's worker: at module level every name is a dict look-up, which added
about 2,000 instructions per move to the whole-run count up to 5cc1f3b (Classic, compiled). Its inner loop is
"while True" (compare.py says why: up to 50ce9e3 CPython 3.11 never specialized it, about 1,500 instructions
per move).
"""
import random
import sys

import canasta


def play(preset: str, total: int, seed: int) -> int:
    """Moves made: exactly ``total`` unless every game stops early."""
    rules = canasta.rules(preset)
    moves = 0
    while moves < total:
        rng = random.Random(seed)
        state = canasta.new_game(rules, seed=seed)
        n = 0
        while True:  # an unconditional jump back, so that CPython 3.11 specializes the loop (compare.py)
            if canasta.is_over(state) or n >= 3000 or moves + n >= total:
                break
            legal = canasta.legal_moves(state)
            if not legal:
                break
            state = canasta.apply(state, rng.choice(legal))
            n += 1
        moves += n
        seed += 1
    return moves


if __name__ == "__main__":
    preset, total = sys.argv[1], int(sys.argv[2])
    made = play(preset, total, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    print(preset, made, "moves", "compiled" if canasta.is_compiled() else "interpreted", file=sys.stderr)
