"""The rummy family under random play: cards accounted for at every ply, termination, JSON and record round
trips, notation round trips, views that hide hands; perft counts cross-checked by a brute-force enumerator
written here, apart from the engine's generator."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

import canasta
from canasta.canasta.cards import JOKER, card_str, rank_of
from canasta.play.record import Recorder, replay
from canasta.positions import load_state
from canasta.rummy import RummyRules, RummyState
from canasta.rummy.melds import label
from rummy_helpers import strands

PRESETS = ["500-rum", "500-rum-partnership", "persian-rummy", "basic-rummy"]
CONFIGS = [(name, {}) for name in PRESETS] + [
    ("500-rum", {"players": 2}), ("500-rum", {"players": 4}), ("basic-rummy", {"players": 4}),
    # Boathouse's hands grow by a card a turn: random players never reach 500, so two hands make the game.
    ("500-rum", {"ace": "around", "first_meld": 30, "go_out_needs_discard": True, "draw_count": 2,
                 "hands_per_game": 2}),
    ("500-rum", {"take_only_for_new_meld": True, "empty_stock": "end", "lay_off_on": "own_side"}),
    ("basic-rummy", {"ace": "high", "taken_card": "at_once", "pile_take": "any"}),
]


def R(name: str, **options: object) -> RummyRules:
    r = canasta.rules(name, **options)
    assert isinstance(r, RummyRules)
    return r


def pack_count(s: RummyState) -> int:
    return len(s.stock) + len(s.pile) + sum(len(h) for h in s.hands) + sum(len(m.cards) for m in s.melds)


@pytest.mark.parametrize("name,options", CONFIGS)
def test_random_games_keep_every_invariant(name: str, options: dict[str, object]) -> None:
    r = R(name, **options)
    for seed in range(2):
        rng = random.Random(seed)
        rec = Recorder(canasta.new_game(r, seed=seed))
        plies = 0
        while not canasta.is_over(rec.state):
            s = rec.state
            assert pack_count(s) == r.pack_size  # 52-56 cards, every one somewhere, at every ply
            legal = canasta.legal_moves(s)
            assert legal and len(set(legal)) == len(legal)
            move = rng.choice(legal)
            assert canasta.parse_move(s, str(move)) == move  # notation round trip
            assert canasta.why_illegal(s, move) is None
            if plies % 11 == 0:
                assert load_state(s.to_json()) == s and RummyState.from_json(s.to_json()).to_json() == s.to_json()
                _check_views(s)
            rec.apply(move)
            plies += 1
            assert plies < 40000, "the game must end"  # random 4-player Basic Rummy: stalemates make long games
        record = json.loads(json.dumps(rec.record()))
        assert replay(record) == rec.state
        out = canasta.outcome(rec.state)
        assert out is not None and len(out["scores"]) == r.teams


def _check_views(s: RummyState) -> None:
    r = s.rules
    for seat in range(r.players):
        v = canasta.view(s, seat)
        json.dumps(v)
        assert v["hand"] == [card_str(c) for c in s.hands[seat]]
        assert v["pile"] == [card_str(c) for c in s.pile]  # the spread pile is public
        text = json.dumps({k: val for k, val in v.items() if k not in ("hand", "last_hand")})
        others = [c for o in range(r.players) if o != seat for c in s.hands[o]]
        hidden = {card_str(c) for c in others} - {card_str(c) for c in s.pile} - {
            card_str(c) for m in s.melds for c in m.cards} - {card_str(c) for c in s.hands[seat]} - {
            e.split()[-1] for e in s.history}
        for card in hidden:
            assert f'"{card}"' not in text, f"seat {seat} sees {card} of another hand"
        assert "stock" in v and isinstance(v["stock"], int)
    spectator = canasta.public_view(s)
    assert "hand" not in spectator


def test_view_rejects_a_bad_seat() -> None:
    s = canasta.new_game(R("500-rum"), seed=1)
    with pytest.raises(ValueError, match="seat"):
        canasta.view(s, 7)


def test_bad_positions_are_refused_with_a_message() -> None:
    s = canasta.new_game(R("basic-rummy"), seed=2)
    data = json.loads(s.to_json())
    data["hands"][0].append(data["stock"].pop())
    assert load_state(json.dumps(data)).hands[0]  # moved, not lost: still a whole pack
    data["stock"].append("AS")
    with pytest.raises(ValueError, match="exactly once"):
        load_state(json.dumps(data))
    with pytest.raises(ValueError, match="phase"):
        load_state(json.dumps({**json.loads(s.to_json()), "phase": "dance"}))


def test_tampered_record_is_rejected_with_the_move_number() -> None:
    r = R("500-rum")
    rec = Recorder(canasta.new_game(r, seed=4))
    rng = random.Random(4)
    for _ in range(12):
        rec.apply(rng.choice(canasta.legal_moves(rec.state)))
    record = rec.record()
    record["moves"][5] = record["moves"][5].split()[0] + " discard JK"
    with pytest.raises(ValueError, match="move 6"):
        replay(record)


# --- the independent enumerator -----------------------------------------------------------------------

def _positions(r: RummyRules, cards: list[int]) -> list[list[int]]:
    """Every way to read the cards' ranks as run positions (ace 1 or 14), by the rules' ace option."""
    ranks = [rank_of(c) for c in cards]
    readings = [[]]  # type: list[list[int]]
    for rank in ranks:
        choices = [rank]
        if rank == 14:
            choices = {"low": [1], "high": [14], "both": [1, 14], "around": [1]}[r.ace]
        readings = [[*p, c] for p in readings for c in choices]
    return readings


def is_meld(r: RummyRules, cards: list[int]) -> bool:
    if len(cards) < 3:
        return False
    if all(c == JOKER for c in cards):
        return r.joker_sets and len(cards) <= 4
    if JOKER in cards:
        return False
    if len({rank_of(c) for c in cards}) == 1:
        return len(cards) <= 4
    if len({c & 3 for c in cards}) != 1 or len(set(cards)) != len(cards):
        return False
    for pos in _positions(r, cards):
        pos = sorted(pos)
        if pos[-1] - pos[0] == len(pos) - 1:
            return True
        if r.ace == "around":
            n = len(pos)
            for start in range(1, 14):
                if sorted((start - 1 + k) % 13 + 1 for k in range(n)) == pos:
                    return True
    return False


def brute_moves(s: RummyState) -> set[str]:
    r = s.rules
    seat = s.turn_seat
    hand = list(s.hands[seat])
    out: set[str] = set()
    if s.phase == "draw":
        if s.stock:
            out.add("draw")
        elif r.empty_stock == "play_from_pile":
            out.add("pass")
        indices = range(len(s.pile)) if r.pile_take == "any" else range(len(s.pile) - 1, len(s.pile))
        for i in indices:
            card = s.pile[i]
            if card in s.pile[i + 1:]:
                continue
            if r.taken_card == "keep" or _uses(s, hand + list(s.pile[i:]), card):
                out.add(f"take {card_str(card)}")
        return out
    if s.phase != "play":
        return out
    uses = _plays(s, hand)
    if s.must_use >= 0:
        return {text for text, cards, kind in uses if s.must_use in cards
                and (kind == "meld" or not r.take_only_for_new_meld)}
    out |= {text for text, _c, _k in uses}
    if not r.discard_taken_same_turn:  # never the taken card, nor a play that leaves only it, unplayable
        out = {text for text in out if not strands(s, text, brute_moves)}
    discard = set(hand) if r.discard_taken_same_turn else set(hand) - set(s.taken)
    out |= {f"discard {card_str(c)}" for c in discard}
    return out


def _uses(s: RummyState, hand: list[int], card: int) -> bool:
    return any(card in cards and (kind == "meld" or not s.rules.take_only_for_new_meld)
               for _t, cards, kind in _plays(s, hand, card))


def _plays(s: RummyState, hand: list[int], card: int | None = None) -> list[tuple[str, tuple[int, ...], str]]:
    """Every meld and lay-off of the hand (only those with ``card`` when it is given: the rest would be
    enumerated and thrown away by the caller)."""
    r = s.rules
    seat = s.turn_seat
    opened = s.melded[seat] or s.turn_melded or r.first_meld == 0
    out = []
    seen = set()
    for n in range(3, len(hand) + 1):
        for combo in combinations(sorted(hand), n):
            if (card is not None and card not in combo) or combo in seen or not is_meld(r, list(combo)):
                continue
            seen.add(combo)
            if r.go_out_needs_discard and n >= len(hand):
                continue
            if not opened:
                from canasta.rummy.generate import meld_value

                if meld_value(r, combo) < r.first_meld:
                    continue
            text = str(canasta.parse_move(s, "meld " + " ".join(card_str(c) for c in combo)))
            out.append((text, combo, "meld"))
    if opened and not (r.go_out_needs_discard and len(hand) <= 1):
        for m in s.melds:
            if r.lay_off_on == "own_side" and r.side_of(m.seats[0]) != r.side_of(seat):
                continue
            for c in set(hand):
                grown = [*m.cards, c]
                ok = (len(grown) <= 4 and all(x == c for x in m.cards)) if m.kind != "run" else is_meld(r, grown)
                if m.kind == "set":
                    ok = rank_of(c) == rank_of(m.cards[0]) and c != JOKER and len(grown) <= 4
                if ok:
                    out.append((f"lay {card_str(c)} on {label(m)}", (c,), "lay"))
    return out


def perft(s: RummyState, depth: int, moves_of: object) -> int:
    if depth == 0 or canasta.is_over(s):
        return 1
    total = 0
    for text in sorted(moves_of(s)):  # type: ignore[operator]
        total += perft(canasta.apply(s, text), depth - 1, moves_of)
    return total


def _positions_for_perft() -> list[RummyState]:
    states = []
    for name, options in [("500-rum", {}), ("basic-rummy", {}), ("500-rum", {"players": 2}),
                          ("persian-rummy", {}), ("500-rum", {"ace": "around"})]:
        r = R(name, **options)
        for seed in (1, 2):
            s = canasta.new_game(r, seed=seed)
            rng = random.Random(seed)
            for _ in range(6 + 5 * seed):
                if canasta.is_over(s):
                    break
                s = canasta.apply(s, rng.choice(canasta.legal_moves(s)))
            states.append(s)
    return states


@pytest.mark.parametrize("index", range(10))
def test_perft_matches_the_brute_force_enumerator(index: int) -> None:
    s = _positions_for_perft()[index]

    def engine(state: RummyState) -> set[str]:
        return {str(m) for m in canasta.legal_moves(state)}

    frontier = [s]
    for _ in range(2):  # every position two plies deep: the two move lists agree
        nxt = []
        for st in frontier:
            assert engine(st) == brute_moves(st), st.to_json()
            nxt += [canasta.apply(st, m) for m in sorted(engine(st))]
        frontier = nxt
    assert perft(s, 3, engine) == perft(s, 3, brute_moves) > 0
