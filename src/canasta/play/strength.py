"""Strength measurements between computer players the caller makes, for any family: duplicate hands (each
deal's first hand played twice, the players swapping sides) and whole games, with a 95% interval on the mean
difference per deal; and the players' thinking time per decision.

``python -m canasta.play.strength --variant 500-rum --players 2 --a greedy --b random --deals 200`` prints the
figures quoted in docs/strength.md ("The rummy family"). Its players' seeds are its own (deal ``d``, seat ``s``:
``10 d + s``), so those figures stay as they were measured; ``canasta tournament`` (``canasta.play.arena``)
plays named players with Elo ratings, hand win rates, ``--jobs`` and Ray. The games are played by that
module's ``play_players`` and the intervals are its ``mean_interval``. (Was ``canasta.rummy.arena``.)"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from typing import Any

from ..dispatch import apply, is_over, legal_moves, new_game, view
from ..players import Player
from ..presets import game_rules
from .arena import mean_interval, play_players
from .family import play_family
from .record import play_game as play_recorded
from .simulate import GameRules


def play_hand(r: GameRules, seed: int, players: list[Player], max_moves: int = 20000) -> list[int]:
    """The first hand of the deal ``seed`` between ``players`` (one per seat): each side's hand score."""
    scores: list[int] = play_players(r, players, seed, hands=1, max_moves=max_moves)["hands"][0]
    return scores


def play_game(r: GameRules, seed: int, players: list[Player], max_moves: int = 200_000) -> dict[str, Any]:
    """The result of a whole game (``RuntimeError`` if it goes on past ``max_moves`` moves)."""
    final, _record = play_recorded(players, r, seed, max_moves)
    result: dict[str, Any] = final.result
    return result


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (``canasta.play.arena.mean_interval``; one value: the mean three times)."""
    e = mean_interval(values)
    return e.value, e.value if e.low is None else e.low, e.value if e.high is None else e.high


def deal_differences(r: GameRules, make_a: Callable[[int], Player], make_b: Callable[[int], Player], deals: int,
                     seed: int = 0) -> list[float]:
    """A's side score less B's for each deal ``seed``, ``seed + 1``, ..., averaged over the two seatings."""
    if r.teams != 2:
        raise ValueError("duplicate deals need two sides (2 players, or 4 in partnerships)")
    diffs: list[float] = []
    for d in range(seed, seed + deals):
        total = 0.0
        for a_side in (0, 1):
            players = [make_a(d * 10 + s) if r.side_of(s) == a_side else make_b(d * 10 + s) for s in range(r.players)]
            scores = play_hand(r, d, players)
            total += scores[a_side] - scores[1 - a_side]
        diffs.append(total / 2)
    return diffs


def summarize(diffs: list[float]) -> dict[str, Any]:
    mean, low, high = interval(diffs)
    return {"deals": len(diffs), "mean": mean, "low": low, "high": high,
            "a_better": sum(1 for x in diffs if x > 0) / len(diffs)}


def duplicate(r: GameRules, make_a: Callable[[int], Player], make_b: Callable[[int], Player], deals: int,
              seed: int = 0) -> dict[str, Any]:
    """Two-sided games only: A's side score less B's, per deal, averaged over the two seatings."""
    return summarize(deal_differences(r, make_a, make_b, deals, seed))


def _named_differences(key: str, options: dict[str, Any], a: str, b: str, deals: int, seed: int) -> list[float]:
    """``deal_differences`` between players named ``a`` and ``b`` (in a worker process: names pickle)."""
    r = game_rules(key, **options)
    make = play_family(r).make_player
    return deal_differences(r, lambda s: make(a, s), lambda s: make(b, s), deals, seed)


def parallel_duplicate(key: str, options: dict[str, Any], a: str, b: str, deals: int, seed: int = 0,
                       jobs: int = 2) -> dict[str, Any]:
    """``duplicate`` between named players, the deals split over ``jobs`` processes: the same deals and the
    same players' seeds, so the same figures as one process gives."""
    from concurrent.futures import ProcessPoolExecutor

    size = -(-deals // jobs)
    starts = list(range(seed, seed + deals, size))
    counts = [min(size, seed + deals - start) for start in starts]
    n = len(starts)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(_named_differences, [key] * n, [options] * n, [a] * n, [b] * n, counts, starts))
    return summarize([x for part in parts for x in part])


