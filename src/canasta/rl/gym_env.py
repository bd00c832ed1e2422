"""A single-agent Gymnasium environment (docs/rl.md "Gymnasium"): one seat is the agent, the others are
this project's computer players at a chosen level (``canasta.players``, or the rummy family's for its presets).

``SingleAgentEnv(variant="classic", seat=0, opponents="medium", **options)``: ``opponents`` is a level
(``easy``, ``medium``, ``hard``, ``expert``), a player name (``random``, ``greedy``, ``heuristic``,
``search``) or a ``canasta.bots.Player`` object, one for all the other seats or a list with one per other
seat. The agent's partner, if any, is one of them. Each step plays one atom of the agent; the other seats
then play until the agent is to act again or the episode ends. The reward is 0 until the end, then the
agent's score. An action the mask forbids changes nothing and sets ``info["illegal_action"]``
(``illegal_action="raise"`` raises instead).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces

from .. import legal_moves
from ..players import Player
from .families import GameTable, Opponent, family
from .inputs import chosen_atom, chosen_deal


class SingleAgentEnv(gym.Env[dict[str, Any], int]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium declares it an instance variable

    def __init__(self, variant: str = "classic", seat: int = 0, opponents: Opponent | list[Opponent] = "medium",
                 whole_game: bool = False, illegal_action: str = "ignore", render_mode: str | None = None,
                 **options: Any) -> None:
        self.family = family(variant, **options)  # Canasta's or the rummy family's table, spaces and players
        self.rules = self.family.rules
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0..{self.rules.players - 1}, got {seat!r}")
        others = self.rules.players - 1
        names = [opponents] * others if isinstance(opponents, (str, Player)) else list(opponents)
        if len(names) != others:
            raise ValueError(f"give one opponent for all seats or one per other seat ({others}), got {len(names)}")
        for name in names:  # a bad name, or a player that does not play these rules, fails here, not in reset
            if not self.family.player(name, 0).supports(self.rules):  # type: ignore[arg-type]
                raise ValueError(f"the opponent {name!r} does not play {self.rules.name}")
        if illegal_action not in ("ignore", "raise"):
            raise ValueError(f"illegal_action must be 'ignore' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.seat, self.opponent_names, self.whole_game = seat, names, whole_game
        self.illegal_action, self.render_mode = illegal_action, render_mode
        self.observation_space = self.family.observation_space
        self.action_space: spaces.Space[int] = spaces.Discrete(self.family.action_size)  # type: ignore[assignment]
        self._observe = self.family.observe
        self.table: GameTable | None = None
        self.players: dict[int, Player] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode; ``options={"deal": n}`` deals game ``n`` itself (the deal of
        ``canasta.new_game(rules, seed=n)``), as PettingZoo's ``reset`` does."""
        super().reset(seed=seed)
        rng = self.np_random
        deal = chosen_deal(options)
        if deal is None:
            deal = int(rng.integers(2**31))
        self.table = self.family.table(deal, self.whole_game)
        seats = [s for s in range(self.rules.players) if s != self.seat]
        self.players = {s: self.family.player(name, int(rng.integers(2**31)))
                        for s, name in zip(seats, self.opponent_names, strict=True)}
        self._play_others()
        return self._observe(self.table, self.seat), {}

    def _play_others(self) -> None:
        table = self.table
        assert table is not None
        while not table.terminal and table.to_move != self.seat:
            seat = table.to_move
            player, state = self.players[seat], table.state
            table.play(player.choose(self.family.seen(player, state, seat), legal_moves(state)))

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        if table is None:
            raise RuntimeError("call reset() before step()")
        if table.terminal:
            raise RuntimeError("the episode is over; call reset()")
        info: dict[str, Any] = {}
        atom = chosen_atom(action)
        if atom in table.legal_actions():
            table.apply_action(atom)
            self._play_others()
        elif self.illegal_action == "raise":
            raise ValueError(f"action {action} is not legal here (see the observation's action_mask)")
        else:
            info["illegal_action"] = True
        done = table.terminal
        reward = table.returns()[self.seat] if done else 0.0
        return self._observe(table, self.seat), reward, done, False, info

    def render(self) -> str | None:
        return None if self.table is None else self.table.observation_string(self.seat)
