"""Shared by the Textual app's tests: driving the app with Textual's pilot, waiting for the computer players,
reading a widget's text, and games of either family with the human seated."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

import canasta
from canasta.play.session import Session
from canasta.players.rummy import make_rummy_player
from canasta.rummy.session import RummyGame
from canasta.tui.app import CanastaApp, TableScreen


def drive(app: CanastaApp, script: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int] = (80, 24)) -> None:
    """Run ``script`` on the app in a terminal of ``size``, once the first screen is up."""

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


async def settle(pilot: Pilot[None], app: CanastaApp) -> None:
    """Until the computer players have moved and the human (or a modal screen) is waited for: waits on the
    worker, never on the clock."""
    for _ in range(5000):
        await pilot.pause()
        await app.workers.wait_for_complete()
        screen = app.screen
        if not isinstance(screen, TableScreen) or screen.human_to_move():
            await pilot.pause()
            return
    raise AssertionError("the computer players did not finish")


async def play_greedy(pilot: Pilot[None], app: CanastaApp, done: Callable[[Any], bool],
                      play: Callable[[TableScreen, str], Awaitable[None]] | None = None, seed: int = 0) -> None:
    """The human seat of a rummy game plays greedy's moves until ``done(app.screen)``: through ``play(screen,
    move)`` (keys, say), else in notation."""
    chooser = make_rummy_player("greedy", seed)
    for _ in range(400):
        await settle(pilot, app)
        screen = app.screen
        if done(screen):
            return
        assert isinstance(screen, TableScreen)
        state = screen.session.state
        move = str(chooser.choose(canasta.view(state, screen.seat), canasta.legal_moves(state)))  # type: ignore[arg-type]
        if play is None:
            screen.attempt(move)
        else:
            await play(screen, move)
    raise AssertionError("never reached")


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


def session(tmp_path: Path, seed: int = 5, seats: tuple[str, ...] = ("human", "easy", "easy", "easy"),
            variant: str = "classic", **options: Any) -> Session:
    """A Canasta game (Classic by default) saved under ``tmp_path``, the human in North's seat (seed 5: North
    moves first)."""
    return Session.start(canasta.rules(variant, **options), list(seats), seed, tmp_path / "save.json")


def rummy_game(name: str, seats: list[str], seed: int = 3, **options: Any) -> RummyGame:
    """A game of the rummy family, not saved."""
    return RummyGame.start(canasta.rules(name, **options), seats, seed)
