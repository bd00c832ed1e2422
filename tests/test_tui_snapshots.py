"""Issue 17: snapshot tests of the Textual app (pytest-textual-snapshot): the start screen, the table
mid-hand, a refused move with its reason, the end-of-hand breakdown and a resumed game, at 80×24 and
larger. Seeds are fixed and the computer players seeded, so each screen is the same on every run.

A changed screen fails with a report of both pictures; after checking that the change is wanted,
store the new pictures with ``pytest tests/test_tui_snapshots.py --snapshot-update``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from textual.pilot import Pilot

import canasta
from canasta.play.session import Session
from canasta.tui.app import CanastaApp, TableScreen
from canasta.tui.screens import HandEndScreen
from tui_helpers import session as game
from tui_helpers import settle

LARGE = (120, 40)


@pytest.mark.parametrize("size", [(80, 24), LARGE], ids=["80x24", "120x40"])
def test_start_screen(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app = CanastaApp(None, save_path=tmp_path / "save.json", seed=3, delay=0)
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
@pytest.mark.parametrize("size", [(80, 24), LARGE], ids=["80x24", "120x40"])
def test_table_mid_hand(snap_compare: Any, tmp_path: Path, size: tuple[int, int], variant: str) -> None:
    app = CanastaApp(game(tmp_path, seed=9, variant=variant), delay=0)
    rng = random.Random(2)

    async def run_before(pilot: Pilot[None]) -> None:
        # Seeded moves (melds first) until both sides have melds on the table, then a draw.
        for _ in range(300):
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            state = screen.session.state
            if all(state.melds) and state.phase == "draw":
                break
            legal = canasta.legal_moves(state)
            melds = [m for m in legal if m.action in ("meld", "take")]
            screen.attempt(str(rng.choice(melds or legal)))
        else:
            raise AssertionError("no table with melds on both sides")
        await pilot.press("d")  # draw: the hand now holds the card drawn, the moves are the play phase's
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_refused_move_shows_the_reason(snap_compare: Any, tmp_path: Path) -> None:
    app = CanastaApp(game(tmp_path), delay=0)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.attempt("discard 5C")  # before drawing: the engine refuses and says why
        await pilot.pause()

    assert snap_compare(app, run_before=run_before)


def test_end_of_hand_breakdown(snap_compare: Any, tmp_path: Path) -> None:
    app = CanastaApp(game(tmp_path, seed=9), delay=0)
    rng = random.Random(1)

    async def run_before(pilot: Pilot[None]) -> None:
        for _ in range(3000):
            await settle(pilot, app)
            screen = app.screen
            if isinstance(screen, HandEndScreen):
                return
            assert isinstance(screen, TableScreen)
            legal = canasta.legal_moves(screen.session.state)
            screen.attempt(str(rng.choice(legal)))
        raise AssertionError("the hand did not end")

    assert snap_compare(app, run_before=run_before)


def test_resumed_game(snap_compare: Any, tmp_path: Path) -> None:
    first = game(tmp_path)
    first.play(canasta.parse_move(first.state, "draw"))
    app = CanastaApp(Session.resume(tmp_path / "save.json"), delay=0)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)

    assert snap_compare(app, run_before=run_before)
