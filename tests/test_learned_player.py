"""The learned player (canasta.players.learned): shipped weights, numpy-only inference, legal full games from
the view alone, the presets it refuses, and the error without numpy."""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")

import canasta
from bot_helpers import Spy
from canasta.canasta.sampling import determinize
from canasta.play.record import play_game
from canasta.players import make_player
from canasta.players.learned import WEIGHTS

ROOT = Path(__file__).resolve().parent.parent


def test_the_weights_ship_with_the_package_and_are_small() -> None:
    path = Path(canasta.players.__file__).parent / WEIGHTS
    assert path.is_file() and path.stat().st_size < 2_000_000
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert WEIGHTS in package_data["canasta.players"]


@pytest.mark.parametrize(("names", "seed"), [(("learned", "greedy") * 2, 3), (("heuristic", "learned") * 2, 4)])
def test_it_plays_whole_classic_games_with_legal_moves(names: tuple[str, ...], seed: int) -> None:
    spies = [Spy(make_player(n, seed=i)) for i, n in enumerate(names)]  # Spy: a view, never the State
    final, _ = play_game(spies, canasta.rules("classic"), seed=seed)
    assert canasta.is_over(final)
    assert sum(s.calls for s in spies if s.name == "learned") > 100


def test_it_is_deterministic_and_blind_to_hidden_cards() -> None:
    """The same view gives the same move; so does a view of a position where every card the seat cannot
    see was dealt again (the view is all it reads)."""
    rules = canasta.rules("classic")
    rng = random.Random(2)
    state = canasta.new_game(rules, seed=8)
    bot = make_player("learned", seed=0)
    checked = 0
    for _ in range(150):
        if canasta.is_over(state) or state.hand_number != 1:
            break
        seat = state.to_move
        legal = canasta.legal_moves(state)
        if len(legal) > 1:
            view = canasta.view(state, seat)
            move = bot.choose(view, legal)
            assert make_player("learned", seed=9).choose(view, legal) == move
            other = determinize(view, random.Random(checked))
            assert canasta.view(other, seat)["hand"] == view["hand"]
            assert bot.choose(canasta.view(other, seat), canasta.legal_moves(other)) == move
            checked += 1
        state = canasta.apply(state, rng.choice(legal))
    assert checked > 20


@pytest.mark.parametrize(("variant", "options"), [("samba", {}), ("two-player", {}),
                                                   ("classic", {"target": 10000})])
def test_it_refuses_rules_it_was_not_trained_on(variant: str, options: dict[str, object]) -> None:
    rules = canasta.rules(variant, **options)
    bot = make_player("learned")
    state = canasta.new_game(rules, seed=1)
    while len(canasta.legal_moves(state)) == 1:
        state = canasta.apply(state, canasta.legal_moves(state)[0])
    with pytest.raises(ValueError, match="plays only the rules it was trained on \\(classic with its default"):
        bot.choose(canasta.view(state, state.to_move), canasta.legal_moves(state))


def test_without_numpy_it_says_what_to_install() -> None:
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from canasta.players import make_player\n"
            "try:\n    make_player('learned')\nexcept ValueError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install 'canasta[rl]'" in out


@pytest.mark.parametrize(("variant", "options", "plays"), [("classic", {}, True), ("samba", {}, False),
                                                            ("classic", {"target": 10000}, False)])
def test_it_says_which_rules_it_plays(variant: str, options: dict[str, object], plays: bool) -> None:
    rules = canasta.rules(variant, **options)
    assert make_player("learned").supports(rules) is plays
    assert all(make_player(name).supports(rules) for name in ("random", "greedy", "heuristic", "search"))


def test_a_tournament_refuses_it_before_any_deal() -> None:
    """Refused by the up-front check, not at a first move: with no deals at all it is still refused."""
    from canasta.play.arena import run_tournament

    with pytest.raises(ValueError, match="the learned player does not play samba"):
        run_tournament(["learned", "greedy"], 0, rules=canasta.rules("samba"), jobs=1, progress=False)
    assert run_tournament(["learned", "greedy"], 0, rules=canasta.rules("classic"), jobs=1, progress=False)


@pytest.mark.parametrize("command", [["tournament", "--players", "learned,greedy", "--games", "1", "--jobs", "1",
                                      "--no-progress"],
                                     ["play", "--plain", "--opponents", "learned"],
                                     ["simulate", "--players", "learned", "-n", "1", "--jobs", "1", "--no-progress"]])
def test_the_command_line_refuses_a_preset_it_does_not_play(command: list[str]) -> None:
    out = subprocess.run([sys.executable, "-m", "canasta", *command, "--variant", "samba"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "the learned player does not play samba" in out.stderr
