"""Where could the heuristic player do better against an opponent? A one-step deviation study.

Usage: python benchmarks/deviations.py [--games N] [--samples K] [--rate P] [--opponent NAME]
                                       [--variant NAME] [--seed S] [--jobs J] [--examples N]

Seeded games of the heuristic player (seats of side 0) against ``--opponent`` (default greedy) are
played; at a fraction ``--rate`` of the heuristic's decisions the study compares its move with the
alternatives:

* ``draw``/``take``: drawing from the stock against its cheapest take of the pile;
* ``discard``: its discard against the next four ranks in its own order of preference;
* ``play``: its first move of a play phase that offers a meld or ``ask`` against the opponent player's
  move there and against discarding at once.

Each candidate is played on the same ``--samples`` sampled deals of the hidden cards (``canasta.canasta.sampling``,
the seat's knowledge only), and the hand is finished by heuristic players for the side and the opponent
player for the others; the result is the side's hand score minus the opponents'. The table gives, per
kind of decision, the mean gain of each kind of alternative over the heuristic's move (a negative number:
the heuristic's move was better), and the *cross-fitted* gain of a player that picks the best candidate:
the best is chosen on one half of the samples and scored on the other, so noise does not pass for gain.
Results depend only on the arguments. Slow: about 6 ms per simulated hand, so the default run
(40 games, 40 samples) takes a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import canasta
from canasta.canasta.moves import DRAW, Move
from canasta.canasta.sampling import determinize
from canasta.canasta.state import State
from canasta.players import Player, make_player
from canasta.players.heuristic import HeuristicPlayer, take_cost_key
from canasta.players.search import hand_result, rollout_view

MAX_ROLLOUT_MOVES = 2_000


@dataclass(frozen=True)
class Study:
    variant: str
    opponent: str
    samples: int
    rate: float
    hands: int


def finish_hand(world: State, move: Move, seat: int, seed: int, guide: HeuristicPlayer, opponent: str) -> float:
    """Play ``move`` in ``world``, then the heuristic (side of ``seat``) and ``opponent`` to the hand's end."""
    side = world.side_of(seat)
    players: list[Player] = []
    for s in range(world.rules.players):
        if world.side_of(s) == side:
            player = HeuristicPlayer(seed + s)
            player.memory = guide.memory.copy()  # the memory of the hand is public knowledge
            players.append(player)
        else:
            players.append(make_player(opponent, seed + s))
    hand = world.hand_number
    state = canasta.apply(world, move)
    for _ in range(MAX_ROLLOUT_MOVES):
        if canasta.is_over(state) or state.hand_number != hand:
            break
        who = state.to_move
        state = canasta.apply(state, players[who].choose(rollout_view(state, who), canasta.legal_moves(state)))
    return hand_result(state, side)


def candidates(bot: HeuristicPlayer, opponent: Player, view: dict[str, Any], legal: list[Move],
               move: Move) -> tuple[str, list[Move]]:
    """(kind of decision, [the heuristic's move, alternatives...]); no alternatives: nothing to study."""
    if view["phase"] == "draw":
        takes = [m for m in legal if m.action == "take"]
        if not takes or DRAW not in legal:
            return "", []
        cheapest = max(takes, key=take_cost_key)  # the take the heuristic would choose
        return move.action, [move, *[m for m in (DRAW, cheapest) if m != move]]
    if view["phase"] != "play":
        return "", []
    if any(m.action in ("meld", "ask") for m in legal):
        others = [opponent.choose(view, legal)]
        ranked = bot.ranked_discards(view, legal)
        if ranked and move.action != "discard":
            others.append(ranked[0])
        return "play", [move, *dict.fromkeys(m for m in others if m != move)]
    if move.action == "discard":
        ranks: dict[int, Move] = {}
        for m in bot.ranked_discards(view, legal):
            if m.rank != move.rank:
                ranks.setdefault(m.rank, m)
        return "discard", [move, *list(ranks.values())[:4]]
    return "", []


def alternative_kind(kind: str, move: Move) -> str:
    if kind == "play":
        return "discard at once" if move.action == "discard" else f"opponent's {move.action}"
    return move.action if kind in ("draw", "take") else "other discard"


