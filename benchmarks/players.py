"""Decisions per second of each computer player and level, and the search player's samples/s.

Usage: python benchmarks/players.py [--games N] [--seed S]
       python benchmarks/players.py --compare REV_A [REV_B] [--rounds N] [--samples K] [--compile a|b|both]

Each player takes every seat of seeded Classic games (all four seats the same player), one core.
The search levels are timed on a sample of decisions (they think for a fixed time per searched decision),
and the search player's sampling speed on one discard decision.

``--compare REV_A [REV_B]`` (REV_B defaults to ``.``, the working copy) exports each revision's ``src/``
into a temporary directory and runs one worker process per revision; round after round the two take
turns (A first in even rounds, B first in odd ones), so both see the same machine. Each round times,
in CPU seconds of the worker: the search player's samples per second on searched decisions
(``SearchPlayer(seed, seconds=None, iterations=K)`` on the first discard with a choice of card in
seeded heuristic games), the search player's decisions per second over the first decisions of a
seeded game with a search player in every seat (fixed ``iterations``, so both revisions do the same
search and, playing the same moves, the same work: the ``hard`` level's rate at equal strength),
and whole Classic games of four heuristic players (engine and ``canasta.view`` included: what a
simulated game costs), and the same games with each player reading ``lean_view`` (module ``canasta.view``) instead
(``heuristic, lean``; a revision without it reads ``canasta.view``). It prints each measure's median
per revision and the median of the per-round ratios B/A (above 1: B is faster), and flags a measure
whose moves differ between the revisions. ``--compile a``, ``b`` or ``both`` installs that revision
compiled with mypyc first (``pip install --target``, as ``benchmarks/compare.py --compile`` does; a
revision without a ``setup.py`` cannot be compiled) and stops if its worker then imports pure modules.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from compare import compile_engine
from compare import export as export_build

import canasta
from canasta.players import make_player, player_names
from canasta.players.levels import LEVELS, level_player
from canasta.players.search import SearchPlayer


def play(players: list[canasta.bots.Player], seed: int, max_decisions: int | None = None) -> tuple[int, float, int]:
    """(decisions, seconds spent choosing, hands) for one game, or until max_decisions."""
    state = canasta.new_game(canasta.rules(), seed=seed)
    decisions, spent, hands, hand = 0, 0.0, 0, state.hand_number
    while not canasta.is_over(state) and (max_decisions is None or decisions < max_decisions):
        seen, legal = canasta.view(state, state.to_move), canasta.legal_moves(state)
        start = time.perf_counter()
        move = players[state.to_move].choose(seen, legal)
        spent += time.perf_counter() - start
        decisions += 1
        state = canasta.apply(state, move)
        if state.hand_number != hand or canasta.is_over(state):
            hands, hand = hands + 1, state.hand_number
    return decisions, spent, hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--compare", nargs="+", metavar="REV", help="REV_A [REV_B]: two revisions side by side")
    ap.add_argument("--rounds", type=int, default=5, help="with --compare: rounds (default 5)")
    ap.add_argument("--samples", type=int, default=8,
                    help="with --compare: the search player's samples per searched decision (default 8)")
    ap.add_argument("--decisions", type=int, default=60,
                    help="with --compare: search decisions timed per round (default 60)")
    ap.add_argument("--compile", choices=("a", "b", "both"),
                    help="with --compare: install that revision compiled with mypyc (its players included)")
    a = ap.parse_args()
    if a.compare:
        if len(a.compare) > 2:
            ap.error("--compare takes one or two revisions")
        compare(a.compare[0], a.compare[1] if len(a.compare) > 1 else ".", a.rounds, a.samples, a.decisions, a.seed,
                a.compile or "")
        return
    print(f"canasta {canasta.__version__} player benchmark: Classic, seed {a.seed}, one process")
    print(f"python   {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    print(f"{'player':<22}{'decisions':>10}{'decisions/s':>14}{'s per game':>12}")
    for name in player_names():
        total = spent = 0.0
        wall = time.perf_counter()
        for g in range(a.games):
            d, s, _ = play([make_player(name, a.seed + i) for i in range(4)], a.seed + g)
            total, spent = total + d, spent + s
        per_game = (time.perf_counter() - wall) / a.games
        print(f"{name:<22}{int(total):>10}{total / spent:>14,.0f}{per_game:>12.3f}")
    for level in LEVELS:
        if level in ("easy", "medium"):
            continue
        players = [level_player(level, a.seed + i) for i in range(4)]
        d, s, _ = play(players, a.seed, max_decisions=20 if level == "hard" else 4)
        print(f"{'level ' + level:<22}{d:>10}{d / s:>14,.1f}{'':>12}")
    state, view, legal = searched_decision(a.seed)
    search = SearchPlayer(a.seed, seconds=None, iterations=20)
    start = time.perf_counter()
    search.choose(view, legal)
    took = time.perf_counter() - start
    print(f"search: {20 / took:,.1f} samples/s on a discard decision of hand {state.hand_number} "
          f"({search.max_candidates} candidates, play-outs of up to {search.horizon} moves)")


def searched_decision(seed: int) -> tuple[canasta.State, dict[str, Any], list[canasta.Move]]:
    """The first position of a seeded heuristic game where the heuristic discards with a choice of cards
    (a decision the search player searches)."""
    state = canasta.new_game(canasta.rules(), seed=seed)
    bots = [make_player("heuristic", seed + i) for i in range(4)]
    while True:
        view, legal = canasta.view(state, state.to_move), canasta.legal_moves(state)
        move = bots[state.to_move].choose(view, legal)
        if move.action == "discard" and sum(m.action == "discard" for m in legal) > 1:
            return state, view, legal
        state = canasta.apply(state, move)


# One worker per revision: reads jobs (JSON lines) and answers with CPU seconds, the work done and a
# digest of the moves, so that the comparison can tell whether both revisions played the same games.
WORKER = r"""
import hashlib, json, sys, time
import canasta
from canasta.players import make_player
from canasta.players.search import SearchPlayer
try:  # the lean view for computer players (where the revision has one)
    from canasta.canasta.view import lean_view
