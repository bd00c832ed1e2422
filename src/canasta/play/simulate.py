"""Bots against bots, many games, optionally in parallel (``canasta simulate``), for every family of games:
the players come from the game's family (``canasta.play.family.play_family``).

Game ``i`` (0-based) uses seed ``seed + i`` for the deal, and the bot in seat ``s`` uses the seed
``(seed + i) * 16 + s``, so the same arguments give the same games whatever ``jobs`` is.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..players import refuse_unsupported
from ..presets import game_rules
from ..text.names import plural, side_name
from .family import play_family
from .record import MoveCapReached, dumps, play_game

GameRules = Any  # a family's rules (``Rules``, ``RummyRules``): what these modules ask of them, every family has


def seat_players(rules: GameRules, players: str | Sequence[str]) -> list[str]:
    """Player names per seat from one name, one per side, or one per seat."""
    names = [players] if isinstance(players, str) else list(players)
    if len(names) == 1:
        return names * int(rules.players)
    if len(names) == rules.teams:
        return [names[rules.side_of(seat)] for seat in range(rules.players)]
    if len(names) == rules.players:
        return names
    raise ValueError(f"give one player name, one per side ({rules.teams}) or one per seat ({rules.players}); "
                     f"got {len(names)}: {', '.join(names)}")


MAX_MOVES = 200_000


def play_one(rules: GameRules, names: Sequence[str], game_seed: int,
             max_moves: int = MAX_MOVES) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one seeded bot game; returns (stats, record). A game still going after ``max_moves``
    moves stops there: ``stats["finished"]`` is false, the scores are those so far, no winner.
    ``stats["stalemate"]``: the game ended in a stalemate, lost by every side (Basic Rummy)."""
    make = play_family(rules).make_player
    bots = [make(name, game_seed * 16 + seat) for seat, name in enumerate(names)]
    try:
        final, record = play_game(bots, rules, seed=game_seed, max_moves=max_moves)
    except MoveCapReached as cap:
        final, record = cap.state, cap.record
    result = record["result"]
    stats = {"seed": game_seed, "hands": final.hand_number, "moves": len(record["moves"]),
             "scores": list(result["scores"] if result else final.scores),
             "winner": result["winner"] if result else None, "finished": result is not None,
             "stalemate": bool(result and result.get("stalemate"))}
    return stats, record


