"""The PettingZoo and Gymnasium environments of canasta.rl (docs/rl.md) under the libraries' own tests:
PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, for every preset."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra [rl])")
pytest.importorskip("gymnasium", reason="gymnasium is not installed (extra [rl])")

import canasta  # noqa: E402
import canasta.rl  # noqa: E402
from canasta.players import Player  # noqa: E402
from canasta.rl.gym_env import SingleAgentEnv  # noqa: E402

VARIANTS = canasta.variant_names("canasta")


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api(variant: str) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with a mask: the warnings PettingZoo's classic games get
        api_test(canasta.rl.env(variant), num_cycles=60 if variant == "classic" else 20, verbose_progress=False)


@pytest.mark.parametrize("variant", ["classic", "samba", "modern-american", "hand-and-foot"])
def test_pettingzoo_seed_and_a_whole_hand(variant: str) -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: canasta.rl.env(variant), num_cycles=30)
    env = canasta.rl.env(variant)
    env.reset(seed=4)
    rewards = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    table = env.unwrapped.table
    assert table.terminal
    assert [rewards[a] for a in env.possible_agents] == table.returns()


def test_pettingzoo_reset_deals_a_chosen_game() -> None:
    env = canasta.rl.env("samba")
    env.reset(options={"deal": 7})
    dealt = canasta.new_game(canasta.rules("samba"), seed=7)
    assert env.unwrapped.table.state.to_json() == dealt.to_json()
    assert env.agent_selection == f"player_{dealt.to_move}"
    env.reset(seed=1)  # a seeded deal again, not game 7
    assert env.unwrapped.table.state.to_json() != dealt.to_json()
    for bad in (-1, "7", 7.0, True):
        with pytest.raises(ValueError, match="deal"):
            env.reset(options={"deal": bad})
    with pytest.raises(ValueError, match="options must be a dict"):
        env.reset(options=[("deal", 7)])  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["classic", "cutthroat", "italian", "modern-american-cla"])
def test_gymnasium_check_env(variant: str) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no registered spec to test render modes through
        check_env(SingleAgentEnv(variant, opponents="easy"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_plays_a_hand_against_the_projects_players(variant: str) -> None:
    env = SingleAgentEnv(variant, seat=1, opponents="easy")
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(1)
    done, steps, reward = False, 0, 0.0
    while not done:
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated and "illegal_action" not in info
        steps += 1
    assert reward == env.table.returns()[1]
    obs, _ = env.reset(seed=2)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, done, _, info = env.step(forbidden)  # a masked atom changes nothing
    assert info == {"illegal_action": True} and reward == 0.0 and not done
    assert np.array_equal(after["observation"], obs["observation"])


def test_actions_that_are_not_whole_numbers_are_refused_not_truncated() -> None:
    """``step(3.5)`` would have played atom 3 (``int()``); numpy's integers are whole numbers and play."""
    from canasta.rl.pettingzoo_env import raw_env

    pz = raw_env("classic")
    pz.reset(seed=3)
    gym_env = SingleAgentEnv("classic", opponents="easy")
    obs, _ = gym_env.reset(seed=3)
    for bad in (3.5, np.float32(2.0), "2", None):
        with pytest.raises(TypeError, match="whole atom number"):
            pz.step(bad)
        with pytest.raises(TypeError, match="whole atom number"):
            gym_env.step(bad)
    moves = pz.table.moves
    pz.step(np.int64(pz.table.legal_actions()[0]))
    _, _, _, _, info = gym_env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    assert pz.table.moves == moves + 1 and "illegal_action" not in info


def test_gymnasium_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown opponent"):
        SingleAgentEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv(seat=4)
    with pytest.raises(ValueError, match="one per other seat"):
        SingleAgentEnv(opponents=["easy", "easy"])


class _FirstLegal(Player):
    """Plays the first legal move and counts its decisions."""

    name = "first-legal"

    def __init__(self, plays: bool = True) -> None:
        self.moves, self.plays = 0, plays

    def choose(self, view: dict[str, object], legal: list[canasta.Move]) -> canasta.Move:
        self.moves += 1
        return legal[0]

    def supports(self, rules: canasta.Rules) -> bool:
        return self.plays


def test_gymnasium_reset_deals_a_chosen_game_against_player_objects() -> None:
    mine = _FirstLegal()
    env = SingleAgentEnv("classic", seat=0, opponents=[mine, "random", mine])
    obs, _ = env.reset(options={"deal": 7})
    dealt = canasta.new_game(canasta.rules("classic"), seed=7)
    assert env.table.state.to_json() == dealt.to_json()  # seat 0 leads: nobody has played yet
    for _ in range(30):
        obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if done:
            break
    assert mine.moves > 0  # the object given plays seats 1 and 3
    env.reset(seed=1)
    assert env.table.state.to_json() != dealt.to_json()
    for bad in (-1, "7", 7.0, True):
        with pytest.raises(ValueError, match="deal"):
            env.reset(options={"deal": bad})
    with pytest.raises(ValueError, match="options must be a dict"):
        env.reset(options=[("deal", 7)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not play"):
        SingleAgentEnv("classic", opponents=_FirstLegal(plays=False))
    with pytest.raises(ValueError, match="a level, a player name or a Player"):
        SingleAgentEnv("classic", opponents=[5, "easy", "easy"])  # type: ignore[list-item]


@pytest.mark.parametrize("players", [3, 6])
def test_hand_and_foot_for_other_player_counts(players: int) -> None:
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(canasta.rl.env("hand-and-foot", players=players), num_cycles=20, verbose_progress=False)
        check_env(SingleAgentEnv("hand-and-foot", opponents="easy", players=players))
    assert len(canasta.rl.env("hand-and-foot", players=players).possible_agents) == players
