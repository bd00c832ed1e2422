"""The rank counts a transition passes on to the next state (``State.counts``, read through
``engine.core.turn_counts``) are those of the hand, in every kind of game, and readers that change counts work
on a copy."""

import random

import pytest

import canasta
from canasta.canasta.engine import can_go_out
from canasta.canasta.engine.core import known_counts, rank_counts, turn_counts

PRESETS = ["classic", "samba", "modern-american", "hand-and-foot", "italian", "cutthroat"]


def _positions(variant: str, seed: int, moves: int) -> list[canasta.State]:
    rules = canasta.rules(variant)
    rng = random.Random(seed)
    state = canasta.new_game(rules, seed=seed)
    seen = [state]
    for _ in range(moves):
        legal = canasta.legal_moves(state)
        if not legal or canasta.is_over(state):
            break
        state = canasta.apply(state, rng.choice(legal))
        seen.append(state)
    return seen


@pytest.mark.parametrize("variant", PRESETS)
def test_counts_passed_on_match_the_hand(variant: str) -> None:
    passed = 0
    for state in _positions(variant, 7, 1500):
        kept = state.counts  # set by the transition that made the state, or None
        want = rank_counts(state.hands[state.turn_seat])
        if kept is not None:
            passed += 1
            assert kept == want
        assert turn_counts(state) == want
        assert state.counts == want  # kept for the next reader
    assert passed > 0  # draws and melds did pass their counts on


@pytest.mark.parametrize("variant", ["classic", "cutthroat", "hand-and-foot"])
def test_can_go_out_leaves_the_counts_alone(variant: str) -> None:
    for state in _positions(variant, 11, 800):
        if state.phase == "play":
            before = list(turn_counts(state))
            can_go_out(state)
            assert state.counts == before


@pytest.mark.parametrize("variant", PRESETS)
def test_seat_counts_carried_between_turns_match_the_hands(variant: str) -> None:
    # A discard leaves the discarder's rank counts in ``seat_counts`` for his next turn, with the hand tuple they
    # count; an entry whose tuple is still the seat's hand must be that hand's counts, and a turn must find its
    # own often. Checked on each new state before anything reads it (``legal_moves`` fills ``counts``).
    rng = random.Random(5)
    state = canasta.new_game(canasta.rules(variant), seed=5)
    found = 0
    for _ in range(1500):
        kept = state.seat_counts
        if kept is not None:
            assert len(kept) == len(state.hands)
            for seat, entry in enumerate(kept):
                if entry is not None and entry[0] is state.hands[seat]:
                    assert entry[1] == rank_counts(state.hands[seat]), (seat, state.turn_seat)
        if state.counts is None and known_counts(state) is not None:
            found += 1
            assert known_counts(state) == rank_counts(state.hands[state.turn_seat])
        legal = canasta.legal_moves(state)
        if not legal or canasta.is_over(state):
            break
        state = canasta.apply(state, rng.choice(legal))
    assert found > 0  # turns did start with their counts known


def test_seat_counts_follow_the_hand_not_the_transition() -> None:
    # An entry counts only for the very tuple it was made from: a state whose hand is replaced (as a sampler or a
    # test may do) must not read the old counts.
    state = canasta.new_game(canasta.rules("classic"), seed=2)
    rng = random.Random(2)
    while not (state.counts is None and known_counts(state) is not None):
        state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
    p = state.turn_seat
    other = canasta.new_game(canasta.rules("classic"), seed=9).hands[p]
    hands = list(state.hands)
    hands[p] = other
    changed = state.replace(hands=tuple(hands))
    assert changed.seat_counts is state.seat_counts  # carried (one list, shared by the states of a hand) ...
    assert known_counts(changed) is None  # ... but not read for another hand
    assert turn_counts(changed) == rank_counts(other)
