"""Computer players for the rummy family, by name. ``random`` is Canasta's own random player (it needs
nothing but the legal moves); ``greedy`` and ``heuristic`` (``rummy.heuristic``) meld and lay off the most
points they can, the heuristic planning its takes and discards further; ``search`` (``rummy.search``)
checks the heuristic by play-outs. A player sees only its seat's view (``canasta.view``) and the legal
moves, never the state."""

from __future__ import annotations

from ...rummy.presets import rules_of_view
from .. import Player
from ..random_player import RandomPlayer
from .heuristic import RummyGreedyPlayer, RummyHeuristicPlayer, Seen
from .search import RummySearchPlayer

__all__ = ["SEARCH_SAMPLES", "RummyGreedyPlayer", "RummyHeuristicPlayer", "RummySearchPlayer", "Seen",
           "make_rummy_player", "rules_of_view", "rummy_player_names"]


def rummy_player_names() -> list[str]:
    return ["greedy", "heuristic", "random", "search"]


# The search player's samples per decision at each level (docs/players.md, "The rummy family").
SEARCH_SAMPLES = {"hard": 8, "search": 8, "expert": 24}


def make_rummy_player(name: str, seed: int | None = None) -> Player:
    """A computer player for the rummy family by name: ``random``, ``greedy``, ``heuristic``, ``search``;
    the levels ``easy`` (greedy), ``medium`` (heuristic), ``hard`` (search, 8 sampled deals a decision)
    and ``expert`` (search, 24)."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key == "random":
        return RandomPlayer(seed)
    if key in ("greedy", "easy"):
        return RummyGreedyPlayer(seed)
    if key in ("heuristic", "medium"):
        return RummyHeuristicPlayer(seed)
    if key in SEARCH_SAMPLES:
        return RummySearchPlayer(seed, samples=SEARCH_SAMPLES[key])
    raise ValueError(f"unknown rummy player {name!r}; valid players: {', '.join(rummy_player_names())} "
                     "(levels: easy, medium, hard, expert)")
