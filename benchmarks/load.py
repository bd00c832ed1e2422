#!/usr/bin/env python3
"""Load benchmark for ``canasta serve``: many tables of scripted players over websockets on loopback.

Every table is created with ``POST /api/tables`` with every seat ``"human"`` and ``delay`` 0, so the
load clients are the players; each seat is one websocket (the ``websockets`` asyncio client). When a
seat's ``state`` frame is the newest and its ``legal`` list is not empty, the seat waits a think time
(uniform between 0.5 and 1.5 times ``--think``; ``--think 0`` plays flat out), picks a random legal move,
sends the ``move`` frame and times it until the matching ``ack``. When a game ends the table is closed
and a new one is created in its slot, so the number of concurrent tables stays ``--tables``.

It prints the moves acknowledged in the measured window (the warm-up excluded), moves per second, the
p50/p90/p99/max acknowledgement latency, the refused frames by error code, and the tables finished.
Usage::

    python benchmarks/load.py --tables 200 --seconds 60 --think 1.0

Without ``--url`` it starts its own server (``python -m canasta serve --workers 1``) on a free loopback
port with a fresh SQLite file in a temporary directory (or ``--database URL``) and stops it at the end.
``--procs N`` spreads the tables over N client processes. Needs the server extra (the ``websockets``
client; uvloop is used when installed). See docs/server-load.md for runs; tests never assert on them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MAX_VERSION = 20000  # a table still going after this many moves is abandoned (counted in "abandoned")
STALL_SECONDS = 60.0  # a table with no frame for this long is abandoned (counted as the STALLED error)
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy


# --- one client process ---------------------------------------------------------------------------------


@dataclass
class Config:
    """What every client process needs (picklable)."""

    base: str
    slots: list[int]  # the table slots this process plays
    tables: int  # all slots, over every process (for staggering the starts)
    seats: int
    variant: str
    options: dict[str, Any]
    think: float
    start: float  # time.time() at which slot 0 starts
    ramp: float  # the slots' starts are spread over this many seconds
    measure_from: float  # time.time(): moves sent from here ...
    stop_at: float  # ... to here are measured
    compression: str | None
    seed: int


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, moves sent in the window
    errors: Counter[str] = field(default_factory=Counter)  # refused frames and failures in the window
    errors_total: Counter[str] = field(default_factory=Counter)
    sent: int = 0  # moves sent in the window
    moves_total: int = 0  # moves acknowledged, warm-up included
    tables_started: int = 0
    tables_finished: int = 0  # games that ended in the window
    tables_finished_total: int = 0
    abandoned: int = 0
    unacked: int = 0  # moves sent in the window and never acknowledged
    cpu: float = 0.0  # this process's CPU seconds in the window

    def error(self, code: str, cfg: Config) -> None:
        self.errors_total[code] += 1
        if cfg.measure_from <= time.time() < cfg.stop_at:
            self.errors[code] += 1


class Seat:
    """One player's websocket: acts on its own newest state frame."""

    def __init__(self, table: Table, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.cfg, self.stats = table.cfg, table.stats
        self.ws: Any = None
        self.version = -1
        self.acted: int | None = None  # the version a move was (or is being) made on
        self.inflight: tuple[str, float, float] | None = None  # id, perf_counter at send, time.time at send
        self.next_id = 0
        self.act_task: asyncio.Task[None] | None = None
        self.ended = False  # this socket brought the game's end: every ack before it has been read

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        ws_base = "ws" + self.cfg.base[4:] if self.cfg.base.startswith("http") else self.cfg.base
        url = f"{ws_base}/ws/tables/{self.table.id}?token={self.token}&name=load{self.seat}"
        async with connect(url, max_size=2**24, compression=self.cfg.compression, proxy=None,
                           open_timeout=30, ping_interval=None) as ws:
            self.ws = ws
            async for text in ws:
                frame = json.loads(text)
                self.table.progress = time.monotonic()
                kind = frame.get("type")
                if kind == "state":
                    self.on_state(frame)
                elif kind == "ack":
                    self.on_ack(frame)
                elif kind == "error":
                    await self.on_error(frame)
                if self.ended or (self.table.done.is_set() and self.inflight is None):
                    return

    def on_state(self, frame: dict[str, Any]) -> None:
        version = frame["version"]
        if version < self.version:
            return
        self.version = version
        if frame["status"] == "over" or version >= MAX_VERSION:
            self.ended = True
            self.table.over(version < MAX_VERSION)
            return
        legal = frame["legal"]
        if frame["status"] == "playing" and legal and self.acted != version and self.inflight is None \
                and time.time() < self.cfg.stop_at:
            self.acted = version
            self.act_task = asyncio.create_task(self.act(version, legal))

    async def act(self, version: int, legal: list[str]) -> None:
        if self.cfg.think > 0:
            await asyncio.sleep(self.cfg.think * self.table.rng.uniform(0.5, 1.5))
        if self.version != version or self.table.done.is_set() or time.time() >= self.cfg.stop_at:
            return
        self.next_id += 1
        frame_id = f"{self.seat}-{self.next_id}"
        text = json.dumps({"type": "move", "id": frame_id, "version": version,
                           "move": self.table.rng.choice(legal)})
        wall = time.time()
        self.inflight = (frame_id, time.perf_counter(), wall)
        if self.cfg.measure_from <= wall < self.cfg.stop_at:
            self.stats.sent += 1
        await self.ws.send(text)

    def on_ack(self, frame: dict[str, Any]) -> None:
        if self.inflight is None or frame.get("id") != self.inflight[0]:
            return
        _, sent, wall = self.inflight
        self.inflight = None
        self.stats.moves_total += 1
        if self.cfg.measure_from <= wall < self.cfg.stop_at:
            self.stats.latencies.append(time.perf_counter() - sent)

    async def on_error(self, frame: dict[str, Any]) -> None:
        code = str(frame.get("code"))
        self.stats.error(code, self.cfg)
        if self.inflight is not None and frame.get("id") == self.inflight[0]:
            wall = self.inflight[2]
            self.inflight = None
            if self.cfg.measure_from <= wall < self.cfg.stop_at:
                self.stats.sent -= 1  # refused: not a move; counted under its code
            self.acted = None
            if code == "RATE_LIMITED":
                await asyncio.sleep(0.2)
            await self.ws.send(json.dumps({"type": "sync", "version": max(self.version, 0)}))


class Table:
    """One table slot's current game."""

    def __init__(self, cfg: Config, stats: Stats, rng: random.Random) -> None:
        self.cfg, self.stats, self.rng = cfg, stats, rng
        self.id = ""
        self.done = asyncio.Event()
        self.finished = False
        self.progress = time.monotonic()

    def over(self, finished: bool) -> None:
        if not self.done.is_set():
            self.finished = finished
            self.done.set()

    async def play(self) -> None:
        body = await asyncio.to_thread(http_json, self.cfg.base + "/api/tables", {
            "variant": self.cfg.variant, "options": self.cfg.options, "seats": ["human"] * self.cfg.seats,
            "delay": 0})
        self.id = body["table"]
        self.stats.tables_started += 1
        self.progress = time.monotonic()  # the stall clock starts once the table exists, not before the POST
        seats = [Seat(self, s["seat"], s["token"]) for s in body["seats"]]
        tasks = [asyncio.create_task(s.run()) for s in seats]
        try:
            while not self.done.is_set():
                if time.time() >= self.cfg.stop_at and all(s.inflight is None for s in seats):
                    return
                if time.monotonic() - self.progress > STALL_SECONDS:
                    self.stats.error("STALLED", self.cfg)
                    print(f"table {self.id} stalled: " + "; ".join(
                        f"seat {s.seat} version {s.version} acted {s.acted} inflight {s.inflight} "
                        f"task {'done' if tasks[s.seat].done() else 'running'}" for s in seats), file=sys.stderr)
                    return
                finished = [t for t in tasks if t.done()]
                for t in finished:
                    if t.exception() is not None:
                        raise t.exception()  # type: ignore[misc]
                if finished and not self.done.is_set():
                    raise RuntimeError("a websocket closed before the game ended")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.done.wait(), 0.5)
            # another seat may see the end first: the mover's ack precedes the end on its own socket
            await asyncio.wait(tasks, timeout=STALL_SECONDS)
            if self.finished:
                self.stats.tables_finished_total += 1
                if self.cfg.measure_from <= time.time() < self.cfg.stop_at:
                    self.stats.tables_finished += 1
            else:
                self.stats.abandoned += 1
        finally:
            for s in seats:
                if s.inflight is not None and self.cfg.measure_from <= s.inflight[2] < self.cfg.stop_at:
                    self.stats.unacked += 1
                    s.inflight = None
            for t in tasks:
                t.cancel()
            for s in seats:
                if s.act_task is not None:
                    s.act_task.cancel()
            await asyncio.gather(*tasks, *(s.act_task for s in seats if s.act_task), return_exceptions=True)
            for s in seats:  # close the sockets properly, so the server frees the room
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(s.ws.close(), 5)


