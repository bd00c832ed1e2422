#!/usr/bin/env python3
"""A fingerprint of the rules: seeded random games in every preset, hashed position by position.

For each preset in ``canasta.variant_names("canasta")`` the script plays ``--games`` seeded random games through
the public API (``new_game``, ``legal_moves``, ``apply``), each up to ``--max-moves`` moves. At every
position it feeds a SHA-256 with the state's ``to_json()`` and the sorted notation of its legal moves,
then the index of the move chosen. A change to the engine that keeps the rules must leave the digest
unchanged: the same legal moves at every position, the same moves chosen, the same states.

It is a check to run by hand before and after a refactoring (it is not a test: it takes a minute or
two). Standard library only::

    python benchmarks/fingerprint.py                # one digest per preset, then the overall digest
    python benchmarks/fingerprint.py --games 2 --max-moves 1000   # a quicker look

The overall digest depends on the options, so quote them with it.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time

import canasta


def fingerprint(name: str, games: int, max_moves: int, seed: int) -> tuple[str, int]:
    """(hex digest, positions visited) for one preset."""
    rules = canasta.rules(name)
    digest = hashlib.sha256()
    positions = 0
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        state = canasta.new_game(rules, seed=seed * 7_919 + g)
        for _ in range(max_moves):
            digest.update(state.to_json().encode())
            positions += 1
            if canasta.is_over(state):
                digest.update(b"over")
                break
            legal = canasta.legal_moves(state)
            digest.update("|".join(sorted(str(m) for m in legal)).encode())
            if not legal:  # a position with no legal move (an engine bug): recorded, and the game ends
                print(f"  {name} game {g}: no legal move at {state.history[-4:]}", file=sys.stderr)
                break
            index = rng.randrange(len(legal))
            digest.update(str(index).encode())
            state = canasta.apply(state, legal[index])
        digest.update(b"--game--")
    return digest.hexdigest(), positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per preset (default 4)")
    parser.add_argument("--max-moves", type=int, default=3000, help="moves per game at most (default 3000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and choices (default 0)")
    parser.add_argument("--variant", action="append", help="only this preset (repeatable; default all)")
    args = parser.parse_args(argv)
    overall = hashlib.sha256()
    names = args.variant or canasta.variant_names("canasta")
    for name in names:
        start = time.perf_counter()
        hexdigest, positions = fingerprint(name, args.games, args.max_moves, args.seed)
        overall.update(f"{name}:{hexdigest}\n".encode())
        print(f"{name:<24} {hexdigest[:16]}  {positions:>7} positions  {time.perf_counter() - start:6.1f} s",
              flush=True)
    print(f"overall ({len(names)} presets, --games {args.games} --max-moves {args.max_moves} --seed {args.seed}): "
          f"{overall.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
