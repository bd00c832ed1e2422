"""The rummy family's greedy and heuristic players (``players`` names and makes them): ``greedy`` melds and
lays off the most points it can, takes from the pile when the chosen card makes a meld worth more than the
burden of the cards above it, and discards its least useful card; ``heuristic`` plans its takes and discards
further. ``Seen`` is what they read of a view, as card numbers (the search player, ``rummy.search``, reads
its sampled positions the same way)."""

from __future__ import annotations

from typing import Any

from ...canasta.cards import JOKER, parse_card, rank_of
from ...rummy.generate import meld_candidates
from ...rummy.melds import Meld, card_points, lay_off_end
from ...rummy.moves import DEALER_JOKER, RummyMove
from ...rummy.presets import rules_of_view
from ...rummy.rules import RummyRules
from ...rummy.sampling import knowledge, meld_of
from .. import Player


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
        bonus = [m for m in legal if m.action == DEALER_JOKER]  # a free card
        if bonus:
            return bonus[0]
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


def _greedy_meld_points(r: RummyRules, cards: list[int]) -> tuple[int, list[int]]:
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


class Seen:
    """What the heuristic reads, as card numbers: built from a seat's view (``from_view``) or, inside the
    search player's sampled positions, straight from the sampled state (``rummy.search``)."""

    __slots__ = ("hand", "held", "melds", "opponent_min", "pile", "r", "stock")

    def __init__(self, r: RummyRules, hand: list[int], pile: list[int], melds: list[Meld], stock: int,
                 opponent_min: int, held: list[int]) -> None:
        self.r = r
        self.hand = hand
        self.pile = pile
        self.melds = melds
        self.stock = stock
        self.opponent_min = opponent_min  # the fewest cards an opponent holds
        self.held = held  # cards opponents are known to hold (taken from the pile, not played yet)

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Seen:
        r = rules_of_view(view)
        seat = view["seat"]
        sizes = view["hand_sizes"]
        others = [i for i in range(r.players) if r.side_of(i) != r.side_of(seat)]
        know = knowledge(r, view["history"])
        return cls(r, _cards(view["hand"]), _cards(view["pile"]), [meld_of(m) for m in view["melds"]],
                   int(view["stock"]), min((sizes[i] for i in others), default=99),
                   [c for i in others for c in know.held[i]])


def _fits_melds(r: RummyRules, card: int, melds: list[Meld]) -> bool:
    """Could ``card`` be laid off on a meld on the table (so discarding it feeds the next player)?"""
    return any(lay_off_end(r, m, card) for m in melds)