def study_game(args: tuple[Study, int]) -> list[dict[str, Any]]:
    study, seed = args
    rules = canasta.rules(study.variant)
    rng = random.Random(seed)
    names = ["heuristic" if rules.side_of(s) == 0 else study.opponent for s in range(rules.players)]
    bots = [make_player(name, seed * 16 + s) for s, name in enumerate(names)]
    state = canasta.new_game(rules, seed=seed)
    rows = []
    while not canasta.is_over(state) and state.hand_number <= study.hands:
        seat = state.to_move
        view, legal = canasta.view(state, seat), canasta.legal_moves(state)
        bot = bots[seat]
        move = bot.choose(view, legal)
        if isinstance(bot, HeuristicPlayer) and rng.random() < study.rate:
            kind, cands = candidates(bot, make_player(study.opponent, seed), view, legal, move)
            if len(cands) > 1:
                results: list[list[float]] = [[] for _ in cands]
                for _ in range(study.samples):
                    world, deal_seed = determinize(view, rng), rng.randrange(2**31)
                    for i, cand in enumerate(cands):
                        results[i].append(finish_hand(world, cand, seat, deal_seed, bot, study.opponent))
                rows.append({"kind": kind, "moves": [str(m) for m in cands],
                             "alternatives": [alternative_kind(kind, m) for m in cands[1:]],
                             "results": results, "hand": " ".join(view["hand"]), "pile": len(view["pile"])})
        state = canasta.apply(state, move)
    return rows


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def cross_fitted_gain(results: list[list[float]]) -> float:
    """The gain over the heuristic's move (results[0]) of picking the best candidate on one half of the
    samples, scored on the other half (both ways round, averaged)."""
    n = len(results[0])
    halves = (slice(0, n // 2), slice(n // 2, n))
    gain = 0.0
    for choose, score in (halves, halves[::-1]):
        best = max(range(len(results)), key=lambda i: mean(results[i][choose]) - mean(results[0][choose]))
        gain += mean(results[best][score]) - mean(results[0][score])
    return gain / 2


def interval(values: list[float]) -> str:
    if len(values) < 2:
        return f"{mean(values):+7.1f}"
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean(values):+7.1f} ± {half:5.1f}"


def report(rows: list[dict[str, Any]], examples: int) -> None:
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(row)
    print(f"{'decision':10s} {'n':>5s}  {'best-candidate gain (cross-fitted)':>34s}")
    for kind, group in sorted(by_kind.items()):
        print(f"{kind:10s} {len(group):5d}  {interval([cross_fitted_gain(r['results']) for r in group]):>34s}")
    print(f"\n{'decision':10s} {'alternative':24s} {'n':>5s}  {'mean gain over the heuristic':>28s}")
    for kind, group in sorted(by_kind.items()):
        gains: dict[str, list[float]] = defaultdict(list)
        for r in group:
            base = mean(r["results"][0])
            for alt, res in zip(r["alternatives"], r["results"][1:], strict=True):
                gains[alt].append(mean(res) - base)
        for alt, values in sorted(gains.items()):
            print(f"{kind:10s} {alt:24s} {len(values):5d}  {interval(values):>28s}")
    if examples:
        print("\nlargest apparent gains (single positions: noisy):")
        ranked = sorted(rows, key=lambda r: -max(mean(x) - mean(r["results"][0]) for x in r["results"][1:]))
        for r in ranked[:examples]:
            shown = [round(mean(x) - mean(r["results"][0])) for x in r["results"]]
            print(f"  {r['kind']}: hand {r['hand']}, pile {r['pile']}: {list(zip(r['moves'], shown, strict=True))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--samples", type=int, default=40, help="sampled deals per decision (even)")
    ap.add_argument("--rate", type=float, default=0.25, help="share of the heuristic's decisions studied")
    ap.add_argument("--hands", type=int, default=3, help="hands of each game studied")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--seed", type=int, default=30000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--examples", type=int, default=0, help="print this many positions with the largest gains")
    a = ap.parse_args()
    study = Study(a.variant, a.opponent, max(2, a.samples - a.samples % 2), a.rate, a.hands)
    tasks = [(study, seed) for seed in range(a.seed, a.seed + a.games)]
    with multiprocessing.Pool(a.jobs) as pool:
        rows = [row for game in pool.map(study_game, tasks) for row in game]
    print(f"{a.variant}: heuristic vs {a.opponent}, {a.games} games (seeds {a.seed}..{a.seed + a.games - 1}, "
          f"first {a.hands} hands), {len(rows)} decisions studied, {study.samples} sampled deals each")
    report(rows, a.examples)


if __name__ == "__main__":
    main()