async def slot_loop(cfg: Config, stats: Stats, slot: int) -> None:
    rng = random.Random(cfg.seed * 1_000_003 + slot)
    await asyncio.sleep(max(0.0, cfg.start + cfg.ramp * slot / max(1, cfg.tables) - time.time()))
    while time.time() < cfg.stop_at:
        table = Table(cfg, stats, rng)
        try:
            await table.play()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a failed table is counted, and its slot starts another
            stats.error(f"client:{type(exc).__name__}", cfg)
            if os.environ.get("CANASTA_LOAD_DEBUG"):
                print(f"slot {slot}: {type(exc).__name__}: {exc}", file=sys.stderr)
            await asyncio.sleep(0.5)


async def run_slots(cfg: Config) -> Stats:
    stats = Stats()
    tasks = [asyncio.create_task(slot_loop(cfg, stats, slot)) for slot in cfg.slots]
    await asyncio.sleep(max(0.0, cfg.measure_from - time.time()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, cfg.stop_at - time.time()))
    stats.cpu = time.process_time() - cpu0
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks), 30)  # the last acks, then every table closes
    return stats


def run_loop(main: Any) -> Any:
    """Run a coroutine on a new event loop: uvloop's when it is installed (as uvicorn does), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def run_process(cfg: Config) -> Stats:
    """One client process: its slots on one event loop."""
    return run_loop(run_slots(cfg))  # type: ignore[no-any-return]


# --- the server, the figures ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database: str, log_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "canasta", "serve", "--port", str(port), "--database", database,
               "--workers", "1", "--tables-per-minute", "1000000", "--tables-per-address", "1000000",
               "--max-tables", "1000000"]  # every table comes from this one address
    log = log_path.open("wb")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, server, log_path)
    return server, base


def http_json(url: str, body: dict[str, Any] | None = None, timeout: float = 60) -> Any:
    """GET (or POST ``body`` to) ``url`` on the server and read the JSON answer; no proxy (loopback)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with OPENER.open(request, timeout=timeout) as answer:
        return json.loads(answer.read())


