"""The rank counts a transition passes on to the next state (``State.counts``, read through
``engine.core.turn_counts``) are those of the hand, in every kind of game, and readers that change counts work
on a copy."""

import random

import pytest

import canasta
from canasta.engine import can_go_out
from canasta.engine.core import rank_counts, turn_counts

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
    # A discard leaves the discarder's rank counts in ``seat_counts`` for his next turn; each entry must be the
    # counts of that seat's hand, except the turn's own while ``counts`` holds them (the turn changes that hand).
    # Checked on each new state before anything reads it (``legal_moves`` fills ``counts``).
    rng = random.Random(5)
    state = canasta.new_game(canasta.rules(variant), seed=5)
    used = 0
    for _ in range(1500):
        kept = state.seat_counts
        if kept is not None:
            assert len(kept) == len(state.hands)
            for seat, entry in enumerate(kept):
                if entry is None or (seat == state.turn_seat and state.counts is not None):
                    continue
                assert entry == rank_counts(state.hands[seat]), (seat, state.turn_seat)
                used += seat == state.turn_seat
        legal = canasta.legal_moves(state)
        if not legal or canasta.is_over(state):
            break
        state = canasta.apply(state, rng.choice(legal))
    if variant != "modern-american":  # (there a player may keep a three: every draw takes the general path)
        assert used > 0  # turns did start with their counts known
