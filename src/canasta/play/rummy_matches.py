"""Deprecated: ``canasta simulate`` and ``canasta tournament`` play every family through the same code now,
``canasta.play.simulate`` and ``canasta.play.arena`` (which ask the game's family for its players). This module
keeps its old calls for code that used them; new code should call those modules directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..rummy import RummyRules
from . import arena
from . import simulate as _simulate
from .simulate import play_one, seat_players

TOURNAMENT_FORMAT = arena.FORMAT
format_tournament = arena.format_table


def simulate(rules: RummyRules, games_: int, seed: int = 0, jobs: int = 1, players: Sequence[str] = ("greedy",),
             records_dir: str | Path | None = None, progress: bool | str = True, stream: TextIO | None = None,
             max_moves: int = 200_000) -> dict[str, Any]:
    """``canasta.play.simulate.simulate`` with these rules."""
    return _simulate.simulate(games_, seed=seed, jobs=jobs, players=players, rules=rules, records_dir=records_dir,
                              progress=progress, stream=stream, max_moves=max_moves)


def tournament(rules: RummyRules, players: Sequence[str], deals: int, seed: int = 0, *, hands: int = 0,
               jobs: int = 0, progress: bool | str = True, stream: TextIO | None = None) -> dict[str, Any]:
    """``canasta.play.arena.run_tournament`` with these rules."""
    return arena.run_tournament(players, deals, seed, rules=rules, hands=hands, jobs=jobs, progress=progress,
                                stream=stream)


__all__ = ["TOURNAMENT_FORMAT", "format_tournament", "play_one", "seat_players", "simulate", "tournament"]
