"""What the PettingZoo and Gymnasium environments need of a game family, so that one environment class plays
every preset of ``canasta.rules`` (docs/rl.md): the family's table (a game as the environments play it), the
sizes of its action and observation spaces, the observation dict of a seat, and its computer players.

Canasta's table (``canasta.rl.Table``) writes its observations through compiled encoders; the rummy family's
(``canasta.rl.rummy_table.RummyTable``) reads them from the seat's view. A new family adds one ``Family``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces

from .. import Rules, RummyRules, view
from ..canasta.view import lean_view
from ..play.family import PlayFamily, play_family
from ..players import Player
from ..players.levels import LEVELS
from ..presets import game_rules
from .actions import ActionSpace
from .observation import Layout
from .rummy_actions import RummyActionSpace
from .rummy_observation import RummyLayout
from .rummy_table import RummyTable
from .spaces import observation_space
from .table import Table
from .tensor import observe as observe_canasta

Opponent = str | Player
Array = np.ndarray[Any, Any]


class GameTable(Protocol):
    """The part of a family's table the environments use (``canasta.rl.Table``, ``RummyTable``)."""

    state: Any
    moves: int

    @property
    def terminal(self) -> bool: ...
    @property
    def to_move(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> object: ...
    def play(self, move: Any) -> None: ...
    def returns(self) -> list[float]: ...
    def observation_string(self, seat: int) -> str: ...


@dataclass(frozen=True)
class Family:
    rules: Rules | RummyRules
    action_size: int
    observation_size: int
    table: Callable[[int, bool], GameTable]  # (deal, whole_game) -> a new game
    observe: Callable[[Any, int], dict[str, Array]]  # (table, seat) -> {"observation", "action_mask"}
    seen: Callable[[Player, Any, int], Any]  # what a computer player is shown: (player, state, seat) -> view
    play: PlayFamily  # the play layer's family: its computer players by name

    @property
    def observation_space(self) -> spaces.Dict:
        return observation_space(self.observation_size, self.action_size)

    def player(self, opponent: Opponent, seed: int) -> Player:
        """A computer player for a seat: a level, a player name, or the caller's own ``Player`` (kept)."""
        if isinstance(opponent, Player):
            return opponent
        if not isinstance(opponent, str):
            raise ValueError(f"an opponent is a level, a player name or a Player object, got {opponent!r}")
        try:
            return self.play.make_player(opponent.strip().lower(), seed)
        except ValueError:
            raise ValueError(f"unknown opponent {opponent!r}; levels: {', '.join(LEVELS)}; "
                             f"players: {', '.join(self.play.player_names())}") from None


def family(variant: str, **options: Any) -> Family:
    """The family of ``canasta.rules(variant, **options)`` (a bad variant or option: the engine's
    ``ValueError``)."""
    rules = game_rules(variant, **options)
    if isinstance(rules, RummyRules):
        return Family(rules, RummyActionSpace.for_rules(rules).size, RummyLayout.for_rules(rules).size,
                      lambda deal, whole_game: RummyTable(rules, deal, whole_game), _observe_rummy,
                      lambda player, state, seat: view(state, seat), play_family(rules))
    return Family(rules, ActionSpace.for_rules(rules).size, Layout.for_rules(rules).size,
                  lambda deal, whole_game: Table(rules, deal, whole_game), observe_canasta,
                  lambda player, state, seat: lean_view(state, seat) if player.lean_views else view(state, seat),
                  play_family(rules))


def _observe_rummy(table: RummyTable, seat: int) -> dict[str, Array]:
    mask = np.zeros(table.space.size, np.int8)
    if seat == table.to_move and not table.terminal:
        mask[table.legal_actions()] = 1
    return {"observation": np.asarray(table.observation(seat), np.float32), "action_mask": mask}


__all__ = ["Family", "GameTable", "Opponent", "family"]
