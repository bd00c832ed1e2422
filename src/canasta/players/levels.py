"""Difficulty levels and hints (issue "Strong computer players").

=========  ==========================================================================
level      player
=========  ==========================================================================
easy       ``greedy``: melds what it can, discards its least useful card
medium     ``heuristic``: the expert rule-based player (docs/players.md)
hard       ``search`` with 0.1 s per decision (determinized Monte Carlo)
expert     ``search`` with 1 s per decision
=========  ==========================================================================
"""

from __future__ import annotations

from typing import Any

from ..canasta.engine import legal_moves
from ..canasta.moves import Move
from ..canasta.state import State
from ..canasta.view import view
from . import Player, make_player

LEVELS = ("easy", "medium", "hard", "expert")
SEARCH_SECONDS = {"hard": 0.1, "expert": 1.0}


def level_player(level: str, seed: int | None = None) -> Player:
    """The player behind a difficulty level; an unknown level raises ``ValueError`` listing them."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown level {level!r}; valid levels: {', '.join(LEVELS)}")
    if key == "easy":
        return make_player("greedy", seed)
    if key == "medium":
        return make_player("heuristic", seed)
    from .search import SearchPlayer

    return SearchPlayer(seed, seconds=SEARCH_SECONDS[key])


def seat_player(name: str, seed: int | None = None) -> Player:
    """The computer player behind a seat name: a level or a player name (``ValueError`` for others)."""
    return level_player(name, seed) if name in LEVELS else make_player(name, seed)


def hint(state: State, seat: int, level: str = "medium", seed: int | None = None) -> tuple[Move, str]:
    """The move ``level``'s player would make for ``seat`` now, and a one-line reason. Like every
    player it sees only ``view(state, seat)``."""
    if state.to_move != seat:
        raise ValueError(f"it is seat {state.to_move}'s move, not seat {seat}'s")
    player = level_player(level, seed)
    seen: dict[str, Any] = view(state, seat)
    move = player.choose(seen, legal_moves(state))
    reason = getattr(player, "last_reason", None) or f"what the {level} player ({player.name}) would play"
    return move, reason
