"""Shared by the Textual app's tests: driving the app with Textual's pilot, reading a widget's text, and a
Classic game with the human in North's seat."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

import canasta
from canasta.play.session import Session
from canasta.tui.app import CanastaApp


def drive(app: CanastaApp, script: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int] = (80, 24)) -> None:
    """Run ``script`` on the app in a terminal of ``size``, once the first screen is up."""

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


def session(tmp_path: Path, seed: int = 5, seats: tuple[str, ...] = ("human", "easy", "easy", "easy"),
            **options: Any) -> Session:
    """A Classic game saved under ``tmp_path``, the human in North's seat (seed 5: North moves first)."""
    return Session.start(canasta.rules("classic", **options), list(seats), seed, tmp_path / "save.json")
