"""Issue 43 item 4: a table that looks like cards, driven by Textual's pilot: card shapes (rank, suit, colours,
four colours), the pile's top cards, the others' hands as backs with their levels, a thinking indicator, sort
by rank or suit, the hint's reason, clicks on cards and on the footer's keys, Enter from the hand, 80×24."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Footer

import canasta
from canasta.play.session import Session
from canasta.rummy.session import RummyGame
from canasta.tui.app import CanastaApp, TableScreen
from canasta.tui.cards import FOUR_COLOURS, four_colours, style, tiles
from canasta.tui.hand import HandView
from tui_helpers import drive, session, text_of

LEVELS = ("human", "easy", "medium", "hard")  # a level in each other seat


def test_cards_are_shapes_with_rank_suit_and_colour() -> None:
    top, middle, bottom = tiles(["TH", "AS"], picked={1}, cursor=0)
    assert top.plain == "╭───╭───╮" and middle.plain == "│10♥│A♠ │" and bottom.plain == "╰───╰───╯"
    assert any("red" in str(span.style) for span in middle.spans)
    assert tiles(["XX"], back=True)[1].plain == "│▒▒▒│"
    try:
        four_colours(True)
        assert style("QD") == FOUR_COLOURS["D"] and style("QC") == FOUR_COLOURS["C"] != style("QS")
    finally:
        four_colours(False)
    assert style("QD") == style("QH")


def test_the_table_shows_backs_levels_the_pile_and_fits_80x24(tmp_path: Path) -> None:
    app = CanastaApp(session(tmp_path, seats=LEVELS), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        seats = text_of(screen, "#seats")
        assert "East (easy) ▒▒▒… 11" in seats and "South (partner, medium)" in seats and "West (hard)" in seats
        assert "╭───" in text_of(screen, "#pile-cards") and "▒▒▒" in text_of(screen, "#pile-cards")
        footer = screen.query_one(Footer)
        assert footer.region.bottom == 24 and screen.query_one(HandView).region.bottom <= 23
        keys = {key.key for key in footer.query("FooterKey")}  # type: ignore[attr-defined]
        assert {"question_mark", "q"} <= keys and not screen.query_one("#status").region.y  # nothing scrolled off
        assert "l" not in keys  # the rummy family's lay-off key is not Canasta's

    drive(app, script)


def test_clicks_on_a_card_and_on_a_footer_key_and_enter_from_the_hand(tmp_path: Path) -> None:
    game = session(tmp_path, seats=LEVELS)
    app = CanastaApp(game, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        hand = app.screen.query_one(HandView)
        await pilot.click(HandView, offset=(1 + 4 + 2, 1))  # the second card's face
        assert hand.selected == {1}
        await pilot.click(HandView, offset=(1 + 4 + 2, 1))
        assert hand.selected == set()
        draw = next(key for key in app.screen.query("FooterKey") if key.key == "d")  # type: ignore[attr-defined]
        await pilot.click(draw)
        await pilot.pause()
        assert game.state.turn.source == "stock"
        assert hand.has_focus
        await pilot.press("enter")  # the list's highlighted move (its first: a meld or a discard)
        await pilot.pause()
        assert len(game.recorder.moves) == 2

    drive(app, script)


def test_sort_by_suit_and_back(tmp_path: Path) -> None:
    app = CanastaApp(session(tmp_path, seats=LEVELS), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        hand = app.screen.query_one(HandView)
        await pilot.press("s")
        await pilot.pause()
        suits = [c[-1] for c in hand.cards if c != "JK"]
        assert suits == sorted(suits, key="SHDC".index) and "by suit" in text_of(app.screen, "#message")
        await pilot.press("s")
        await pilot.pause()
        assert "by rank" in text_of(app.screen, "#message")

    drive(app, script)


def test_a_thinking_computer_player_is_shown(tmp_path: Path) -> None:
    game = Session.start(canasta.rules("classic"), ["easy", "human", "easy", "easy"], 5)  # North (easy) first
    app = CanastaApp(game, delay=30)  # the first computer move waits: the indicator is set by hand below

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.thinking = True
        screen.show_status()
        assert "North (easy) is thinking…" in text_of(screen, "#status")
        screen.thinking = False
        screen.show_status()
        assert "thinking" not in text_of(screen, "#status")

    drive(app, script)


def test_the_rummy_hint_gives_its_reason() -> None:
    game = RummyGame.start(canasta.rules("500-rum"), ["human", "easy", "easy"], seed=4)
    move, reason = game.hint("easy")
    assert move in game.legal(game.state) and reason


def test_laying_off_a_card_that_fits_no_meld_says_so() -> None:
    game = RummyGame.start(canasta.rules("500-rum", players=2), ["human", "easy"], seed=4)
    app = CanastaApp(game, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.screen.human_to_move():  # type: ignore[attr-defined]
                break
        await pilot.press("d")
        await pilot.pause()
        hand = app.screen.query_one("#hand", HandView)
        card = hand.picked()[0]
        fits = [m for m in game.legal(game.state) if str(m).startswith(f"lay {card} on ")]
        await pilot.press("l")
        await pilot.pause()
        message = text_of(app.screen, "#message")
        assert "fits no meld on the table" in message if not fits else "'?'" not in message

    drive(app, script)
