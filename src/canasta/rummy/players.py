"""Computer players for the rummy family. ``random`` is Canasta's own random player (it needs nothing but
the legal moves); ``greedy`` melds and lays off the most points it can, takes from the pile when the chosen
card makes a meld worth more than the burden of the cards above it, and discards its least useful card.
A player sees only its seat's view (``canasta.view``) and the legal moves, never the state."""

from __future__ import annotations

from typing import Any

from ..bots import Player
from ..bots.random_player import RandomPlayer
from ..cards import parse_card, rank_of
from .generate import meld_candidates
from .melds import card_points
from .moves import RummyMove
from .presets import rummy_key, rummy_rules
from .rules import RummyRules

_RULES: dict[str, RummyRules] = {}


def rules_of_view(view: dict[str, Any]) -> RummyRules:
    spec = view["rules"]
    key = repr(sorted(spec["options"].items())) + spec["variant"]
    r = _RULES.get(key)
    if r is None:
        name = rummy_key(spec["variant"])
        if name is None:
            raise ValueError(f"{spec['variant']!r} is not a rummy variant")
        r = _RULES[key] = rummy_rules(name, dict(spec["options"]))
    return r


def _cards(texts: list[str]) -> list[int]:
    return [int(parse_card(t)) for t in texts]


def _usefulness(card: int, hand: list[int]) -> int:
    """How many hand cards could meld with ``card``: same rank, or the same suit one or two away."""
    score = 0
    for other in hand:
        if other == card:
            continue
        if rank_of(other) == rank_of(card):
            score += 2
        elif other & 3 == card & 3 and abs(rank_of(other) - rank_of(card)) <= 2:
            score += 3 - abs(rank_of(other) - rank_of(card))
    return score


class RummyGreedyPlayer(Player):
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[RummyMove]) -> RummyMove:  # type: ignore[override]
        r = rules_of_view(view)
        hand = _cards(view["hand"])
        plays = [m for m in legal if m.action in ("meld", "lay")]
        if plays:
            return max(plays, key=lambda m: (sum(card_points(r, c) for c in m.cards), len(m.cards), str(m)))
        takes = [m for m in legal if m.action == "take"]
        if takes:
            pile = _cards(view["pile"])
            best_take: RummyMove | None = None
            best_gain = 0.0
            for m in takes:
                card = m.cards[0]
                i = len(pile) - 1 - pile[::-1].index(card)
                above = pile[i:]
                melds = [c for c in meld_candidates(r, tuple(sorted(hand + above))) if card in c]
                gain = float(max((sum(card_points(r, c) for c in meld) for meld in melds), default=0))
                if r.taken_card == "keep" and not melds:
                    gain = -1
                burden = sum(card_points(r, c) for c in above if c != card) * (0.3 if r.scoring != "winner_takes_all"
                                                                                else 1.0)
                if r.scoring == "table_minus_hand":
                    gain += sum(card_points(r, c) for c in above if c != card) * 0.2  # more cards to meld later
                score = gain - burden
                if score > best_gain:
                    best_take, best_gain = m, score
            if best_take is not None or not any(m.action == "draw" for m in legal):
                return best_take or takes[0]
        if any(m.action == "draw" for m in legal):
            return RummyMove("draw")
        discards = [m for m in legal if m.action == "discard"]
        if discards:
            return min(discards, key=lambda m: (_usefulness(m.cards[0], hand), -card_points(r, m.cards[0]), str(m)))
        return legal[0]


def rummy_player_names() -> list[str]:
    return ["greedy", "heuristic", "random"]


def make_rummy_player(name: str, seed: int | None = None) -> Player:
    """A computer player for the rummy family by name: ``random``, ``greedy``, ``heuristic``; the levels
    ``easy`` (greedy) and ``medium`` / ``hard`` / ``expert`` (heuristic: no search player for rummy yet)."""
    key = name.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key in ("greedy", "easy"):
        return RummyGreedyPlayer(seed)
    if key in ("heuristic", "medium", "hard", "expert"):
        return RummyHeuristicPlayer(seed)
    raise ValueError(f"unknown rummy player {name!r}; valid players: {', '.join(rummy_player_names())}")


def _greedy_meld_points(r: RummyRules, cards: list[int], table: list[dict[str, Any]]) -> tuple[int, list[int]]:
    """Points of melds laid greedily (the biggest first) from ``cards``, and the cards left over."""
    left = sorted(cards)
    total = 0
    while True:
        options = meld_candidates(r, tuple(left))
        if not options:
            break
        best = max(options, key=lambda m: (sum(card_points(r, c) for c in m), len(m)))
        total += sum(card_points(r, c) for c in best)
        for c in best:
            left.remove(c)
    return total, left


def _fits_table(r: RummyRules, card: int, view: dict[str, Any]) -> bool:
    """Could ``card`` be laid off on a meld on the table (so discarding it feeds the next player)?"""
    from .melds import Meld, lay_off_end, meld_kind

    for m in view["melds"]:
        cards = tuple(_cards(m["cards"]))
        kind = meld_kind(r, cards)
        if kind is None:
            continue
        meld = Meld(kind[0], kind[2], tuple(m["seats"]), tuple(m["points"]), kind[1])
        if lay_off_end(r, meld, card):
            return True
    return False


class RummyHeuristicPlayer(RummyGreedyPlayer):
    """The greedy player with a sense of the pile: it takes from the pile whenever the melds it can then lay
    down grow (in 500 Rum the more cards the better), and it does not discard a card that fits a meld on the
    table while it has another."""

    name = "heuristic"
    # How much a held card's points weigh against the melds a take makes possible. Negative in 500 Rum: more
    # cards in hand meant more to meld and fewer for the next player (docs/strength.md, "The rummy family":
    # -0.3 to -1.0 all gave +59 points a deal against random, +0.5 gave +44).
    burden_weight = -0.5

    def choose(self, view: dict[str, Any], legal: list[RummyMove]) -> RummyMove:  # type: ignore[override]
        r = rules_of_view(view)
        hand = _cards(view["hand"])
        plays = [m for m in legal if m.action in ("meld", "lay")]
        if plays:
            return max(plays, key=lambda m: (sum(card_points(r, c) for c in m.cards), len(m.cards), str(m)))
        takes = [m for m in legal if m.action == "take"]
        can_draw = any(m.action == "draw" for m in legal)
        if takes:
            base, base_left = _greedy_meld_points(r, hand, view["melds"])
            best: RummyMove | None = None
            best_score = 0.0
            pile = _cards(view["pile"])
            for m in takes:
                card = m.cards[0]
                i = len(pile) - 1 - pile[::-1].index(card)
                gained, left = _greedy_meld_points(r, hand + pile[i:], view["melds"])
                burden = sum(card_points(r, c) for c in left) - sum(card_points(r, c) for c in base_left)
                weight = 1.0 if r.scoring == "winner_takes_all" else self.burden_weight
                score = (gained - base) - weight * burden
                if r.taken_card == "keep":
                    score = (gained - base) + 3 * _usefulness(card, hand) - 5
                if score > best_score:
                    best, best_score = m, score
            if best is not None or not can_draw:
                return best or takes[0]
        if can_draw:
            return RummyMove("draw")
        discards = [m for m in legal if m.action == "discard"]
        if discards:
            def cost(m: RummyMove) -> tuple[bool, int, int, str]:
                c = m.cards[0]
                return (_fits_table(r, c, view), _usefulness(c, hand), -card_points(r, c), str(m))

            return min(discards, key=cost)
        return legal[0]
