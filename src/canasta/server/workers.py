"""Computer players think in a pool of worker processes, so the event loop never waits on a search.

The pool is shared by every table, fairly: a decision for a table where a person sits (``urgent``) goes
before any decision for a table that only computer players or spectators watch, and with two workers or
more one of them is kept for urgent decisions alone, so a person's opponents never wait behind a search
for a bot-only table. Equals go first come, first served; the executor is never handed more decisions
than it has workers, so nothing queues where it cannot be overtaken.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..players.levels import level_player
from ..players.rummy import make_rummy_player

# A player's decision: the move, its one-line English reason (the command line's hints) and its reason codes.
Decision = tuple[Any, str, list[dict[str, Any]]]


def think(level: str, view: dict[str, Any], legal: list[Any]) -> Decision:
    """The move ``level``'s player makes from ``view``, its one-line reason and its reason codes (a hint's
    "why": ``{"code", "count"?}``) (runs in a worker). A rummy view (``family`` "rummy") goes to the rummy
    family's player for the level."""
    player = make_rummy_player(level) if view.get("family") == "rummy" else level_player(level)
    move = player.choose(view, legal)
    reason = getattr(player, "last_reason", None) or f"what the {level} player ({player.name}) would play"
    why = [{"code": code, "count": count} if count else {"code": code} for code, count in player.last_why]
    return move, reason, why


URGENT, BACKGROUND = 0, 1


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
        self.background_slots = max(1, self.slots - 1)
        self.running = [0, 0]  # decisions being made, urgent and background
        self.queues: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (deque(), deque())

    async def choose(self, level: str, view: dict[str, Any], legal: list[Any],
                     urgent: bool = True) -> Decision:
        kind = URGENT if urgent else BACKGROUND
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queues[kind].append(turn)
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given a worker just as its table stopped: pass it on
                self._release(kind)
            raise
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, think, level, view, legal)
        finally:
            self._release(kind)

    def _may_start(self, kind: int) -> bool:
        return sum(self.running) < self.slots and (kind == URGENT or self.running[BACKGROUND] < self.background_slots)

    def _dispatch(self) -> None:
        for kind in (URGENT, BACKGROUND):
            queue = self.queues[kind]
            while queue and self._may_start(kind):
                turn = queue.popleft()
                if not turn.done():  # a cancelled wait is skipped
                    self.running[kind] += 1
                    turn.set_result(None)

    def _release(self, kind: int) -> None:
        self.running[kind] -= 1
        self._dispatch()

    def load(self) -> list[tuple[str, int, int]]:
        """(priority, decisions waiting, decisions being made) for urgent, then background decisions."""
        return [(name, sum(1 for turn in list(self.queues[kind]) if not turn.done()), self.running[kind])
                for name, kind in (("urgent", URGENT), ("background", BACKGROUND))]

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
