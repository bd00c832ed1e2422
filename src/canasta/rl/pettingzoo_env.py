"""The PettingZoo AEC environment (docs/rl.md "PettingZoo"): ``canasta.rl.env(variant, **options)``, for every
preset of either family (``canasta.rl.families``).

Agents ``player_0`` … are the seats. Each step plays one atom (``canasta.rl.actions``) of the agent to
act; observations are dicts with ``observation`` (the seat's tensor) and ``action_mask``. Rewards are 0
until the episode ends, then each seat's score (the hand's, or the game's with ``whole_game=True``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-not-found,import-untyped,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-not-found,import-untyped,unused-ignore]

from .families import GameTable, family
from .inputs import chosen_atom, chosen_deal


class raw_env(AECEnv):  # type: ignore[misc]
    """A game of either family as PettingZoo's classic games are built (the name is PettingZoo's convention)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "canasta_v0",
                                          "is_parallelizable": False}

    def __init__(self, variant: str = "classic", render_mode: str | None = None, whole_game: bool = False,
                 **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.family = family(variant, **options)  # Canasta's or the rummy family's table, spaces and players
        self.rules = self.family.rules
        self.whole_game = whole_game
        self.render_mode = render_mode
        self._observe = self.family.observe
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self.family.observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.family.action_size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.table: GameTable | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``seed`` seeds the deals of this and later resets; ``options={"deal": n}`` deals game
        ``n`` itself (the deal of ``canasta.new_game(rules, seed=n)``), to replay a known deal."""
        if seed is not None:
            self._seeds = random.Random(seed)
        deal = chosen_deal(options)
        if deal is None:
            deal = self._seeds.randrange(2**31)
        self.table = self.family.table(deal, self.whole_game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move]

    def _require_table(self) -> GameTable:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observe(self._require_table(), self._seat_of[agent])

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``, making the observation here: called every step, so two Python calls fewer."""
        agent = self.agent_selection
        assert agent is not None
        table = self.table if self.table is not None else self._require_table()  # (no call on the hot path)
        observation = self._observe(table, self._seat_of[agent]) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table if self.table is not None else self._require_table()  # (no call on the hot path)
        self._cumulative_rewards[agent] = 0.0
        table.apply_action(chosen_atom(action))
        if table.terminal:
            rewards = self.rewards = dict.fromkeys(self.agents, 0.0)
            for seat, score in enumerate(table.returns()):
                rewards[self.possible_agents[seat]] = score
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
        else:
            # Every reward is 0 until the episode ends: the rewards dict reset() made (or the last step left)
            # holds zeros already, and there is nothing to add to the cumulative rewards. (An illegal action
            # through TerminateIllegalWrapper sets rewards, but it also ends the episode.)
            self.agent_selection = self.possible_agents[table.to_move]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        table = self._require_table()
        text = table.observation_string(table.to_move)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(variant: str = "classic", **options: Any) -> Any:
    """``raw_env`` wrapped as PettingZoo's classic games are: an illegal action ends the episode with -1
    for the offender, an action outside the space raises, and the call order is enforced."""
    e: Any = raw_env(variant, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


__all__ = ["env", "raw_env"]
