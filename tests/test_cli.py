"""The ``canasta`` command end to end, through ``canasta.cli.main(argv)`` (and one real subprocess)."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.cli import main
from canasta.play.record import dumps, play_game
from canasta.players import make_player
from canasta.positions import build_position

# Full hands for seats 1-3, so that build_position deals nothing at random.
OTHERS = {1: "5H 5S 6H 6S 7H 7D 8S 8C TH TD JH", 2: "QH QS JD JC TC 6C 7C 8D 9H 4S 4C",
          3: "AC KC QC 5D 6D TS JS 9D 9S 4H 7S"}

COMMANDS = ["play", "simulate", "score", "explain", "moves", "replay", "rules"]


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- help -----------------------------------------------------------------------------------

def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert command in out


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert f"usage: canasta {command}" in capsys.readouterr().out


def test_no_command_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: canasta" in capsys.readouterr().err


def test_python_dash_m() -> None:
    done = subprocess.run([sys.executable, "-m", "canasta", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage: canasta" in done.stdout and "simulate" in done.stdout


# --- rules ----------------------------------------------------------------------------------

def test_rules_list_and_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules")
    assert status == 0 and "classic" in out and "partnership" in out and "boat" in out
    status, out, _ = run(capsys, "rules", "classic", "--option", "target=10000")
    assert status == 0
    assert "With options: `target=10000`" in out and "| `target` | `10000` |" in out and "§3.10" in out
    assert "| `min_naturals` | `2` |" in out
    status, out, _ = run(capsys, "rules", "classic", "--json")
    data = json.loads(out)
    assert data["variant"] == "classic"
    params = {p["name"]: p for p in data["parameters"]}
    assert params["target"]["value"] == 5000 and params["wild_rule"]["source"]
    index = json.loads(run(capsys, "rules", "--json")[1])
    assert index["variants"] == canasta.variant_names() and "500-rum" in index["variants"]
    assert index["families"] == {f: canasta.variant_names(f) for f in ("canasta", "rummy")}
    assert index["aliases"]["standard"] == "classic" and index["aliases"]["rummy-500"] == "500-rum"


@pytest.mark.parametrize(("argv", "needle"), [
    (["rules", "bridge"], "valid variants:"),
    (["rules", "classic", "--option", "colour=blue"], "unknown option 'colour' for classic; valid options: acaba, "),
    (["rules", "classic", "--option", "target"], "KEY=VALUE"),
    (["simulate", "--games", "1", "--variant", "bridge"], "valid variants"),
    (["simulate", "--games", "1", "--option", "colour=blue"], "valid options"),
    (["simulate", "--games", "1", "--players", "greedy,deep-blue"],
     "valid players: greedy, heuristic, learned, random, search"),
    (["play", "--variant", "bridge"], "valid variants"),
    (["play", "--opponents", "deep-blue"], "valid players"),
    (["play", "--seat", "7"], "--seat must be 0..3"),
])
def test_unknown_names_exit_2(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2 and needle in err


# --- score ----------------------------------------------------------------------------------

SCORE_INPUT = {
    "variant": "classic", "options": {},
    "sides": [
        {"melds": ["KH KD KS KC KH KD KS", "7H 7D 7S 7C 2C"], "hand": "4C 5D",
         "red_threes": "3H 3D", "went_out": True, "concealed": False},
        {"melds": [], "hand": "AS 9D", "red_threes": "3D"},
    ],
}


def test_score_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(SCORE_INPUT))
    status, out, _ = run(capsys, "score", "--json", str(path))
    assert status == 0
    data = json.loads(out)
    assert [s["total"] for s in data["sides"]] == [900, -130]
    for side in data["sides"]:
        assert sum(side["lines"].values()) == side["total"]
    status, out2, _ = run(capsys, "score", "-", "--json", stdin=json.dumps(SCORE_INPUT), monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out2) == data


@pytest.mark.parametrize(("change", "needle"), [
    (lambda d: d["sides"][1].update(hand="AS 9X"), "side 2 hand: '9X'"),
    (lambda d: d["sides"][0]["melds"].append("5H 5D 2C 2D JK JK"), "side 1 meld 3"),
    (lambda d: d["sides"][1].update(red_threes="3H 3D 3H"), "3H"),
])
def test_score_invalid_input(change: Any, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(json.dumps(SCORE_INPUT))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "score", str(path))
    assert status != 0 and out == "" and needle in err


def test_score_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", str(tmp_path / "missing.json"))[0] == 1
    (tmp_path / "x.json").write_text("{not json")
    status, _, err = run(capsys, "score", str(tmp_path / "x.json"))
    assert status == 1 and "not valid JSON" in err


# --- explain, moves -------------------------------------------------------------------------

@pytest.fixture
def position(tmp_path: Path) -> Path:
    state = build_position(hands={**OTHERS, 0: "KH KD 5C 6D 7S 8H 9C JS QD 4H 2C"}, pile="9S 2D 8D KS",
                           melds=[["AS AH AD"], []])
    path = tmp_path / "position.json"
    path.write_text(state.to_json())
    return path


def test_moves(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", str(position))
    state = canasta.State.from_json(position.read_text())
    assert status == 0 and out.splitlines() == [str(m) for m in canasta.legal_moves(state)]
    assert out.splitlines() == ["draw", "take K K"]


@pytest.mark.parametrize(("move", "want"), [
    ("take K K", "legal"),
    ("draw", "legal"),
    ("take K 2", "illegal FROZEN_NEEDS_NATURAL_PAIR: "),
    ("discard 5", "illegal MUST_DRAW_FIRST: "),
    ("fly away", "illegal BAD_NOTATION: unknown move 'fly'"),
    ("meld 9 9 X9", "illegal BAD_NOTATION: 'X9'"),
])
def test_explain(move: str, want: str, position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", str(position), move)
    assert status == 0 and out.startswith(want) and len(out.splitlines()) == 1


def test_explain_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "explain", str(tmp_path / "none.json"), "draw")
    assert status == 1 and out == "" and "cannot read position" in err
    (tmp_path / "bad.json").write_text('{"format": "canasta-state/1"}')
    status, _, err = run(capsys, "moves", str(tmp_path / "bad.json"))
    assert status == 1 and "cannot read position" in err


# --- replay ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return play_game([make_player("greedy", seed=s) for s in range(4)], seed=21)[1]


def test_replay(record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(record))
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0 and out.startswith(f"ok: {len(record['moves'])} moves replayed and checked")
    assert "Game over after" in out
    status, out, _ = run(capsys, "replay", "--verbose", str(path))
    assert status == 0
    assert re.search(r"^\s+1\. \w+\s+(draw|take)", out, re.M)
    assert out.count("=== Hand") == record["result"]["hands"]


def test_replay_tampered(record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = json.loads(json.dumps(record))
    i = next(i for i, m in enumerate(bad["moves"]) if " discard " in m)
    bad["moves"][i] = bad["moves"][i].split()[0] + " discard JK JK"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1 and f"move {i + 1}:" in err and "BAD_NOTATION" in err
    bad["moves"][i] = bad["moves"][i].split()[0] + " meld 5 5 5 5 5 5 5 5 5"
    path.write_text(json.dumps(bad))
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1 and re.search(rf"move {i + 1}: .* [A-Z_]+: ", err)


# --- simulate -------------------------------------------------------------------------------

def test_simulate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--games", "3", "--seed", "2", "--players", "greedy,random")
    assert status == 0
    assert "3 games of classic" in out and "N-S (seats 0 2, greedy,greedy)" in out and "moves/s" in out
    status, out, err = run(capsys, "simulate", "-n", "3", "--seed", "2", "--players", "greedy,random", "--json",
                           "--jobs", "2", "--records", str(tmp_path), "--progress")
    data = json.loads(out)
    assert status == 0 and data["games"] == 3 and data["jobs"] == 2
    assert "3/3 games" in err
    assert len(list(tmp_path.glob("game-*.json"))) == 3
    status, out, _ = run(capsys, "replay", str(tmp_path / "game-00002.json"))
    assert status == 0 and out.startswith("ok:")


# --- play -----------------------------------------------------------------------------------

class HelpDriver(io.TextIOBase):
    """Standard input for ``canasta play`` that types ``help``, then one of the moves it listed.

    Now and then it types something wrong first, to check that the game explains and goes on."""

    def __init__(self, out: io.StringIO, seed: int) -> None:
        self.out, self.rng = out, random.Random(seed)
        self.asked_help = False
        self.lines = 0
        self.mistakes = 0

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        if self.lines > 20_000:
            return ""  # give up: the test then fails on the missing end of the game
        if not self.asked_help:
            self.asked_help = True
            if self.rng.random() < 0.05:
                self.mistakes += 1
                return self.rng.choice(["meld Z Z Z\n", "take 2 2 2\n", "discard\n", "go home\n"])
            return "help\n"
        self.asked_help = False
        text = self.out.getvalue()
        block = text[text.rindex("Legal moves:"):].splitlines()[1:]
        moves = [re.split(r"\s{2,}", line.strip())[0] for line in block if re.match("  [^ ]", line)]
        assert moves
        return self.rng.choice(moves) + "\n"


def test_play_a_whole_game_through_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    driver = HelpDriver(out, seed=1)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", driver)
    status = main(["play", "--seed", "4"])
    text = out.getvalue()
    assert status == 0
    assert "Game over after" in text.splitlines()[-1], text[-2000:]
    assert driver.mistakes > 0 and ("bad move:" in text or "illegal " in text)
    # The table shows everything the brief asks for.
    assert "Your hand (" in text and "Pile: top" in text and "Stock: " in text and "needs 50 to open" in text
    assert re.search(r"East: (draw|take)", text)
    assert "=== Hand 1 is over" in text and "cumulative" in text and "melded cards" in text


def test_play_other_seat_random_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", HelpDriver(out, seed=2))
    assert main(["play", "--seat", "2", "--seed", "9", "--opponents", "random", "--option", "target=1500"]) == 0
    text = out.getvalue()
    assert "You are South (seat 2, N-S), partnered with North" in text
    assert "Game over after" in text


def test_play_bad_input_quit_and_eof(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    state = canasta.new_game(canasta.rules(), seed=5)
    assert state.to_move == 0  # the human (seat 0) moves first with this seed
    script = "meld 9 9\nshuffle\ntake 9 9 9 9\nhelp\ndraw\nquit\n"
    status, out, _ = run(capsys, "play", "--seed", "5", stdin=script, monkeypatch=monkeypatch)
    assert status == 0
    assert "illegal MUST_DRAW_FIRST: draw from the stock or take the pile first" in out
    assert "bad move: unknown move 'shuffle'" in out
    assert "Legal moves:\n  draw" in out and "draw the top card of the stock" in out
    assert "You drew: " in out and out.rstrip().endswith("You leave the game.")
    status, out, _ = run(capsys, "play", "--seed", "5", stdin="n\ndraw\n", monkeypatch=monkeypatch)
    assert "A game in progress is saved in" in out and "Continue the saved game (c)" in out
    assert status == 0 and "End of input" in out and "Traceback" not in out


# --- text rendering -------------------------------------------------------------------------

def test_group_hand_and_history_lines() -> None:
    from canasta.textui import describe_history, group_hand

    assert group_hand(["AH", "2C", "AS", "KD", "JK", "3S", "7C"]) == "A: AS AH | K: KD | 7: 7C | 3: 3S | wild: 2C JK"
    assert group_hand([]) == "(empty)"
    assert describe_history("1 meld 9 9 9", 4, 0) == "East: meld 9 9 9"
    assert describe_history("0 red-three 3H", 4, 0) == "You: drew a red three (3H), laid out and replaced"
    assert describe_history("0 yes", 4, 0, asker=2) == "You (asked by South): yes"
    assert describe_history("2 no", 4, 0, asker=0) == "South (asked by you): no"


def test_score_takes_variant_and_options(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Variants I: `canasta score --variant NAME --option KEY=VALUE` overrides the file's rules."""
    hand = json.dumps({"sides": [{"melds": ["2C 2C 2D 2D 2H 2H 2S"]}, {}]})
    status, out, err = run(capsys, "score", "-", stdin=hand, monkeypatch=monkeypatch)
    assert status != 0 and "wild cards only" in err  # Classic has no wild melds
    status, out, _ = run(capsys, "score", "-", "--json", "--variant", "cuban", stdin=hand, monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out)["sides"][0]["lines"]["wild_canastas"] == 4000
    status, out, _ = run(capsys, "score", "-", "--json", "--variant", "uruguayan", "--option",
                         "wild_canasta_bonus=1000", stdin=hand, monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out)["sides"][0]["total"] == 140 + 1000
    status, _, err = run(capsys, "score", "-", "--variant", "boat", stdin=hand, monkeypatch=monkeypatch)
    assert status == 2 and "not supported" in err
