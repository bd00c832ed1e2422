"""Computer players think in a pool of worker processes, so the event loop never waits on a search."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..bots.levels import level_player
from ..rummy.players import make_rummy_player


def think(level: str, view: dict[str, Any], legal: list[Any]) -> tuple[Any, str]:
    """The move ``level``'s player makes from ``view`` and its one-line reason (runs in a worker). A rummy
    view (``family`` "rummy") goes to the rummy family's player for the level."""
    player = make_rummy_player(level) if view.get("family") == "rummy" else level_player(level)
    move = player.choose(view, legal)
    reason = getattr(player, "last_reason", None) or f"what the {level} player ({player.name}) would play"
    return move, reason


class BotPool:
    """``await pool.choose(level, view, legal)``: a player decides in a worker process. ``workers=0`` runs
    them in one thread instead (for tests on machines where starting processes is slow)."""

    def __init__(self, workers: int | None = None) -> None:
        count = workers if workers is not None else (os.cpu_count() or 1)
        self.executor: Executor
        if count <= 0:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
        else:
            self.executor = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"))

    async def choose(self, level: str, view: dict[str, Any], legal: list[Any]) -> tuple[Any, str]:
        return await asyncio.get_running_loop().run_in_executor(self.executor, think, level, view, legal)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
