"""Shared helper for the engine's quick-path tests (test_variant_paths.py, test_search_step.py,
test_generate_paths.py): positions of a few seeded random games through the public API."""

from __future__ import annotations

import random

import canasta
from canasta.canasta.state import PLAY_PHASE, State


def random_positions(variant: str, games: int, moves: int, first_seed: int = 0) -> list[State]:
    """The position before each move of ``games`` random games (game ``g`` dealt and played from seed
    ``first_seed + g``, at most ``moves`` moves each); a finished game's last position is left out."""
    rules = canasta.rules(variant)
    out: list[State] = []
    for g in range(games):
        rng = random.Random(first_seed + g)
        state = canasta.new_game(rules, seed=first_seed + g)
        for _ in range(moves):
            if canasta.is_over(state):
                break
            out.append(state)
            legal = canasta.legal_moves(state)
            if not legal:
                break
            state = canasta.apply(state, rng.choice(legal))
    return out


def play_positions(variant: str, games: int, moves: int, first_seed: int = 0) -> list[State]:
    """``random_positions`` in the play phase only."""
    return [s for s in random_positions(variant, games, moves, first_seed) if s.phase == PLAY_PHASE]
