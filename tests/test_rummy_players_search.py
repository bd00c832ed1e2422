"""The rummy search player and its sampler: samples agree with the seat's view, known cards stay where they
are known to be, the player picks legal moves on every preset at every level and explains itself."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import canasta
from canasta.play.strength import duplicate
from canasta.players.rummy import RummyHeuristicPlayer, make_rummy_player
from canasta.players.rummy.search import RummySearchPlayer
from canasta.rummy import RummyRules, RummyState
from canasta.rummy.api import apply, is_over, legal_moves
from canasta.rummy.sampling import determinize, knowledge
from canasta.rummy.view import view

PRESETS = ["500-rum", "500-rum-partnership", "persian-rummy", "basic-rummy"]
SAME = ("hand", "pile", "melds", "hand_sizes", "stock", "must_use", "taken", "melded", "phase", "scores")


def positions(name: str, games: int, plies: int, seed: int = 3) -> Iterator[tuple[RummyRules, RummyState]]:
    r = canasta.rules(name)
    assert isinstance(r, RummyRules)
    rng = random.Random(seed)
    for g in range(games):
        s = canasta.new_game(r, seed=g)
        for _ in range(plies):
            if is_over(s):
                break
            yield r, s
            s = apply(s, rng.choice(legal_moves(s)))


@pytest.mark.parametrize("name", PRESETS)
def test_samples_agree_with_the_view(name: str) -> None:
    rng = random.Random(1)
    differs = 0
    for r, s in positions(name, 2, 300):
        seat = s.to_move
        seen = view(s, seat)
        sample = determinize(r, seen, rng)
        again = view(sample, seat)
        for key in SAME:
            assert again[key] == seen[key], (key, seen[key], again[key])
        assert sorted(map(str, legal_moves(sample))) == sorted(map(str, legal_moves(s)))
        others = [c for i, h in enumerate(s.hands) if i != seat for c in h]
        sampled = [c for i, h in enumerate(sample.hands) if i != seat for c in h]
        differs += sorted(others) != sorted(sampled)
    assert differs > 0  # the hidden cards really are guessed, not copied


@pytest.mark.parametrize("name", PRESETS)
def test_cards_taken_from_the_pile_are_known(name: str) -> None:
    rng = random.Random(2)
    known = 0
    for r, s in positions(name, 2, 300):
        k = knowledge(r, s.history)
        sample = determinize(r, view(s, s.to_move), rng, k)
        for seat in range(r.players):
            for c in k.held[seat]:
                assert c in s.hands[seat]  # the replay is right
                assert c in sample.hands[seat]  # and the sample keeps it there
            known += len(k.held[seat])
    assert known > 0


def test_basic_rummy_reshuffled_stock_keeps_its_order() -> None:
    rng = random.Random(4)
    checked = 0
    for r, s in positions("basic-rummy", 6, 400, seed=9):
        if not s.reshuffles or not s.stock:
            continue
        sample = determinize(r, view(s, s.to_move), rng)
        k = knowledge(r, s.history)
        assert k.stock_top == list(s.stock)  # the turned-over pile: every card in its place
        assert sample.stock == s.stock
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_play_legal_moves_on_every_preset(name: str, level: str) -> None:
    r = canasta.rules(name)
    assert isinstance(r, RummyRules)
    bots = [make_rummy_player(level, s) for s in range(r.players)]
    for bot in bots:  # fewer samples than the level uses: the same code, quicker
        assert isinstance(bot, RummySearchPlayer)
        bot.samples = 4
    s = canasta.new_game(r, seed=7)
    rng = random.Random(7)
    for _ in range(120):
        if canasta.is_over(s):
            break
        legal = canasta.legal_moves(s)
        move = bots[s.to_move].choose(canasta.view(s, s.to_move), legal)
        assert move in legal
        s = canasta.apply(s, move if rng.random() < 0.9 else rng.choice(legal))


def test_search_explains_its_choice_and_keeps_the_heuristic_move_without_evidence() -> None:
    r = canasta.rules("500-rum", players=2)
    assert isinstance(r, RummyRules)
    s = canasta.new_game(r, seed=11)
    heuristic = RummyHeuristicPlayer(1)
    cautious = RummySearchPlayer(1, samples=6, margin=1e9)  # no gain is ever enough
    for _ in range(60):
        if canasta.is_over(s):
            break
        v, legal = canasta.view(s, s.to_move), canasta.legal_moves(s)
        assert cautious.choose(v, legal) == heuristic.choose(v, legal)
        assert cautious.last_reason
        s = canasta.apply(s, heuristic.choose(v, legal))


def test_search_against_heuristic_runs_in_the_arena() -> None:
    r = canasta.rules("500-rum", players=2)
    assert isinstance(r, RummyRules)
    d = duplicate(r, lambda s: RummySearchPlayer(s, samples=4), lambda s: RummyHeuristicPlayer(s), 2)
    assert d["deals"] == 2 and d["low"] <= d["mean"] <= d["high"]


@pytest.mark.parametrize("name", ["500-rum", "basic-rummy"])
def test_no_rummy_player_can_peek(name: str) -> None:
    """Two positions alike to the seat to move but for the hidden cards: every player chooses the same."""
    rng = random.Random(5)
    checked = 0
    for r, s in positions(name, 1, 160, seed=6):
        if len(legal_moves(s)) < 2:
            continue
        seat = s.to_move
        other = determinize(r, view(s, seat), rng).replace(history=s.history)  # other hidden cards, same view
        if all(sorted(a) == sorted(b) for i, (a, b) in enumerate(zip(s.hands, other.hands, strict=True))
               if i != seat):
            continue
        for player in ("greedy", "heuristic", "search"):
            a, b = make_rummy_player(player, 3), make_rummy_player(player, 3)
            if isinstance(a, RummySearchPlayer) and isinstance(b, RummySearchPlayer):
                a.samples = b.samples = 3
            assert a.choose(view(s, seat), legal_moves(s)) == b.choose(view(other, seat), legal_moves(other))
        checked += 1
        if checked >= 12:
            break
    assert checked > 0


def test_arena_jobs_give_the_same_figures_as_one_process() -> None:
    from canasta.play.strength import parallel_duplicate

    r = canasta.rules("500-rum", players=2)
    assert isinstance(r, RummyRules)
    one = duplicate(r, lambda s: make_rummy_player("heuristic", s), lambda s: make_rummy_player("greedy", s), 3, 40)
    two = parallel_duplicate("500-rum", {"players": 2}, "heuristic", "greedy", 3, 40, jobs=2)
    assert two == one


def test_an_unfinished_basic_rummy_playout_is_scored_by_the_cards_held() -> None:
    from canasta.players.rummy.search import standing
    from canasta.rummy.build import build_position

    r = canasta.rules("basic-rummy")
    s = build_position(r, hands=["2C 3D", "KS KD 9H"], phase="play")  # 5 points in hand against 29
    assert standing(s, 0) == 24 and standing(s, 1) == -24


def test_a_sampled_run_that_starts_with_a_joker_keeps_its_place() -> None:
    """A run laid as ``JK 5H 6H`` starts at the 4: the sampler reads it so, and the sample's lay-offs are the
    table's (before, it read the joker as the first card's rank and the search's samples refused real moves)."""
    from canasta.rummy.build import build_position
    from canasta.rummy.sampling import meld_of

    r = canasta.rules("500-rum", jokers=1, players=2)
    s = build_position(r, hands=["7H 3H 9C", "KD"], melds=[("JK 5H 6H", 1)], phase="play")
    v = canasta.view(s, 0)
    assert [meld_of(m) for m in v["melds"]] == list(s.melds)
