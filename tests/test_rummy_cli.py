"""The command line with the rummy family: rules pages, explain, moves, score, replay and play."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.play.record import Recorder
from canasta.text.variant_docs import variant_page, variants_index

ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", canasta.variant_names("rummy"))
def test_rummy_pages_match_the_rules_command(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "variants" / f"{name}.md").read_text()
    assert page == variant_page(canasta.rules(name))
    assert run(capsys, "rules", name)[1] == page
    assert f"[`{name}`]({name}.md)" in variants_index()
    rows = json.loads(run(capsys, "rules", name, "--json")[1])["parameters"]
    assert all(row["source"] for row in rows)


def test_explain_and_moves_on_a_rummy_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = canasta.new_game(canasta.rules("500-rum"), seed=3)
    path = tmp_path / "pos.json"
    path.write_text(state.to_json())
    code, out, _ = run(capsys, "moves", str(path))
    assert code == 0 and out.splitlines() == [str(m) for m in canasta.legal_moves(state)]
    assert run(capsys, "explain", str(path), "draw")[1] == "legal\n"
    assert run(capsys, "explain", str(path), "discard AS")[1].startswith("illegal MUST_DRAW_FIRST")
    assert run(capsys, "explain", str(path), "jump")[1].startswith("illegal BAD_NOTATION")


def test_score_a_rummy_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {"variant": "500-rum", "options": {"players": 2},
            "sides": [{"melds": ["KS KH KD KC", "QS QH QD QC", "5S"], "hand": "JS JH JD JC TS TH TD TC 6S 4S"},
                      {"melds": ["7H 8H 9H"], "hand": "", "went_out": True}]}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "score", str(path), "--json")
    assert code == 0 and json.loads(out)["sides"][0]["total"] == -5
    data["sides"][0]["melds"].append("KS")
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "score", str(path))
    assert code != 0 and "KS" in err


def test_replay_a_rummy_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = Recorder(canasta.new_game(canasta.rules("basic-rummy"), seed=9))
    rng = random.Random(9)
    for _ in range(30):
        rec.apply(rng.choice(canasta.legal_moves(rec.state)))
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec.record()))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and out.startswith("ok: 30 moves replayed")


def test_replay_verbose_shows_each_rummy_hand_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``replay -v`` lists every move and scores every hand of a rummy record, as it does Canasta's."""
    rec = Recorder(canasta.new_game(canasta.rules("500-rum"), seed=9))
    rng = random.Random(9)
    while not canasta.is_over(rec.state):
        rec.apply(rng.choice(canasta.legal_moves(rec.state)))
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec.record()))
    code, out, _ = run(capsys, "replay", "--verbose", str(path))
    moves = len(rec.record()["moves"])
    assert code == 0 and f"ok: {moves} moves replayed and checked. Game over" in out
    assert f"{moves:6d}. " in out and out.count("=== Hand") == rec.state.hand_number


def test_play_basic_rummy_in_the_line_mode(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["help", "hint", "meld 2C 2D", "draw", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run(capsys, "play", "--plain", "--variant", "basic-rummy", "--opponents", "random", "--seed", "1")
    assert code == 0
    assert "Legal moves:\n  draw " in out and "Hint (medium): " in out and "You drew: " in out
    assert "bad move: 'meld 2C 2D': a meld has at least three cards" in out  # told why, and the game goes on


def test_play_500_rum_against_random(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("show\ndraw\nhint\nquit\n"))
    code, out, _ = run(capsys, "play", "--plain", "--variant", "500-rum", "--opponents", "random", "--seat", "1")
    assert code == 0 and "You are Player 2 (seat 1" in out and "Player 1: " in out and "Pile (bottom to top)" in out


def test_play_refuses_unknown_rummy_opponents(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--plain", "--variant", "basic-rummy", "--opponents", "oracle")
    assert code == 2 and "valid" in err
