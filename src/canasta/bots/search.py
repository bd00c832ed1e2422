"""Search player: determinized Monte Carlo over the hidden cards (issue "Strong computer players").

For each decision it repeatedly samples the cards it cannot see (``canasta.sampling.determinize``,
which keeps every card known from the public history), plays each candidate move in that sample,
and finishes the hand with a fast rollout policy, or stops after ``horizon`` moves and evaluates the
table. The move with the best mean score difference (own side minus the best other side) wins. It
stops on its budget: ``seconds`` of thinking or ``iterations`` samples per decision. It sees only the
view; the sampled positions hold no real hidden card.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..cards import cards_of
from ..engine import apply, is_over, legal_moves
from ..moves import Move
from ..sampling import determinize
from ..scoring import score_side
from ..state import State
from . import Player

_ACTION_ORDER = {"take": 0, "meld": 1, "discard": 2, "draw": 3}


def rollout_move(state: State, rng: random.Random) -> Move:
    """A cheap, sensible policy for rollouts: take the pile, meld the most cards, then discard the
    least useful card (a lone low card, never a wild if something else can go)."""
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    takes = [m for m in moves if m.action == "take"]
    if takes:
        return takes[0]
    melds = [m for m in moves if m.action == "meld"]
    if melds:
        best = max(melds, key=lambda m: (m.naturals * 2 + m.twos + m.jokers, rng.random()))
        return best
    if state.phase == "answer":
        return moves[0]  # yes
    discards = [m for m in moves if m.action == "discard"]
    if discards:
        hand = state.hands[state.turn_seat]
        def cost(m: Move) -> tuple[int, float]:
            held = sum(hand[k] for k in range(53) if (k >> 2) + 2 == m.rank) if m.rank > 2 else 9
            return (held * 10 + (50 if m.rank in (0, 2) else 0) + (0 if m.rank == 3 else 5), rng.random())
        return min(discards, key=cost)
    return moves[0]


def evaluate(state: State, side: int) -> float:
    """The table as it stands: each side's hand score if it ended now (without going out)."""
    r = state.rules
    values = []
    for s in range(r.teams):
        seats = state.seats_of(s)
        hand = [c for seat in seats for c in cards_of(state.hands[seat])]
        values.append(int(score_side(r, list(state.melds[s].values()), hand, state.red_threes[s])["total"]))
    mine = values[side]
    others = [v for i, v in enumerate(values) if i != side and state.seats_of(i)]
    return mine - max(others, default=0)


class SearchPlayer(Player):
    name = "search"

    def __init__(self, seed: int | None = None, seconds: float | None = 0.1, iterations: int | None = None,
                 horizon: int = 80) -> None:
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.horizon = horizon
        self.last_reason = ""

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        start = time.perf_counter()
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        samples = 0
        while True:
            if self.iterations is not None and samples >= self.iterations:
                break
            if self.iterations is None and samples and time.perf_counter() - start >= (self.seconds or 0.0):
                break
            world = determinize(view, self.rng)
            for move in legal:
                totals[move] += self._playout(world, move, seat)
                counts[move] += 1
            samples += 1
        best = max(legal, key=lambda m: (totals[m] / max(1, counts[m]), -legal.index(m)))
        self.last_reason = (f"best average result over {samples} sampled deals: "
                            f"{totals[best] / max(1, counts[best]):+.0f} points against the other side")
        return best

    def _playout(self, state: State, move: Move, seat: int) -> float:
        side = state.side_of(seat)
        hand_number = state.hand_number
        state = apply(state, move)
        for _ in range(self.horizon):
            if is_over(state) or state.hand_number != hand_number:
                break
            state = apply(state, rollout_move(state, self.rng))
        if state.hand_number != hand_number or is_over(state):
            results = state.last_hand or ()
            if len(results) > side:
                mine = results[side]["total"]
                others = [x["total"] for i, x in enumerate(results) if i != side]
                return float(mine - max(others, default=0))
        return evaluate(state, side)


__all__ = ["SearchPlayer"]
