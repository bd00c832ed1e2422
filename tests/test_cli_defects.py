"""Issue 17 item 3: the defects found by trying the command as a new user, one test each."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.textui import describe_history


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- "South (asked by South): yes" ------------------------------------------------------------

def test_answer_names_the_answerer_and_the_asker() -> None:
    # The engine files the answer under the seat that answered (the seat to move in the answer phase).
    assert describe_history("2 yes", 4, 0, asker=0) == "South (asked by you): yes"
    assert describe_history("0 no", 4, 0, asker=2) == "You (asked by South): no"
    assert describe_history("3 yes", 4, 0, asker=1) == "West (asked by East): yes"


class AskingDriver(io.TextIOBase):
    """Types ``ask`` whenever it is legal, ``yes`` when asked, else the first legal move."""

    def __init__(self, out: io.StringIO) -> None:
        self.out, self.asked, self.lines = out, False, 0

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        if self.lines > 20_000:
            return ""
        if not self.asked:
            self.asked = True
            return "help\n"
        self.asked = False
        text = self.out.getvalue()
        block = text[text.rindex("Legal moves:"):].splitlines()[1:]
        moves = [re.split(r"\s{2,}", line.strip())[0] for line in block if line.startswith("  ")]
        for wanted in ("ask", "yes"):
            if wanted in moves:
                return wanted + "\n"
        return moves[0] + "\n"


def test_play_names_who_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", AskingDriver(out))
    assert main(["play", "--plain", "--seed", "3", "--option", "target=1500"]) == 0
    answers = re.findall(r"^(\w+) \(asked by (\w+)\): (yes|no)$", out.getvalue(), re.M)
    assert answers
    for answerer, asker, _ in answers:
        assert answerer.lower() != asker.lower()
        assert "you" in (answerer.lower(), asker.lower()) or answerer != "You"


# --- simulate ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", [n for n in canasta.variant_names("canasta") if canasta.rules(n).teams == 3])
def test_simulate_three_sided_presets_with_default_players(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--variant", variant, "-n", "1")
    assert status == 0, err
    assert f"1 games of {variant}" in out and "side 2 " in out


def test_simulate_reports_a_game_past_its_move_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--variant", "modern-american", "--players", "random",
                           "-n", "2", "--max-moves", "50", "--records", str(tmp_path))
    assert status == 0, err
    assert "unfinished (move cap reached, no winner): 2 (seeds 0, 1)" in out and "Traceback" not in err
    status, out, _ = run(capsys, "replay", str(tmp_path / "game-00001.json"))
    assert status == 0 and "50 moves replayed and checked; the game is not finished" in out
    status, out, _ = run(capsys, "simulate", "--players", "random", "-n", "1", "--max-moves", "50", "--json")
    data = json.loads(out)
    assert data["unfinished"] == 1 and data["draws"] == 0


def test_simulate_records_pointing_at_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    for target in (tmp_path / "file", tmp_path / "file" / "below"):
        status, out, err = run(capsys, "simulate", "-n", "1", "--records", str(target))
        assert status == 2 and out == "" and "cannot make the records folder" in err
        assert len(err.splitlines()) == 1


# --- files that hold the wrong thing ----------------------------------------------------------

@pytest.mark.parametrize("content", ["[]", '"a string"', "null", "5"])
@pytest.mark.parametrize("command", [["moves"], ["explain", "-", "draw"], ["replay"], ["score"]])
def test_json_that_is_not_an_object(content: str, command: list[str], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "file.json"
    path.write_text(content)
    argv = [command[0], str(path), *command[2:]]
    status, out, err = run(capsys, *argv)
    assert status == 1 and out == ""
    assert "must hold a JSON object" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("command", [["score"], ["replay"], ["moves"], ["explain", "-", "draw"]])
def test_input_that_is_not_utf8(command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"sides": "é"}'.encode("latin-1"))
    status, out, err = run(capsys, command[0], str(path), *command[2:])
    assert status == 1 and out == "" and "is not UTF-8 text (byte 12 is 0xe9)" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    status, out, err = run(capsys, command[0], "-", *command[2:])
    assert status == 1 and "'-' is not UTF-8 text" in err


def test_position_messages_show_no_python_internals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(canasta.new_game(canasta.rules(), seed=1).to_json())
    data["dealer"] = "x"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    status, _, err = run(capsys, "moves", str(path))
    assert status == 1 and "field 'dealer': want a whole number, got the text 'x'" in err
    assert "Error(" not in err and "invalid literal" not in err


# --- score: one exit status per kind of mistake, a table for people ----------------------------

HAND = {"variant": "classic", "sides": [{"melds": ["KH KD KS KC KH KD KS"], "hand": "4C", "went_out": True},
                                        {"melds": [], "hand": "AS 9D"}]}


def test_score_prints_a_table_and_json_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND))
    status, out, _ = run(capsys, "score", str(path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "classic:" and lines[1].split() == ["side", "1", "side", "2"]
    assert lines[-1].split()[:2] == ["hand", "total"]
    status, out, _ = run(capsys, "score", "--json", str(path))
    assert [s["total"] for s in json.loads(out)["sides"]] == [
        int(w) for w in lines[-1].split()[2:]]


@pytest.mark.parametrize(("change", "status"), [
    ({"variant": "bridge"}, 1), ({"options": {"colour": "blue"}}, 1), ({"sides": [{}]}, 1),
])
def test_score_mistakes_in_the_file_exit_1(change: dict[str, object], status: int, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**HAND, **change}))
    code, out, err = run(capsys, "score", str(path))
    assert code == status and out == "" and len(err.splitlines()) == 1


@pytest.mark.parametrize("argv", [["--variant", "bridge"], ["--option", "colour=blue"], ["--option", "x"]])
def test_score_mistakes_on_the_command_line_exit_2(argv: list[str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND))
    code, out, err = run(capsys, "score", str(path), *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
