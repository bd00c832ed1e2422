"""The OpenSpiel game python_canasta (docs/rl.md) under OpenSpiel's own tests: ``random_sim_test`` for
every preset, resampling from the information state, and ``ISMCTSBot`` playing it unchanged."""

from __future__ import annotations

import json

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (extra [rl])")

import canasta  # noqa: E402
import canasta.rl  # noqa: E402  (registers python_canasta)

VARIANTS = canasta.variant_names("canasta")


def _game(variant: str = "classic", **params: object) -> object:
    return pyspiel.load_game("python_canasta", {"variant": variant, "deals": 1000, **params})


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation(variant: str) -> None:
    game = _game(variant)
    assert game.num_players() == canasta.rules(variant).players
    pyspiel.random_sim_test(game, num_sims=2 if variant == "classic" else 1, serialize=True, verbose=False)


def test_openspiel_whole_game_with_options() -> None:
    game = _game("classic", whole_game=True, options=json.dumps({"hands_per_game": 2}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(7)
    assert state.table.rules.hands_per_game == 2 and state.table.whole_game


@pytest.mark.parametrize("params, message", [
    ({"variant": "nonsense"}, "unknown variant"), ({"options": "{"}, "not JSON"), ({"options": "[1]"}, "JSON object"),
    ({"deals": 0}, "at least 1"),
])
def test_openspiel_bad_parameters_are_refused_clearly(params: dict[str, object], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game("python_canasta", params)


def test_openspiel_tensors_strings_and_resampling() -> None:
    game = _game("samba")
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.RandomState(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(60):
        player = state.current_player()
        assert len(state.observation_tensor(player)) == game.observation_tensor_size()
        assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
        assert state.legal_actions() == sorted(state.legal_actions())
        again = state.resample_from_infostate(player, sampler)
        assert again.information_state_string(player) == state.information_state_string(player)
        assert again.observation_tensor(player) == state.observation_tensor(player)
        assert again.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert clone.information_state_string(0) == state.information_state_string(0)
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state) and restored.information_state_string(1) == state.information_state_string(1)


def test_openspiel_observer_fills_its_tensor_with_each_seats_observation() -> None:
    """``make_observation(game).set_from(state, player)`` writes exactly ``Table.observation(player)`` into the
    observer's tensor (in place: ``dict`` views it), zeros before the deal, and refuses a seat the game has
    not with a clear error (the native encoder reads its seats unchecked)."""
    from open_spiel.python.observation import make_observation

    game = _game("classic")
    observer = make_observation(game)
    tensor = observer.tensor
    state = game.new_initial_state()
    observer.set_from(state, 0)
    assert tensor.dtype == np.float32 and tensor.shape == (game.observation_tensor_size(),) and not tensor.any()
    state.apply_action(4)
    rng = np.random.RandomState(5)
    for _ in range(80):
        for player in (state.current_player(), 0, 3):
            observer.set_from(state, player)
            assert observer.tensor is tensor and tensor.tolist() == state.table.observation(player)
            assert np.shares_memory(observer.dict["hand"], tensor)
        state.apply_action(int(rng.choice(state.legal_actions())))
    for wrong in (-1, 4, 99):
        with pytest.raises(ValueError, match="no seat"):
            observer.set_from(state, wrong)
    observer.set_from(state.clone(), 1)  # another Table object (a clone, sharing the encoder): the same numbers
    assert tensor.tolist() == state.table.observation(1)


@pytest.mark.parametrize("variant", ["classic", "samba", "modern-american", "hand-and-foot"])
def test_openspiel_python_answers_match_pyspiel(variant: str) -> None:
    """``legal_actions`` and the tensors, answered in Python for Python callers, say what pyspiel's own methods
    (through C++, ``_legal_actions`` and the observer) say at every node of a game, for every player asked,
    and refuse what they refuse."""
    game = _game(variant)
    state = game.new_initial_state()
    players = game.num_players()
    rng = np.random.RandomState(3)
    base = pyspiel.State
    steps = 0
    while True:
        assert state.legal_actions() == base.legal_actions(state)
        for player in range(players):
            assert state.legal_actions(player) == base.legal_actions(state, player)
            if not state.is_chance_node():
                assert state.observation_tensor(player) == base.observation_tensor(state, player)
                assert state.information_state_tensor(player) == base.information_state_tensor(state, player)
        if state.is_player_node():
            assert state.observation_tensor() == base.observation_tensor(state)
            assert state.information_state_tensor() == base.information_state_tensor(state)
        if state.is_terminal() or steps == 120:
            break
        for asked in (-1, players, "0"):
            with pytest.raises((pyspiel.SpielError, TypeError)):
                state.observation_tensor(asked)
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    assert steps > 20
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.legal_actions() == base.legal_actions(state) == []
    assert [state.legal_actions(p) for p in range(players)] == [base.legal_actions(state, p) for p in range(players)]
    assert state.observation_tensor(0) == base.observation_tensor(state, 0)


def test_openspiel_ismcts_bot_plays_unchanged() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = _game("classic")
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=4,
                           random_state=rng)
    state = game.new_initial_state()
    state.apply_action(3)
    decisions = 0
    while not state.is_terminal() and decisions < 6:
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            decisions += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert decisions == 6 or state.is_terminal()


@pytest.mark.parametrize("players", [3, 6])
def test_openspiel_hand_and_foot_for_other_player_counts(players: int) -> None:
    game = _game("hand-and-foot", options=json.dumps({"players": players}))
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
