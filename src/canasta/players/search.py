"""Search player: the heuristic player, checked by determinized Monte Carlo (issue "Strong computer players").

For each decision it asks the heuristic player (``canasta.players.heuristic``) for its move and, when
the decision is one where look-ahead pays (take the pile or draw; which card to discard; the
partner's yes or no), a few alternatives. Then it repeatedly samples the cards it cannot see
(``canasta.canasta.sampling.determinize``, which keeps every card known from the public history), plays each
candidate in that sample, and lets heuristic players finish the hand, or stops after ``horizon``
moves and scores the table. Every candidate is played on the same samples, so their differences are
paired. It plays an alternative only when its mean gain over the heuristic's move is more than
``margin`` standard errors above zero: without evidence it trusts the heuristic. Melds follow the
heuristic. It stops on its budget: ``seconds`` of thinking or ``iterations`` samples per decision.
It sees only the view; the sampled positions hold no real hidden card.
"""

from __future__ import annotations

import gc
import random
import time
from typing import Any, Final

from ..canasta.cards import cards_of
from ..canasta.engine import apply, is_over, legal_moves
from ..canasta.moves import DRAW, Move
from ..canasta.sampling import Sampler
from ..canasta.scoring import score_side
from ..canasta.state import State
from ..canasta.view import LeanView
from . import Player
from .heuristic import HeuristicPlayer, take_cost_key
from .paired import best_alternative

CANDIDATES: Final = 2  # the heuristic's move and its best alternative: more samples each than with more moves
MIN_SAMPLES: Final = 4  # never deviate from the heuristic on fewer samples than this


def rollout_view(state: State, seat: int) -> LeanView:
    """What ``seat`` sees in a play-out: a lean view (``canasta.view.LeanView``), built field by field as
    the heuristic player reads it, by the same builder as ``canasta.view`` (so the two cannot disagree).

    For play-outs inside a sampled position only (the sample is the searcher's own guess, so nothing
    hidden leaks); players in real games get the full ``canasta.view``."""
    return LeanView(state, seat)


def evaluate(state: State, side: int) -> float:
    """The table as it stands: each side's hand score if it ended now (without going out)."""
    r = state.rules
    values = []
    for s in range(r.teams):
        hands = [[*cards_of(state.hands[seat]), *cards_of(state.feet[seat])] for seat in state.seats_of(s)]
        values.append(int(score_side(r, list(state.melds[s].values()), [c for h in hands for c in h],
                                     state.red_threes[s], player_hands=hands)["total"]))
    mine = values[side]
    others = [v for i, v in enumerate(values) if i != side and state.seats_of(i)]
    return mine - max(others, default=0)


def hand_result(state: State, side: int) -> float:
    """Own side's score minus the best other side's in the hand that just ended."""
    results = state.last_hand or ()
    if len(results) <= side:
        return 0.0
    others = [x["total"] for i, x in enumerate(results) if i != side]
    return float(results[side]["total"] - max(others, default=0))


class SearchPlayer(Player):
    name = "search"

    def __init__(self, seed: int | None = None, seconds: float | None = 0.1, iterations: int | None = None,
                 horizon: int = 40, margin: float = 2.0, candidates: int = CANDIDATES) -> None:
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.horizon = horizon
        self.margin = margin
        self.max_candidates = candidates
        self.guide = HeuristicPlayer(seed)
        self.last_reason = ""

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        guided = self.guide.choose(view, legal)
        candidates = self.candidates(view, legal, guided)
        why = self.guide.last_why  # (built locally: mypyc compiles this class, not Player, which declares it)
        self.last_why = why
        if len(candidates) < 2:
            self.last_reason = "the heuristic player's move (nothing to search)"
            return guided
        gains, samples = self.search(view, candidates)
        pick, best_gain, best_se = best_alternative([gains[m] for m in candidates[1:]], self.margin, MIN_SAMPLES)
        best = guided if pick < 0 else candidates[1 + pick]
        if best == guided:
            self.last_reason = f"the heuristic player's move; no alternative did better over {samples} sampled deals"
            self.last_why = (*why, ("no_better_in_deals", samples))
        else:
            self.last_reason = (f"{best_gain:+.0f} points (± {best_se:.0f}) over the heuristic's {guided} "
                                f"in {samples} sampled deals")
            self.last_why = (("better_by_points", round(best_gain)), ("sampled_deals", samples))
        return best

    def candidates(self, view: dict[str, Any], legal: list[Move], guided: Move) -> list[Move]:
        """The heuristic's move first, then the alternatives worth a look (none for melds)."""
        phase = view["phase"]
        if phase == "answer":
            others = [m for m in legal if m != guided]
        elif phase == "draw":
            takes = [m for m in legal if m.action == "take"]
            if guided.action == "take":
                others = [DRAW] if DRAW in legal else []
            else:  # the take the heuristic would make if it took
                others = [max(takes, key=take_cost_key)] if guided == DRAW and takes else []
        elif guided.action == "discard":
            others = [m for m in self.guide.ranked_discards(view, legal) if m != guided]
        else:
            others = []
        return [guided, *others][:self.max_candidates]

    def search(self, view: dict[str, Any], candidates: list[Move]) -> tuple[dict[Move, list[float]], int]:
        """Per alternative, its result minus the heuristic move's in each sample; and the sample count.

        The cyclic garbage collector is paused meanwhile: play-outs allocate many short-lived objects and
        make next to no reference cycles, so its runs (which also walk the players' and views' long-lived
        caches) find next to nothing; without them a compiled search ran 1.0 to 1.7 times as fast in
        alternating runs. It is put back as it was on the way out, and collects what cycles there are then."""
        was_on = gc.isenabled()
        gc.disable()
        try:
            return self._search(view, candidates)
        finally:
            if was_on:
                gc.enable()

    def _search(self, view: dict[str, Any], candidates: list[Move]) -> tuple[dict[Move, list[float]], int]:
        seat = view["seat"]
        gains: dict[Move, list[float]] = {m: [] for m in candidates[1:]}
        start = time.perf_counter()
        samples = 0
        sampler = Sampler(view)  # the view read once; each sample only deals the hidden cards
        while True:
            if self.iterations is not None and samples >= self.iterations:
                break
            if self.iterations is None and samples and time.perf_counter() - start >= (self.seconds or 0.0):
                break
            world = sampler.sample(self.rng)
            seed = self.rng.randrange(2**31)
            base = self.playout(world, candidates[0], seat, seed)
            for move in candidates[1:]:
                gains[move].append(self.playout(world, move, seat, seed) - base)
            samples += 1
        return gains, samples

    def playout(self, state: State, move: Move, seat: int, seed: int) -> float:
        """Play ``move``, then heuristic players to the end of the hand or ``horizon`` moves."""
        side = state.side_of(seat)
        hand_number = state.hand_number
        players = [HeuristicPlayer(seed + s) for s in range(state.rules.players)]
        sampled = rollout_view(state, seat)  # the sample's history is the guide's view's, entry for entry
        for player in players:  # the memory of the hand is public knowledge: start from the guide's
            player.memory = self.guide.memory.copy()
            player.memory.read_up_to(sampled)
        state = apply(state, move)
        for _ in range(self.horizon):
            if is_over(state) or state.hand_number != hand_number:
                return hand_result(state, side)
            who = state.to_move
            state = apply(state, players[who].choose(rollout_view(state, who), legal_moves(state)))
        if is_over(state) or state.hand_number != hand_number:
            return hand_result(state, side)
        return evaluate(state, side)


__all__ = ["SearchPlayer", "evaluate", "rollout_view"]