except ImportError:
    lean_view = canasta.view

def searched(seed):
    state = canasta.new_game(canasta.rules(), seed=seed)
    bots = [make_player("heuristic", seed + i) for i in range(4)]
    while True:
        view, legal = canasta.view(state, state.to_move), canasta.legal_moves(state)
        move = bots[state.to_move].choose(view, legal)
        if move.action == "discard" and sum(m.action == "discard" for m in legal) > 1:
            return view, legal
        state = canasta.apply(state, move)

def game(players, seed, limit, digest, see=canasta.view):
    state = canasta.new_game(canasta.rules(), seed=seed)
    n = 0
    while not canasta.is_over(state) and n < limit:
        move = players[state.to_move].choose(see(state, state.to_move), canasta.legal_moves(state))
        digest.update(str(move).encode())
        state = canasta.apply(state, move)
        n += 1
    return n

import canasta.players.heuristic as _heuristic
print(json.dumps({"file": canasta.__file__, "compiled": getattr(canasta, "is_compiled", lambda: False)(),
                  "heuristic": _heuristic.__file__}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    digest = hashlib.sha256()
    seed, kind = job["seed"], job["kind"]
    if kind == "samples":
        decisions = [searched(seed + i) for i in range(job["positions"])]
        cpu = time.process_time()
        for i, (view, legal) in enumerate(decisions):
            move = SearchPlayer(seed + i, seconds=None, iterations=job["samples"]).choose(view, legal)
            digest.update(str(move).encode())
        work = job["samples"] * len(decisions)
    elif kind == "search":
        cpu = time.process_time()
        players = [SearchPlayer(seed + s, seconds=None, iterations=job["samples"]) for s in range(4)]
        work = game(players, seed, job["decisions"], digest)
    else:
        see = lean_view if kind == "heuristic-lean" else canasta.view
        cpu = time.process_time()
        work = sum(game([make_player("heuristic", seed + g * 4 + s) for s in range(4)], seed + g, 10**9, digest, see)
                   for g in range(job["games"]))
    cpu = time.process_time() - cpu
    print(json.dumps({"work": work, "cpu": cpu, "digest": digest.hexdigest()}), flush=True)
"""


def _export(repo: Path, rev: str, into: Path) -> str:
    """``rev``'s ``src/`` written into ``into`` (a directory holding a working copy is copied as it is)."""
    if Path(rev).is_dir() and (Path(rev) / "src" / "canasta").is_dir():
        shutil.copytree(Path(rev) / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        return f"working copy {Path(rev).resolve()}"
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit, "src"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return commit


class _Worker:
    def __init__(self, src: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}, cwd=str(src))
        hello = self.ask(None)
        self.file, self.compiled, self.heuristic = str(hello["file"]), bool(hello["compiled"]), hello["heuristic"]

    def ask(self, job: dict[str, Any] | None) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if job is not None:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("a worker died")
        return dict(json.loads(line))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def compare(rev_a: str, rev_b: str, rounds: int, samples: int, decisions: int, seed: int,
            compiled: str = "") -> None:
    """Both revisions' players, alternating in one run (module docstring)."""
    repo = Path(__file__).resolve().parent.parent
    jobs = {
        "search samples/s": {"kind": "samples", "samples": samples, "positions": 3},
        "search decisions/s": {"kind": "search", "samples": samples, "decisions": decisions},
        "heuristic games/s": {"kind": "heuristic", "games": 3},
        "heuristic, lean": {"kind": "heuristic-lean", "games": 3},
    }
    with tempfile.TemporaryDirectory(prefix="canasta-players-") as tmp:
        dirs = [Path(tmp) / "a", Path(tmp) / "b"]
        which = [compiled in ("a", "both"), compiled in ("b", "both")]
        names = [export_build(repo, rev, d) if which[i] else _export(repo, rev, d)
                 for i, (rev, d) in enumerate(zip((rev_a, rev_b), dirs, strict=True))]
        paths = [compile_engine(sys.executable, d) if which[i] else d / "src" for i, d in enumerate(dirs)]
        workers = [_Worker(p) for p in paths]
        for i, w in enumerate(workers):
            if which[i] and not w.compiled:
                raise SystemExit(f"revision {'AB'[i]} was compiled but imports a pure engine ({w.file})")
        try:
            kinds = [" compiled" if w else "" for w in which]
            print(f"A = {rev_a}{kinds[0]} ({names[0]}), B = {rev_b}{kinds[1]} ({names[1]})")
            print(f"imported from {workers[0].file} and {workers[1].file}; "
                  f"the heuristic from {workers[0].heuristic} and {workers[1].heuristic}")
            print(f"python {sys.executable}; {rounds} rounds; search: {samples} samples per searched decision; "
                  f"rates per second of the worker's CPU time")
            print(f"{'measure':<20}{'A':>10}{'B':>10}{'B/A median':>12}  (per-round ratios)")
            for label, job in jobs.items():
                rates: list[list[float]] = [[], []]
                ratios: list[float] = []
                same = True
                for rnd in range(rounds):
                    got: dict[int, dict[str, Any]] = {}
                    for i in ((0, 1) if rnd % 2 == 0 else (1, 0)):
                        got[i] = workers[i].ask({**job, "seed": seed + 1000 * rnd})
                    for i in (0, 1):
                        work = job["games"] if job["kind"].startswith("heuristic") else got[i]["work"]
                        rates[i].append(work / got[i]["cpu"])
                    same = same and got[0]["digest"] == got[1]["digest"]
                    ratios.append(rates[1][-1] / rates[0][-1])
                note = "" if same else "  [the revisions played different moves]"
                print(f"{label:<20}{statistics.median(rates[0]):>10,.2f}{statistics.median(rates[1]):>10,.2f}"
                      f"{statistics.median(ratios):>12.2f}  ({', '.join(f'{x:.2f}' for x in ratios)}){note}",
                      flush=True)
        finally:
            for w in workers:
                w.close()


if __name__ == "__main__":
    main()
