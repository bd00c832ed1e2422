"""Issue 17 item 2: the line mode (``canasta play --plain``) made whole."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.lineplay import LineGame, wrap
from canasta.play.record import replay
from canasta.play.session import Session, parse_seats
from canasta.textui import group_hand


class Driver(io.TextIOBase):
    """Standard input that reads the game's output: Enter at a pause, ``again`` answers at the
    "Play again?" prompt, otherwise ``help`` and then one of the moves it listed."""

    def __init__(self, out: io.StringIO, seed: int = 1, again: list[str] | None = None) -> None:
        self.out, self.rng = out, random.Random(seed)
        self.again = list(again or [])
        self.asked_help = False
        self.lines = 0

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        text = self.out.getvalue()
        if self.lines > 20_000:
            return ""
        if text.endswith("[Enter] "):
            return "\n"
        if text.endswith("Play again? (yes/no) "):
            return (self.again.pop(0) if self.again else "no") + "\n"
        if not self.asked_help:
            self.asked_help = True
            return "help\n"
        self.asked_help = False
        block = text[text.rindex("Legal moves:"):].splitlines()[1:]
        moves = [re.split(r"\s{2,}", line.strip())[0] for line in block if re.match("  [^ ]", line)]
        return self.rng.choice(moves) + "\n"


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
         script: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    status = main(["play", "--plain", *argv])
    out, err = capsys.readouterr()
    return status, flat(out), err


def flat(text: str) -> str:
    """The output with wrapped lines joined again."""
    return re.sub(r"\n +(?=\S)", " ", text)


# seed 5: North (seat 0) moves first
def test_hint_shows_the_levels_move_and_reason(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, ["--seed", "5"], "hint\nquit\n")
    assert status == 0
    hint = re.search(r"^Hint \(medium\): (\S.*?) - (.+)$", out, re.M)
    assert hint is not None and hint.group(2).strip()
    state = canasta.new_game(canasta.rules(), seed=5)
    assert canasta.parse_move(state, hint.group(1)) in canasta.legal_moves(state)


def test_levels_per_seat(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, ["--seed", "5", "--seats", "human,hard,expert,medium"], "quit\n")
    assert status == 0 and "computer players: East hard, South expert, West medium." in out
    for seats, needle in [("human,hard", "one name per seat (4)"), ("hard,hard,hard,hard", "no seat is human"),
                          ("human,human,easy,easy", "exactly one seat"), ("human,deep,easy,easy", "valid players")]:
        status, out, err = play(capsys, monkeypatch, ["--seats", seats], "quit\n")
        assert status == 2 and needle in err and out == ""


def test_autosave_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    status, out, _ = play(capsys, monkeypatch, ["--seed", "5", "--save", str(save), "--seats", "human,easy,easy,easy"],
                          "draw\nhelp\n")
    assert status == 0 and f"carry on with: canasta play --resume {save}" in out
    record = json.loads(save.read_text())
    assert record["players"] == ["human", "easy", "easy", "easy"] and record["moves"][0] == "0 draw"
    before = replay(record)
    resumed = Session.resume(save)
    assert resumed.state == before and resumed.seats == record["players"]
    # The resumed game goes on from there, into the same file.
    status, out, _ = play(capsys, monkeypatch, ["--resume", str(save)], "quit\n")
    assert status == 0 and "You leave the game." in out
    assert group_hand(canasta.view(before, 0)["hand"]) in out
    moves = [str(m) for m in canasta.legal_moves(before) if m.action == "discard"]
    status, out, _ = play(capsys, monkeypatch, ["--resume", str(save)], f"{moves[0]}\nquit\n")
    assert status == 0 and json.loads(save.read_text())["moves"][:2] == ["0 draw", f"0 {moves[0]}"]


def test_ctrl_c_keeps_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            line = super().readline()
            if not line:
                raise KeyboardInterrupt
            return line

    save = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", Interrupting("draw\n"))
    assert main(["play", "--plain", "--seed", "5", "--save", str(save)]) == 130
    out = capsys.readouterr().out
    assert "Interrupted." in out and "carry on with" in out
    assert replay(json.loads(save.read_text())).hand_number == 1 and "0 draw" in save.read_text()


@pytest.mark.parametrize(("content", "needle"), [
    ("[]", "a record is a JSON object"), ("{", "not a game record"), (b"\xff", "not UTF-8"),
    (None, "cannot read"),
])
def test_resume_bad_files(content: str | bytes | None, needle: str, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "saved.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    status, out, err = play(capsys, monkeypatch, ["--resume", str(path)], "quit\n")
    assert status == 1 and out == "" and needle in err and len(err.splitlines()) == 1


def test_resume_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta.play.record import dumps, play_game
    from canasta.players import make_player

    record = play_game([make_player("greedy", seed=s) for s in range(4)], seed=21)[1]
    path = tmp_path / "over.json"
    path.write_text(dumps({**record, "players": ["human", "easy", "easy", "easy"]}))
    status, _, err = play(capsys, monkeypatch, ["--resume", str(path)], "quit\n")
    assert status == 1 and "is over" in err


def test_did_you_mean_and_the_variants_verbs(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, ["--seed", "5"], "darw\nshuffle\nhnit\nquit\n")
    assert status == 0 and "did you mean 'draw'?" in out and "did you mean 'hint'?" in out
    verbs = re.search(r"unknown move 'shuffle'; in classic the moves are: ([a-z, ]+)", out)
    assert verbs and "acaba" not in verbs.group(1) and "declare" not in verbs.group(1) and "ask" in verbs.group(1)
    status, out, _ = play(capsys, monkeypatch, ["--seed", "5", "--variant", "british"], "shuffle\nquit\n")
    assert status == 0 and "acaba" in out.split("unknown move 'shuffle'")[1]


def test_wrap_keeps_words_whole() -> None:
    text = "Your hand (15): A: AS AH | K: KD KC KH | 9: 9S 9H 9D | 7: 7C 7C | 5: 5D 5H | wild: 2C JK JK"
    lines = wrap(text, 40).splitlines()
    assert all(len(line) <= 40 for line in lines) and len(lines) > 1
    assert " ".join(line.strip() for line in lines) == text
    help_line = "  take K K    take the pile: meld the top card KS with K K from your hand; the other 9 cards join"
    first, *rest = wrap(help_line, 60).splitlines()
    assert first.startswith("  take K K    take") and all(line.startswith(" " * 14) for line in rest)


def test_narrow_terminal_game_and_pauses(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    session = Session.start(canasta.rules("classic", target=3000), parse_seats("human,random,random,random", 4), 9)
    game = LineGame(session, 0, Driver(out, again=["yes"]), out, pause=True, offer_again=True, width=50)
    assert game.run() == 0
    text = out.getvalue()
    assert text.count("Canasta (classic)") == 2  # played again
    assert "Game over after" in text
    assert re.search(r"cumulative.*\n\n?Hand 2: \w+ deals\.\n\[Enter\] ", text)  # a pause after the sheet
    assert re.search(r"^(East|South|West): .*\n\[Enter\] \n", text, re.M)  # and after the others' turns
    long = [line for line in text.splitlines() if len(line) > 50]
    assert all(" " not in line.strip() for line in long), long[:3]  # only unbreakable words pass the width


def test_play_again_after_a_game_through_the_cli_defaults(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Not at a terminal: no pauses and no 'play again' (scripts and pipes get the old behaviour)."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", Driver(out, seed=3))
    assert main(["play", "--plain", "--seed", "9", "--opponents", "random", "--option", "target=1500"]) == 0
    text = out.getvalue()
    assert "[Enter]" not in text and "Play again" not in text and "Game over after" in text.splitlines()[-1]


@pytest.mark.parametrize(("variant", "options"), [("basic-rummy", ["target=60"]), ("500-rum", ["target=150"])])
def test_a_whole_rummy_game_in_the_same_line_mode(variant: str, options: list[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The rummy family plays in the line mode Canasta does: the table, 'help' with each move explained, the
    others' moves, every hand's end and the result; the saved record replays to the same end."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", Driver(out, seed=2))
    path = tmp_path / "game.json"
    argv = ["play", "--plain", "--variant", variant, "--seed", "3", "--opponents", "greedy", "--save", str(path)]
    assert main([*argv, *(a for o in options for a in ("--option", o))]) == 0
    text = out.getvalue()
    assert "Moves: draw, take, meld, lay, discard" in text and "Legal moves:\n  draw " in text
    assert "=== Hand 1 is over: " in text and "Game over after" in text.splitlines()[-1]
    assert re.search(r"^Player 2: (draw|take|meld|lay|discard)", text, re.M)  # the computer player's moves
    assert replay(json.loads(path.read_text())).result is not None
