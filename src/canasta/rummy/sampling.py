"""What a rummy seat knows about the cards it cannot see, and positions sampled consistently with it.

In the rummy family the pile is spread (every pile card is public) and a card taken from the pile is seen
by everyone, so a seat knows, besides its own hand, the cards each other player took from the pile and
still holds. After Basic Rummy's reshuffle the new stock is the old pile turned over, unshuffled, so its
order is known too. ``knowledge`` replays the hand's public history to find those cards; ``determinize``
deals the rest of the cards at random to the other hands and the stock. The search player plays its
candidate moves out on such samples; the sample is its own guess, so nothing hidden leaks.
"""

from __future__ import annotations

import random
from typing import Any

from ..canasta.cards import JOKER, parse_card, rank_of
from .deal import pack_of
from .melds import ACE, Meld
from .rules import RummyRules
from .state import RummyState


class Knowledge:
    """Public facts replayed from one hand's history: ``held[seat]`` (cards seen going into that seat's
    hand and not yet played), ``stock_top`` (the known part of the stock, the top last; empty unless the
    pile was turned over) and ``melded`` (seats that melded or laid off on an earlier turn)."""

    __slots__ = ("held", "last_seat", "melded", "stock_top", "turn_melded")

    def __init__(self, players: int) -> None:
        self.held: list[list[int]] = [[] for _ in range(players)]
        self.stock_top: list[int] = []
        self.melded = [False] * players
        self.turn_melded = False  # the seat of the last entry melded or laid off in its turn so far
        self.last_seat = -1


def _card(word: str) -> int:
    return int(parse_card(word))


def knowledge(r: RummyRules, history: list[str] | tuple[str, ...]) -> Knowledge:
    """Replay ``history`` (one hand's entries, ``"SEAT MOVE"``). Entries it does not know are skipped: the
    sampler checks the card counts afterwards and falls back to knowing less when they do not add up."""
    k = Knowledge(r.players)
    pile: list[int] = []
    for entry in history:
        words = entry.split()
        if len(words) < 2 or not words[0].isdigit():
            continue
        seat, action, rest = int(words[0]), words[1], words[2:]
        if not 0 <= seat < r.players:
            continue
        if seat != k.last_seat and k.last_seat >= 0 and k.turn_melded:
            k.melded[k.last_seat] = True
        if seat != k.last_seat:
            k.turn_melded = False
        try:
            if action == "upcard" and rest:
                pile = [_card(rest[0])]
                continue  # the dealer's entry: not a turn
            k.last_seat = seat
            if action == "discard" and rest:
                card = _card(rest[0])
                pile.append(card)
                _drop(k.held[seat], card)
            elif action == "take" and rest and rest[0] == "dealer":  # Dealer's Gambit: his joker, face up
                k.held[seat].append(JOKER)
            elif action == "block":
                _drop(k.held[seat], JOKER)
            elif action == "split" and rest:  # the chosen card and the cards above the split's end
                card = _card(rest[0])
                if card in pile:
                    i = len(pile) - 1 - pile[::-1].index(card)
                    end = _card(rest[2]) if len(rest) == 3 else pile[-1]
                    j = len(pile) - 1 - pile[::-1].index(end) if end in pile[i + 1:] else len(pile) - 1
                    _drop(k.held[seat], JOKER)
                    k.held[seat].extend([card, *pile[j + 1:]])
                    del pile[i:]
            elif action == "take" and rest:
                card = _card(rest[0])
                if card in pile:
                    i = len(pile) - 1 - pile[::-1].index(card)
                    k.held[seat].extend(pile[i:])
                    del pile[i:]
            elif action == "draw":
                for _ in range(min(r.draw_count, len(k.stock_top))):
                    k.held[seat].append(k.stock_top.pop())
            elif action in ("meld", "lay"):
                cards = rest[:rest.index("on")] if "on" in rest else rest
                for w in cards:
                    _drop(k.held[seat], _card(w))
                k.turn_melded = True
            elif action == "reshuffle":
                k.stock_top = pile[::-1]
                pile = []
        except ValueError:
            continue
    return k


def _drop(cards: list[int], card: int) -> None:
    if card in cards:
        cards.remove(card)


