"""Sampling the hidden cards for search players: a full position consistent with one seat's view.

``determinize(view, rng)`` deals the cards the seat cannot see (the other hands, every foot and the stock) at
random, but keeps what the seat knows: its own hand, the table, the pile, every hand's size, and the
cards each player is known to hold because he took them with the pile and has not played them since
(tracked from the public history). It reads nothing but the view, so a player built on it cannot peek.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Final

from .cards import RED_THREES, THREE, card_str, counts_of, pack, parse_card, parse_rank, rank_of
from .engine import RANK_KINDS
from .moves import token_rank
from .rules import Rules
from .state import State
from .variants import rules as make_rules


def known_in_hands(view: dict[str, Any]) -> dict[int, Counter[int]]:
    """Rank codes each seat is known to hold: cards taken with the pile and not melded or discarded
    since (a lower bound: when the history cannot be followed exactly, less is claimed, never more)."""
    r = view["public_state"]["rules"]
    rules = make_rules(r["variant"], **r["options"])
    limit = rules.pile_take_limit
    bonus_blacks = rules.pile_black_threes == "bonus"
    held_reds = rules.threes_laid_out == "none"  # red threes taken with the pile join the hand
    pile = [rank_of(parse_card(c)) if parse_card(c) not in RED_THREES else 1 for c in view["upcards"]]
    known: dict[int, Counter[int]] = {s: Counter() for s in range(view["players"])}
    for entry in view["history"]:
        who, _, what = entry.partition(" ")
        seat, words = int(who), what.split()
        mine = known[seat]
        if words[0] == "upcard":
            continue
        pile = follow_entry(words, mine, pile, limit, held_reds, bonus_blacks)
    if [rank_of(parse_card(c)) if parse_card(c) not in RED_THREES else 1 for c in view["pile"]] != pile:
        return {s: Counter() for s in known}  # the pile was recycled or the history is partial
    stage = view["public_state"]["stage"]
    if stage is not None and stage["pending"]:  # a pile taken to open lies beside the table until it opens
        taker = known[view["public_state"]["turn_seat"]]
        for c in stage["pending"]:
            rank = rank_of(parse_card(c))
            taker[rank] = max(0, taker[rank] - 1)
    return known


def follow_entry(words: list[str], mine: list[int] | Counter[int], pile: list[int], limit: int, held_reds: bool,
                 bonus_blacks: bool) -> list[int]:
    """One history entry's words (after the seat) applied to the pile, as rank codes, and to what that seat
    is known to hold: a discard joins the pile, a take moves the pile's cards to the hand and spends the
    ones it melds, a meld spends cards. Returns the pile (``mine`` is changed in place)."""
    if words[0] == "discard":
        rank = 1 if _is_red_three(words[1]) else token_rank(words[1]) or 0
        pile.append(rank)
        mine[rank] = max(0, mine[rank] - 1)
    elif words[0] == "take":
        taken = pile[-limit:] if limit and len(pile) > limit else pile
        pile = pile[: len(pile) - len(taken)]
        for rank in taken[:-1]:
            if (rank != 1 or held_reds) and not (bonus_blacks and rank == THREE):
                mine[rank] += 1
        for token in words[1: words.index("on")] if "on" in words else words[1:]:
            rank = parse_rank(token)
            mine[rank] = max(0, mine[rank] - 1)
    elif words[0] == "meld":
        for token in words[1: words.index("on")] if "on" in words else words[1:]:
            rank = token_rank(token) or 0
            mine[rank] = max(0, mine[rank] - 1)
    return pile


def _is_red_three(token: str) -> bool:
    try:
        return parse_card(token) in RED_THREES
    except ValueError:
        return False


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A full State consistent with everything ``view``'s seat knows; the hidden cards are random."""
    return Sampler(view).sample(rng)


