"""Does a rummy player gain by taking the dealer's joker (Dealer's Gambit)? Duplicate deals.

Usage: python benchmarks/rummy_bonus.py [--player heuristic|greedy] [--deals N] [--seed S] [--variant NAME]

The player (``canasta.players.rummy``) plays two-sided duplicate deals (``canasta.play.strength``: every deal
both ways round) against the same player with the move hidden from it (``take dealer JK`` removed from its
legal moves whenever another move is left; the Master's Hand, on here, has no move of its own). It prints
the mean difference a deal with its 95 % interval. One process; results depend only on the arguments.
"""

from __future__ import annotations

import argparse
from typing import Any

from canasta.play.strength import duplicate
from canasta.players import Player
from canasta.players.rummy import make_rummy_player
from canasta.rummy.moves import DEALER_JOKER, RummyMove
from canasta.rummy.presets import rummy_rules

BONUS = (DEALER_JOKER,)


class WithoutBonus(Player):
    """``inner`` choosing among the legal moves less the dealer's joker."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = f"{inner.name} (no bonus moves)"

    def choose(self, view: dict[str, Any], legal: list[RummyMove]) -> RummyMove:  # type: ignore[override]
        kept = [m for m in legal if m.action not in BONUS] or legal
        return self.inner.choose(view, kept)  # type: ignore[arg-type, return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="heuristic", choices=["heuristic", "greedy"])
    parser.add_argument("--variant", default="dealers-gambit")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = rummy_rules(args.variant, {"players": 2, "masters_hand": 500})
    result = duplicate(rules, lambda s: make_rummy_player(args.player, s),
                       lambda s: WithoutBonus(make_rummy_player(args.player, s)), args.deals, args.seed)
    print(f"{args.player} with the bonus moves against without, {args.variant}, {result['deals']} deals "
          f"from seed {args.seed}: {result['mean']:+.1f} a deal [{result['low']:+.1f}, {result['high']:+.1f}], "
          f"better on {result['a_better']:.0%} of deals")


if __name__ == "__main__":
    main()
