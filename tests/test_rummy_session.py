"""The rummy family's table game (``canasta.rummy.session.RummyGame``): seats, saving and resuming, undo,
and the line mode on top of it."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.rummy.session import RummyGame, parse_rummy_seats


def _to_first_own_meld(game: RummyGame, rng: random.Random) -> tuple[object, str]:
    """Play (the human by random choice, never a meld, until one is legal) up to a meld the human may lay."""
    for _ in range(2000):
        state = game.state
        if game.computer_to_move():
            game.play(game.computer_move())
            continue
        legal = canasta.legal_moves(state)
        melds = [m for m in legal if m.action in ("meld", "lay")]
        if melds:
            return state, str(melds[0])
        game.play(rng.choice([m for m in legal if m.action not in ("meld", "lay")] or legal))
    raise AssertionError("no meld came up")


def test_a_meld_is_taken_back_and_the_record_forgets_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = RummyGame.start(canasta.rules("500-rum", players=2), ["human", "greedy"], seed=5, save_path=path)
    before, meld = _to_first_own_meld(game, random.Random(5))
    moves_before = list(game.recorder.moves)
    game.play(canasta.parse_move(before, meld))
    assert game.can_undo()
    assert game.undo() == meld
    assert game.state is before and game.recorder.moves == moves_before and not game.can_undo()
    assert json.loads(path.read_text())["moves"] == moves_before  # the saved game forgot it too


def test_a_draw_is_final() -> None:
    game = RummyGame.start(canasta.rules("basic-rummy"), ["human", "random"], seed=2)
    while game.computer_to_move():
        game.play(game.computer_move())
    game.play(canasta.parse_move(game.state, "draw"))
    with pytest.raises(ValueError, match="nothing to undo"):
        game.undo()


def test_resume_carries_on_with_the_saved_seats(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = RummyGame.start(canasta.rules("500-rum"), ["hard", "human", "easy"], seed=3, save_path=path)
    assert not path.exists()  # nothing is saved before the first move
    game.play(game.legal(game.state)[0])
    again = RummyGame.resume(path)
    assert again.seats == ["hard", "human", "easy"] and again.state.to_json() == game.state.to_json()
    canasta_game = tmp_path / "canasta.json"
    canasta_game.write_text(json.dumps({"rules": {"variant": "classic"}, "seed": 1, "moves": []}))
    with pytest.raises(ValueError):
        RummyGame.resume(canasta_game)


@pytest.mark.parametrize("seats, problem", [
    ("human,human", "2 seats are human"), ("greedy,hard", "no seat is"), ("human,oracle", "unknown player 'oracle'"),
    ("human", "one name per seat")])
def test_bad_seats_are_named(seats: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_rummy_seats(seats, 2)


def test_line_mode_seats_undo_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rummy.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("undo\ndraw\nquit\n"))
    code = main(["play", "--plain", "--variant", "500-rum", "--seats", "easy,human,random", "--seed", "4",
                 "--save", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and "You are Player 2 (seat 1" in out and "computer players: Player 1 easy, Player 3 random" in out
    assert "nothing to undo" in out and "You drew: " in out and f"canasta play --resume {path}" in out
    saved = json.loads(path.read_text())
    assert saved["players"] == ["easy", "human", "random"] and "1 draw" in saved["moves"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert "You are Player 2 (seat 1, side 2); computer players: Player 1 easy, Player 3 random" in out
