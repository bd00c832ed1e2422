"""Issue 17: the computer players think in a worker thread, so the table answers keys meanwhile."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

import canasta
from canasta.canasta.moves import Move
from canasta.play.session import Session
from canasta.tui.app import CanastaApp, TableScreen
from canasta.tui.screens import HelpScreen


class Slow:
    """A computer player that chooses only when the test lets it (a stand-in for a long search)."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started = threading.Event()
        self.thread: threading.Thread | None = None

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        self.thread = threading.current_thread()
        self.started.set()
        assert self.go.wait(30), "the test never let the player choose"
        return legal[0]


def test_the_table_answers_keys_while_a_computer_player_thinks(tmp_path: Path) -> None:
    game = Session.start(canasta.rules("classic"), ["human", "easy", "easy", "easy"], 5, tmp_path / "save.json")
    game.play(canasta.parse_move(game.state, "draw"))
    game.play(canasta.parse_move(game.state, f"discard {canasta.view(game.state, 0)['hand'][0]}"))
    assert game.state.to_move == 1
    slow = Slow()
    game.computers[1] = slow  # type: ignore[assignment]
    app = CanastaApp(game, delay=0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, TableScreen)
            for _ in range(200):
                await pilot.pause()
                if slow.started.is_set():
                    break
            assert slow.started.is_set() and slow.thread is not threading.current_thread()
            # East is still thinking: the table takes keys (a refused hint, the help screen) meanwhile
            await pilot.press("h")
            await pilot.pause()
            assert "your turn" in str(screen.query_one("#message").render())
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert game.state.to_move == 1  # nothing was played for East yet
            slow.go.set()
            for _ in range(200):
                await pilot.pause()
                await app.workers.wait_for_complete()
                if game.state.to_move != 1:
                    break
            assert game.state.to_move != 1 and any(h.startswith("1 ") for h in game.state.history)

    asyncio.run(go())


def test_a_move_that_arrives_while_the_app_closes_is_dropped(tmp_path: Path) -> None:
    # A computer player's thread may hand its move over after the person quit, or while the app shuts down
    # (the screen's widgets gone: it raised NoMatches from the worker before). The move is neither played nor
    # shown: the game was saved before it.
    game = Session.start(canasta.rules("classic"), ["human", "easy", "easy", "easy"], 5, tmp_path / "save.json")
    game.play(canasta.parse_move(game.state, "draw"))
    game.play(canasta.parse_move(game.state, f"discard {canasta.view(game.state, 0)['hand'][0]}"))
    slow = Slow()
    game.computers[1] = slow  # type: ignore[assignment]
    app = CanastaApp(game, delay=0)
    before = game.state
    move = canasta.legal_moves(before)[0]
    screens: list[TableScreen] = []

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            screens.append(screen)
            app.exit()  # quit: the app is still there, closing
            screen.computer_moved(before, move)
            assert game.state is before
        slow.go.set()

    asyncio.run(go())
    screens[0].computer_moved(before, move)  # after the app closed
    assert game.state is before
