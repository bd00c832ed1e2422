"""The OpenSpiel game ``python_canasta`` (docs/rl.md "OpenSpiel"), registered on import.

Parameters: ``variant`` (a preset name), ``options`` (the rule overrides as a JSON object, e.g.
``'{"target": 3000}'``), ``whole_game`` (False: an episode is one hand) and ``deals`` (the number of
chance outcomes of the opening chance node: deal number ``i`` is ``canasta.new_game(rules, seed=i)``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ..canasta.rules import Rules
from ..presets import game_rules
from .actions import ActionSpace
from .observation import Layout
from .table import Table
from .tensor import Array, dense, dense_list, encoder_for

DEFAULT_PARAMS: dict[str, Any] = {"variant": "classic", "options": "{}", "whole_game": False, "deals": 1 << 16}
MAX_PLAYERS = 8
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

GAME_TYPE = pyspiel.GameType(
    short_name="python_canasta",
    long_name="Python Canasta",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

# Bounds OpenSpiel asks for; a hand's score stays far inside them, a long game's nearly always.
MAX_SCORE = 1_000_000.0
MAX_LENGTH = 100_000  # atoms: a random hand takes a few hundred, a whole game some thousands


def _options(text: Any) -> dict[str, Any]:
    try:
        options = json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError as exc:
        raise ValueError(f"python_canasta: 'options' is not JSON ({exc}); give e.g. '{{\"target\": 3000}}'") from None
    if not isinstance(options, dict):
        raise ValueError(f"python_canasta: 'options' must be a JSON object such as '{{\"target\": 3000}}', "
                         f"got {text!r}")
    return options


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """``pyspiel.load_game("python_canasta", {"variant": "samba"})``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULT_PARAMS, **(params or {})}
        rules = game_rules(str(p["variant"]), **_options(p["options"]))
        if not isinstance(rules, Rules):
            raise ValueError(f"python_canasta plays Canasta's presets; {rules.name!r} is the rummy family's: play it "
                             "through canasta.rl.env (PettingZoo) or canasta.rl.SingleAgentEnv (Gymnasium)")
        self.rules = rules
        self.whole_game = bool(p["whole_game"])
        self.deals = int(p["deals"])
        if self.deals < 1:
            raise ValueError(f"python_canasta: 'deals' must be at least 1, got {self.deals}")
        self.space = ActionSpace.for_rules(self.rules)
        self.layout = Layout.for_rules(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size, max_chance_outcomes=self.deals, num_players=self.rules.players,
            min_utility=-MAX_SCORE, max_utility=MAX_SCORE, utility_sum=None, max_game_length=MAX_LENGTH)
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> CanastaState:
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CanastaObserver(self, perfect_recall, params)


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the opening chance node deals, then ``Table`` plays the atoms."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        self._canasta = game
        self.table: Table | None = None

    def current_player(self) -> int:
        table = self.table
        return CHANCE if table is None else table.acting(TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        return [] if self.table is None else self.table.legal_actions()

    # Called from Python, pyspiel's own ``legal_actions`` and ``observation_tensor`` go through C++ and back into
    # this class several times, and turn the answer into a C++ vector and back into a list: 4.5 µs for the legal
    # atoms that ``Table`` lists in 0.2, and 43 µs for the observation tensor's list (3 µs here). Python callers (the
    # algorithms in ``open_spiel.python``, a training loop) get the same lists from these overrides directly;
    # C++ still calls ``_legal_actions`` and the observer, and whatever these do not answer goes to pyspiel.

    def legal_actions(self, player: int | None = None) -> list[int]:
        table = self.table
        if player is None and table is not None:  # (over: no atom, as pyspiel answers)
            return table.legal_actions()
        if table is None or table.terminal or player != table.to_move:
            answer: list[int] = pyspiel.State.legal_actions(self) if player is None else (
                pyspiel.State.legal_actions(self, player))
            return answer
        return table.legal_actions()

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(player, pyspiel.State.observation_tensor)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(player, pyspiel.State.information_state_tensor)  # the same numbers (CanastaObserver)

    def _tensor(self, player: int | None, answer: Any) -> list[float]:
        table = self.table
        seat = self.current_player() if player is None else player
        if table is None or type(seat) is not int or not 0 <= seat < table.rules.players:
            return answer(self) if player is None else answer(self, player)  # type: ignore[no-any-return]
        return dense_list(table, seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._canasta.deals
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table is None:
            self.table = Table(self._canasta.rules, int(action), self._canasta.whole_game)
        else:
            table.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {action}"
        return self._canasta.space.name(action)

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.terminal

    def returns(self) -> list[float]:
        return [0.0] * self._canasta.rules.players if self.table is None else self.table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state ``player_id`` cannot tell from this one: the hidden cards dealt again at random
        (``canasta.canasta.sampling.determinize``); the sampler's number seeds the deal."""
        clone: CanastaState = self.clone()
        if self.table is not None:
            rng = random.Random(int(probability_sampler() * 2**53))
            clone.table = self.table.resample(player_id, rng)
        return clone

    def __str__(self) -> str:
        if self.table is None:
            return "deal pending"
        return self.table.observation_string(self.table.to_move) if not self.table.terminal else (
            f"over: returns {self.table.returns()}")


class _PythonFiller:
    """``canasta.rl.observer.TensorFiller`` (the observer's ``set_from``) where that Cython module is not built."""

    def __init__(self, tensor: Array, encoder_for: Any) -> None:
        self.tensor = tensor

    def set_from(self, state: CanastaState, player: int) -> None:
        table = state.table
        if table is None:
            self.tensor.fill(0)
        else:
            dense(table, player, self.tensor)


try:
    from .observer import TensorFiller
except ImportError:
    TensorFiller = _PythonFiller  # type: ignore[assignment,misc]


class CanastaObserver(TensorFiller):
    """Observation (``perfect_recall=False``) or information state (``True``) of one seat. The tensor is
    the observation tensor in both cases (a fixed size cannot hold a whole history); the information
    state *string* is perfect recall. ``set_from`` (``TensorFiller``) writes ``tensor`` in place."""

    def __init__(self, game: CanastaGame, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"python_canasta observers take no parameters, got {params}")
        super().__init__(np.zeros(game.layout.size, np.float32), encoder_for)
        self.perfect_recall = perfect_recall
        self.layout = game.layout
        self.dict: dict[str, Any] = {}
        for name, (offset, shape) in game.layout.offsets.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset: offset + size].reshape(shape)

    def string_from(self, state: CanastaState, player: int) -> str:
        if state.table is None:
            return f"seat {player}: deal pending"
        if self.perfect_recall:
            return state.table.information_state(player)
        return state.table.observation_string(player)


pyspiel.register_game(GAME_TYPE, CanastaGame)
