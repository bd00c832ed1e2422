"""Snapshot tests of the rummy table in the Textual app (pytest-textual-snapshot): 500 Rum mid-hand with
melds by several owners on the table and a spread pile, at 80×24 and larger, and Basic Rummy's end-of-hand
breakdown. Seeds are fixed and the computer players seeded, so each screen is the same on every run.

After checking that a changed screen is wanted: ``pytest tests/test_tui_rummy_snapshots.py --snapshot-update``."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from textual.pilot import Pilot

import canasta
from canasta.players.rummy import make_rummy_player
from canasta.rummy.session import RummyGame
from canasta.tui.app import CanastaApp
from canasta.tui.rummy_screen import RummyTableScreen
from canasta.tui.screens import HandEndScreen


async def settle(pilot: Pilot[None], app: CanastaApp) -> None:
    """Until the computer players have moved and the human (or a modal screen) is waited for."""
    for _ in range(5000):
        await pilot.pause()
        await app.workers.wait_for_complete()
        screen = app.screen
        if not isinstance(screen, RummyTableScreen) or screen.human_to_move():
            await pilot.pause()
            return
    raise AssertionError("the computer players did not finish")


async def play_until(pilot: Pilot[None], app: CanastaApp, done: Any) -> None:
    """The human seat plays greedy's moves (in notation) until ``done(screen)``."""
    chooser = make_rummy_player("greedy", 0)
    for _ in range(400):
        await settle(pilot, app)
        if done(app.screen):
            return
        screen = app.screen
        assert isinstance(screen, RummyTableScreen)
        state = screen.session.state
        screen.attempt(str(chooser.choose(canasta.view(state, screen.seat), canasta.legal_moves(state))))  # type: ignore[arg-type]
    raise AssertionError("never reached")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_500_rum_table_mid_hand(snap_compare: Any, size: tuple[int, int]) -> None:
    app = CanastaApp(RummyGame.start(canasta.rules("500-rum"), ["human", "easy", "medium"], seed=4), delay=0)

    def melds_and_pile(screen: Any) -> bool:
        if not isinstance(screen, RummyTableScreen):
            return False
        state = screen.session.state
        return len(state.melds) >= 2 and len(state.pile) >= 3 and state.phase == "draw"

    async def run_before(pilot: Pilot[None]) -> None:
        await play_until(pilot, app, melds_and_pile)
        await pilot.press("left")  # nothing selected; the hand's cursor moves
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_basic_rummy_end_of_hand(snap_compare: Any) -> None:
    app = CanastaApp(RummyGame.start(canasta.rules("basic-rummy"), ["human", "hard"], seed=8), delay=0)

    async def run_before(pilot: Pilot[None]) -> None:
        await play_until(pilot, app, lambda screen: isinstance(screen, HandEndScreen))

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
