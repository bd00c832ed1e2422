"""The opening search's steps made from the parent's parts (``engine/search_step.py``) are the ones made the plain
way: a meld's cards as ``move_cards`` takes them, the child's key as ``position_key`` of the child, the child as
``apply_move`` makes it; and the search visits the same positions with the same answers as the search written the
plain way (the reference below, the search before the steps were made from the parent's parts)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.canasta.engine import generate
from canasta.canasta.engine.core import flags, minimum_to_meet, move_cards, opening_canasta_ok, rank_counts
from canasta.canasta.engine.search import SEARCH_LIMIT, opening_path, points_fall_short, position_key
from canasta.canasta.engine.search_step import (
    counts_key,
    grown_meld,
    grown_sizes,
    hand_after,
    hand_int,
    meld_cards,
    meld_child,
    meld_sizes,
)
from canasta.canasta.engine.turn import apply_move
from canasta.canasta.kinds import VALUE, is_wild
from canasta.canasta.rules import Rules
from canasta.canasta.state import GAME_OVER, State
from engine_helpers import play_positions

VARIANTS = ["samba", "modern-american", "italian", "brazilian", "classic", "hand-and-foot"]


def _positions(variant: str, games: int, moves: int) -> list[State]:
    """Every play-phase position of a few seeded random games."""
    return play_positions(variant, games, moves, first_seed=100)


def _entries(log: Any) -> list[tuple[int, str]]:
    out = []
    while log is not None:
        out.append((log[1], str(log[2])))
        log = log[0]
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_meld_cards_and_child_key_are_move_cards_and_the_childs_position_key(variant: str) -> None:
    checked = 0
    for state in _positions(variant, 2, 500):
        p = state.turn_seat
        hand = state.hands[p]
        melds = state.melds[state.seat_sides[p]]
        for m in generate.play_moves(state, melds_only=True):
            if m.action != "meld":
                continue
            rest = list(hand)
            want = move_cards(rest, m)
            cards = meld_cards(hand, m)
            assert cards == want
            assert hand_after(hand_int(hand), cards) == hand_int(tuple(rest))
            assert hand_after(counts_key(rank_counts(hand)), cards, True) == counts_key(rank_counts(tuple(rest)))
            grown = len(melds.get(m.rank, ())) + len(cards)
            sizes = grown_sizes(meld_sizes(melds), m.rank, grown)
            after = dict(melds)
            after[m.rank] = (*melds.get(m.rank, ()), *cards)
            assert (hand_after(hand_int(hand), cards), sizes) == position_key(tuple(rest), after)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_meld_child_is_the_position_apply_move_makes(variant: str) -> None:
    checked = 0
    for state in _positions(variant, 3, 600):
        p = state.turn_seat
        side = state.seat_sides[p]
        stage = state.stage
        if state.opened[side] or (stage is not None and stage.pending is not None):
            continue
        hsize = sum(state.hands[p])
        for m in generate.play_moves(state, melds_only=True):
            if m.action != "meld":
                continue
            cards = meld_cards(state.hands[p], m)
            if hsize <= len(cards):
                continue
            points = (stage.points if stage is not None else 0) + sum(VALUE[c] for c in cards)
            made = meld_child(state, m, cards, points)
            want = apply_move(state, m)
            assert made.to_json() == want.to_json()
            assert made.counts == want.counts
            assert _entries(made.log) == _entries(want.log)
            checked += 1
    assert checked > 20


def _reference_path(state: State, hand_number: int, seen: dict[Any, bool]) -> bool:
    """The opening search written the plain way: every child made by ``apply_move``, every key by
    ``position_key`` (the memo look-up of a child before it is made, as ``opening_path`` does it)."""
    if state.hand_number != hand_number or state.phase == GAME_OVER or state.stage is None:
        return True
    stage = state.stage
    side = state.seat_sides[state.turn_seat]
    melds = state.melds[side]
    if stage.pending is None and stage.points >= minimum_to_meet(state) and opening_canasta_ok(state, melds):
        return True
    key = position_key(state.hands[state.turn_seat], melds)
    if key in seen:
        return seen[key]
    if len(seen) >= SEARCH_LIMIT:
        return False
    seen[key] = False
    found = False
    quick = stage.pending is None
    need = minimum_to_meet(state) if quick else 0
    if quick and flags(state.rules).bound_prunes and _falls_short(state, need - stage.points):
        return False
    hand = state.hands[state.turn_seat]
    for m in generate.play_moves(state, melds_only=True):
        if m.action != "meld":
            continue
        if quick:
            rest = list(hand)
            cards = move_cards(rest, m)
            grown = len(melds.get(m.rank, ())) + len(cards)
            points = stage.points + sum(VALUE[c] for c in cards)
            if points < need and any(rest) and not (state.rules.splash and grown >= 7):
                after = dict(melds)
                after[m.rank] = (*melds.get(m.rank, ()), *cards)
                child = position_key(tuple(rest), after)
                if child in seen:
                    if seen[child]:
                        found = True
                        break
                    continue
        if _reference_path(apply_move(state, m), hand_number, seen):
            found = True
            break
    seen[key] = found
    return found


def _falls_short(state: State, short: int) -> bool:
    """``points_fall_short`` of the position, its melds' counts read the plain way."""
    naturals, wilds = [-1] * 15, [0] * 15
    for key, meld in state.melds[state.seat_sides[state.turn_seat]].items():
        wilds[key] = sum(1 for c in meld if is_wild(c))
        naturals[key] = len(meld) - wilds[key]
    return points_fall_short(state.rules, state.turn.source == "stock", rank_counts(state.hands[state.turn_seat]),
                             naturals, wilds, short)


