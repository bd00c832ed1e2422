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

from canasta.tui.app import CanastaApp, TableScreen
from canasta.tui.screens import HandEndScreen
from tui_helpers import play_greedy, rummy_game, settle


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_500_rum_table_mid_hand(snap_compare: Any, size: tuple[int, int]) -> None:
    app = CanastaApp(rummy_game("500-rum", ["human", "easy", "medium"], seed=4), delay=0)

    def melds_and_pile(screen: Any) -> bool:
        if not isinstance(screen, TableScreen):
            return False
        state = screen.session.state
        return len(state.melds) >= 2 and len(state.pile) >= 3 and state.phase == "draw"

    async def run_before(pilot: Pilot[None]) -> None:
        await play_greedy(pilot, app, melds_and_pile)
        await pilot.press("left")  # nothing selected; the hand's cursor moves
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_basic_rummy_end_of_hand(snap_compare: Any) -> None:
    app = CanastaApp(rummy_game("basic-rummy", ["human", "hard"], seed=8), delay=0)

    async def run_before(pilot: Pilot[None]) -> None:
        await play_greedy(pilot, app, lambda screen: isinstance(screen, HandEndScreen))

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
