"""The rummy family's research environments (docs/rl.md, "The rummy family"): PettingZoo's ``api_test`` and
``seed_test``, random games to their end with the mask checked against ``legal_moves`` at every position, an
observation that holds nothing of the other hands, and a Gymnasium hand against the family's players."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra [rl])")
pytest.importorskip("gymnasium", reason="gymnasium is not installed (extra [rl])")

import canasta  # noqa: E402
import canasta.rl  # noqa: E402
from canasta.rl.gym_env import SingleAgentEnv  # noqa: E402
from canasta.rl.prefix import PrefixTree  # noqa: E402
from canasta.rl.rummy_actions import RummyActionSpace  # noqa: E402
from canasta.rl.rummy_observation import RummyLayout, encode_view  # noqa: E402
from canasta.rl.rummy_table import RummyTable  # noqa: E402

VARIANTS = canasta.variant_names("rummy")


def _reachable(tree: PrefixTree[canasta.RummyMove], prefix: tuple[int, ...] = ()) -> list[canasta.RummyMove]:
    """Every move reached by following the legal atoms from ``prefix``, once per path."""
    out: list[canasta.RummyMove] = []
    for atom in tree.legal(prefix):
        longer, move = tree.step(prefix, atom)
        out += [move] if move is not None else _reachable(tree, longer)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api(variant: str) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with a mask, as for Canasta
        api_test(canasta.rl.env(variant), num_cycles=40, verbose_progress=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_random_whole_game_follows_the_legal_moves(variant: str) -> None:
    """Random agents play a whole game; at every engine position the atoms the mask offers reach exactly the
    legal moves, each once, and the rewards are the final scores of each seat's side (its result's)."""
    env = canasta.rl.env(variant, whole_game=True)
    env.reset(seed=11)
    table = env.unwrapped.table
    rng = np.random.default_rng(3)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    checked = set()
    for agent in env.agent_iter(max_iter=50_000):
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert np.flatnonzero(mask).tolist() == table.legal_actions()
        assert not table.prefix or mask.sum() >= 2  # inside a move, an atom that is no choice is not asked for
        if table.moves not in checked:  # a new engine position: the whole tree against legal_moves
            checked.add(table.moves)
            legal = canasta.legal_moves(table.state)
            reached = _reachable(table.tree())
            assert sorted(map(str, reached)) == sorted(map(str, legal))
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert canasta.is_over(table.state) and table.moves > 20
    scores = canasta.outcome(table.state)["scores"]
    rules = table.rules
    assert [rewards[a] for a in env.possible_agents] == [float(scores[rules.side_of(s)])
                                                         for s in range(rules.players)]


def test_a_hand_episode_returns_the_hands_scores() -> None:
    table = RummyTable(canasta.rules("500-rum-partnership"), 5)
    rng = np.random.default_rng(0)
    while not table.terminal:
        table.apply_action(int(rng.choice(table.legal_actions())))
    hand = table.state.last_hand
    assert hand["hand"] == table.first_hand
    assert table.returns() == [float(hand["sides"][s % 2]["total"]) for s in range(4)]
    assert table.returns()[0] == table.returns()[2]  # partners share a score


def test_the_observation_holds_nothing_of_the_other_hands() -> None:
    rules = canasta.rules("dealers-gambit")
    layout = RummyLayout.for_rules(rules)
    env = canasta.rl.env("dealers-gambit").unwrapped
    env.reset(options={"deal": 3})
    rng = np.random.default_rng(1)
    for _ in range(40):  # into the hand: melds, a pile, cards taken
        env.step(int(rng.choice(env.table.legal_actions())))
    table = env.table
    state, seat = table.state, (table.to_move + 1) % rules.players
    before = env.observe(f"player_{seat}")["observation"]
    assert before.tolist() == encode_view(layout, canasta.view(state, seat))  # from the view alone

    def swapped(owner: int) -> canasta.RummyState:
        """``owner``'s first card exchanged with the stock's last (a different card)."""
        hand, stock = list(state.hands[owner]), list(state.stock)
        j = next(j for j in range(len(stock) - 1, -1, -1) if stock[j] not in hand)
        hand[0], stock[j] = stock[j], hand[0]
        hands = tuple(tuple(sorted(hand)) if s == owner else h for s, h in enumerate(state.hands))
        return state.replace(hands=hands, stock=tuple(stock))

    for other in range(rules.players):
        after = encode_view(layout, canasta.view(swapped(other), seat))
        if other == seat:
            assert after != before.tolist()  # the seat's own hand is in it: the test can fail
        else:
            assert after == before.tolist()


def test_seeds_and_chosen_deals_repeat() -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: canasta.rl.env("500-rum"), num_cycles=30)
    env = canasta.rl.env("persian-rummy")
    env.reset(options={"deal": 7})
    dealt = canasta.new_game(canasta.rules("persian-rummy"), seed=7)
    assert env.unwrapped.table.state.to_json() == dealt.to_json()
    assert env.agent_selection == f"player_{dealt.to_move}"
    raw = canasta.rl.raw_env("persian-rummy", render_mode="ansi")
    raw.reset(options={"deal": 7})
    hand = " ".join(canasta.view(dealt, dealt.to_move)["hand"])
    assert f"seat {dealt.to_move} to_move {dealt.to_move} phase draw hand 1: {hand} |" in raw.render()
    with pytest.raises(ValueError, match=r"action 60 \(discard 2S\) is not legal here"):
        raw.step(60)  # the draw phase: no discard


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_plays_a_hand_against_the_familys_players(variant: str) -> None:
    env = SingleAgentEnv(variant, seat=1, opponents="easy")
    obs, _ = env.reset(seed=2)
    assert obs["observation"].shape == env.observation_space["observation"].shape
    rng = np.random.default_rng(1)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated and "illegal_action" not in info
    assert reward == env.table.returns()[1]


def test_gymnasium_check_env_and_refusals() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentEnv("basic-rummy", opponents="medium"))
    with pytest.raises(ValueError, match="unknown opponent 'learned'"):
        SingleAgentEnv("500-rum", opponents="learned")  # a Canasta-only player
    with pytest.raises(ValueError, match="rummy family's"):
        import pyspiel

        pyspiel.load_game("python_canasta", {"variant": "500-rum"})


def test_the_action_space_is_fixed_per_preset_and_named() -> None:
    space = RummyActionSpace.for_rules(canasta.rules("500-rum"))
    assert space.size == 292 and RummyActionSpace.for_rules(canasta.rules("persian-rummy")).size == 293
    assert RummyActionSpace.for_rules(canasta.rules("500-rum", players=6, packs=2)).size == 309
    state = canasta.new_game(canasta.rules("500-rum"), seed=1)
    for text in ("draw", "take 4D"):
        atoms = space.atoms(canasta.parse_move(state, text), [])
        assert " ".join(space.name(a) for a in atoms) == text
    meld = canasta.RummyMove("meld", tuple(int(canasta.Card.parse(c)) for c in ("5H", "JK", "7H")))
    assert [space.name(a) for a in space.atoms(meld, [])] == ["meld", "5H", "JK", "7H", "end"]
    lay = canasta.RummyMove("lay", (int(canasta.Card.parse("8H")),), "5H-7H")
    assert [space.name(a) for a in space.atoms(lay, ["7-set", "5H-7H"])] == ["lay 8H", "slot 1"]
    with pytest.raises(ValueError, match="no meld"):
        space.atoms(lay, ["7-set"])
