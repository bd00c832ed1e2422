"""Shared helpers for the golden-case and rule-scenario tests (tests/test_golden.py, test_scenarios.py).

Positions are built with ``canasta.positions.build_position``; moves are given in move notation.
Every legality assertion checks the three public doors at once: ``legal_moves`` lists the move (or
not), ``why_illegal`` agrees (None, or the expected stable code), and ``apply`` accepts it (or raises
``IllegalMove`` with that same code).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from typing import Any

import canasta
from canasta.canasta.cards import card_str, cards_of, pack, parse_cards
from canasta.canasta.engine import start_hand
from canasta.canasta.state import Turn
from canasta.positions import build_position

CLASSIC = canasta.rules()
CODE_RE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")


def rules(**options: Any) -> canasta.Rules:
    return canasta.rules("classic", **options)


def position(rules: canasta.Rules | None = None, **kw: Any) -> canasta.State:
    """A position in the draw phase (build_position's defaults)."""
    return build_position(rules or CLASSIC, **kw)


def after_draw(rules: canasta.Rules | None = None, source: str = "stock", **kw: Any) -> canasta.State:
    """A position in the play phase: the player to move has already drawn (from ``source``)."""
    return build_position(rules or CLASSIC, phase="play", turn=Turn(source=source), **kw)


def move(state: canasta.State, text: str) -> canasta.Move:
    return canasta.parse_move(state, text)


def moves(state: canasta.State) -> set[str]:
    """The legal moves as notation strings."""
    return {str(m) for m in canasta.legal_moves(state)}


def code_of(state: canasta.State, text: str) -> str | None:
    err = canasta.why_illegal(state, move(state, text))
    return None if err is None else err.code


def assert_legal(state: canasta.State, text: str) -> canasta.State:
    """The move is legal by every door; returns the state after it."""
    m = move(state, text)
    assert m in canasta.legal_moves(state), f"{text!r} should be legal; legal: {sorted(moves(state))}"
    err = canasta.why_illegal(state, m)
    assert err is None, f"{text!r} should be legal but why_illegal says {err}"
    return canasta.apply(state, m)


def assert_illegal(state: canasta.State, text: str, code: str | None = None) -> canasta.IllegalMove:
    """The move is illegal by every door, with the stable ``code`` (if given)."""
    m = move(state, text)
    assert m not in canasta.legal_moves(state), f"{text!r} should be illegal; legal: {sorted(moves(state))}"
    err = canasta.why_illegal(state, m)
    assert err is not None, f"{text!r}: why_illegal returned None for an unlisted move"
    assert CODE_RE.match(err.code), err.code
    if code is not None:
        assert err.code == code, f"{text!r}: expected {code}, got {err.code}: {err.message}"
    try:
        canasta.apply(state, m)
    except canasta.IllegalMove as exc:
        assert exc.code == err.code
    else:  # pragma: no cover - a failure path
        raise AssertionError(f"apply accepted the illegal move {text!r}")
    return err


def play(state: canasta.State, *texts: str) -> canasta.State:
    """Apply moves in notation, each checked as legal."""
    for text in texts:
        state = assert_legal(state, text)
    return state


def hand(state: canasta.State, seat: int) -> list[str]:
    return sorted(card_str(c) for c in cards_of(state.hands[seat]))


def cards(text: str) -> list[str]:
    return sorted(card_str(c) for c in parse_cards(text))


def meld_of(state: canasta.State, side: int, rank: str) -> list[str]:
    """The side's meld of a rank, as sorted card strings ([] if none)."""
    from canasta.canasta.cards import parse_rank

    return sorted(card_str(c) for c in state.melds[side].get(parse_rank(rank), ()))


def score(sides: list[dict[str, Any]], rules: canasta.Rules | None = None) -> list[dict[str, Any]]:
    return canasta.score_hand(rules or CLASSIC, sides)


def deal(
    rules: canasta.Rules | None = None,
    hands: Mapping[int, str] | None = None,
    upcards: str = "",
    then: str = "",
    dealer: int = 3,
    scores: Iterable[int] = (0, 0),
    hand_number: int = 1,
    seed: int = 0,
) -> canasta.State:
    """Deal a hand from a stacked deck: ``hands`` (seat -> cards, unspecified seats are filled from the
    rest), then the upcard(s) turned in order, then ``then``: the next stock cards, top first (red-three
    replacements and the first draws)."""
    r = rules or CLASSIC
    hands = dict(hands or {})
    left = list(pack(r.decks, r.jokers))

    def take(text: str) -> list[int]:
        out = []
        for c in parse_cards(text):
            left.remove(int(c))
            out.append(int(c))
        return out

    given = {seat: take(text) for seat, text in hands.items()}
    ups = take(upcards)
    nxt = take(then)
    random.Random(seed).shuffle(left)
    # Fill unspecified hands with cards that are not red threes (so the deal is exactly as written).
    for seat in range(r.players):
        if seat not in given:
            chosen = [c for c in left if c not in (5, 6)][: r.hand_size]
            for c in chosen:
                left.remove(c)
            given[seat] = chosen
        assert len(given[seat]) == r.hand_size, f"seat {seat} needs {r.hand_size} cards"
    first = (dealer + 1) % r.players
    pops: list[int] = []
    for i in range(r.hand_size):
        for k in range(r.players):
            pops.append(given[(first + k) % r.players][i])
    pops += ups + nxt
    deck = left + pops[::-1]  # the last card of the deck is the top
    return start_hand(r, seed, hand_number, dealer, tuple(scores), None, deck)
