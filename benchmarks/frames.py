#!/usr/bin/env python3
"""What a move costs the server in frames, protocol version 1 against version 2, without a network.

Along one seeded game of random legal moves (``--variant``, one hand by default) it builds what the server
sends after each move to every seat and one spectator: version 1 the ``event`` and each one's whole view
encoded, version 2 the ``event`` with the JSON Patch from each one's previous view (``canasta.server.patch``,
one memo per move as the server does). It prints the bytes per move (all seats and the spectator together,
and per connection) and the CPU time per move of encoding (v1) and of diffing and encoding (v2), the best of
``--repeat`` passes (CPU time, so a busy machine inflates it less than wall time). The views themselves cost
the same in both versions and are left out. Usage::

    python benchmarks/frames.py --variant classic
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import canasta
from canasta.presets import game_rules
from canasta.server.games import seat_views
from canasta.server.patch import diff


def encode(frame: Any) -> str:
    return json.dumps(frame, separators=(",", ":"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--hands", type=int, default=1, help="hands_per_game (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rules = game_rules(args.variant, hands_per_game=args.hands)
    state: Any = canasta.new_game(rules, args.seed)
    rng = random.Random(args.seed)
    watchers: list[int | None] = [*range(rules.players), None]
    views = [seat_views(state, watchers)]
    events = []
    while not canasta.is_over(state) and len(events) < 5000:
        move = rng.choice(canasta.legal_moves(state))
        seat = state.to_move
        state = canasta.apply(state, move)
        views.append(seat_views(state, watchers))
        events.append({"type": "event", "version": len(events) + 1, "seat": seat, "move": str(move),
                       "by": "human"})
    moves = len(events)

    def version1() -> int:
        size = 0
        for event, after in zip(events, views[1:], strict=True):
            text = encode(event)
            size += len(text) * len(watchers) + sum(len(encode(after[w])) for w in watchers)
        return size

    def version2() -> int:
        size = 0
        for event, before, after in zip(events, views[:-1], views[1:], strict=True):
            memo: dict[Any, Any] = {}
            size += sum(len(encode({**event, "patch": diff(before[w], after[w], memo)})) for w in watchers)
        return size

    out: dict[str, Any] = {"variant": args.variant, "moves": moves, "connections": len(watchers)}
    for name, build in (("v1", version1), ("v2", version2)):
        best, size = float("inf"), 0
        for _ in range(args.repeat):
            start = time.process_time()
            size = build()
            best = min(best, time.process_time() - start)
        out[name] = {"bytes_per_move": round(size / moves), "bytes_per_connection": round(size / moves / len(watchers)),
                     "cpu_us_per_move": round(best / moves * 1e6)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
