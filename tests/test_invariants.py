"""Invariants over many seeded random games (the public contract (docs/), docs/sources.md §3).

* the pack (108 cards in Classic) is always accounted for: hands + stock + pile + melds + red threes
  + a pending pile;
* the player to move always has a legal move, every legal move applies, and ``apply`` leaves its
  input unchanged;
* an illegal move raises ``canasta.IllegalMove`` with a specific code (never the fallback
  ``NOT_ALLOWED_NOW``, which would mean src/canasta/explain.py has no explanation for it);
* ``canasta.view(state, seat)`` shows no other seat's hand, no stock order, no seed and no deal;
* ``State.from_json(s.to_json())`` round-trips; ``parse_move(s, str(m)) == m`` for every legal move;
* every game ends within a bounded number of moves; each hand's ``last_hand`` lines sum to its
  total, and the cumulative scores are the sums of the hand totals.

Cheap checks run at every move of every game; the expensive ones at sampled positions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta.canasta.cards import card_str, cards_of, counts_of, pack
from canasta.canasta.moves import Move

try:
    from . import reference as ref
except ImportError:
    import reference as ref  # type: ignore[no-redef]

State = canasta.State
MAX_MOVES_PER_GAME = 30_000
MAX_MOVES_PER_HAND = 6_000
HYPOTHESIS = settings(max_examples=200, deadline=None, derandomize=True, database=None, print_blob=True,
                      suppress_health_check=[HealthCheck.too_slow])


# --- the checks ------------------------------------------------------------------------------------

def card_counts(s: State) -> list[int]:
    counts = [0] * 53
    for h in s.hands:
        for kind, n in enumerate(h):
            counts[kind] += n
    loose = [*s.stock, *s.pile, *(c for r in s.red_threes for c in r),
             *(c for side in s.melds for meld in side.values() for c in meld)]
    if s.stage is not None and s.stage.pending:
        loose.extend(s.stage.pending)
    for c in loose:
        counts[c] += 1
    return counts


def check_pack(s: State, where: str) -> None:
    want = counts_of(pack(s.rules.decks, s.rules.jokers))
    got = card_counts(s)
    if got != want:
        bad = [f"{card_str(c)}:{got[c]}/{want[c]}" for c in range(53) if got[c] != want[c]]
        raise AssertionError(f"{where}: the pack is not accounted for: {' '.join(bad)}")


def check_melds_sorted(s: State, where: str) -> None:
    """Every meld keeps its cards in order (interpreted, ``core.meld_counts`` finds its wild cards by bisection)."""
    for side in s.melds:
        for key, meld in side.items():
            assert list(meld) == sorted(meld), f"{where}: meld {key} is not in order: {meld}"


def check_pile_flag(s: State, where: str) -> None:
    """§3.5: frozen for everyone exactly while the pile holds a wild card or a red three."""
    assert s.pile_frozen == ref.frozen_by_contents(s.rules, s.pile), f"{where}: pile_frozen flag is wrong"


def check_round_trips(s: State, where: str) -> None:
    text = s.to_json()
    assert State.from_json(text).to_json() == text, f"{where}: State JSON does not round-trip"
    for m in canasta.legal_moves(s):
        assert canasta.parse_move(s, str(m)) == m, f"{where}: {str(m)!r} does not parse back to {m!r}"


def _lists(node: Any) -> Iterator[list[Any]]:
    if isinstance(node, list):
        yield node
        for x in node:
            yield from _lists(x)
    elif isinstance(node, dict):
        for v in node.values():
            yield from _lists(v)


def _keys(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield k, v
            yield from _keys(v)
    elif isinstance(node, list):
        for x in node:
            yield from _keys(x)


def check_views(s: State, where: str) -> None:
    """Each seat's view: JSON-ready, its own hand, and nothing hidden from it."""
    public = [sorted(map(card_str, s.pile))]
    public += [sorted(map(card_str, m)) for side in s.melds for m in side.values()]
    public += [sorted(map(card_str, r)) for r in s.red_threes]
    if s.stage is not None and s.stage.pending:
        public.append(sorted(map(card_str, s.stage.pending)))
    hands = [sorted(map(card_str, cards_of(h))) for h in s.hands]
    stock = [card_str(c) for c in s.stock]
    for seat in range(s.rules.players):
        v = canasta.view(s, seat)
        data = json.loads(json.dumps(v))
        assert sorted(data["hand"]) == hands[seat], f"{where}: seat {seat} does not see its own hand"
        for key, value in _keys(data):
            assert key not in ("seed", "deal"), f"{where}: view of seat {seat} has {key!r}"
            assert not (key == "stock" and isinstance(value, list) and value), \
                f"{where}: view of seat {seat} lists the stock"
        for lst in _lists(data):
            if not lst or not all(isinstance(x, str) for x in lst):
                continue
            cards = sorted(lst)
            if len(stock) >= 2 and lst in (stock, stock[::-1]):
                raise AssertionError(f"{where}: view of seat {seat} shows the stock order")
            for other, hand in enumerate(hands):
                if other != seat and len(hand) >= 2 and cards == hand and cards not in public \
                        and cards != hands[seat]:
                    raise AssertionError(f"{where}: view of seat {seat} shows seat {other}'s hand {lst}")


