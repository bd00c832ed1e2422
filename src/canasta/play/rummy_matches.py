"""``canasta simulate`` and ``canasta tournament`` for the rummy family (500 Rum, Basic Rummy ...).

The games are played by the rummy arena's public functions (``canasta.rummy.arena``: ``play_game``,
``duplicate``, ``games``, ``interval``) with ``make_rummy_player``; this module only seats the players,
spreads the games over processes and puts the results in the shapes Canasta's commands print
(``simulate.format_summary``; a tournament table like ``arena.format_table``'s).

Seeds, as in Canasta's commands: game ``i`` of ``simulate`` deals with seed ``seed + i`` and seat ``s``'s
player gets ``(seed + i) * 16 + s``; deal ``i`` of a tournament is the rummy arena's deal ``seed + i``, so
the same arguments give the same figures whatever ``jobs`` is.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..players import Player
from ..players.rummy import make_rummy_player
from ..rummy import RummyRules, new_game
from ..rummy.arena import duplicate, games, play_game
from .arena import bot_name, elo_ratings, entrant_labels, mean_interval, wilson
from .record import Recorder
from .simulate import progress_bar, records_folder, run_games, start_method

TOURNAMENT_FORMAT = "canasta-rummy-tournament/1"


def seat_players(rules: RummyRules, players: Sequence[str]) -> list[str]:
    """Player names per seat from one name, one per side, or one per seat (unknown names: ValueError)."""
    names = [n.strip().lower() for n in players]
    if len(names) == 1:
        names = names * rules.players
    elif len(names) == rules.teams:
        names = [names[rules.side_of(seat)] for seat in range(rules.players)]
    elif len(names) != rules.players:
        raise ValueError(f"give one player name, one per side ({rules.teams}) or one per seat ({rules.players}); "
                         f"got {len(names)}: {', '.join(names)}")
    for name in set(names):
        make_rummy_player(name)  # an unknown name fails here, before any game starts
    return names


class _Counted(Player):
    """A player that writes down the moves it chooses, so that a game's moves can be counted and
    recorded while ``play_game`` plays it."""

    def __init__(self, inner: Player, moves: list[Any]) -> None:
        self.inner, self.moves = inner, moves
        self.name = inner.name

    def choose(self, view: Any, legal: Any) -> Any:
        move = self.inner.choose(view, legal)
        self.moves.append(move)
        return move


def play_one(rules: RummyRules, names: Sequence[str], game_seed: int, max_moves: int,
             keep: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """One seeded game; returns (stats, record or None). A game still going after ``max_moves`` moves
    is reported unfinished (no scores, no winner)."""
    moves: list[Any] = []  # RummyMove (Player.choose is typed for Canasta)
    players: list[Player] = [_Counted(make_rummy_player(name, game_seed * 16 + seat), moves)
                             for seat, name in enumerate(names)]
    try:
        result: dict[str, Any] | None = play_game(rules, game_seed, players, max_moves=max_moves)
    except RuntimeError:  # the arena's move cap
        result = None
    stats = {"seed": game_seed, "hands": result["hands"] if result else 0, "moves": len(moves),
             "scores": list(result["scores"]) if result else [0] * rules.teams,
             "winner": result["winner"] if result else None, "finished": result is not None,
             "stalemate": bool(result and result.get("stalemate"))}
    record = None
    if keep:
        rec = Recorder(new_game(rules, game_seed), list(names))
        for move in moves:
            rec.apply(move)
        record = rec.record()
    return stats, record


def _simulate_task(args: tuple[RummyRules, list[str], int, int, bool]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    return play_one(*args)


def simulate(rules: RummyRules, games_: int, seed: int = 0, jobs: int = 1, players: Sequence[str] = ("greedy",),
             records_dir: str | Path | None = None, progress: bool | str = True, stream: TextIO | None = None,
             max_moves: int = 200_000) -> dict[str, Any]:
    """Play ``games_`` whole games between rummy computer players; the summary has the keys of Canasta's
    ``canasta.play.simulate.simulate`` (``format_summary`` prints it)."""
    if games_ < 0 or jobs < 0:
        raise ValueError(f"games and jobs must be 0 or more, got {games_}, {jobs}")
    if max_moves < 1:
        raise ValueError(f"max_moves must be 1 or more, got {max_moves}")
    names = seat_players(rules, players)
    jobs = jobs or os.cpu_count() or 1
    folder = records_folder(records_dir)
    tasks = [(rules, names, seed + i, max_moves, folder is not None) for i in range(games_)]
    results, elapsed = run_games(_simulate_task, tasks, jobs, folder, progress_bar(games_, progress, stream))
    return _simulate_summary(rules, names, results, elapsed, seed, jobs)


def _simulate_summary(rules: RummyRules, names: Sequence[str], results: Sequence[dict[str, Any]],
                      elapsed: float, seed: int, jobs: int) -> dict[str, Any]:
    n = len(results)
    hands = sum(g["hands"] for g in results)
    moves = sum(g["moves"] for g in results)
    wins = [sum(1 for g in results if g["winner"] == side) for side in range(rules.teams)]
    unfinished = sum(1 for g in results if not g["finished"])
    stalemates = sum(1 for g in results if g.get("stalemate"))  # lost by every side (Basic Rummy)
    totals = [sum(g["scores"][side] for g in results) for side in range(rules.teams)]
    return {
        "variant": rules.name, "options": rules.to_dict()["options"], "seed": seed, "jobs": jobs,
        "players": list(names),
        "sides": [{"seats": list(rules.seats_of(side)), "players": [names[s] for s in rules.seats_of(side)],
                   "wins": wins[side], "average_score": round(totals[side] / n, 1) if n else 0.0}
                  for side in range(rules.teams)],
        "games": n, "hands": hands, "moves": moves, "draws": n - sum(wins) - unfinished - stalemates,
        "stalemates": stalemates, "unfinished": unfinished,
        "moves_per_hand": round(moves / hands, 1) if hands else 0.0,
        "elapsed": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1) if elapsed > 0 else 0.0,
        "moves_per_second": round(moves / elapsed, 1) if elapsed > 0 else 0.0,
        "results": [dict(g) for g in results],
    }


# --- tournament ---------------------------------------------------------------------------------

def _maker(name: str) -> Any:
    return lambda seed: make_rummy_player(name, seed)


def _deal_task(args: tuple[RummyRules, str, str, int, int]) -> tuple[float, float]:
    """One deal of a pairing, for A and for B: the score difference on the duplicate hand (``hands`` 1), or
    the share of the whole game (1, ½ for a draw, 0; a stalemate is lost by both) — the arena's
    ``duplicate`` / ``games`` on that one seed."""
    rules, a, b, deal_seed, hands = args
    if hands == 1:
        diff = float(duplicate(rules, _maker(a), _maker(b), 1, deal_seed)["mean"])
        return diff, -diff
    played = games(rules, _maker(a), _maker(b), 1, deal_seed)
    return float(played["a_wins"]), float(played["b_wins"])


def tournament(rules: RummyRules, players: Sequence[str], deals: int, seed: int = 0, *, hands: int = 0,
               jobs: int = 0, progress: bool | str = True, stream: TextIO | None = None) -> dict[str, Any]:
    """Every pair of ``players`` on ``deals`` deals: whole games (``hands`` 0; A takes each side in turn,
    the other seats are B's) or one duplicate hand per deal (``hands`` 1, two-sided games only: each deal
    played both ways round). ``format_tournament`` prints the result."""
    if deals < 0 or jobs < 0:
        raise ValueError(f"games and jobs must be 0 or more, got {deals}, {jobs}")
    if hands not in (0, 1):
        raise ValueError(f"the rummy family plays whole games (--hands 0) or single hands (--hands 1), got {hands}")
    if hands == 1 and rules.teams != 2:
        raise ValueError(f"single duplicate hands need two sides (2 players, or 4 in partnerships); "
                         f"{rules.name} has {rules.teams}: use --hands 0 (whole games)")
    entrants = entrant_labels(players)
    if len(entrants) < 2:
        raise ValueError(f"a tournament needs at least two players, got {len(entrants)}: {', '.join(entrants)}")
    for label in entrants:
        make_rummy_player(bot_name(label))
    pairs = list(itertools.combinations(entrants, 2))
    tasks = [(rules, bot_name(a), bot_name(b), seed + i, hands) for a, b in pairs for i in range(deals)]
    jobs = jobs or os.cpu_count() or 1
    bar = progress_bar(len(tasks), progress, stream)
    values: list[tuple[float, float]] = []
    start = time.perf_counter()
    if bar:
        bar.update(0)
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            values.append(_deal_task(task))
            if bar:
                bar.update(len(values))
    else:
        with multiprocessing.get_context(start_method()).Pool(min(jobs, len(tasks))) as pool:
            for value in pool.imap(_deal_task, tasks):
                values.append(value)
                if bar:
                    bar.update(len(values))
    elapsed = time.perf_counter() - start
    if bar:
        bar.close()
    per_pair = [values[i * deals:(i + 1) * deals] for i in range(len(pairs))]
    return _tournament_summary(rules, entrants, pairs, per_pair, seed=seed, deals=deals, hands=hands,
                               jobs=jobs, elapsed=elapsed)


def _tournament_summary(rules: RummyRules, entrants: Sequence[str], pairs: Sequence[tuple[str, str]],
                        per_pair: Sequence[Sequence[tuple[float, float]]], *, seed: int, deals: int, hands: int,
                        jobs: int, elapsed: float) -> dict[str, Any]:
    rows = []
    won: dict[str, list[float]] = {name: [] for name in entrants}  # per player: its share of each game
    diffs: dict[str, list[float]] = {name: [] for name in entrants}  # per player: its per-deal differences
    for (a, b), both in zip(pairs, per_pair, strict=True):
        values = [v for v, _ in both]
        row: dict[str, Any] = {"players": [a, b], "deals": deals}
        if hands == 1:
            row["games"] = 2 * deals
            row["points_per_hand"] = mean_interval(values).to_dict(1)
            row["deal_win_rate"] = wilson(sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in values),
                                          len(values)).to_dict()
            row["deal_differences"] = [round(v, 2) for v in values]
            diffs[a] += values
            diffs[b] += [-v for v in values]
        else:
            row["games"] = deals
            row["wins"] = sum(1 for v in values if v == 1.0)
            row["draws"] = sum(1 for v in values if v == 0.5)
            row["losses"] = deals - row["wins"] - row["draws"]  # stalemates among them: lost by both
            row["stalemates"] = sum(1 for v, w in both if v == w == 0.0)
            row["game_win_rate"] = wilson(sum(values), len(values)).to_dict()
            won[a] += values
            won[b] += [w for _, w in both] if rules.teams == 2 else []
        rows.append(row)
    standings = []
    if hands == 0:
        # Elo from the games won; only meaningful where B's seats are one side (two-sided games). A stalemate,
        # lost by both, says nothing of who is the stronger: left out.
        decided = [[v for v, w in both if v or w] for both in per_pair]
        results = [(a, b, sum(v), float(len(v))) for (a, b), v in zip(pairs, decided, strict=True) if v]
        ratings = elo_ratings(entrants, results) if rules.teams == 2 else None
        for name in entrants:
            entry: dict[str, Any] = {"player": name, "games": len(won[name]),
                                     "game_win_rate": wilson(sum(won[name]), len(won[name])).to_dict()}
            if ratings is not None:
                entry["elo"] = ratings.estimate(name).to_dict(1)
            standings.append(entry)
        standings.sort(key=lambda e: (-e["game_win_rate"]["value"], e["player"]))
    else:
        for name in entrants:
            standings.append({"player": name, "deals": len(diffs[name]),
                              "points_per_hand": mean_interval(diffs[name]).to_dict(1)})
        standings.sort(key=lambda e: (-e["points_per_hand"]["value"], e["player"]))
    return {
        "format": TOURNAMENT_FORMAT, "family": "rummy", "variant": rules.name, "options": rules.to_dict()["options"],
        "players_per_game": rules.players, "sides": rules.teams, "seed": seed, "deals_per_pair": deals,
        "hands_per_game": hands, "players": list(entrants), "pairs": rows, "standings": standings,
        "confidence": 0.95,
        "methods": {
            "game_win_rate": "the first player's share of the games (draws half; a stalemate, Basic Rummy, is "
                             "a loss for both); it takes each side in turn, "
                             "the other seats are the second player's; Wilson score interval. With more than "
                             "two sides an even match wins 1/sides of the games",
            "points_per_hand": "mean over deals of the first player's score less the second's on the hand, "
                               "averaged over both seatings (duplicate); normal interval",
            "deal_win_rate": "deals where the first player's duplicate difference is above zero (ties half); "
                             "Wilson score interval",
            "elo": "Bradley-Terry on the game results (two-sided games only, stalemates left out), as in "
                   "Canasta's tournament",
        },
        "jobs": jobs, "elapsed": round(elapsed, 3),
    }


def _pct(e: dict[str, Any]) -> str:
    return f"{100 * e['value']:5.1f} [{100 * e['low']:4.1f}, {100 * e['high']:4.1f}]"


def _pts(e: dict[str, Any], sign: str = "+") -> str:
    if e["low"] is None:
        return f"{e['value']:{sign}.1f}"
    return f"{e['value']:{sign}.1f} [{e['low']:{sign}.1f}, {e['high']:{sign}.1f}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
            .rstrip() for row in [header, *rows]]


def format_tournament(summary: dict[str, Any]) -> str:
    """The tournament as text: a line about the run, one row per pairing, then the standings."""
    s = summary
    kind = "one duplicate hand per deal, played both ways round" if s["hands_per_game"] == 1 else "whole games"
    lines = [f"{s['variant']}" + (f" {s['options']}" if s["options"] else "")
             + f" ({s['players_per_game']} players, {s['sides']} sides): {len(s['pairs'])} pairing"
             f"{'s' if len(s['pairs']) != 1 else ''}, {s['deals_per_pair']} deals each, {kind} "
             f"(seed {s['seed']}, {s['jobs']} job{'s' if s['jobs'] != 1 else ''}, {s['elapsed']:.1f} s)",
             "95% intervals: Wilson for rates, normal on per-deal differences for points", ""]
    if s["hands_per_game"] == 1:
        rows = [[f"{p['players'][0]} vs {p['players'][1]}", str(p["deals"]), _pts(p["points_per_hand"]),
                 _pct(p["deal_win_rate"])] for p in s["pairs"]]
        lines += _table(["pairing", "deals", "points/hand", "deals won %"], rows)
        lines.append("")
        rows = [[e["player"], str(e["deals"]), _pts(e["points_per_hand"])] for e in s["standings"]]
        lines += _table(["player", "deals", "points/hand"], rows)
    else:
        rows = [[f"{p['players'][0]} vs {p['players'][1]}", str(p["games"]), f"{p['wins']}-{p['draws']}-{p['losses']}",
                 _pct(p["game_win_rate"])] for p in s["pairs"]]
        lines += _table(["pairing", "games", "W-D-L", "game win %"], rows)
        if s["sides"] > 2:
            lines.append(f"(the first player holds one seat of {s['sides']}, the second the others: "
                         f"an even match wins {100 / s['sides']:.0f}%)")
        else:
            lines.append("")
            rows = [[e["player"], _pts(e["elo"], "") if "elo" in e else "", str(e["games"]),
                     _pct(e["game_win_rate"])] for e in s["standings"]]
            lines += _table(["player", "Elo", "games", "game win %"], rows)
    return "\n".join(lines)


__all__ = ["TOURNAMENT_FORMAT", "format_tournament", "play_one", "seat_players", "simulate",
           "tournament"]