def test_hand_int_is_exact() -> None:
    rng = random.Random(5)
    seen: dict[int, tuple[int, ...]] = {}
    for _ in range(3000):
        hand = [0] * 53
        for _ in range(rng.randrange(0, 30)):
            hand[rng.randrange(53)] += rng.choice([1, 1, 2, 3])
        key = hand_int(tuple(hand))
        assert seen.setdefault(key, tuple(hand)) == tuple(hand)
        assert list(key.to_bytes(53, "little")) == hand


def test_counts_key_is_exact() -> None:
    rng = random.Random(6)
    seen: dict[int, tuple[int, ...]] = {}
    for _ in range(3000):
        rc = tuple(rng.choice([0, 0, 1, 2, 3, 15]) for _ in range(15))
        key = counts_key(list(rc))
        assert seen.setdefault(key, rc) == rc
        assert [(key >> (4 * code)) & 15 for code in range(15)] == list(rc)


def _search_form(rules: Rules, key: tuple[int, bytes]) -> tuple[int, bytes]:
    """A position's key as the search keeps it: ``position_key``, with the hand's part ``counts_key`` of its rank
    counts where ``Flags.compact_keys`` allows."""
    if not flags(rules).compact_keys:
        return key
    return counts_key(rank_counts(tuple(key[0].to_bytes(53, "little")))), key[1]


@pytest.mark.parametrize("variant", ["samba", "modern-american", "italian", "brazilian"])
def test_opening_search_visits_what_the_plain_search_visits(variant: str) -> None:
    searched = 0
    for state in _positions(variant, 3, 500):
        side = state.seat_sides[state.turn_seat]
        if state.stage is None or state.opened[side]:
            continue
        seen: dict[Any, bool] = {}
        want: dict[Any, bool] = {}
        assert opening_path(state, state.hand_number, seen) == _reference_path(state, state.hand_number, want)
        # The same positions in the same order, with the same answers (and so the same budget used); where the search
        # keys a hand by its rank counts, no two of the reference's positions share a key (the sizes are equal).
        assert list(seen.items()) == [(_search_form(state.rules, k), v) for k, v in want.items()]
        assert len(seen) == len(want)
        searched += len(seen) > 1
    assert searched > 5


def test_grown_meld_is_the_sorted_meld() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        old = tuple(sorted(rng.randrange(53) for _ in range(rng.randrange(0, 9))))
        cards = [rng.randrange(53) for _ in range(rng.randrange(1, 8))]
        assert grown_meld(old or None, cards) == tuple(sorted((*old, *cards)))
        assert grown_meld(old, sorted(cards)) == tuple(sorted((*old, *cards)))  # cards in order: no sort
        assert grown_meld(old, []) == old


def test_grown_sizes_is_meld_sizes_of_the_grown_melds() -> None:
    rng = random.Random(8)
    for _ in range(2000):
        melds = {k: (0,) * rng.randrange(1, 12) for k in rng.sample(range(0, 120), rng.randrange(0, 8))}
        key = rng.choice([*melds, rng.randrange(0, 120)])
        grown = len(melds.get(key, ())) + rng.randrange(1, 5)
        after = {**melds, key: (0,) * grown}
        assert grown_sizes(meld_sizes(melds), key, grown) == meld_sizes(after)
