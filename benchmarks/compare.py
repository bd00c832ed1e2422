#!/usr/bin/env python3
"""Compare the engine's speed at two git revisions, side by side in one run.

    python benchmarks/compare.py REV_A REV_B [--rounds 5] [--moves 10000] [--variant NAME ...]

A revision is anything ``git rev-parse`` takes, or a directory holding a working copy (``.``).

Each revision's ``src/`` is exported (``git archive``) into its own temporary directory, and one
worker process per revision imports ``canasta`` from there (the package is pure Python, so a
directory on ``sys.path`` is an install). Then, round after round and preset after preset, the two
workers take turns (A then B in even rounds, B then A in odd ones) playing the same seeded random
games through the public API (``new_game``, ``legal_moves``, ``apply``; each player picks uniformly
from the legal moves with a seeded ``random.Random``) until at least ``--moves`` moves are made.
Games are capped at ``--max-moves`` moves. Only one worker runs at a time, so both see the same
machine.

For each preset it prints both revisions' median moves per second (of the worker's CPU time, or of
wall time with ``--wall``) over the rounds and the median of
the per-round ratios B/A (above 1: B is faster). When the revisions play the rules identically, both
play exactly the same games, so they do the same work; the script says so when the move counts differ.

``--python`` runs the workers with another interpreter (default: this one). ``--compile a``, ``b`` or
``both`` installs that revision with ``pip install --target`` first, which compiles its engine with mypyc
(a revision with a ``setup.py`` that does, and a C compiler). Standard library only.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

WORKER = r"""
import json, random, sys, time
import canasta


def play(variant, moves_wanted, seed, max_moves):
    # A function, not module-level code: there every name is a dict look-up (about 2,000 instructions
    # per move, 7 % of a compiled Classic move at 5cc1f3b), a cost of the harness, not of either engine.
    rules = canasta.rules(variant)
    moves = games = 0
    while moves < moves_wanted:
        rng = random.Random(seed)
        state = canasta.new_game(rules, seed=seed)
        n = 0
        # "while True" jumps back unconditionally: CPython 3.11 specializes a function's bytecode after 8
        # calls or 8 such jumps, and a loop that jumps back from its test ("while cond:") never counts, so
        # the loop ran unspecialized until play() had been called 8 times (every global and attribute a
        # dict look-up: about 1,500 instructions per move, 6 % of a compiled Classic move at 50ce9e3).
        while True:
            if canasta.is_over(state) or n >= max_moves:
                break
            legal = canasta.legal_moves(state)
            if not legal:
                break
            state = canasta.apply(state, rng.choice(legal))
            n += 1
        moves += n
        games += 1
        seed += 1
    return moves, games


