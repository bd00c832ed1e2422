"""The greedy player: simple rules of thumb, no look-ahead, no memory between turns.

* Answers ``yes`` when the partner asks to go out; asks when its side has a canasta and the hand
  looks nearly meldable.
* Draw phase: takes the pile whenever it may (using the fewest wild cards), else draws.
* Play phase: melds what it can, natural cards first and the moves that use most cards or finish a
  canasta; wild cards go only where they finish a canasta, unless the side has a canasta already
  (then it melds everything to go out) or it is opening and still short of the minimum count.
* Discards its least useful card: black threes first, then singletons of ranks no opponent has melded,
  low values first; never a wild card unless nothing else is left.

Everything it knows comes from the view and the legal moves.
"""

from __future__ import annotations

import random
from typing import Any

from ..canasta.cards import JOKER_RANK, RANK_VALUE, THREE, TWO, parse_card, rank_of
from ..canasta.melds import is_sequence_key, key_rank, parse_key
from ..canasta.moves import ASK, DRAW, LAYOUT, PASS, WITHDRAW, YES, Move
from . import Player, rules_of
from .penalties import safe_moves, shed_bonus

WILD_RANKS = (JOKER_RANK, TWO)


def _rank_counts(cards: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for text in cards:
        r = rank_of(parse_card(text))
        counts[r] = counts.get(r, 0) + 1
    return counts


def _meld_sizes(side: dict[str, Any]) -> dict[int, int]:
    """Meld sizes by meld key (the rank for a side's first meld of a rank; melds.py)."""
    return {parse_key(m["key"]): len(m["cards"]) for m in side["melds"]}


def _rank_value(key: int) -> int:
    """The card value of a meld key's rank (a sequence: a middling 10)."""
    return 10 if is_sequence_key(key) else RANK_VALUE[key_rank(key)]


class GreedyPlayer(Player):
    name = "greedy"
    lean_views = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # only to escape a stuck opening (see _fallback)
        self.shed: set[int] = set()

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        if YES in legal:  # before reading the rules: an answer needs nothing else from the view
            return YES
        if LAYOUT in legal:  # a three kept for a Straight: this player does not try for one
            return LAYOUT
        rules = rules_of(view)
        legal = safe_moves(rules, view, legal)
        self.shed = {rank for rank in range(15) if shed_bonus(rules, rank, _rank_counts(view["hand"]).get(rank, 0))}
        if view["phase"] == "draw":
            takes = [m for m in legal if m.action == "take"]
            if takes:
                return min(takes, key=lambda m: (m.twos + m.jokers, m.jokers, m.naturals))
            return DRAW if DRAW in legal else PASS if PASS in legal else legal[0]
        return self._play(view, legal)

    # -- play phase ----------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], legal: list[Move]) -> Move:
        seat = view["seat"]
        me = view["sides"][view["side"]]
        rc = _rank_counts(view["hand"])
        sizes = _meld_sizes(me)
        withdrawals = self._withdrawals_this_turn(view["history"], seat)
        if withdrawals >= 2:
            return self._fallback(legal)
        if ASK in legal and self._may_go_out(me, rc, sizes):
            return ASK
        need = me["minimum_needed"]
        staged = view["staged_points"] or 0
        pending = view["pending_pile"] is not None
        opening = need > 0 and staged < need
        melds = [m for m in legal if m.action == "meld"]
        if melds and (not withdrawals or pending):
            if opening and not pending and view["staged_points"] is None \
                    and self._opening_estimate(rc, sizes) < need:
                melds = []  # cannot reach the minimum: do not start staging
            meld_all = (opening or me["canastas"] > 0 or view["permission"] == "yes")
            best = self._best_meld(melds, sizes, meld_all, opening)
            if best is not None:
                return best
        discards = [m for m in legal if m.action == "discard"]
        if discards:
            return self._best_discard(view, discards, rc, sizes)
        if PASS in legal:
            return PASS
        if WITHDRAW in legal and not withdrawals:
            return WITHDRAW
        if melds:
            return max(melds, key=lambda m: (self._points(m), m.cards))
        return self._fallback(legal)

    def _fallback(self, legal: list[Move]) -> Move:
        """Stuck in an opening the greedy order could not complete: wander until it resolves."""
        return self.rng.choice(legal)

    @staticmethod
    def _withdrawals_this_turn(history: list[str], seat: int) -> int:
        count = 0
        for entry in reversed(history):
            who, _, rest = entry.partition(" ")
            action = rest.split(" ", 1)[0]
            if int(who) == seat:
                count += action == "withdraw"
            elif action not in ("yes", "no"):
                break
        return count

    @staticmethod
    def _points(m: Move) -> int:
        return _rank_value(m.rank) * m.naturals + 20 * m.twos + 50 * m.jokers

    @staticmethod
    def _opening_estimate(rc: dict[int, int], sizes: dict[int, int]) -> int:
        """Roughly the most an opening from this hand can count (naturals, pairs with a wild, wilds)."""
        wilds = rc.get(TWO, 0) + rc.get(JOKER_RANK, 0)
        points = 20 * rc.get(TWO, 0) + 50 * rc.get(JOKER_RANK, 0)
        pairs = []
        for rank, n in rc.items():
            if rank in WILD_RANKS or rank == THREE:
                continue
            if n >= 3 or rank in sizes:
                points += n * RANK_VALUE[rank]
            elif n == 2:
                pairs.append(2 * RANK_VALUE[rank])
        for value in sorted(pairs, reverse=True)[:wilds]:
            points += value
        return points

    def _best_meld(self, melds: list[Move], sizes: dict[int, int], meld_all: bool, opening: bool) -> Move | None:
        best: Move | None = None
        best_key: tuple[int, ...] = ()
        for m in melds:
            size0 = sizes.get(m.rank, 0)
            completes = int(size0 < 7 <= size0 + m.cards)
            wilds = m.twos + m.jokers
            key: tuple[int, ...]
            if m.rank == THREE:
                key = (4, m.naturals)  # black threes: only ever legal when going out
            elif wilds == 0:
                key = (3, completes, m.naturals, _rank_value(m.rank))
            elif not (meld_all or completes):
                continue
            elif size0 == 0 and m.cards == 3:
                key = (2, completes, m.naturals, _rank_value(m.rank), -wilds, m.jokers if opening else m.twos)
            else:
                key = (1, completes, size0 + m.naturals, -wilds if completes else wilds,
                       m.jokers if opening else m.twos)
            if best is None or key > best_key:
                best, best_key = m, key
        return best

    @staticmethod
    def _may_go_out(me: dict[str, Any], rc: dict[int, int], sizes: dict[int, int]) -> bool:
        """A rough look: a canasta on the table and at most one card that fits no meld."""
        if me["canastas"] < 1:
            return False
        stray = 0
        wilds = rc.get(TWO, 0) + rc.get(JOKER_RANK, 0)
        for rank, n in rc.items():
            if rank in WILD_RANKS:
                continue
            if rank == THREE:
                stray += n if n < 3 else 0
            elif rank not in sizes and n < 3:
                if n == 2 and wilds:
                    wilds -= 1
                else:
                    stray += n
        return stray <= 1

    def _best_discard(self, view: dict[str, Any], discards: list[Move], rc: dict[int, int],
                      sizes: dict[int, int]) -> Move:
        opponents: set[int] = set()
        for i, side in enumerate(view["sides"]):
            if i != view["side"]:
                opponents.update(_meld_sizes(side))

        def cost(m: Move) -> int:
            rank = m.rank
            if rank == 1:  # a red three held (Hand and Foot): costly in hand, and it stops the next player
                return -2_000
            value = RANK_VALUE[rank]
            if rank in WILD_RANKS:
                return 10_000 + value
            if rank == THREE:
                return -1_000  # stops the next player and is worth nothing in hand
            c = value + 100 * (rc.get(rank, 1) - 1)
            if rank in sizes:
                c += 300
            if rank in opponents:
                c += 500
            if rank in self.shed:  # three or more of a penalised rank in hand (Modern American)
                c -= 1_000
            return c

        return min(discards, key=cost)
