"""Issue 17 item 1: the Textual app, driven by Textual's pilot (``App.run_test``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Markdown, OptionList, Select

import canasta
from canasta.play.session import Session
from canasta.presets import variant_names
from canasta.tui.app import CanastaApp, TableScreen
from canasta.tui.cards import label, sort_hand
from canasta.tui.hand import HandView
from canasta.tui.screens import GameOverScreen, HandEndScreen, HelpScreen, StartScreen
from tui_helpers import drive, session, text_of


def test_cards_have_symbols_colours_and_10() -> None:
    assert [label(c) for c in ["TH", "AS", "JK", "2C"]] == ["10♥", "A♠", "JK", "2♣"]
    assert sort_hand(["2C", "AS", "TH", "JK", "3S", "KD", "AH"]) == ["AS", "AH", "KD", "TH", "3S", "2C", "JK"]
    from canasta.tui.table import move_label

    assert move_label("discard TH") == "discard 10♥" and move_label("meld T T 2 on T/2") == "meld 10 10 2 on 10/2"


@pytest.mark.parametrize(("variant", "title", "target", "seats"), [
    ("cutthroat", "Cutthroat Canasta", 7500, ["human", "easy", "medium"]),
    ("basic-rummy", "Basic Rummy", 100, ["human", "easy"])])
def test_start_screen_offers_every_preset_and_starts(tmp_path: Path, variant: str, title: str, target: int,
                                                     seats: list[str]) -> None:
    app = CanastaApp(None, save_path=tmp_path / "save.json", seed=3, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        variants = screen.query_one("#variant", Select)
        assert [value for _, value in variants._options] == variant_names()  # every preset of both families
        assert "partnership" in text_of(screen, "#summary")
        variants.value = variant
        await pilot.pause()
        summary = text_of(screen, "#summary")
        assert len(screen.query("#seats Select")) == len(seats)
        assert summary.startswith(title) and summary.endswith(f"Target {target}."), summary
        screen.query_one("#seat-1", Select).value = "easy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.rules.name == variant and app.session.seats == seats

    drive(app, script)


def test_start_screen_refuses_a_bad_option(tmp_path: Path) -> None:
    app = CanastaApp(None, save_path=tmp_path / "save.json", delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        await pilot.click("#options")
        await pilot.press(*"colour=blue")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and "valid options" in text_of(screen, "#problem")

    drive(app, script)


def test_table_mid_hand_refused_move_hint_and_help(tmp_path: Path) -> None:
    game = session(tmp_path)  # seed 5: North (the human) moves first
    app = CanastaApp(game, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert "your turn (North)" in text_of(screen, "#status")
        seats = text_of(screen, "#seats")
        assert "East (easy) ▒▒▒… 11" in seats and "South (partner, easy)" in seats
        assert "needs 50 to open" in text_of(screen, "#us") and text_of(screen, "#pile").startswith("Stock ")
        before = game.state.to_json()
        await pilot.press("x")  # discard before drawing: refused with the engine's reason, nothing lost
        await pilot.pause()
        assert "MUST_DRAW_FIRST" in text_of(screen, "#message") and game.state.to_json() == before
        await pilot.press("h")
        await pilot.pause()
        assert text_of(screen, "#message").startswith("Hint (medium): ")
        await pilot.press("d")
        await pilot.pause()
        assert game.state.turn.source == "stock" and "0 draw" in (tmp_path / "save.json").read_text()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Classic Canasta" in app.screen.query_one(Markdown).source
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen

    drive(app, script)


def test_hand_selection_by_keys_and_mouse(tmp_path: Path) -> None:
    app = CanastaApp(session(tmp_path), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        hand = app.screen.query_one(HandView)
        await pilot.press("right", "space")
        assert hand.selected == {1}
        await pilot.press("space")
        assert hand.selected == set()
        await pilot.click(HandView, offset=(1, 0))  # the first card
        await pilot.pause()
        assert hand.selected == {0}

    drive(app, script)


def test_whole_game_by_keys_to_its_end(tmp_path: Path) -> None:
    """Against computer players, to the end: hand breakdowns, score pad, result, 'play again'."""
    game = session(tmp_path, seed=9, seats=("human", "random", "random", "random"), target=1500)
    app = CanastaApp(game, delay=0)
    rng = random.Random(1)
    seen: dict[str, Any] = {"hand_end": 0}

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(5000):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, HandEndScreen):
                seen["hand_end"] += 1
                assert "hand total" in screen.breakdown and "cumulative" in screen.breakdown
                assert screen.pad.row_count == seen["hand_end"]
                await pilot.press("enter")
            elif isinstance(screen, GameOverScreen):
                seen["result"] = screen.text
                await pilot.press("q")
                return
            elif isinstance(screen, TableScreen) and screen.human_to_move():
                moves = screen.query_one("#moves", OptionList)
                moves.focus()
                for _ in range(rng.randrange(moves.option_count)):
                    await pilot.press("down")
                await pilot.press("enter")
        raise AssertionError("the game did not end")

    drive(app, script)
    assert seen["hand_end"] >= 1 and "Game over after" in seen["result"]
    record = json.loads((tmp_path / "save.json").read_text())
    assert record["result"] is not None and canasta.play.record.replay(record).result == record["result"]


def test_resumed_game(tmp_path: Path) -> None:
    game = session(tmp_path)
    game.play(canasta.parse_move(game.state, "draw"))
    resumed = Session.resume(tmp_path / "save.json")
    app = CanastaApp(resumed, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, TableScreen) and resumed.state == game.state
        assert "meld, then discard" in text_of(screen, "#status")
        hand = screen.query_one(HandView)
        assert hand.cards == sort_hand(canasta.view(game.state, 0)["hand"])

    drive(app, script)


def test_table_marks_canastas_and_writes_10() -> None:
    from canasta.positions import build_position
    from canasta.tui import table

    state = build_position(hands={0: "KH KD 5C 6D 7S 8H 9C JS QD 4H 2C"}, pile="9S 2D 8D KS",
                           melds=[["TH TD TS", "6S 6S 6D 6C 2S 2H JK"], ["AS AH AD"]])
    v = canasta.view(state, 0)
    us = str(table.side(v, 0))
    assert "10 ×3 10♠ 10♥ 10♦" in us
    assert "6 ×7 [mixed] 6♠ 6♠ 6♦ 6♣ 2♠ 2♥ JK" in us and "1 canasta" in us
    assert "A ×3 A♠ A♥ A♦" in str(table.side(v, 1))
    assert "frozen for everyone" in str(table.pile(v)) and str(table.pile(v)).startswith("Stock ")