def _worker(args: tuple[GameRules, list[str], int, bool, int]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    rules, names, game_seed, keep, max_moves = args
    stats, record = play_one(rules, names, game_seed, max_moves)
    return stats, record if keep else None


class Progress:
    """A plain-text progress bar on a stream: ``\\r[#####.....] 12/50 games``."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width

    def update(self, done: int) -> None:
        filled = self.width * done // max(1, self.total)
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} games")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def simulate(games: int, seed: int = 0, jobs: int = 1, players: str | Sequence[str] = "greedy",
             rules: GameRules | None = None, variant: str = "classic", options: dict[str, Any] | None = None,
             records_dir: str | Path | None = None, progress: bool | str = True,
             stream: TextIO | None = None, max_moves: int = MAX_MOVES) -> dict[str, Any]:
    """Play ``games`` bot games and return a summary dict (see ``format_summary``).

    ``players``: one name, one per side or one per seat (``play_family(rules).player_names()``, or a
    level). ``rules`` wins over ``variant``/``options`` (any family's preset). ``jobs``: worker
    processes (0 = one per CPU).
    ``records_dir``: write every game's record there as ``game-00001.json`` ...
    ``progress``: True shows a bar on ``stream`` (default stderr) when it is a terminal, ``"always"``
    shows it anyway, False never. A game still going after ``max_moves`` moves is counted unfinished.
    A ``records_dir`` that cannot be made or is not a folder raises ``ValueError``."""
    if games < 0:
        raise ValueError(f"games must be 0 or more, got {games}")
    if max_moves < 1:
        raise ValueError(f"max_moves must be 1 or more, got {max_moves}")
    r: GameRules = rules or game_rules(variant, **(options or {}))
    names = seat_players(r, players)
    # unknown names, and players that do not play these rules, fail here, before any process starts
    make = play_family(r).make_player
    refuse_unsupported({name: make(name, None) for name in sorted(set(names))}, r)
    jobs = jobs or os.cpu_count() or 1
    folder = records_folder(records_dir)
    tasks = [(r, names, seed + i, folder is not None, max_moves) for i in range(games)]
    results, elapsed = run_games(_worker, tasks, jobs, folder, progress_bar(games, progress, stream))
    return summarize(r, names, results, elapsed, seed=seed, jobs=jobs)


def records_folder(records_dir: str | Path | None) -> Path | None:
    """The folder for game records, made if needed; ``ValueError`` when it cannot be."""
    if records_dir is None:
        return None
    folder = Path(records_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot make the records folder {str(folder)!r}: "
                         f"{'it is a file' if folder.is_file() else exc.strerror or exc}") from None
    return folder


def progress_bar(total: int, progress: bool | str, stream: TextIO | None) -> Progress | None:
    """``progress``: True shows a bar when ``stream`` (default stderr) is a terminal, ``"always"`` anyway."""
    out = stream or sys.stderr
    show = progress == "always" or (progress is True and out.isatty())
    return Progress(total, out) if show else None


Played = tuple[dict[str, Any], dict[str, Any] | None]  # a game's statistics and its record (or None)


def run_games(worker: Callable[[Any], Played], tasks: Sequence[Any], jobs: int, folder: Path | None,
              bar: Progress | None) -> tuple[list[dict[str, Any]], float]:
    """Each task's game statistics in task order (``jobs`` processes), its record written to ``folder`` as
    ``game-00001.json`` ...; and the seconds it took."""
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    if bar:
        bar.update(0)

    def collect(stats: dict[str, Any], record: dict[str, Any] | None) -> None:
        results.append(stats)
        if folder is not None and record is not None:
            (folder / f"game-{len(results):05d}.json").write_text(dumps(record), encoding="utf-8")
        if bar:
            bar.update(len(results))

    games = len(tasks)
    if jobs <= 1 or games <= 1:
        for task in tasks:
            collect(*worker(task))
    else:
        with multiprocessing.get_context(start_method()).Pool(min(jobs, games)) as pool:
            for stats, record in pool.imap(worker, tasks, chunksize=max(1, games // (jobs * 16))):
                collect(stats, record)
    elapsed = time.perf_counter() - start
    if bar:
        bar.close()
    return results, elapsed


def start_method() -> str:
    # fork is fastest where it is safe; elsewhere use the platform default.
    return "fork" if sys.platform.startswith("linux") else multiprocessing.get_start_method()


def summarize(rules: GameRules, names: Sequence[str], results: Sequence[dict[str, Any]], elapsed: float,
              seed: int, jobs: int) -> dict[str, Any]:
    games = len(results)
    hands = sum(g["hands"] for g in results)
    moves = sum(g["moves"] for g in results)
    wins = [sum(1 for g in results if g["winner"] == side) for side in range(rules.teams)]
    unfinished = sum(1 for g in results if not g.get("finished", True))
    stalemates = sum(1 for g in results if g.get("stalemate"))  # lost by every side
    totals = [sum(g["scores"][side] for g in results) for side in range(rules.teams)]
    return {
        "variant": rules.name, "options": rules.to_dict()["options"], "seed": seed, "jobs": jobs,
        "players": list(names),
        "sides": [{"seats": list(rules.seats_of(side)),
                   "players": [names[s] for s in rules.seats_of(side)],
                   "wins": wins[side],
                   "average_score": round(totals[side] / games, 1) if games else 0.0}
                  for side in range(rules.teams)],
        "games": games, "hands": hands, "moves": moves, "draws": games - sum(wins) - unfinished - stalemates,
        "stalemates": stalemates, "unfinished": unfinished,
        "moves_per_hand": round(moves / hands, 1) if hands else 0.0,
        "elapsed": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1) if elapsed > 0 else 0.0,
        "moves_per_second": round(moves / elapsed, 1) if elapsed > 0 else 0.0,
        "results": [dict(g) for g in results],
    }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as text for the terminal."""
    lines = [f"{summary['games']} games of {summary['variant']}"
             + (f" {summary['options']}" if summary["options"] else "")
             + f" (seed {summary['seed']}, {summary['jobs']} job{'s' if summary['jobs'] != 1 else ''})",
             f"hands: {summary['hands']}   moves: {summary['moves']}   moves per hand: {summary['moves_per_hand']}"]
    for i, side in enumerate(summary["sides"]):
        who = ",".join(side["players"])
        seats = " ".join(str(s) for s in side["seats"])
        lines.append(f"{side_name(len(summary['players']), len(summary['sides']), i)} (seats {seats}, {who}): "
                     f"{plural(side['wins'], 'win')}, "
                     f"average score {side['average_score']}")
    if summary["draws"]:
        lines.append(f"draws: {summary['draws']}")
    if summary.get("stalemates"):
        lines.append(f"stalemates (lost by every side): {summary['stalemates']}")
    if summary.get("unfinished"):
        seeds = ", ".join(str(g["seed"]) for g in summary.get("results", []) if not g.get("finished", True))
        lines.append(f"unfinished (move cap reached, no winner): {summary['unfinished']}"
                     + (f" (seeds {seeds})" if seeds else ""))
    lines.append(f"elapsed {summary['elapsed']:.2f} s: {summary['hands_per_second']} hands/s, "
                 f"{summary['moves_per_second']} moves/s")
    return "\n".join(lines)


__all__ = ["Progress", "format_summary", "play_one", "seat_players", "simulate", "summarize"]
