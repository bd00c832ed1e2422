"""The rummy search player: the heuristic player, checked by determinized play-outs.

At a decision where look-ahead pays (draw or take from the pile, and which card; which card to discard) it
takes the heuristic's move and its best alternatives (``candidates`` in all). It then samples the cards it
cannot see (``rummy.sampling.determinize``: every pile card is public, the cards others took from the pile
are known to be in their hands, the rest is dealt at random), plays each candidate in that sample and lets
heuristic players go on for ``horizon`` moves or to the end of the hand, and scores the hand as it then
stands (own side less the best other side). Every candidate is played on the same samples, so their
differences are paired; it leaves the heuristic's move only when an alternative's mean gain is more than
``margin`` standard errors above zero. Melds and lay-offs follow the heuristic (in the rummy family laying
down at once is nearly always right: a card on the table scores, a card in hand may cost). It sees only the
view; the sampled positions hold no real hidden card.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...rummy.api import apply, legal_moves
from ...rummy.melds import hand_points
from ...rummy.moves import RummyMove
from ...rummy.presets import rules_of_view
from ...rummy.sampling import determinize, knowledge
from ...rummy.scoring import hand_lines
from ...rummy.state import OVER, RummyState
from .. import Player
from ..paired import best_alternative
from .heuristic import RummyHeuristicPlayer, Seen

MIN_SAMPLES = 4  # never leave the heuristic's move on fewer samples than this


def seen_of_state(state: RummyState) -> Seen:
    """The heuristic's reading of a sampled position for the seat to move (inside play-outs only)."""
    r = state.rules
    seat = state.turn_seat
    side = r.side_of(seat)
    sizes = [len(h) for i, h in enumerate(state.hands) if r.side_of(i) != side]
    return Seen(r, list(state.hands[seat]), list(state.pile), list(state.melds), len(state.stock),
                min(sizes, default=99), [])


def standing(state: RummyState, side: int) -> float:
    """The hand scored as it stands, nobody going out: own side less the best other side. Where the winner
    takes all (Basic Rummy) nobody has scored before someone goes out, so the cards each side holds stand
    in: the best other side's points in hand less one's own (what going out would win, and what losing
    would pay). Scored as 0, every unfinished play-out looked alike and the search chose by noise."""
    r = state.rules
    if r.scoring == "winner_takes_all":
        held = [0] * r.teams
        for seat, hand in enumerate(state.hands):
            held[r.side_of(seat)] += hand_points(r, hand)
        return max((h for i, h in enumerate(held) if i != side), default=0) - held[side]
    table = [0] * r.players
    for m in state.melds:
        for seat, pts in zip(m.seats, m.points, strict=True):
            table[seat] += pts
    lines = hand_lines(r, table, state.hands, None, False, False)
    totals = [sum(line.values()) for line in lines]
    return totals[side] - max((t for i, t in enumerate(totals) if i != side), default=0)


def ended(summary: dict[str, Any], side: int) -> float:
    totals = [float(s["total"]) for s in summary["sides"]]
    return totals[side] - max((t for i, t in enumerate(totals) if i != side), default=0)


class RummySearchPlayer(Player):
    name = "search"

    def __init__(self, seed: int | None = None, samples: int = 8, seconds: float | None = None,
                 candidates: int = 3, horizon: int = 20, margin: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.seconds = seconds
        self.candidates = candidates
        self.horizon = horizon
        self.margin = margin
        self.policy = RummyHeuristicPlayer(seed)
        self.last_reason: str | None = None

    def choose(self, view: dict[str, Any], legal: list[RummyMove]) -> RummyMove:  # type: ignore[override]
        seen = Seen.from_view(view)
        base = self.policy.decide(seen, legal)
        self.last_reason = f"the heuristic's move ({base})"
        self.last_why = ()
        options = self.alternatives(seen, legal, base)
        if len(options) < 2:
            return base
        r = rules_of_view(view)
        know = knowledge(r, view["history"])
        side = r.side_of(view["seat"])
        gains: list[list[float]] = [[] for _ in options]
        start = time.process_time()
        for n in range(self.samples):
            try:
                sample = determinize(r, view, self.rng, know)
                values = [self.playout(apply(sample, m), side) for m in options]
            except ValueError:  # (IllegalMove is one) a table the sampler cannot read: trust the heuristic
                return base
            for i, v in enumerate(values):
                gains[i].append(v - values[0])
            if self.seconds is not None and n + 1 >= MIN_SAMPLES and time.process_time() - start > self.seconds:
                break
        pick, best_gain, _ = best_alternative(gains[1:], self.margin, MIN_SAMPLES)
        best = 1 + pick
        if best:
            self.last_reason = (f"{options[best]} scored {best_gain:+.1f} points a hand better than {base} "
                                f"over {len(gains[best])} sampled deals")
            self.last_why = (("better_by_points", round(best_gain)), ("sampled_deals", len(gains[best])))
        else:
            self.last_why = (("no_better_in_deals", min(len(g) for g in gains[1:])),)
        return options[best]

    def alternatives(self, seen: Seen, legal: list[RummyMove], base: RummyMove) -> list[RummyMove]:
        """The heuristic's move first, then the alternatives worth a look (at most ``candidates`` in all)."""
        if base.action in ("draw", "take", "split"):
            pool = [m for m in legal if m.action in ("draw", "take", "split")]
            ranked = sorted(pool, key=lambda m: -self.policy.take_score(seen, m))
        elif base.action == "discard":
            pool = [m for m in legal if m.action == "discard"]
            ranked = sorted(pool, key=lambda m: self.policy.discard_cost(seen, m))
        else:
            return [base]
        out = [base]
        for m in ranked:
            if len(out) >= self.candidates:
                break
            if m != base:
                out.append(m)
        return out

    def playout(self, state: RummyState, side: int) -> float:
        """Heuristic players for every seat from ``state``; the hand's score (or the standing after
        ``horizon`` moves) for ``side``."""
        hand_number = state.hand_number
        for _ in range(self.horizon):
            if state.hand_number != hand_number or state.phase == OVER:
                assert state.last_hand is not None
                return ended(state.last_hand, side)
            legal = legal_moves(state)
            state = apply(state, self.policy.decide(seen_of_state(state), legal))
        if state.hand_number != hand_number or state.phase == OVER:
            assert state.last_hand is not None
            return ended(state.last_hand, side)
        return standing(state, side)