MALFORMED = [
    Move("frobnicate"), Move("meld", 1, 1), Move("meld", 0, 0, 0, 1), Move("meld", 2, 0, 2),
    Move("discard", 1), Move("take", 9, 0, 2, 0), Move("meld", 9, 0), Move("draw", 9),
]


def check_illegal(s: State, rng: random.Random, where: str, samples: int = 10) -> None:
    """A sample of illegal moves: the reference's brute-force candidates that the engine does not
    list, plus a few malformed ones. Each must raise IllegalMove with a specific code."""
    legal = set(canasta.legal_moves(s))
    pool = [m for m in ref.all_candidates(s) if m not in legal]
    picks = rng.sample(pool, min(samples, len(pool))) + [m for m in MALFORMED if m not in legal]
    for m in picks:
        try:
            canasta.apply(s, m)
        except canasta.IllegalMove as err:
            assert err.code != "NOT_ALLOWED_NOW", (
                f"{where}: {m!r} ({m}) got the fallback code NOT_ALLOWED_NOW: explain.py has no reason for it")
            assert err.code and err.code == err.code.upper(), f"{where}: bad code {err.code!r}"
        else:
            raise AssertionError(f"{where}: illegal move {m!r} was applied")


def check_apply_all(s: State, where: str) -> None:
    """Every legal move applies, and apply leaves its input unchanged."""
    before = s.to_json()
    for m in canasta.legal_moves(s):
        canasta.apply(s, m)
    assert s.to_json() == before, f"{where}: apply changed its input"


def check_hand_scores(prev_scores: tuple[int, ...], s: State, where: str) -> list[int]:
    """After a hand: each side's lines sum to its total and the totals add to the cumulative scores."""
    assert s.last_hand is not None, f"{where}: a hand ended without a score sheet"
    totals = []
    for side, sheet in enumerate(s.last_hand):
        assert sum(sheet["lines"].values()) == sheet["total"], f"{where}: side {side} lines do not sum"
        assert sheet["cumulative"] == prev_scores[side] + sheet["total"], f"{where}: side {side} cumulative"
        totals.append(sheet["total"])
    assert list(s.scores) == [p + t for p, t in zip(prev_scores, totals, strict=True)], f"{where}: scores"
    assert sum(1 for sheet in s.last_hand if sheet["went_out"]) <= 1, f"{where}: two sides went out"
    return totals


# --- playing --------------------------------------------------------------------------------------

def choose(s: State, rng: random.Random, bias: float) -> Move:
    """A seeded random move; ``bias`` is the chance of preferring a meld or take. Right after a
    ``withdraw`` it prefers to end the turn: a meld-happy player could otherwise stage and withdraw
    an unreachable opening for thousands of moves (the engine allows any number of withdrawals)."""
    legal = sorted(canasta.legal_moves(s))
    if s.history and s.history[-1].endswith(" withdraw"):
        others = [m for m in legal if m.action != "meld"]
        legal = others or legal
    melds = [m for m in legal if m.action in ("meld", "take")]
    return rng.choice(melds) if melds and rng.random() < bias else rng.choice(legal)


def play_game(rules: Any, seed: int, bias: float, every: int = 4) -> State:
    """A whole seeded game with the cheap checks; returns the final state."""
    rng = random.Random(seed)
    s = canasta.new_game(rules, seed=seed)
    where = f"seed {seed}"
    sums = [0] * rules.teams
    moves = hand_moves = 0
    while not canasta.is_over(s):
        assert moves < MAX_MOVES_PER_GAME, f"{where}: the game has not ended after {moves} moves"
        assert hand_moves < MAX_MOVES_PER_HAND, f"{where}: hand {s.hand_number} has not ended"
        if moves % every == 0:
            check_pack(s, f"{where} move {moves}")
            check_melds_sorted(s, f"{where} move {moves}")
        legal = canasta.legal_moves(s)
        assert legal, f"{where} move {moves}: no legal move but the game is not over"
        hand, scores = s.hand_number, s.scores
        s = canasta.apply(s, choose(s, rng, bias))
        moves += 1
        hand_moves += 1
        if s.hand_number != hand or canasta.is_over(s):
            hand_moves = 0
            totals = check_hand_scores(scores, s, f"{where} hand {hand}")
            sums = [a + b for a, b in zip(sums, totals, strict=True)]
            check_pack(s, f"{where} after hand {hand}")
    assert list(s.scores) == sums, f"{where}: cumulative scores are not the sums of the hand totals"
    result = canasta.outcome(s)
    assert result is not None and result["scores"] == list(s.scores)
    assert max(s.scores) >= rules.target
    if result["winner"] is not None:
        assert s.scores[result["winner"]] == max(s.scores)
    return s


# --- tests ----------------------------------------------------------------------------------------

