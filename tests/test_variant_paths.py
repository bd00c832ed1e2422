"""The variants' quick paths give the answers of the slow ones they stand in front of: the special-hand test
on counts, permission asked once from the log's entries, the opening search's key, the meld moves it
follows, and the bound of what sequences add."""

from __future__ import annotations

import dataclasses
import random

import pytest

import canasta
from canasta.canasta.engine.core import move_cards, rank_counts
from canasta.canasta.engine.generate import play_moves
from canasta.canasta.engine.modern import asked_this_hand, special_hand_possible
from canasta.canasta.engine.opening import sequence_points_bound
from canasta.canasta.engine.search import child_key, position_key
from canasta.canasta.kinds import JOKER, RANK_VALUE
from canasta.canasta.melds import SEQUENCE_LOW
from canasta.canasta.special_hands import special_hand_of, special_hands_formed
from canasta.canasta.state import DRAW_PHASE, PLAY_PHASE, State, log_contains
from engine_helpers import random_positions

MA = canasta.rules("modern-american")
NATURAL = list(range(4, 15))


def _kinds(rank: int) -> list[int]:
    """The card kinds of a rank code (0 the joker, 3 every three, 2..14 otherwise)."""
    return [JOKER] if rank == 0 else [(rank - 2) * 4 + s for s in range(4)]


def _hand(rng: random.Random, ranks: list[int]) -> tuple[int, ...]:
    counts = [0] * 53
    for rank in ranks:
        counts[rng.choice(_kinds(rank))] += 1
    return tuple(counts)


def _cards(counts: tuple[int, ...]) -> list[int]:
    return [k for k in range(53) for _ in range(counts[k])]


def _special_like(rng: random.Random) -> list[int]:
    """Ranks of 14 cards shaped like a special hand, often one card off (so both answers are tested)."""
    shape = rng.randrange(3)
    if shape == 0:
        a, b, c, d = rng.sample(NATURAL, 4)
        ranks = [a] * 4 + [b] * 4 + [c] * 3 + [d] * 3
    elif shape == 1:
        ranks = [r for r in rng.sample([2, *NATURAL], 7) for _ in range(2)]
    else:
        ranks = [3, *NATURAL, rng.choice([0, 2]), rng.choice([0, 2])]
    if rng.random() < 0.5:
        ranks[rng.randrange(14)] = rng.choice([0, 2, 3, *NATURAL])
    return ranks


def test_special_hand_test_on_counts_is_the_reading_of_the_cards() -> None:
    # Modern American has all four special hands, so the test on counts is exact there: True exactly when
    # the cards form one. (Elsewhere it need only be a necessary condition.)
    rng = random.Random(16)
    formed = 0
    for i in range(4000):
        ranks = _special_like(rng) if i % 2 else [rng.choice([0, 2, 3, *NATURAL]) for _ in range(14)]
        hand = _hand(rng, ranks)
        name = special_hand_of(MA, _cards(hand))
        formed += name is not None
        assert special_hand_possible(MA, rank_counts(hand)) == (name is not None), (ranks, name)
    assert formed > 200  # the shaped hands did form special hands


@pytest.mark.parametrize("names", [("garbage",), ("pairs",), ("straight",), ("pairs_twos_sevens_aces",)])
def test_special_hand_test_never_misses_a_hand_of_the_rules(names: tuple[str, ...]) -> None:
    rules = dataclasses.replace(MA, special_hands=tuple((n, 1000) for n in names))
    rng = random.Random(len(names[0]))
    for _ in range(2000):
        hand = _hand(rng, _special_like(rng))
        if special_hand_of(rules, _cards(hand)) is not None:
            assert special_hand_possible(rules, rank_counts(hand))
        if not special_hands_formed(_cards(hand)):
            assert not special_hand_possible(rules, rank_counts(hand))


def _positions(variant: str, games: int, moves: int) -> list[State]:
    """Every position of a few seeded random games."""
    return random_positions(variant, games, moves)


