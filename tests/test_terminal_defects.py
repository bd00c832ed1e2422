"""Issue 43 item 3: the defects a new user met in the terminal game, each with its test; words and numbering
alike in every command (``canasta.text.names``)."""

from __future__ import annotations

import io
import sys

import pytest

import canasta
from canasta.canasta.view import view
from canasta.cli import main
from canasta.text.names import move_label, plural, seat_mark, side_name
from canasta.textui import describe_history, pile_status, render_help


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_names_are_one_place() -> None:
    assert move_label("discard T", symbols=False) == "discard 10" and move_label("discard TH") == "discard 10♥"
    assert move_label("take T T", symbols=False) == "take 10 10" and move_label("as the pile") == "as the pile"
    assert plural(1, "card") == "1 card" and plural(2, "hand") == "2 hands"
    assert [seat_mark(3, s) for s in range(3)] == ["1", "2", "3"] and seat_mark(4, 1) == "E"
    assert side_name(3, 3, 0) == "side 1" and side_name(4, 2, 1) == "E-W"


def test_the_log_and_the_help_write_10() -> None:
    assert describe_history("1 discard T", 4, 0) == "East: discard 10"
    state = canasta.new_game(canasta.rules(), seed=5)
    state = canasta.apply(state, canasta.parse_move(state, "draw"))
    text = render_help(canasta.legal_moves(state), view(state, 0))
    assert "discard 10 " in text and "discard one 10 and" in text and "discard T" not in text


def test_did_you_mean_keeps_the_moves_words(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "5", stdin="draw\ndiscard 1O\nquit\n")
    assert "did you mean 'discard 10'" in out and "'discard t'" not in out


def test_hand_and_foot_pile_is_not_waiting_for_an_opening_once_opened() -> None:
    v = {"pile_size": 3, "pile_top": "9H", "pile_frozen": False, "side": 0,
         "sides": [{"pile_frozen_for_side": True, "opened": True}]}
    assert "until it opens" not in pile_status(v) and "frozen" in pile_status(v)
    v["sides"][0]["opened"] = False
    assert "until it opens" in pile_status(v)


@pytest.mark.parametrize("argv, problem", [
    (["play", "--option", "target=-5"], "option target='-5': must be an integer from 1"),
    (["play", "--variant", "500-rum", "--option", "target=0"], "target"),
    (["play", "--seats", ""], "--seats is empty"),
])
def test_bad_command_lines_are_refused(argv: list[str], problem: str, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run(capsys, monkeypatch, *argv, stdin="quit\n")
    assert status == 2 and problem in err and len(err.strip().splitlines()) == 1


def test_simulate_numbers_sides_as_replay_and_score_do(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run(capsys, monkeypatch, "simulate", "--variant", "cutthroat", "-n", "1", "--no-progress")
    assert "side 1 (seats 0" in out and "side 0" not in out and ("1 win," in out or "0 wins" in out)


def test_tournament_takes_the_levels_play_takes(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "tournament", "--players", "easy,greedy", "-n", "1", "--jobs", "1",
                           "--no-progress")
    assert status == 0 and "easy vs greedy" in out, err


def test_end_of_input_leaves_both_line_modes_with_0(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    for variant in ("classic", "basic-rummy"):
        status, out, _ = run(capsys, monkeypatch, "play", "--variant", variant, "--seed", "3", "--save",
                             f"{tmp_path}/{variant}.json", stdin="")
        assert status == 0 and "End of input." in out


def test_an_interrupt_starts_its_own_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupting(io.StringIO):
        def readline(self, *_: object) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    assert main(["play", "--seed", "5"]) == 130
    assert capsys.readouterr().out.endswith("\nInterrupted.\n")