class RummyHeuristicPlayer(RummyGreedyPlayer):
    """The greedy player with a sense of the pile and of the end of the hand. It takes from the pile when
    the melds it can then lay down grow by more than the cards it would be left holding cost; early in a
    500 Rum hand a held card is an asset (more to meld later, less for the next player), near the end -
    an opponent down to a few cards, or the stock nearly gone - it is the debt it will be scored. It
    discards neither a card that fits a meld on the table nor one that connects with cards an opponent is
    known to hold (taken from the pile), and near the end it sheds its highest cards first."""

    name = "heuristic"
    # How much a card left in hand weighs against the melds a take makes possible. Negative early in 500 Rum
    # (tuned with ``python -m canasta.play.strength``: -0.3 to -1.0 all gave +59 points a deal against random,
    # +0.5 gave +44); at the end of the hand a held card costs its points.
    burden_weight = -0.5
    late_weight = 1.0
    late_cards = 3  # an opponent holding this many cards or fewer may go out soon
    late_stock = 6
    # A card's points against its connections to the hand (a pair counts 8) when choosing the discard.
    # Negative: the low card goes before a high one even if it connects a little, since a high card melded
    # later scores more and a low discard gives the next player little (tuned the same way: on 300 deals
    # against greedy +0.8, shedding high cards first, scored -3.6 a deal; -0.4 +14.8; -1.6 to -100 about +24).
    point_weight = -2.0
    late_point_weight = -2.0
    # Basic Rummy pays the winner every card left in the other hands: there the high card goes first
    # (150 deals against greedy: -2.0 scored -5.9 a deal, +0.8 -1.3).
    paid_point_weight = 0.8
    avoid_feeding = True

    def choose(self, view: dict[str, Any], legal: list[RummyMove]) -> RummyMove:  # type: ignore[override]
        return self.decide(Seen.from_view(view), legal)

    def late(self, seen: Seen) -> bool:
        return seen.opponent_min <= self.late_cards or seen.stock <= self.late_stock

    def decide(self, seen: Seen, legal: list[RummyMove]) -> RummyMove:
        r = seen.r
        if legal[0].action == "nominate":
            return self.nominate(seen, legal)
        block = self.block(seen, legal)
        if block is not None:
            return block
        for move in legal:
            # The dealer's joker is a free wild card on top of his draw, gone once another player melds a
            # joker; late in the hand it may be caught in hand, where it costs its points.
            if move.action == DEALER_JOKER and not self.late(seen):
                return move
        plays = [m for m in legal if m.action in ("meld", "lay")]
        if plays:
            return max(plays, key=lambda m: (sum(card_points(r, c) for c in m.cards), len(m.cards), str(m)))
        takes = [m for m in legal if m.action in ("take", "split")]
        can_draw = any(m.action == "draw" for m in legal)
        if takes:
            best = max(takes, key=lambda m: self.take_score(seen, m))
            if self.take_score(seen, best) > 0 or not can_draw:
                return best
        if can_draw:
            return RummyMove("draw")
        discards = [m for m in legal if m.action == "discard"]
        if discards:
            return min(discards, key=lambda m: self.discard_cost(seen, m))
        return legal[0]

    def nominate(self, seen: Seen, legal: list[RummyMove]) -> RummyMove:
        """Dealer's Gambit: "double" when the dealer holds a set of three or more to lay his joker over (a set
        doubled at once), else "wild" (a wild card fits any meld); "split" is left alone (its worth hangs on
        a pile that is not there yet)."""
        ranks: dict[int, set[int]] = {}
        for c in seen.hand:
            if c != JOKER:
                ranks.setdefault(rank_of(c), set()).add(c & 3)
        effect = "double" if any(len(suits) >= 3 for suits in ranks.values()) else "wild"
        return next((m for m in legal if m.on == effect), legal[0])

    def block(self, seen: Seen, legal: list[RummyMove]) -> RummyMove | None:
        """Dealer's Gambit: a joker that doubles or splits has narrow uses; while it has none this turn, it is
        worth more laid over the dealer's, which he would otherwise take into his hand. A wild joker is kept."""
        move = next((m for m in legal if m.action == "block"), None)
        if move is None or seen.r.joker_effect == "wild":
            return None
        uses = any(m.action == "split" or (m.action in ("meld", "lay") and JOKER in m.cards) for m in legal)
        return None if uses else move

    def take_score(self, seen: Seen, move: RummyMove) -> float:
        """How much better taking from the pile (``take CARD``, or a joker's ``split CARD [to END]``) looks
        than drawing (``draw`` scores 0)."""
        if move.action not in ("take", "split"):
            return 0.0
        r = seen.r
        hand = seen.hand
        card = move.cards[0]
        pile = seen.pile
        i = len(pile) - 1 - pile[::-1].index(card)
        coming = pile[i:]
        if move.action == "split":  # the card and what lies above the split's end; the joker goes
            j = len(pile) - 1 if len(move.cards) == 1 else len(pile) - 1 - pile[::-1].index(move.cards[1])
            coming = [card, *pile[j + 1:]]
            hand = list(hand)
            hand.remove(JOKER)
        if r.taken_card == "keep":
            return float(3 * _usefulness(card, hand) - 5)
        base, base_left = _greedy_meld_points(r, seen.hand)
        gained, left = _greedy_meld_points(r, hand + coming)
        burden = sum(card_points(r, c) for c in left) - sum(card_points(r, c) for c in base_left)
        # Basic Rummy: whatever is left in hand when someone goes out is paid in full.
        late = r.scoring == "winner_takes_all" or self.late(seen)
        weight = self.late_weight if late else self.burden_weight
        return (gained - base) - weight * burden

    def discard_cost(self, seen: Seen, move: RummyMove) -> tuple[bool, float, str]:
        """The heuristic discards the move with the smallest cost: first a card that feeds nobody, then the
        one least connected to its hand."""
        r = seen.r
        c = move.cards[0]
        if r.scoring == "winner_takes_all":
            weight = self.paid_point_weight
        else:
            weight = self.late_point_weight if self.late(seen) else self.point_weight
        feeds = _fits_melds(r, c, seen.melds) or (self.avoid_feeding and _usefulness(c, seen.held) >= 2)
        return (feeds, 4 * _usefulness(c, seen.hand) - weight * card_points(r, c), str(move))