def test_asked_this_hand_is_the_history_text_check() -> None:
    asked = 0
    positions = _positions("modern-american", 2, 1500)
    # in the order of play (the walk stops at the entry asked about before), then in a shuffled order
    for state in [*positions, *random.Random(3).sample(positions, len(positions))]:
        for seat in range(state.rules.players):
            want = log_contains(state.log, f"{seat} ask")
            asked += want
            assert asked_this_hand(state.log, seat) == want
            # the same history read from text (a position from JSON)
            assert asked_this_hand(state.replace(history=state.history).log, seat) == want
    assert asked > 0


@pytest.mark.parametrize("variant", ["samba", "modern-american", "hand-and-foot", "italian", "brazilian"])
def test_meld_moves_only_are_the_meld_moves_of_the_full_list(variant: str) -> None:
    checked = 0
    for state in _positions(variant, 2, 800):
        if state.phase != PLAY_PHASE:
            continue
        full = [m for m in play_moves(state) if m.action == "meld"]
        only = play_moves(state, melds_only=True)
        assert [m for m in only if m.action == "meld"] == full
        assert all(m.action in ("meld", "combine") for m in only)
        checked += 1
    assert checked > 50


def test_position_key_tells_positions_apart_exactly_as_hand_and_meld_sizes() -> None:
    by_key: dict[bytes, tuple[object, ...]] = {}
    by_old: dict[tuple[object, ...], bytes] = {}
    for state in _positions("samba", 3, 1500):
        if state.phase == DRAW_PHASE:
            continue
        melds = state.melds[state.seat_sides[state.turn_seat]]
        old = (state.hands[state.turn_seat], tuple(sorted((k, len(m)) for k, m in melds.items())))
        key = position_key(state.hands[state.turn_seat], melds)
        assert by_key.setdefault(key, old) == old
        assert by_old.setdefault(old, key) == key
    assert len(by_key) > 100


def _sequence_points_reference(hand: tuple[int, ...], table_suits: set[int]) -> int:
    """The bound written as docs/engine.md states it: cards with a suited neighbour, or of a suit the side has a
    sequence in."""
    total = 0
    for suit in range(4):
        for rank in range(SEQUENCE_LOW, 15):
            below = rank > SEQUENCE_LOW and hand[(rank - 3) * 4 + suit]
            above = rank < 14 and hand[(rank - 1) * 4 + suit]
            if hand[(rank - 2) * 4 + suit] and (below or above or suit in table_suits):
                total += RANK_VALUE.get(rank, 0)
    return total


def test_sequence_points_bound_matches_its_definition() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        hand = [0] * 53
        for _ in range(rng.randrange(1, 25)):
            hand[rng.randrange(53)] += 1
        suits = {s for s in range(4) if rng.random() < 0.3}
        want = _sequence_points_reference(tuple(hand), suits)
        assert sequence_points_bound(hand, suits) == want
        assert sequence_points_bound(tuple(hand), sorted(suits)) == want


@pytest.mark.parametrize("variant", ["samba", "modern-american"])
def test_child_key_is_the_key_of_the_position_after_the_meld(variant: str) -> None:
    checked = 0
    for state in _positions(variant, 2, 600):
        if state.phase != PLAY_PHASE:
            continue
        p = state.turn_seat
        melds = state.melds[state.seat_sides[p]]
        for move in canasta.legal_moves(state):
            if move.action != "meld":
                continue
            after = canasta.apply(state, move)
            if after.hand_number != state.hand_number or after.turn_seat != p:
                continue
            rest = list(state.hands[p])
            cards = move_cards(rest, move)
            grown = len(melds.get(move.rank, ())) + len(cards)
            if tuple(rest) != after.hands[p]:  # a pending pile picked up, a foot: not a plain meld
                continue
            want = position_key(after.hands[p], after.melds[state.seat_sides[p]])
            assert child_key(rest, melds, move.rank, grown) == want
            checked += 1
    assert checked > 100
