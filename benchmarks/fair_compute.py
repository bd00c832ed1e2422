"""Fair compute: how long a person's computer opponents take to answer while bot-only tables run.

Starts ``canasta serve`` (its default workers: one process per CPU), creates ``--bot-tables`` tables of
four ``bot:expert`` players at ``delay`` 0 (nobody watching), then plays one table as a person (seat 0,
the first legal move each turn, ``delay`` 0) against three computer players of ``--level``. Each reply is
the time from the state frame that hands the move to a computer player to the state frame of its move.
Prints the replies' p50, p99 and max. The server's own pacing of bot-only tables (``--bot-delay``, default
the server's) and its priority for tables where a person sits are what is measured; ``--bot-delay 0``
leaves only the priority.

    PYTHONPATH=src python benchmarks/fair_compute.py [--bot-tables 20] [--replies 200] [--level expert]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database: str, bot_delay: float | None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "canasta", "serve", "--port", str(port), "--database", database,
               "--tables-per-minute", "1000", "--tables-per-address", "1000"]
    if bot_delay is not None:
        command += ["--bot-delay", str(bot_delay)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(base + "/api/variants", timeout=2)
            return server, base
        except httpx.TransportError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.2)


def play(base: str, level: str, replies: int) -> list[float]:
    """Play tables as seat 0 until ``replies`` computer replies are timed; their durations in seconds."""
    times: list[float] = []
    while len(times) < replies:
        table = httpx.post(base + "/api/tables", json={"seats": ["human"] + [f"bot:{level}"] * 3, "delay": 0},
                           timeout=30).json()
        url = base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['seats'][0]['token']}"
        with connect(url, max_size=2**24) as ws:
            started: tuple[int, float] | None = None  # (version handed to a computer player, when)
            sent = -1
            while len(times) < replies:
                frame: dict[str, Any] = json.loads(ws.recv(timeout=120))
                if frame["type"] != "state":
                    continue
                now = time.perf_counter()
                if started is not None and frame["version"] == started[0] + 1:
                    times.append(now - started[1])
                    started = None
                if frame["status"] == "over":
                    break
                if frame["status"] != "playing":
                    continue
                if frame["view"]["to_move"] != 0:
                    if started is None or started[0] != frame["version"]:
                        started = (frame["version"], now)
                elif frame["legal"] and sent < frame["version"]:
                    sent = frame["version"]
                    ws.send(json.dumps({"type": "move", "id": f"m{sent}", "version": sent, "move": frame["legal"][0]}))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-tables", type=int, default=20)
    parser.add_argument("--replies", type=int, default=200)
    parser.add_argument("--level", default="expert", help="the person's opponents (default expert)")
    parser.add_argument("--bot-delay", type=float, default=None, help="the server's --bot-delay (default its own)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(f"sqlite:///{Path(tmp) / 'fair.sqlite'}", args.bot_delay)
        try:
            for _ in range(args.bot_tables):
                answer = httpx.post(base + "/api/tables", json={"seats": ["bot:expert"] * 4, "delay": 0}, timeout=30)
                answer.raise_for_status()
            time.sleep(2 if args.bot_tables else 0)  # the bot-only tables under way
            times = sorted(play(base, args.level, args.replies))
        finally:
            server.terminate()
            server.wait(30)
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(json.dumps({"bot_tables": args.bot_tables, "level": args.level, "bot_delay": args.bot_delay,
                      "replies": len(times), "p50_s": round(statistics.median(times), 3), "p99_s": round(p99, 3),
                      "max_s": round(times[-1], 3)}))


if __name__ == "__main__":
    main()
