"""Computer players think in a pool of worker processes, so the event loop never waits on a search.

The pool is shared by every table, fairly: each worker takes the most urgent decision waiting, where a
table with a person at it (``urgent``) goes before any table that only computer players or spectators
watch, and equals go first come, first served. No more decisions are handed to the executor than it has
workers, so an urgent one waits at most for the decisions already being thought about, never behind a
queue of bot-only tables' moves.
"""

from __future__ import annotations

import asyncio
import itertools
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
    """``await pool.choose(level, view, legal, urgent=...)``: a player decides in a worker process.
    ``workers=0`` runs them in one thread instead (for tests on machines where starting processes is slow)."""

    def __init__(self, workers: int | None = None) -> None:
        count = workers if workers is not None else (os.cpu_count() or 1)
        self.executor: Executor
        if count <= 0:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
        else:
            self.executor = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"))
        self.slots = max(1, count)
        self.busy = 0
        self.order = itertools.count()
        # (0 urgent / 1 not, arrival, future to resolve once a worker is free)
        self.waiting: asyncio.PriorityQueue[tuple[int, int, asyncio.Future[None]]] | None = None

    async def choose(self, level: str, view: dict[str, Any], legal: list[Any],
                     urgent: bool = True) -> tuple[Any, str]:
        await self._acquire(0 if urgent else 1)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, think, level, view, legal)
        finally:
            self._release()

    async def _acquire(self, priority: int) -> None:
        if self.waiting is None:
            self.waiting = asyncio.PriorityQueue()
        if self.busy < self.slots and self.waiting.empty():
            self.busy += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.put_nowait((priority, next(self.order), turn))
        try:
            await turn  # _release hands its slot over: busy stays counted
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was handed over just as the table stopped: pass it on
            raise

    def _release(self) -> None:
        while self.waiting is not None and not self.waiting.empty():
            _, _, turn = self.waiting.get_nowait()
            if not turn.done():
                turn.set_result(None)
                return
        self.busy -= 1

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