def test_classic_games_end_and_add_up() -> None:
    """1,200 whole Classic games, from purely random to meld-happy play."""
    rules = canasta.rules()
    for seed in range(1200):
        play_game(rules, seed, (0.0, 0.4, 0.8, 0.97)[seed % 4])


VARIANTS: list[dict[str, Any]] = [
    {"wild_rule": "le_naturals", "forced_take_after_stock": "whenever_able"},
    {"wild_rule": "max2", "one_card_pile_rule": False},
    {"concealed_waives_minimum": "always", "black_three_freezes": True, "black_three_upcard": "covered"},
    {"last_card_red_three": "meld_no_discard", "end_of_stock": "end_at_once", "tie": "draw"},
    {"players": 2, "teams": 2, "hand_size": 15, "draw_count": 2, "canastas_to_go_out": 2, "permission": "none"},
    {"players": 6, "teams": 3, "decks": 3, "jokers": 6, "target": 3000},
]


def test_variant_games_end_and_add_up() -> None:
    """The same checks for games under other rule options (60 games each)."""
    for i, options in enumerate(VARIANTS):
        rules = canasta.rules(**options)
        for seed in range(60):
            play_game(rules, 10_000 * (i + 1) + seed, (0.0, 0.5, 0.9, 0.97)[seed % 4])


@HYPOTHESIS
@given(seed=st.integers(0, 2**31 - 1), ply=st.integers(0, 900), bias=st.sampled_from([0.0, 0.5, 0.9, 0.97]))
def test_position_invariants(seed: int, ply: int, bias: float) -> None:
    """At a random position of a seeded game and the 12 that follow it: JSON and move round trips,
    every legal move applies without changing its input, views hide what they must, illegal moves
    have specific codes, the pack is whole and the frozen flag matches the pile."""
    rng = random.Random(seed)
    s = canasta.new_game(canasta.rules(), seed=seed)
    for _ in range(ply):
        if canasta.is_over(s):
            break
        s = canasta.apply(s, choose(s, rng, bias))
    for step in range(13):
        where = f"seed {seed} ply {ply + step}"
        check_pack(s, where)
        check_melds_sorted(s, where)
        check_pile_flag(s, where)
        check_round_trips(s, where)
        check_views(s, where)
        check_illegal(s, rng, where)
        if canasta.is_over(s):
            assert canasta.legal_moves(s) == []
            return
        check_apply_all(s, where)
        s = canasta.apply(s, choose(s, rng, bias))


def _special_positions() -> Iterator[tuple[str, State]]:
    """Positions in the rare phases (pending opening, staged melds, permission, empty stock),
    collected from seeded games."""
    wanted = {"pending": 60, "staged": 60, "answer": 40, "yes": 40, "no": 40, "stock_empty": 60}
    found = dict.fromkeys(wanted, 0)
    for seed in range(400):
        rng = random.Random(seed)
        s = canasta.new_game(canasta.rules(), seed=seed)
        for ply in range(1500):
            if canasta.is_over(s) or s.hand_number > 2:
                break
            kinds = []
            if s.stage is not None:
                kinds.append("pending" if s.stage.pending is not None else "staged")
            if s.phase == "answer":
                kinds.append("answer")
            if s.phase == "play" and s.turn.permission in ("yes", "no"):
                kinds.append(s.turn.permission)
            if not s.stock and s.phase == "draw":
                kinds.append("stock_empty")
            for k in kinds:
                if found[k] < wanted[k]:
                    found[k] += 1
                    yield f"{k} seed {seed} ply {ply}", s
            s = canasta.apply(s, choose(s, rng, (0.3, 0.8, 0.97)[seed % 3]))
        if found == wanted:
            return


def test_rare_phase_invariants() -> None:
    rng = random.Random(7)
    seen = set()
    for where, s in _special_positions():
        seen.add(where.split()[0])
        check_pack(s, where)
        check_melds_sorted(s, where)
        check_round_trips(s, where)
        check_views(s, where)
        check_illegal(s, rng, where, samples=30)
        check_apply_all(s, where)
    assert seen == {"pending", "staged", "answer", "yes", "no", "stock_empty"}, seen


def test_malformed_moves_raise_illegal_move() -> None:
    """``apply`` with a Move that names no real rank or a negative count raises IllegalMove with a
    specific code, not another exception."""
    first = canasta.new_game(canasta.rules(), seed=1)
    bad = [Move("discard", 99), Move("meld", 15, 3), Move("take", 15, 2), Move("meld", 9, -1),
           Move("meld", 9, 3, -1, 0), Move("discard", -1), Move("take", 14, -2), Move("meld", 3, 3, 0, -1)]
    for s in (first, canasta.apply(first, "draw")):
        for m in bad:
            try:
                canasta.apply(s, m)
            except canasta.IllegalMove as err:
                assert err.code != "NOT_ALLOWED_NOW", f"{m!r}: fallback code"
            except Exception as exc:
                raise AssertionError(f"{m!r} raised {type(exc).__name__}: {exc}") from exc
            else:
                raise AssertionError(f"{m!r} was applied")
