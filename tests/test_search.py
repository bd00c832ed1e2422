"""Hidden-card sampling, the search player, difficulty levels and hints (issue "Strong computer players")."""

import json
import random

import pytest

import canasta
from canasta.canasta.engine import rank_counts
from canasta.canasta.moves import DRAW
from canasta.canasta.sampling import Sampler, determinize, known_in_hands
from canasta.players import make_player as pick
from canasta.players.heuristic import HeuristicPlayer, take_cost_key
from canasta.players.levels import LEVELS, hint, level_player
from canasta.players.search import SearchPlayer, rollout_view

VIEW_KEYS = ("hand", "hand_sizes", "pile", "stock_size", "sides", "phase", "to_move", "legal_moves", "scores",
             "history", "upcards", "public_state", "foot_sizes")


def walk(variant: str, seed: int, every: float = 0.15):
    """Positions along a seeded random game of ``variant``."""
    rng = random.Random(seed)
    state = canasta.new_game(canasta.rules(variant), seed=seed)
    while not canasta.is_over(state) and state.hand_number <= 2:
        if rng.random() < every:
            yield state
        state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))


@pytest.mark.parametrize("variant", ["classic", "cutthroat", "cuban", "two-player", "six-player", "hand-and-foot"])
def test_determinized_positions_look_the_same_to_the_seat(variant: str) -> None:
    rng = random.Random(1)
    checked = 0
    for state in walk(variant, seed=3):
        seat = state.to_move
        seen = canasta.view(state, seat)
        sample = determinize(seen, rng)
        again = canasta.view(sample, seat)
        assert {k: again[k] for k in VIEW_KEYS} == {k: seen[k] for k in VIEW_KEYS}
        for other, known in known_in_hands(seen).items():  # never claims a card the hand lacks
            held = rank_counts(state.hands[other])
            assert all(held[rank] >= n for rank, n in known.items())
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot", "cutthroat", "italian"])
def test_later_samples_equal_samples_read_from_a_position(variant: str) -> None:
    """A sampler deals its later samples onto its first one; each equals the state ``from_dict`` reads from the
    same deal (the first sample's path), field by field, and plays on the same."""
    checked = 0
    for state in walk(variant, seed=8, every=0.2):
        seen = canasta.view(state, state.to_move)
        fast, slow = Sampler(seen), Sampler(seen)
        slow.reuse = False  # every sample read from a position
        for seed in range(3):
            a, b = fast.sample(random.Random(seed)), slow.sample(random.Random(seed))
            assert a.to_dict() == b.to_dict()
            assert [str(m) for m in canasta.legal_moves(a)] == [str(m) for m in canasta.legal_moves(b)]
        checked += fast.template is not None
    assert checked >= 5


def test_known_cards_from_a_taken_pile_are_placed_in_that_hand() -> None:
    state = canasta.positions.build_position(
        hands={0: "9S 9H 5C 6D 7H", 1: "KS KH 4C 4D 8S"}, melds=[["QS QH QD"], ["AS AH AD"]],
        pile="JS JH 8D KD", turn_seat=1)
    state = canasta.apply(state, "take K K")  # East takes J J 8 along with the king
    state = canasta.apply(state, "discard 4")
    seen = canasta.view(state, 2)
    assert known_in_hands(seen)[1][11] == 2 and known_in_hands(seen)[1][8] == 1
    for seed in range(5):
        sample = determinize(seen, random.Random(seed))
        east = rank_counts(sample.hands[1])
        assert east[11] >= 2 and east[8] >= 1  # the jacks and the 8 taken from the pile


@pytest.mark.parametrize("variant", ["classic", "hand-and-foot"])
def test_no_player_can_peek(variant: str) -> None:
    """A player sees only the view: two positions that differ in every hidden card but look the same
    to the seat get the same decision from every player (search included, with a fixed sample count).
    In Hand and Foot the feet are hidden too, the seat's own included."""
    for state in list(walk(variant, seed=11, every=0.05))[:12]:
        seat = state.to_move
        other = determinize(canasta.view(state, seat), random.Random(99))
        assert other.hands != state.hands or other.stock != state.stock  # the hidden cards differ ...
        if state.rules.foot_size and any(state.feet[seat]):
            assert other.feet != state.feet and [sum(f) for f in other.feet] == [sum(f) for f in state.feet]
        assert canasta.view(other, seat)["public_state"] == canasta.view(state, seat)["public_state"]
        for make in (lambda: SearchPlayer(5, seconds=None, iterations=2, horizon=6),
                     lambda: pick("greedy", 5), lambda: pick("random", 5)):
            a = make().choose(canasta.view(state, seat), canasta.legal_moves(state))
            b = make().choose(canasta.view(other, seat), canasta.legal_moves(other))
            assert a == b  # ... and the choice does not change