def shares(result: dict[str, Any], a_side: int) -> tuple[float, float]:
    """A's and B's share of one whole game (A plays ``a_side``, B the other sides): 1 for a win, ½ each for a
    draw; a stalemate (Basic Rummy) is a loss for everyone, "as a loss for all of them" [S1-rummy]."""
    if result.get("stalemate"):
        return 0.0, 0.0
    winner = result["winner"]
    a = 1.0 if winner == a_side else 0.5 if winner is None else 0.0
    return a, 1.0 - a


def games(r: GameRules, make_a: Callable[[int], Player], make_b: Callable[[int], Player], n: int,
          seed: int = 0) -> dict[str, Any]:
    """Whole games, A's side taking each side in turn (the others are B): A's and B's share of the games won
    (they add up to 1 but for stalemates, lost by both)."""
    a_wins = b_wins = 0.0
    stalemates = 0
    for g in range(seed, seed + n):
        a_side = g % r.teams
        players = [make_a(g * 10 + s) if r.side_of(s) == a_side else make_b(g * 10 + s) for s in range(r.players)]
        result = play_game(r, g, players)
        a, b = shares(result, a_side)
        a_wins, b_wins, stalemates = a_wins + a, b_wins + b, stalemates + bool(result.get("stalemate"))
    return {"games": n, "a_wins": a_wins / n, "b_wins": b_wins / n, "stalemates": stalemates}


def thinking_times(r: GameRules, levels: list[str], deals: int, seed: int = 0) -> dict[str, list[float]]:
    """CPU seconds each player named in ``levels`` takes per decision, asked at every decision of the first
    hand of heuristic games (the deals ``seed``, ``seed + 1``, ...): the same positions for every level."""
    import time

    make = play_family(r).make_player
    times: dict[str, list[float]] = {name: [] for name in levels}
    for d in range(seed, seed + deals):
        s = new_game(r, d)
        guide = make("heuristic", d)
        while s.hand_number == 1 and not is_over(s):
            seen, legal = view(s, s.to_move), legal_moves(s)
            for name in levels:
                player = make(name, d)
                start = time.process_time()
                player.choose(seen, legal)
                times[name].append(time.process_time() - start)
            s = apply(s, guide.choose(seen, legal))
    return times


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--variant", default="500-rum")
    p.add_argument("--players", type=int, default=2,
                   help="players, in a game each plays for himself (partnership presets keep their seats)")
    p.add_argument("--a", default="greedy")
    p.add_argument("--b", default="random")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--games", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="processes for the duplicate deals (the same figures)")
    p.add_argument("--timing", action="store_true",
                   help="instead of matches: CPU time per decision of --a and --b (and the levels medium, hard, "
                        "expert) over --deals hands of heuristic play")
    args = p.parse_args(argv)
    try:
        # --players for the games each plays for himself (partnership presets keep their seats)
        alone = game_rules(args.variant)
        options: dict[str, Any] = {"players": args.players} if alone.teams == alone.players else {}
        r = game_rules(args.variant, **options)
        for name in (args.a, args.b):
            play_family(r).make_player(name, None)
    except ValueError as exc:
        p.error(str(exc))
    key = r.name
    if args.deals < 0 or args.games < 0 or args.jobs < 1:
        p.error("--deals and --games are 0 or more, --jobs 1 or more")

    if args.timing:
        names = list(dict.fromkeys([args.a, args.b, "medium", "hard", "expert"]))
        for name, t in thinking_times(r, names, max(args.deals, 1), args.seed).items():
            t.sort()
            print(f"{r.name} ({r.players} players) {name}: {len(t)} decisions, CPU per decision mean "
                  f"{1000 * statistics.fmean(t):.1f} ms, 90th percentile {1000 * t[int(0.9 * len(t))]:.1f} ms, "
                  f"most {1000 * t[-1]:.1f} ms")
        return 0

    def make(name: str) -> Callable[[int], Player]:
        return lambda seed: play_family(r).make_player(name, seed)

    if args.deals:
        if args.jobs > 1:
            d = parallel_duplicate(key, options, args.a, args.b, args.deals, args.seed, args.jobs)
        else:
            d = duplicate(r, make(args.a), make(args.b), args.deals, args.seed)
        print(f"{r.name} ({r.players} players) {args.a} vs {args.b}: {d['deals']} duplicate deals, "
              f"mean difference per deal {d['mean']:+.1f} (95% {d['low']:+.1f} .. {d['high']:+.1f}), "
              f"{args.a} better on {100 * d['a_better']:.0f}% of deals")
    if args.games:
        g = games(r, make(args.a), make(args.b), args.games, args.seed)
        print(f"{r.name} ({r.players} players) {args.a} vs {args.b}: {args.a} won {100 * g['a_wins']:.1f}% "
              f"of {g['games']} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