def meld_of(data: dict[str, Any]) -> Meld:
    """A meld of a view (``{"kind", "cards", "seats", "points"}``, a run's cards low to high) as the engine's
    ``Meld``; the cards keep the view's order, which ``seats`` and ``points`` follow."""
    cards = tuple(_card(c) for c in data["cards"])
    kind = data["kind"]
    if kind == "jokers":
        start = 0
    elif kind == "run":  # by its first natural card that is no ace (a joker may stand first, an ace low or high)
        i, card = next((i, c) for i, c in enumerate(cards) if c != JOKER and rank_of(c) != ACE)
        start = rank_of(card) - i
        if start < 1:  # round the corner (ace=around): positions cycle through 1..13
            start += 13
    else:
        start = rank_of(cards[0])
    return Meld(kind, cards, tuple(data["seats"]), tuple(data["points"]), start)


def unseen_pool(r: RummyRules, seen: list[int]) -> list[int] | None:
    """The pack less the cards in ``seen``; None when ``seen`` holds a card more often than the pack."""
    pool = pack_of(r)
    for c in seen:
        if c not in pool:
            return None
        pool.remove(c)
    return pool


def determinize(r: RummyRules, view: dict[str, Any], rng: random.Random,
                know: Knowledge | None = None) -> RummyState:
    """A full position consistent with ``view`` (a seat's view from ``canasta.view``): the seat's own hand,
    the public table, the cards known to be in other hands, the rest dealt at random. ``ValueError`` when
    the view's cards do not add up (a rules option this sampler does not know)."""
    seat = view["seat"]
    n = r.players
    r = r.for_hand(view.get("joker_effect") or "")
    hand = [_card(c) for c in view["hand"]]
    pile = tuple(_card(c) for c in view["pile"])
    aside = tuple(_card(c) for c in view.get("dealers_joker", []))  # Dealer's Gambit: public
    removed = tuple(_card(c) for c in view.get("removed", []))
    melds = [meld_of(m) for m in view["melds"]]
    sizes = list(view["hand_sizes"])
    stock_size = int(view["stock"])
    k = know if know is not None else knowledge(r, view["history"])
    held = [list(h) if i != seat else [] for i, h in enumerate(k.held)]
    stock_top = list(k.stock_top)[-stock_size:] if stock_size else []
    public = [*hand, *pile, *aside, *removed, *(c for m in melds for c in m.cards)]
    pool = unseen_pool(r, [*public, *(c for h in held for c in h), *stock_top])
    if pool is None or any(len(held[i]) > sizes[i] for i in range(n)) or len(stock_top) > stock_size:
        held = [[] for _ in range(n)]  # the replay disagrees with the table: know only what is in sight
        stock_top = []
        pool = unseen_pool(r, public)
        if pool is None:
            raise ValueError("the view holds a card more often than the pack")
    if len(pool) != sum(sizes[i] - len(held[i]) for i in range(n) if i != seat) + stock_size - len(stock_top):
        raise ValueError("the view's card counts do not add up to the pack")
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for i in range(n):
        if i == seat:
            hands.append(tuple(sorted(hand)))
            continue
        extra = sizes[i] - len(held[i])
        hands.append(tuple(sorted([*held[i], *pool[:extra]])))
        del pool[:extra]
    stock = tuple(pool + stock_top)  # the known part on top (the end of the tuple is the top)
    must = view.get("must_use")
    # The view shows "melded" as melded before or in this turn; the engine keeps the two apart (going
    # rummy in Basic Rummy means melding everything in one turn).
    turn_melded = k.turn_melded and k.last_seat == seat
    melded = tuple(bool(view["melded"][i]) if i != seat or not turn_melded else k.melded[i] for i in range(n))
    return RummyState(
        rules=r, seed=rng.randrange(1 << 30), hand_number=int(view["hand_number"]), dealer=int(view["dealer"]),
        scores=tuple(view["scores"]), hands=tuple(hands), stock=stock, pile=pile, melds=tuple(melds),
        turn_seat=seat, phase=view["phase"], must_use=_card(must) if must else -1,
        taken=tuple(_card(c) for c in view["taken"]), melded=melded, turn_melded=turn_melded,
        reshuffles=int(view["reshuffles"]), deal=(), history=(), last_hand=None, result=None, aside=aside,
        claim_from=-1 if view.get("claim_from") is None else int(view["claim_from"]), removed=removed)


__all__ = ["Knowledge", "determinize", "knowledge", "meld_of", "unseen_pool"]