def wait_ready(base: str, server: subprocess.Popen[bytes] | None = None, log_path: Path | None = None) -> None:
    deadline = time.monotonic() + 60
    while True:
        if server is not None and server.poll() is not None:
            tail = log_path.read_text(errors="replace")[-2000:] if log_path else ""
            raise SystemExit(f"the server exited with code {server.returncode}:\n{tail}")
        try:
            http_json(base + "/api/variants", timeout=5)
            return
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"no server answered at {base} within 60 s")
        time.sleep(0.1)


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far (user + system, its threads included), from /proc (Linux only)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_delay(pid: int) -> float | None:
    """Seconds a process's threads have waited for a CPU while runnable, from /proc/PID/task/*/schedstat
    (Linux with schedstats): above zero on a machine with more runnable threads than cores."""
    total, found = 0, False
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int((task / "schedstat").read_text().split()[1])
            found = True
    return total / 1e9 if found else None


def seats_of(base: str, variant: str, options: dict[str, Any]) -> int:
    if "players" in options:
        return int(options["players"])
    for v in http_json(base + "/api/variants"):
        if variant == v["name"] or variant in v.get("aliases", []):
            return int(v["players"])
    raise SystemExit(f"the server has no variant {variant!r}")


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile of a sorted list."""
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def commit() -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10)
    except OSError:
        return None
    return out.stdout.strip() or None


def report(args: argparse.Namespace, options: dict[str, Any], results: list[Stats],
           server: tuple[float | None, float | None], load_avg: tuple[float, float, float] | None) -> dict[str, Any]:
    latencies = sorted(x * 1000 for r in results for x in r.latencies)
    errors: Counter[str] = Counter()
    errors_total: Counter[str] = Counter()
    for r in results:
        errors.update(r.errors)
        errors_total.update(r.errors_total)
    moves = len(latencies)
    ack = {"p50": percentile(latencies, 0.50), "p90": percentile(latencies, 0.90),
           "p99": percentile(latencies, 0.99), "max": latencies[-1],
           "mean": sum(latencies) / moves} if moves else None
    return {
        "benchmark": "canasta server load", "commit": commit(), "python": platform.python_version(),
        "platform": platform.platform(), "cpus": os.cpu_count(),
        "server": args.url or f"own (python -m canasta serve --workers 1, {args.database or 'fresh SQLite file'})",
        "variant": args.variant, "options": options, "tables": args.tables, "seconds": args.seconds,
        "warmup": args.warmup, "think": args.think, "procs": args.procs, "compression": args.compression,
        "moves": moves, "moves_per_s": moves / args.seconds,
        "ack_ms": None if ack is None else {k: round(v, 2) for k, v in ack.items()},
        "errors": dict(sorted(errors.items())), "errors_total": dict(sorted(errors_total.items())),
        "unacked": sum(r.unacked for r in results),
        "tables_started": sum(r.tables_started for r in results),
        "tables_finished": sum(r.tables_finished for r in results),
        "tables_finished_total": sum(r.tables_finished_total for r in results),
        "tables_abandoned": sum(r.abandoned for r in results),
        "moves_total": sum(r.moves_total for r in results),
        "server_cpu_percent": None if server[0] is None else round(100 * server[0] / args.seconds, 1),
        "server_cpu_wait_percent": None if server[1] is None else round(100 * server[1] / args.seconds, 1),
        "client_cpu_percent": round(100 * sum(r.cpu for r in results) / args.seconds, 1),
        "load_average": load_avg,
    }


def print_report(r: dict[str, Any]) -> None:
    print(f"canasta server load benchmark at commit {r['commit']}: {r['tables']} tables of {r['variant']} "
          f"{json.dumps(r['options'])}, think {r['think']} s, {r['procs']} client process(es)")
    print(f"python   CPython {r['python']}")
    print(f"platform {r['platform']} ({r['cpus']} CPUs)")
    print(f"server   {r['server']}")
    ack = r["ack_ms"] or {}
    rows = [
        ("window", f"{r['seconds']} s after {r['warmup']} s of warm-up"),
        ("moves", f"{r['moves']}"),
        ("moves/s", f"{r['moves_per_s']:.1f}"),
        ("ack p50", f"{ack.get('p50', float('nan')):.1f} ms"),
        ("ack p90", f"{ack.get('p90', float('nan')):.1f} ms"),
        ("ack p99", f"{ack.get('p99', float('nan')):.1f} ms"),
        ("ack max", f"{ack.get('max', float('nan')):.1f} ms"),
        ("ack mean", f"{ack.get('mean', float('nan')):.1f} ms"),
        ("errors", ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "none"),
        ("unacknowledged", f"{r['unacked']}"),
        ("tables finished", f"{r['tables_finished']} in the window ({r['tables_started']} started in all, "
                            f"{r['tables_abandoned']} abandoned)"),
        ("server CPU", "n/a" if r["server_cpu_percent"] is None else f"{r['server_cpu_percent']}% of one core"),
        ("server CPU wait", "n/a" if r["server_cpu_wait_percent"] is None else
            f"{r['server_cpu_wait_percent']}% of the window (its threads runnable, waiting for a core)"),
        ("client CPU", f"{r['client_cpu_percent']}% of one core"),
        ("load average", "n/a" if r["load_average"] is None else " ".join(f"{x:.2f}" for x in r["load_average"])),
    ]
    for name, value in rows:
        print(f"  {name:<17}{value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds (default 60)")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds before the measured window; the tables start spread over half of it "
                             "(default 10)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time in seconds, uniform in [0.5, 1.5] times it (default 1; 0: flat out)")
    parser.add_argument("--url", help="an already running server, e.g. http://127.0.0.1:8000 (default: start one)")
    parser.add_argument("--database", help="the database of the server started here (default: a fresh SQLite "
                                           "file in a temporary directory)")
    parser.add_argument("--procs", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--variant", default="classic", help="the variant (default classic)")
    parser.add_argument("--hands", type=int, default=1,
                        help="hands per game (the option hands_per_game; default 1; 0: the variant's game as-is)")
    parser.add_argument("--compression", choices=("deflate", "none"), default="deflate",
                        help="websocket compression the clients offer (default deflate, as browsers do)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' choices (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.procs < 1 or args.warmup < 0 or args.think < 0:
        parser.error("--tables and --procs are at least 1, --seconds above 0, --warmup and --think at least 0")
    options: dict[str, Any] = {"hands_per_game": args.hands} if args.hands else {}

    with tempfile.TemporaryDirectory(prefix="canasta-load-") as tmp:
        server = None
        if args.url:
            base = args.url.rstrip("/")
            wait_ready(base)
        else:
            database = args.database or f"sqlite:///{Path(tmp) / 'load.db'}"
            server, base = start_server(database, Path(tmp) / "server.log")
        try:
            seats = seats_of(base, args.variant, options)
            procs = min(args.procs, args.tables)
            start = time.time() + (1.0 if procs == 1 else 3.0)  # spawned processes need a moment to start
            measure_from = start + args.warmup
            cfgs = [Config(base=base, slots=list(range(p, args.tables, procs)), tables=args.tables, seats=seats,
                           variant=args.variant, options=options, think=args.think, start=start,
                           ramp=args.warmup / 2, measure_from=measure_from, stop_at=measure_from + args.seconds,
                           compression=None if args.compression == "none" else "deflate", seed=args.seed)
                    for p in range(procs)]

            async def sample_server() -> tuple[float | None, float | None]:
                """The server's CPU seconds in the window, and its threads' seconds waiting for a CPU."""
                if server is None:
                    return None, None
                await asyncio.sleep(max(0.0, measure_from - time.time()))
                before = cpu_seconds(server.pid), run_delay(server.pid)
                await asyncio.sleep(max(0.0, cfgs[0].stop_at - time.time()))
                after = cpu_seconds(server.pid), run_delay(server.pid)
                return tuple(None if a is None or b is None else a - b  # type: ignore[return-value]
                             for a, b in zip(after, before, strict=True))

            if procs == 1:
                async def both() -> tuple[Stats, tuple[float | None, float | None]]:
                    sampler = asyncio.create_task(sample_server())
                    stats = await run_slots(cfgs[0])
                    return stats, await sampler

                one, server_stats = run_loop(both())
                results = [one]
            else:
                import multiprocessing

                with ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("spawn")) as pool:
                    futures = [pool.submit(run_process, c) for c in cfgs]
                    server_stats = asyncio.run(sample_server())
                    results = [f.result() for f in futures]
            load_avg = os.getloadavg() if hasattr(os, "getloadavg") else None
        finally:
            if server is not None:
                stop_server(server)
    figures = report(args, options, results, server_stats, load_avg)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