def test_view_holds_no_hidden_cards() -> None:
    state = canasta.apply(canasta.new_game(canasta.rules(), seed=4), "draw")
    seen = canasta.view(state, 1)
    text = json.dumps(seen)
    assert seen["public_state"]["stock"] is None
    assert "deal" not in seen["public_state"] and "seed" not in seen["public_state"]
    assert [h is None for h in seen["public_state"]["hands"]] == [True, False, True, True]
    assert json.dumps([canasta.canasta.cards.card_str(c) for c in state.stock]) not in text


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_search_player_plays_a_hand_of_every_preset(variant: str) -> None:
    rules = canasta.rules(variant)
    state = canasta.new_game(rules, seed=2)
    players = [SearchPlayer(i, seconds=None, iterations=1, horizon=4) for i in range(rules.players)]
    moves = 0
    while not canasta.is_over(state) and state.hand_number == 1 and moves < 3000:
        state = canasta.apply(state, players[state.to_move].choose(canasta.view(state, state.to_move),
                                                                     canasta.legal_moves(state)))
        moves += 1
    assert state.hand_number == 2 or canasta.is_over(state)


def test_search_is_reproducible_with_iterations() -> None:
    state = canasta.apply(canasta.new_game(canasta.rules(), seed=8), "draw")
    picks = {SearchPlayer(3, seconds=None, iterations=3).choose(canasta.view(state, 0), canasta.legal_moves(state))
             for _ in range(2)}
    assert len(picks) == 1


def test_levels_and_hint() -> None:
    state = canasta.apply(canasta.new_game(canasta.rules(), seed=3), "draw")
    for level in ("easy", "medium"):
        move, reason = hint(state, state.to_move, level, seed=1)
        assert move in canasta.legal_moves(state) and reason
    assert set(LEVELS) == {"easy", "medium", "hard", "expert"}
    assert isinstance(level_player("hard"), SearchPlayer)
    with pytest.raises(ValueError, match="valid levels"):
        level_player("godlike")
    with pytest.raises(ValueError):
        hint(state, (state.to_move + 1) % 4)


@pytest.mark.parametrize("variant", ["classic", "two-player", "cutthroat", "cuban"])
def test_rollout_view_matches_the_view(variant: str) -> None:
    """The search player's play-outs read the lean view of the sampled position: field by field it
    equals the real view (tests/test_view.py checks every preset)."""
    checked = 0
    for state in walk(variant, seed=5, every=0.1):
        seat = state.to_move
        full, quick = canasta.view(state, seat), rollout_view(state, seat)
        assert quick["sides"] == full["sides"] and quick["hand"] == full["hand"]
        assert quick.to_dict() == full
        checked += 1
    assert checked > 10


def test_search_trusts_the_heuristic_without_evidence() -> None:
    """With fewer samples than it needs to overrule the heuristic, the search player plays the
    heuristic player's move at every decision of a hand."""
    state = canasta.new_game(canasta.rules(), seed=6)
    searchers = [SearchPlayer(s, seconds=None, iterations=1, horizon=4) for s in range(4)]
    guides = [HeuristicPlayer(s) for s in range(4)]
    decisions = 0
    while state.hand_number == 1 and not canasta.is_over(state):
        seat = state.to_move
        seen, legal = canasta.view(state, seat), canasta.legal_moves(state)
        move = searchers[seat].choose(seen, legal)
        assert move == guides[seat].choose(seen, legal)
        state = canasta.apply(state, move)
        decisions += 1
    assert decisions > 20


def test_draw_is_checked_against_the_heuristics_own_take() -> None:
    """Where the heuristic draws but could take the pile, the alternative searched is the take it
    would make (``take_cost_key``), not whichever take happens to be listed first."""
    searcher, checked = SearchPlayer(0, seconds=None, iterations=1), 0
    for seed in range(40):
        for state in walk("classic", seed=seed, every=0.5):
            seen, legal = canasta.view(state, state.to_move), canasta.legal_moves(state)
            takes = [m for m in legal if m.action == "take"]
            if state.phase != "draw" or len(takes) < 2 or HeuristicPlayer(0).choose(seen, legal) != DRAW:
                continue
            candidates = searcher.candidates(seen, legal, DRAW)
            assert candidates == [DRAW, max(takes, key=take_cost_key)]
            checked += candidates[1] != takes[0]
    assert checked > 0


@pytest.mark.parametrize("enabled", [True, False])
def test_search_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    """The search pauses the cyclic garbage collector while it plays out samples, and puts it back as it was."""
    import gc

    state = canasta.new_game(canasta.rules(), seed=4)
    player = SearchPlayer(4, seconds=None, iterations=2)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        for _ in range(12):  # take or draw, melds, discards: some decisions searched
            player.choose(canasta.view(state, state.to_move), canasta.legal_moves(state))
            assert gc.isenabled() == enabled
            state = canasta.apply(state, canasta.legal_moves(state)[0])
    finally:
        gc.enable() if was else gc.disable()