print(json.dumps({"file": sys.modules[canasta.State.__module__].__file__}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    start = time.perf_counter()
    cpu = time.process_time()
    moves, games = play(job["variant"], job["moves"], job["seed"], job["max_moves"])
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(json.dumps({"moves": moves, "games": games, "seconds": seconds, "cpu": cpu}), flush=True)
"""


BUILD_FILES = ("setup.py", "pyproject.toml", "README.md")


def export(repo: Path, rev: str, into: Path) -> str:
    """Write ``rev``'s ``src/`` and build files into ``into``; returns the full commit hash. A ``rev`` that
    names a directory (a working copy, e.g. ``.``) is copied as it is, uncommitted changes included."""
    if Path(rev).is_dir() and (Path(rev) / "src" / "canasta").is_dir():
        shutil.copytree(Path(rev) / "src", into / "src",
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so"))
        for name in BUILD_FILES:
            if (Path(rev) / name).is_file():
                shutil.copy(Path(rev) / name, into / name)
        return f"working copy {Path(rev).resolve()}"
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    listed = subprocess.run(["git", "-C", str(repo), "ls-tree", "--name-only", commit],
                            check=True, capture_output=True, text=True).stdout.split()
    paths = ["src", *(name for name in BUILD_FILES if name in listed)]
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit, *paths],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return commit


def compile_engine(python: str, root: Path) -> Path:
    """Install the exported revision, compiled, into a directory of its own (as ``pip install`` would,
    failing instead of falling back to pure Python); returns that directory."""
    if not (root / "setup.py").is_file():
        raise SystemExit(f"{root}: this revision has no setup.py, so no compiled build")
    target = root / "installed"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(root)],
                   check=True, env={**os.environ, "CANASTA_COMPILE": "require"})
    return target


class Worker:
    def __init__(self, python: str, src: Path) -> None:
        self.proc = subprocess.Popen([python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
                                     cwd=str(src))
        self.file = self._read()["file"]

    def _read(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("worker died")
        return dict(json.loads(line))

    def run(self, **job: object) -> dict[str, object]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare random-play speed at two git revisions.")
    parser.add_argument("rev_a")
    parser.add_argument("rev_b")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per preset (default 5)")
    parser.add_argument("--moves", type=int, default=10_000, help="moves per revision per round (default 10000)")
    parser.add_argument("--max-moves", type=int, default=5_000, help="cap on one game's moves (default 5000)")
    parser.add_argument("--variant", action="append", help="only this preset (repeatable; default all)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the workers")
    parser.add_argument("--wall", action="store_true",
                        help="rate moves per second of wall time (default: of the worker's CPU time, which other "
                             "work on the machine disturbs less)")
    parser.add_argument("--compile", choices=("a", "b", "both"), help="compile this revision's engine with mypyc")
    parser.add_argument("--installed-a", metavar="DIR",
                        help="run A from DIR, where rev_a is already installed (as --installed-b)")
    parser.add_argument("--installed-b", metavar="DIR",
                        help="run B from DIR, where rev_b is already installed (e.g. CANASTA_COMPILE=require pip "
                             "install --no-deps --target DIR .), instead of exporting and building it")
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parent.parent), help="the git repository")
    args = parser.parse_args(argv)

    clock = "seconds" if args.wall else "cpu"
    with tempfile.TemporaryDirectory(prefix="canasta-compare-") as tmp:
        dirs = [Path(tmp) / "a", Path(tmp) / "b"]
        commits = [export(Path(args.repo), rev, d) for rev, d in zip((args.rev_a, args.rev_b), dirs, strict=True)]
        paths = [compile_engine(args.python, d) if args.compile in ("ab"[i], "both") else d / "src"
                 for i, d in enumerate(dirs)]
        installed = [args.installed_a, args.installed_b]
        for i, where in enumerate(installed):
            if where:
                paths[i] = Path(where).resolve()
        workers = [Worker(args.python, path) for path in paths]
        for i, w in enumerate(workers):
            if args.compile in ("ab"[i], "both") and str(w.file).endswith(".py"):
                raise SystemExit(f"revision {'AB'[i]} was compiled but imports {w.file}")
        try:
            names = args.variant or json.loads(subprocess.run(
                [args.python, "-c", "import canasta, inspect, json; f = canasta.variant_names; "
                 "print(json.dumps(f('canasta') if inspect.signature(f).parameters else f()))"],
                check=True, capture_output=True, text=True, env={"PYTHONPATH": str(dirs[0] / "src")}).stdout)
            # What each worker really imports: an engine module ending in .py is interpreted, else compiled.
            kinds = [" interpreted" if str(w.file).endswith(".py") else " compiled" for w in workers]
            for i, where in enumerate(installed):
                if where:
                    commits[i] = f"installed in {paths[i]}, its engine {workers[i].file}"
            name_a = commits[0] if args.installed_a else commits[0][:40]
            print(f"A = {args.rev_a}{kinds[0]} ({name_a}), B = {args.rev_b}{kinds[1]} ({commits[1]})")
            print(f"python {args.python}; {args.rounds} rounds of >= {args.moves} moves per revision per preset; "
                  f"moves per second of {'wall' if args.wall else 'CPU'} time")
            print(f"{'preset':<24} {'A moves/s':>10} {'B moves/s':>10} {'B/A median':>10}  (per-round ratios)")
            for name in names:
                rates: list[list[float]] = [[], []]
                ratios: list[float] = []
                same = True
                for rnd in range(args.rounds):
                    order = (0, 1) if rnd % 2 == 0 else (1, 0)
                    got: dict[int, dict[str, object]] = {}
                    for i in order:
                        got[i] = workers[i].run(variant=name, seed=args.seed + 1000 * rnd, moves=args.moves,
                                                max_moves=args.max_moves)
                    for i in (0, 1):
                        rates[i].append(float(got[i]["moves"]) / float(got[i][clock]))  # type: ignore[arg-type]
                    same = same and got[0]["moves"] == got[1]["moves"]
                    ratios.append(rates[1][-1] / rates[0][-1])
                note = "" if same else "  [the revisions played different games]"
                print(f"{name:<24} {statistics.median(rates[0]):>10,.0f} {statistics.median(rates[1]):>10,.0f} "
                      f"{statistics.median(ratios):>10.2f}  ({', '.join(f'{x:.2f}' for x in ratios)}){note}",
                      flush=True)
        finally:
            for w in workers:
                w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
