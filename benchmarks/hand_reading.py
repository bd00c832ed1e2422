"""How well does the heuristic player read the next opponent's hand? Its pair chances against real hands.

Usage: python benchmarks/hand_reading.py [--games N] [--seed S] [--opponent NAME] [--variant NAME]

Seeded games of the heuristic player against ``--opponent`` (default greedy) are played, each deal both
ways round as in ``canasta tournament``. At each of the heuristic's discard decisions where the next
player is an opponent, for every natural rank in its hand, it takes the chance that the next player
holds two or more of that rank (what makes a discard of it dangerous) as the heuristic estimates it
(``_Turn.holding_chances`` with the preset's ``HELD_WEIGHTS``) and as random draws of the unseen cards
would make it (every weight 1), and compares both with the next player's real hand. It prints, by the
number of cards in that hand the heuristic does not know, the mean of each estimate and the real share,
and each estimate's log loss over all of them (lower is better). One process; results depend only on
the arguments. 100 deals take about a minute.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from typing import Any

import canasta
from canasta.canasta.engine import rank_counts
from canasta.canasta.moves import Move
from canasta.play.arena import bot_seed, seat_names, seatings
from canasta.players import make_player, rules_of
from canasta.players.heuristic import HELD_WEIGHTS, NATURALS, HeuristicPlayer, _Turn

BUCKETS = ((0, 2), (3, 4), (5, 7), (8, 11), (12, 99))
RANDOM_DRAW = dict.fromkeys(HELD_WEIGHTS, 1.0)


def log_loss(chance: float, held: bool) -> float:
    p = min(max(chance, 1e-6), 1 - 1e-6)
    return -math.log(p if held else 1 - p)


def study(games: int, seed: int, opponent: str, variant: str) -> list[tuple[int, float, float, bool]]:
    """One row per candidate discard: (unknown cards, estimate, random-draw chance, pair really held)."""
    rules = canasta.rules(variant)
    rows: list[tuple[int, float, float, bool]] = []
    for deal in range(seed, seed + games):
        for index, seating in enumerate(seatings(rules)):
            names = seat_names(rules, seating, ("heuristic", opponent))
            players = [make_player(name, bot_seed(deal, index, seat)) for seat, name in enumerate(names)]
            state = canasta.new_game(rules, deal)
            while not canasta.is_over(state):
                seat = state.to_move
                legal = canasta.legal_moves(state)
                seen = canasta.view(state, seat)
                player = players[seat]
                if isinstance(player, HeuristicPlayer) and state.phase == "play" and \
                        any(m.action == "discard" for m in legal):
                    rows.extend(_observe(state, seen, legal, player))
                state = canasta.apply(state, player.choose(seen, legal))
    return rows


def _observe(state: canasta.State, seen: dict[str, Any], legal: list[Move], player: HeuristicPlayer
             ) -> list[tuple[int, float, float, bool]]:
    r = rules_of(seen)
    player.memory.update(seen, r.pile_black_threes == "bonus")
    turn = _Turn(seen, legal, r, player.memory)
    nxt = turn.next_seat()
    if state.seat_sides[nxt] == state.seat_sides[turn.seat]:
        return []
    ranks = {rank for rank in NATURALS if turn.rc[rank]}
    estimate, _ = turn.holding_chances(nxt, ranks)
    plain, _ = turn.holding_chances(nxt, ranks, RANDOM_DRAW)
    unknown = seen["hand_sizes"][nxt] - sum(player.memory.known[nxt].values())
    real = rank_counts(state.hands[nxt])
    return [(unknown, estimate[rank][0], plain[rank][0], real[rank] >= 2) for rank in sorted(ranks)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="deals, each played both ways (default 100)")
    ap.add_argument("--seed", type=int, default=100000, help="seed of the first deal (default 100000)")
    ap.add_argument("--opponent", default="greedy", help="the other side's player (default greedy)")
    ap.add_argument("--variant", default="classic", help="rules preset (default classic)")
    args = ap.parse_args()
    rows = study(args.games, args.seed, args.opponent, args.variant)
    print(f"{args.variant}: heuristic vs {args.opponent}, {args.games} deals from seed {args.seed} both ways, "
          f"{len(rows)} candidate discards")
    print("unknown cards        n   estimate   random draw   real share of pairs")
    groups: dict[tuple[int, int], list[tuple[int, float, float, bool]]] = defaultdict(list)
    for row in rows:
        for low, high in BUCKETS:
            if low <= row[0] <= high:
                groups[(low, high)].append(row)
    for (low, high), group in sorted(groups.items()):
        n = len(group)
        print(f"{low:>5}-{high:<5} {n:>10} {sum(g[1] for g in group) / n:>10.3f} {sum(g[2] for g in group) / n:>13.3f}"
              f" {sum(g[3] for g in group) / n:>21.3f}")
    if rows:
        print(f"log loss: estimate {sum(log_loss(g[1], g[3]) for g in rows) / len(rows):.4f}, "
              f"random draw {sum(log_loss(g[2], g[3]) for g in rows) / len(rows):.4f}")


if __name__ == "__main__":
    main()
