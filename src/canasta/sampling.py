"""Sampling the hidden cards for search players: a full position consistent with one seat's view.

``determinize(view, rng)`` deals the cards the seat cannot see (the other hands, every foot and the stock) at
random, but keeps what the seat knows: its own hand, the table, the pile, every hand's size, and the
cards each player is known to hold because he took them with the pile and has not played them since
(tracked from the public history). It reads nothing but the view, so a player built on it cannot peek.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import RED_THREES, THREE, card_str, counts_of, pack, parse_card, parse_rank, rank_of
from .engine import RANK_KINDS
from .moves import token_rank
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
            tokens = words[1: words.index("on")] if "on" in words else words[1:]
            for token in tokens:
                rank = token_rank(token) or 0
                mine[rank] = max(0, mine[rank] - 1)
    if [rank_of(parse_card(c)) if parse_card(c) not in RED_THREES else 1 for c in view["pile"]] != pile:
        return {s: Counter() for s in known}  # the pile was recycled or the history is partial
    stage = view["public_state"]["stage"]
    if stage is not None and stage["pending"]:  # a pile taken to open lies beside the table until it opens
        taker = known[view["public_state"]["turn_seat"]]
        for c in stage["pending"]:
            rank = rank_of(parse_card(c))
            taker[rank] = max(0, taker[rank] - 1)
    return known


def _is_red_three(token: str) -> bool:
    try:
        return parse_card(token) in RED_THREES
    except ValueError:
        return False


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A full State consistent with everything ``view``'s seat knows; the hidden cards are random."""
    d = {**view["public_state"]}
    seat = view["seat"]
    rules = make_rules(d["rules"]["variant"], **d["rules"]["options"])
    pool = counts_of(pack(rules.decks, rules.jokers))
    visible = [*view["hand"], *view["pile"], *(c for side in view["sides"] for c in side["red_threes"]),
               *(c for m in d["melds"] for cards in m.values() for c in cards),
               *(c for b in d["black_threes"] for c in b)]
    if d["stage"] is not None and d["stage"]["pending"]:
        visible += d["stage"]["pending"]
    for text in visible:
        pool[parse_card(text)] -= 1
    unseen = [c for c in range(53) for _ in range(pool[c])]
    rng.shuffle(unseen)
    left = Counter(unseen)
    known = known_in_hands(view)
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    hands[seat] = [parse_card(c) for c in view["hand"]]
    hidden = [s for s in range(rules.players) if s != seat]
    for s in hidden:  # cards known to be in a hand first, as far as the unseen cards still have them
        for rank, count in known[s].items():
            for kind in RANK_KINDS[rank]:
                while count and left[kind] and len(hands[s]) < view["hand_sizes"][s]:
                    hands[s].append(kind)
                    left[kind] -= 1
                    count -= 1
    placed = Counter(c for s in hidden for c in hands[s])
    rest = []
    for c in unseen:
        if placed[c]:
            placed[c] -= 1
        else:
            rest.append(c)
    stock = []
    held_reds = rules.threes_laid_out == "none"  # Hand and Foot: red threes may be in hands and feet
    foot_sizes = view.get("foot_sizes") or [0] * rules.players
    feet: list[list[int]] = [[] for _ in range(rules.players)]
    for c in rest:  # deal the rest at random; laid-out red threes are never held, so they stay in the stock
        target = next((s for s in hidden if len(hands[s]) < view["hand_sizes"][s]), None)
        foot = next((s for s in range(rules.players) if len(feet[s]) < foot_sizes[s]), None)
        if c in RED_THREES and not held_reds:
            stock.append(c)
        elif target is not None:
            hands[target].append(c)
        elif foot is not None:  # every foot is unknown, the seat's own too
            feet[foot].append(c)
        else:
            stock.append(c)
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
    return State.from_dict(d)


def _stage_hand(d: dict[str, Any], hand: list[int]) -> list[str]:
    """The hand before a staged opening: the hand now plus the cards staged since."""
    side = d["seat_sides"][d["turn_seat"]]
    now = Counter(c for cards in d["melds"][side].values() for c in cards)
    before = Counter(c for cards in d["stage"]["melds"].values() for c in cards)
    staged = [parse_card(c) for c in (now - before).elements()]
    return [card_str(c) for c in sorted([*hand, *staged])]


