"""``canasta pad`` in the terminal: line mode end to end, the command's files, and the Textual app's pilot."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from canasta.cli import main
from canasta.pad import load_pad, new_pad
from canasta.pad.line import run

GC_S01 = [  # the rules reference's worked hand, N-S 1,630, E-W 575, as a scorer types it
    {"melds": "3C 3S 3S | 6S 6H 6D 6C 6S 6H 2C | 9S 9H 9D 9C 9S 9H 9D 9C | TS TH TD | JS JH JD JC 2S 2H JK",
     "hand": "4S 5S 5H QS KS AS AH", "threes": "3D 3D", "out": "out"},
    {"melds": "4H 4D 2D | 7S 7H 7D 7C 7S 2C JK | TC TS JK | AD AC AS AH AD",
     "hand": "2H 5D 6D TH JS JH 4C 4C TD QH QD KH KD", "threes": "3H"},
]


def scripted(lines: list[str]) -> tuple[object, list[str]]:
    it = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read, out


def test_line_mode_hand_by_hand_with_a_refusal_a_correction_and_undo(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    # Classic: 1 hand by points, a refused one (a negative count), a correction of hand 1, an undo.
    read, out = scripted([
        "add", "300", "natural=1 mixed=1", "0", "1", "out", "", "100", "", "50", "", "", "",
        "add", "-5", "", "", "", "", "", "", "", "", "", "",
        "fix 1", "", "", "", "", "", "X7", "", "", "", "", "", "",
        "undo", "quit"])
    assert run(new_pad("classic"), path, read, out.append) == 0  # type: ignore[arg-type]
    text = "\n".join(out)
    assert "1           1300        50   (+1300, +50)" in text
    assert "refused: hand 2: side 1 melded_points cannot be negative, got -5 (nothing changed)" in text
    assert "1           1200        50" in text  # after the correction: X7 -100 for N-S
    saved = load_pad(json.loads(path.read_text()))
    assert saved.totals == [1300, 50] and len(saved.hands) == 1  # the undo was saved too


def test_command_keeps_the_game_in_a_file_and_exports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    pad = new_pad("samba", names=["Us", "Them"]).add({"sides": [{"melded_points": 400, "canastas": {
        "sequence": 1, "natural": 1}, "went_out": True}, {}]})
    path.write_text(pad.to_json())
    assert main(["pad", str(path), "--show"]) == 0
    assert "Us" in capsys.readouterr().out
    assert main(["pad", str(path), "--csv", "-"]) == 0
    sheet = capsys.readouterr().out
    assert sheet.startswith("kind,hand,side,name,total,cumulative,entry")
    (tmp_path / "sheet.csv").write_text(sheet)
    assert main(["pad", str(tmp_path / "copy.json"), "--import", str(tmp_path / "sheet.csv"), "--show"]) == 0
    assert load_pad(json.loads((tmp_path / "copy.json").read_text())).hands == pad.hands
    assert main(["pad", str(path), "--variant", "classic"]) == 1
    assert "already holds a game" in capsys.readouterr().err
    bad = {"format": "canasta-pad", "version": 1, "hands": [{"sides": [{"red_threes": 9}, {}]}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert main(["pad", str(tmp_path / "bad.json"), "--show"]) == 1
    assert "red_threes is 9, more than 4" in capsys.readouterr().err


def test_textual_pad_enters_the_worked_example(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from textual.widgets import Input, Static

    from canasta.tui.pad import PadApp

    path = tmp_path / "pad.json"
    app = PadApp(new_pad("classic"), path)

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for i, side in enumerate(GC_S01):
                for key, value in side.items():
                    app.query_one(f"#s{i}-{key}", Input).value = value
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.pad.totals == [1630, 575]
            detail = str(app.query_one("#detail", Static).content)
            assert "hand total" in detail and "1630" in detail and "minimum next hand: N-S 90, E-W 50" in detail
            # a refused hand: an unknown card; nothing changes and the form keeps the answers
            app.query_one("#s0-melds", Input).value = "KH KD ZZ"
            await pilot.click("#add")
            await pilot.pause()
            assert "Refused" in str(app.query_one("#problem", Static).content)
            assert app.query_one("#s0-melds", Input).value == "KH KD ZZ" and len(app.pad.hands) == 1
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert app.pad.hands == ()

    asyncio.run(go())
    assert load_pad(json.loads(path.read_text())).hands == ()


@pytest.mark.parametrize("variant, hand", [
    ("classic", {"sides": [{"melds": ["KH KD KS"], "hand_points": 20, "red_threes": 1, "went_out": True,
                            "concealed": True}, {"melded_points": 300, "canastas": {"mixed": 1}, "hand": "4C 5D"}],
                 "penalties": [{"side": 0, "code": "other", "points": -50}, {"side": 1, "code": "X7", "count": 2}]}),
    ("500-rum", {"sides": [{"table_points": 60, "went_out": True}, {"melds": ["5H 6H 7H"], "hand_points": 12},
                           {"masters_hand": False}]}),
])
def test_form_answers_give_the_hand_back(variant: str, hand: dict[str, object]) -> None:
    from canasta.pad.entry import answers_of, hand_entry

    rules = new_pad(variant).rules
    again = hand_entry(rules, answers_of(rules, hand))
    sides = [{k: v for k, v in side.items() if v is not False} for side in hand["sides"]]  # type: ignore[attr-defined]
    assert again["sides"] == sides and again.get("penalties", []) == hand.get("penalties", [])


def test_form_answers_that_cannot_be_read() -> None:
    from canasta.pad.entry import hand_entry

    rules = new_pad("classic").rules
    with pytest.raises(ValueError, match="side 2: went out: answer"):
        hand_entry(rules, [{}, {"out": "maybe"}])
    with pytest.raises(ValueError, match="canastas: want kind=count"):
        hand_entry(rules, [{"melds": "300", "canastas": "lots"}, {}])


def test_line_mode_whole_game_to_its_end(tmp_path: Path) -> None:
    # 500 Rum for two: 120 shown by the player going out, 40 shown and 35 held by the other; 500 after 5 hands.
    hand = ["add", "120", "", "out", "", "40", "35", "", ""]
    read, out = scripted(hand * 5 + ["add", "quit"])
    assert run(new_pad("500-rum", {"players": 2}), tmp_path / "rum.json", read, out.append) == 0  # type: ignore[arg-type]
    text = "\n".join(out)
    assert "game over: Player 1 wins (Player 1 600, Player 2 25)" in text
    assert "refused: the game is over (Player 1 won)" in text
