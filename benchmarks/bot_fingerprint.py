#!/usr/bin/env python3
"""A fingerprint of the computer players' decisions: seeded games, hashed move by move.

For each player (``greedy``, ``heuristic``, and ``search`` with a fixed number of samples per decision,
so that it does not depend on the machine's speed) and each preset given, the script plays ``--games``
seeded games with that player in every seat, through the public API (``new_game``, ``view``,
``legal_moves``, ``apply``), each up to ``--max-moves`` moves, and feeds a SHA-256 with every move
chosen (its notation) and, at every hand's end, the scores. A change that speeds the players up without
changing what they play must leave every digest unchanged::

    python benchmarks/bot_fingerprint.py                      # the default set: a minute or two
    python benchmarks/bot_fingerprint.py --player heuristic --variant samba --games 4

Standard library only. The digests depend on the options, so quote them with them. The ``search`` line
uses ``SearchPlayer(seed, seconds=None, iterations=--samples)``: the ``hard`` and ``expert`` levels think
for a fixed time instead, which no fingerprint can pin down.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time

import canasta
from canasta.players import Player, make_player
from canasta.players.search import SearchPlayer

PLAYERS = ("greedy", "heuristic", "search")
VARIANTS = ("classic", "samba", "modern-american", "hand-and-foot", "cutthroat")


def build(name: str, seed: int, samples: int) -> Player:
    if name == "search":
        return SearchPlayer(seed, seconds=None, iterations=samples)
    return make_player(name, seed)


def fingerprint(player: str, variant: str, games: int, max_moves: int, seed: int, samples: int) -> tuple[str, int]:
    """(hex digest, moves played) for one player in one preset."""
    rules = canasta.rules(variant)
    digest = hashlib.sha256()
    moves = 0
    for g in range(games):
        state = canasta.new_game(rules, seed=seed * 7_919 + g)
        bots = [build(player, seed * 101 + g * 11 + s, samples) for s in range(rules.players)]
        for _ in range(max_moves):
            if canasta.is_over(state):
                break
            seat = state.to_move
            move = bots[seat].choose(canasta.view(state, seat), canasta.legal_moves(state))
            digest.update(f"{seat} {move}\n".encode())
            hand = state.hand_number
            state = canasta.apply(state, move)
            moves += 1
            if state.hand_number != hand or canasta.is_over(state):
                digest.update(f"scores {list(state.scores)}\n".encode())
        digest.update(b"--game--\n")
    return digest.hexdigest(), moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", action="append", choices=PLAYERS, help="only this player (repeatable)")
    parser.add_argument("--variant", action="append",
                        help=f"only this preset (repeatable; default {', '.join(VARIANTS)})")
    parser.add_argument("--games", type=int, default=2, help="games per player and preset (default 2)")
    parser.add_argument("--max-moves", type=int, default=600, help="moves per game at most (default 600)")
    parser.add_argument("--search-max-moves", type=int, default=150,
                        help="moves per game at most for the search player (default 150)")
    parser.add_argument("--samples", type=int, default=6, help="the search player's samples per decision (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    variants = args.variant or list(VARIANTS)
    for name in variants:
        canasta.rules(name)  # an unknown preset fails here, with the list of valid ones
    overall = hashlib.sha256()
    for player in args.player or PLAYERS:
        for variant in variants:
            cap = args.search_max_moves if player == "search" else args.max_moves
            start = time.perf_counter()
            hexdigest, moves = fingerprint(player, variant, args.games, cap, args.seed, args.samples)
            overall.update(f"{player}/{variant}:{hexdigest}\n".encode())
            print(f"{player:<10} {variant:<18} {hexdigest[:16]}  {moves:>6} moves  "
                  f"{time.perf_counter() - start:6.1f} s", flush=True)
    print(f"overall (--games {args.games} --max-moves {args.max_moves} --search-max-moves "
          f"{args.search_max_moves} --samples {args.samples} --seed {args.seed}): {overall.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