class Sampler:
    """``determinize`` for one view, many times: what the view tells is read once (the cards in sight,
    the cards known to be in each hand), and each ``sample(rng)`` only deals the unseen cards. A sample
    is the same as ``determinize(view, rng)`` with the same ``rng``. The view must not change meanwhile."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        d = self.public = view["public_state"]
        self.seat = seat = view["seat"]
        self.rules = rules = _rules(d["rules"])
        pool = counts_of(pack(rules.decks, rules.jokers))
        visible = [*view["hand"], *view["pile"], *(c for side in view["sides"] for c in side["red_threes"]),
                   *(c for m in d["melds"] for cards in m.values() for c in cards),
                   *(c for b in d["black_threes"] for c in b)]
        if d["stage"] is not None and d["stage"]["pending"]:
            visible += d["stage"]["pending"]
        for text in visible:
            pool[parse_card(text)] -= 1
        self.unseen = [c for c in range(53) for _ in range(pool[c])]  # before shuffling, in card order
        self.known = known_in_hands(view)
        self.own_hand = [parse_card(c) for c in view["hand"]]
        self.hidden = [s for s in range(rules.players) if s != seat]
        self.hand_sizes: list[int] = view["hand_sizes"]
        self.foot_sizes: list[int] = view.get("foot_sizes") or [0] * rules.players
        self.held_reds = rules.threes_laid_out == "none"  # Hand and Foot: red threes may be in hands and feet
        # The first sample is read from a position (``State.from_dict``, which checks it); later ones are that
        # state with the dealt parts replaced, the same fields as ``from_dict`` would make of them (reading the
        # whole position again was most of a sample's price). Only where nothing else depends on the deal:
        # no face-down pile cards to fill, no staged opening whose hand is to be rebuilt.
        self.template: State | None = None
        self.reuse = d["pile"].count(None) == 0 and (d["stage"] is None or d["stage"]["hand"] is not None)

    def sample(self, rng: random.Random) -> State:
        """One full State consistent with the view; the hidden cards are dealt at random with ``rng``."""
        rules, seat, hidden, sizes = self.rules, self.seat, self.hidden, self.hand_sizes
        d = {**self.public}
        unseen = list(self.unseen)
        rng.shuffle(unseen)
        left = [0] * 53  # per card kind (lists, not Counters: compiled, a Counter is a generic Python object)
        for c in unseen:
            left[c] = left[c] + 1  # (``x = x + 1``, not ``+=``, here and below: compiled, native int operations)
        hands: list[list[int]] = [[] for _ in range(rules.players)]
        hands[seat] = list(self.own_hand)
        for s in hidden:  # cards known to be in a hand first, as far as the unseen cards still have them
            for rank, count in self.known[s].items():
                for kind in RANK_KINDS[rank]:
                    while count and left[kind] and len(hands[s]) < sizes[s]:
                        hands[s].append(kind)
                        left[kind] = left[kind] - 1
                        count -= 1
        placed = [0] * 53
        for s in hidden:
            for c in hands[s]:
                placed[c] = placed[c] + 1
        rest = []
        for c in unseen:
            if placed[c]:
                placed[c] = placed[c] - 1
            else:
                rest.append(c)
        stock = []
        feet: list[list[int]] = [[] for _ in range(rules.players)]
        foot_sizes = self.foot_sizes
        # the first hidden hand with room, the first foot with room: both only fill up, so each index only
        # moves forward
        t = 0
        while t < len(hidden) and len(hands[hidden[t]]) >= sizes[hidden[t]]:
            t += 1
        f = 0
        while f < rules.players and len(feet[f]) >= foot_sizes[f]:
            f += 1
        for c in rest:  # deal the rest at random; laid-out red threes are never held, so they stay in the stock
            if c in RED_THREES and not self.held_reds:
                stock.append(c)
            elif t < len(hidden):
                target = hidden[t]
                hands[target].append(c)
                while t < len(hidden) and len(hands[hidden[t]]) >= sizes[hidden[t]]:
                    t += 1
            elif f < rules.players:  # every foot is unknown, the seat's own too
                feet[f].append(c)
                while f < rules.players and len(feet[f]) >= foot_sizes[f]:
                    f += 1
            else:
                stock.append(c)
        if self.template is not None:
            seed = rng.randrange(2**31)
            stock_cards = tuple(stock)
            feet_counts = tuple(tuple(counts_of(f)) for f in feet) if "feet" in d else self.template.feet
            return self.template.replace(hands=tuple(tuple(counts_of(h)) for h in hands), stock=stock_cards,
                                         deal=stock_cards, seed=seed, feet=feet_counts)
        buried = d["pile"].count(None)  # face-down pile cards (Italian): any unseen cards
        d["pile"] = [card_str(stock.pop()) if c is None else c for c in d["pile"]] if buried else d["pile"]
        d["hands"] = [[card_str(c) for c in sorted(h)] for h in hands]
        if "feet" in d:
            d["feet"] = [[card_str(c) for c in sorted(f)] for f in feet]
        d["stock"] = [card_str(c) for c in stock]
        d["deal"] = list(d["stock"])
        d["seed"] = rng.randrange(2**31)
        if d["stage"] is not None and d["stage"]["hand"] is None:
            d["stage"] = {**d["stage"], "hand": _stage_hand(d, hands[d["turn_seat"]])}
        # one rules object for every sample (``from_dict`` makes an equal one each time): the players'
        # caches of what they read from the rules then hold from one sample to the next
        state = State.from_dict(d).replace(rules=rules)
        if self.reuse:
            self.template = state
        return state


_RULES: Final[dict[str, Rules]] = {}


def _rules(spec: dict[str, Any]) -> Rules:
    """The rules a view's spec names, one object per spec."""
    key = json.dumps(spec, sort_keys=True)
    r = _RULES.get(key)
    if r is None:
        if len(_RULES) > 256:
            _RULES.clear()
        r = _RULES[key] = make_rules(spec["variant"], **spec["options"])
    return r


def _stage_hand(d: dict[str, Any], hand: list[int]) -> list[str]:
    """The hand before a staged opening: the hand now plus the cards staged since."""
    side = d["seat_sides"][d["turn_seat"]]
    now = Counter(c for cards in d["melds"][side].values() for c in cards)
    before = Counter(c for cards in d["stage"]["melds"].values() for c in cards)
    staged = [parse_card(c) for c in (now - before).elements()]
    return [card_str(c) for c in sorted([*hand, *staged])]


