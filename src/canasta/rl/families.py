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

from .. import view
from ..bots import Player, make_player, player_names
from ..bots.levels import LEVELS
from ..rules import Rules
from ..rummy import RummyRules
from ..rummy.players import make_rummy_player, rummy_player_names
from ..variants import game_rules
from ..view import lean_view
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
    make_player: Callable[[str, int], Player]  # a level or player name, seeded
    player_names: str  # what make_player accepts, for messages
    seen: Callable[[Player, Any, int], Any]  # what a computer player is shown: (player, state, seat) -> view

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
            return self.make_player(opponent, seed)
        except ValueError:
            raise ValueError(f"unknown opponent {opponent!r}; {self.player_names}") from None


def family(variant: str, **options: Any) -> Family:
    """The family of ``canasta.rules(variant, **options)`` (a bad variant or option: the engine's
    ``ValueError``)."""
    rules = game_rules(variant, **options)
    if isinstance(rules, RummyRules):
        return _rummy(rules)
    return _canasta(rules)


def _canasta(rules: Rules) -> Family:
    return Family(
        rules, ActionSpace.for_rules(rules).size, Layout.for_rules(rules).size,
        lambda deal, whole_game: Table(rules, deal, whole_game), observe_canasta, make_player,
        f"levels: {', '.join(LEVELS)}; players: {', '.join(player_names())}",
        lambda player, state, seat: lean_view(state, seat) if player.lean_views else view(state, seat))


def _observe_rummy(table: RummyTable, seat: int) -> dict[str, Array]:
    mask = np.zeros(table.space.size, np.int8)
    if seat == table.to_move and not table.terminal:
        mask[table.legal_actions()] = 1
    return {"observation": np.asarray(table.observation(seat), np.float32), "action_mask": mask}


def _rummy(rules: RummyRules) -> Family:
    return Family(
        rules, RummyActionSpace.for_rules(rules).size, RummyLayout.for_rules(rules).size,
        lambda deal, whole_game: RummyTable(rules, deal, whole_game), _observe_rummy, make_rummy_player,
        f"levels: {', '.join(LEVELS)}; players: {', '.join(rummy_player_names())}",
        lambda player, state, seat: view(state, seat))


__all__ = ["Family", "GameTable", "Opponent", "family"]
