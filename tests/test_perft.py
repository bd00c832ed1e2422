"""The engine's legal moves against the brute-force reference (tests/reference.py), and perft counts.

(a) At every position of seeded random games (and around hand-built positions for rare phases) the
    engine's ``set(legal_moves(s))`` must equal the reference's set.
(b) Perft: the number of move sequences of length 1, 2 and 3 from fixed positions, computed by the
    engine (``legal_moves`` + ``apply``) and by the reference (reference moves + the engine's raw
    transition), and stored below as literals computed once by the reference.
(c) The disagreements the reference found, one test each with a minimal position, asserting the
    behaviour the rules (docs/sources.md) require. All were fixed in the engine while the reference was
    written (commits 3fccfce and 19f6f62); they stay as regression tests.

To recompute the stored perft counts after a deliberate change to dealing or to ``build_position``:
``python tests/test_perft.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import canasta
from canasta.canasta.cards import is_wild, parse_cards
from canasta.canasta.engine import _apply as raw_apply  # the transition only: legality comes from the reference
from canasta.canasta.moves import Move
from canasta.canasta.state import Turn
from canasta.positions import build_position

try:
    from . import reference as ref
except ImportError:
    import reference as ref  # type: ignore[no-redef]

State = canasta.State
CLASSIC = canasta.rules()


# --- helpers --------------------------------------------------------------------------------------

def differences(state: State) -> tuple[list[str], list[str]]:
    """(moves only the engine allows, moves only the reference allows)."""
    eng = set(canasta.legal_moves(state))
    want = ref.legal_moves(state)
    return sorted(map(str, eng - want)), sorted(map(str, want - eng))


def random_play(state: State, seed: int, plies: int, meld_bias: float, hands: int = 3
                ) -> Iterator[tuple[int, State]]:
    """Positions along a seeded random game from ``state`` (at most ``plies`` moves and ``hands``
    hands); ``meld_bias`` is the chance of preferring a meld or take when one is legal. Moves are
    sorted so the walk depends only on the legal set; after a withdraw the player ends his turn."""
    rng = random.Random(seed)
    last = state.hand_number + hands - 1
    for ply in range(plies):
        yield ply, state
        legal = sorted(canasta.legal_moves(state))
        if not legal or state.hand_number > last:
            return
        if state.history and state.history[-1].endswith(" withdraw"):
            legal = [m for m in legal if m.action != "meld"] or legal
        melds = [m for m in legal if m.action in ("meld", "take")]
        move = rng.choice(melds) if melds and rng.random() < meld_bias else rng.choice(legal)
        state = canasta.apply(state, move)


def mismatches(start: State, seed: int, plies: int, meld_bias: float, label: str, hands: int = 3) -> list[str]:
    """Every position along a seeded walk where the engine and the reference disagree (or where the
    player to move has no legal move although the game goes on)."""
    problems = []
    for ply, s in random_play(start, seed, plies, meld_bias, hands):
        if not canasta.is_over(s) and not canasta.legal_moves(s):
            problems.append(f"{label} ply {ply}: no legal move but the game is not over")
        only_engine, only_ref = differences(s)
        if only_engine or only_ref:
            problems.append(f"{label} ply {ply} ({s.phase}, seat {s.to_move}): engine only {only_engine}, "
                            f"reference only {only_ref}")
    return problems


def assert_none(problems: list[str]) -> None:
    assert not problems, f"{len(problems)} positions differ:\n" + "\n".join(problems[:12])


def stock_empty(state: State, keep_pile: int) -> State:
    """``build_position(stock="")`` puts every unused card under the pile; deal them to the other seats
    instead (red threes to side 1) so that the pile keeps only its last ``keep_pile`` cards."""
    extra = state.pile[:-keep_pile]
    hands = [list(h) for h in state.hands]
    reds = [list(r) for r in state.red_threes]
    for i, c in enumerate(extra):
        if ref.code_of(c) == ref.RED3:
            reds[1].append(c)
        else:
            hands[1 + i % 3][c] += 1
    pile = state.pile[-keep_pile:]
    return state.replace(hands=tuple(tuple(h) for h in hands), red_threes=tuple(tuple(r) for r in reds),
                         pile=pile, pile_frozen=ref.frozen_by_contents(state.rules, pile))


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = canasta.apply(state, canasta.parse_move(state, text))
    return state


# --- (a) seeded random games ------------------------------------------------------------------------

BIASES = (0.0, 0.3, 0.7, 0.95)


@pytest.mark.parametrize("block", range(15))
def test_classic_games_match_reference(block: int) -> None:
    """20 seeded games per block, up to 4 hands each, compared at every position."""
    problems = []
    for seed in range(20 * block, 20 * block + 20):
        problems += mismatches(canasta.new_game(CLASSIC, seed=seed), seed, 4000, BIASES[seed % 4], f"seed {seed}", 4)
    assert_none(problems)


def phase_kinds(s: State) -> list[str]:
    kinds = [s.phase]
    if s.phase != "over" and not s.opened[s.rules.side_of(s.turn_seat)]:
        kinds.append("unopened")
    if s.stage is not None:
        kinds.append("pending" if s.stage.pending is not None else "staged")
    if s.phase == "play" and s.turn.permission in ("yes", "no"):
        kinds.append(f"permission_{s.turn.permission}")
    if not s.stock and s.phase in ("draw", "play"):
        kinds.append(f"stock_empty_{s.phase}")
    return kinds


def test_random_games_cover_the_rare_phases() -> None:
    """The walks of the first blocks above reach every phase the reference must get right (an empty
    stock in the draw phase is rare in play: the built scenarios below cover it too)."""
    seen: dict[str, int] = {}
    for seed in range(60):
        for _, s in random_play(canasta.new_game(CLASSIC, seed=seed), seed, 4000, BIASES[seed % 4], 4):
            for kind in phase_kinds(s):
                seen[kind] = seen.get(kind, 0) + 1
    for kind, least in {"draw": 5000, "play": 5000, "answer": 300, "unopened": 3000, "pending": 50, "staged": 300,
                        "permission_yes": 200, "permission_no": 200, "stock_empty_draw": 1,
                        "stock_empty_play": 10}.items():
        assert seen.get(kind, 0) >= least, f"only {seen.get(kind, 0)} positions of kind {kind}: {seen}"


VARIANT_OPTIONS: list[dict[str, Any]] = [
    {"wild_rule": "le_naturals"},
    {"wild_rule": "lt_naturals"},
    {"wild_rule": "max2"},
    {"one_card_pile_rule": False, "canastas_to_go_out": 2},
    {"concealed_waives_minimum": "always", "forced_take_after_stock": "whenever_able"},
    {"concealed_waives_minimum": "never", "forced_take_after_stock": "never"},
    {"pile_always_frozen": True, "black_three_freezes": True, "black_three_upcard": "covered"},
    {"unfrozen_take_with_natural_plus_wild": False},
    {"permission": "none", "end_of_stock": "end_at_once"},
    {"players": 2, "teams": 2, "hand_size": 15, "draw_count": 2, "canastas_to_go_out": 2, "permission": "none"},
    {"players": 6, "teams": 3, "decks": 3, "jokers": 6},
]


@pytest.mark.parametrize("options", VARIANT_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_rule_options_match_reference(options: dict[str, Any]) -> None:
    """8 seeded games per set of options, up to 3 hands each."""
    problems = []
    for seed in range(1000, 1008):
        problems += mismatches(canasta.new_game(canasta.rules(**options), seed=seed), seed, 3000, BIASES[seed % 4],
                               f"seed {seed}")
    assert_none(problems)


# --- (a) hand-built positions for the rare phases ------------------------------------------------------

def _scenarios() -> dict[str, State]:
    r = CLASSIC
    gc_i05 = dict(hands={0: "KH KD QC QD 2H 9S 7C 5D 4H"}, pile="KC QS 5C KS", seed=1)
    near_out = dict(hands={0: "9S 9H 2D 4C 4D", 2: "5S 6S 8D"},
                    melds=[["9C 9D 9D 9C 2S", "QS QH QD QC QS QH 2C"], ["AS AH AD"]], pile="6S 7H", seed=2)
    return {
        # GC-I05: unopened side takes the pile; only the top card counts (pending opening).
        "gc_i05_need50": build_position(r, **gc_i05),
        "gc_i05_need90": build_position(r, scores=[1500, 0], **gc_i05),
        "gc_i05_after_take": play(build_position(r, **gc_i05), "take K K"),
        "gc_i05_staged": play(build_position(r, **gc_i05), "take K K", "meld Q Q 2"),
        # GC-P02/P03: natural + wild on an unfrozen pile; a wild in the pile freezes it.
        "gc_p02_unfrozen": build_position(r, hands={0: "9S JK 5C 6D 7H KS"}, pile="4C 8D 9D",
                                          melds=[["AS AH AD"], ["QS QH QD"]], seed=3),
        "gc_p03_frozen": build_position(r, hands={0: "9S JK 9C 6D 7H KS"}, pile="4C 2D 8D 9D",
                                        melds=[["AS AH AD"], ["QS QH QD"]], seed=3),
        # GC-P04: black three on top; GC-P05: adding to the side's canasta; GC-P06: one-card pile.
        "gc_p04_black_three_top": build_position(r, hands={0: "9S 9C 5D"}, pile="9D 3S",
                                                 melds=[["AS AH AD"], []], seed=4),
        "gc_p05_add_to_canasta": build_position(r, hands={0: "4S 5D 6C"}, pile="7C 9D",
                                                melds=[["9S 9H 9H 9C 9C 9S 2D"], []], seed=5),
        "gc_p06_one_card_pile": build_position(r, hands={0: "KD"}, pile="KS", melds=[["KH KC KC"], []], seed=6),
        # GC-I18: unopened side at 1,600 goes out concealed from the stock (D2): no minimum.
        "gc_i18_concealed": build_position(r, hands={0: "KS KS KH KH KD KC KC 5S 5H 5D"}, pile="4C 9D",
                                           scores=[1600, 0], phase="play", turn=Turn(source="stock"), seed=7),
        # Permission: ask, then yes (must go out if he can) or no (may not go out).
        "permission_ask": play(build_position(r, **near_out), "draw"),
        "permission_yes": play(build_position(r, **near_out), "draw", "ask", "yes"),
        "permission_no": play(build_position(r, **near_out), "draw", "ask", "no"),
        # Black threes melded only when going out.
        "black_threes_out": build_position(r, hands={0: "3S 3C 3S 7D 7C"}, pile="5C 6D", phase="play",
                                           melds=[["7S 7H 7H 7S JK", "QS QH QD QC QS QH QD"], ["KS KH KD"]],
                                           turn=Turn(source="stock"), seed=8),
        # End of stock: forced take (top card fits an own meld, pile unfrozen) and optional take.
        "stock_empty_forced": stock_empty(build_position(
            r, hands={0: "8S 8H JC 5D 6D", 2: "4S 4D 7C"}, melds=[["8C 8D 8D", "JS JH JD 2C"], ["TS TH TD"]],
            pile="9S 6H 8H", stock="", seed=9), 3),
        "stock_empty_optional": stock_empty(build_position(
            r, hands={0: "KS KH JC 5D 6D"}, melds=[["8C 8D 8D", "JS JH JD 2C"], ["TS TH TD"]],
            pile="9S 6H KD", stock="", seed=10), 3),
        # The last stock card is a red three: the hand ends at once (D8).
        "last_card_red_three": build_position(r, hands={0: "KS KH JC 5D 6D"}, melds=[["8C 8D 8D"], ["TS TH TD"]],
                                              pile="9S 6H", stock="3H", seed=11),
        # Unopened side, stock draw, staged melds short of the minimum (withdraw).
        "staged_short": play(build_position(r, hands={0: "7S 7H 7D 5C 5D 5S 9C JD QH KH 4C"}, pile="6C 8D",
                                            seed=12), "draw", "meld 7 7 7"),
    }


SCENARIOS = _scenarios()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_built_positions_match_reference(name: str) -> None:
    start = SCENARIOS[name]
    assert_none([p for seed in range(3) for p in mismatches(start, seed, 80, BIASES[seed + 1], f"walk {seed}")])


def test_built_positions_have_the_rulebook_answers() -> None:
    """Spot checks of the scenarios against the rules and worked examples (docs/sources.md), independent of both
    enumerators."""
    def legal(name: str) -> set[str]:
        return {str(m) for m in canasta.legal_moves(SCENARIOS[name])}

    assert "take K K" in legal("gc_i05_need50")
    assert "take K K" not in legal("gc_i05_need90")
    assert "take 9 JK" in legal("gc_p02_unfrozen")
    assert "take 9 JK" not in legal("gc_p03_frozen") and "take 9 9" in legal("gc_p03_frozen")
    assert legal("gc_p04_black_three_top") == {"draw"}
    assert "take" in legal("gc_p05_add_to_canasta")
    assert legal("gc_p06_one_card_pile") == {"draw"}
    concealed = play(SCENARIOS["gc_i18_concealed"], "meld K K K K K K K")
    assert "meld 5 5 5" in {str(m) for m in canasta.legal_moves(concealed)}
    assert play(concealed, "meld 5 5 5").last_hand[0]["concealed"]  # type: ignore[index]
    assert "discard 4" not in legal("permission_yes") and "ask" in legal("permission_ask")
    no = SCENARIOS["permission_no"]
    hand_size = sum(no.hands[no.turn_seat])
    assert all(m.cards <= hand_size - 2 for m in canasta.legal_moves(no) if m.action == "meld")
    assert "meld 3 3 3" not in legal("black_threes_out")  # black threes only as the last meld
    assert "meld 3 3 3" in {str(m) for m in canasta.legal_moves(play(SCENARIOS["black_threes_out"], "meld 7 7"))}
    assert legal("stock_empty_forced") == {"take", "take 8 8"}
    assert "pass" in legal("stock_empty_optional") and "take K K" in legal("stock_empty_optional")
    assert "withdraw" in legal("staged_short") and not any(m.startswith("discard") for m in legal("staged_short"))
    after = canasta.apply(SCENARIOS["last_card_red_three"], Move("draw"))
    assert after.hand_number == 2


# --- (b) perft ------------------------------------------------------------------------------------

def perft(state: State, depth: int, moves: Callable[[State], Any], step: Callable[[State, Move], State]) -> int:
    if depth == 0:
        return 1
    legal = moves(state)
    if depth == 1:
        return len(legal)
    return sum(perft(step(state, m), depth - 1, moves, step) for m in legal)


def _perft_positions() -> dict[str, State]:
    r = CLASSIC
    return {
        "start_seed_2024": canasta.new_game(r, seed=2024),
        "opened_play": build_position(r, hands={0: "KS KH KD 9C 9D 7S 7H 2C JK 5D 4C QS"}, pile="8C 6D TH",
                                      melds=[["AS AH AD", "TS TD TC TH 2S"], ["5S 5H 5C"]], phase="play",
                                      turn=Turn(source="stock"), seed=5),
        "unopened_take": build_position(r, hands={0: "KH KD QC QD 2H 9S 7C 5D 4H 8S 6C"}, pile="KC QS 5C KS",
                                        seed=7),
        "near_out": build_position(r, hands={0: "9S 9H 2D 4C 4D"}, pile="6S 7H", seed=9,
                                   melds=[["9C 9D 9D 9C 2S", "QS QH QD QC QS QH 2C"], ["AS AH AD"]]),
        "stock_empty": stock_empty(build_position(
            r, hands={0: "8S 8H JC 5D", 2: "4S 4D 7C"}, melds=[["8C 8D 8D", "JS JH JD 2C"], ["TS TH TD"]],
            pile="9S 8H", stock="", seed=11), 2),
        "black_threes": build_position(r, hands={0: "3S 3C 3S 7D 7C"}, pile="5C 6D", seed=13,
                                       melds=[["7S 7H 7H 7S JK", "QS QH QD QC QS QH QD"], ["KS KH KD"]]),
        "big_hand_play": build_position(r, hands={0: "KS KH QS QD QC 9C 9D 7S 7H 6C 6D 5S 4H 2C 2D JK"},
                                        pile="8C 6S TH", melds=[["AS AH AD", "TS TD TC TH 2S"], ["5D 5H 5C"]],
                                        phase="play", turn=Turn(source="stock"), seed=31),
        "pending_opening": play(build_position(r, hands={0: "KH KD QC QD 2H 9S 7C 5D 4H"}, pile="KC QS 5C KS",
                                               seed=1), "take K K"),
        "permission_yes": play(build_position(r, hands={0: "9S 9H 2D 4C 4D", 2: "5S 6S 8D"}, pile="6S 7H", seed=2,
                                              melds=[["9C 9D 9D 9C 2S", "QS QH QD QC QS QH 2C"], ["AS AH AD"]]),
                               "draw", "ask", "yes"),
        "unopened_stock": play(build_position(r, hands={0: "7S 7H 7D 5C 5D 5S 9C JD QH KH 4C"}, pile="6C 8D",
                                              seed=12), "draw"),
    }


PERFT_POSITIONS = _perft_positions()

# Computed once by the reference (``python tests/test_perft.py``): depth 1, 2, 3.
PERFT_EXPECTED = {
    "start_seed_2024": (2, 52, 489),
    "opened_play": (28, 231, 1051),
    "unopened_take": (2, 15, 36),
    "near_out": (1, 12, 42),
    "stock_empty": (2, 13, 46),
    "black_threes": (1, 6, 13),
    "big_hand_play": (50, 816, 6376),
    "pending_opening": (2, 16, 38),
    "permission_yes": (3, 5, 5),
    "unopened_stock": (11, 15, 179),  # 183 before withdraw became once a turn
}


def _reference_moves(state: State) -> list[Move]:
    return sorted(ref.legal_moves(state))


@pytest.mark.parametrize("name", sorted(PERFT_EXPECTED))
def test_perft_reference_counts(name: str) -> None:
    state = PERFT_POSITIONS[name]
    got = tuple(perft(state, d, _reference_moves, raw_apply) for d in (1, 2, 3))
    assert got == PERFT_EXPECTED[name]


@pytest.mark.parametrize("name", sorted(PERFT_EXPECTED))
def test_perft_engine_counts(name: str) -> None:
    state = PERFT_POSITIONS[name]
    got = tuple(perft(state, d, canasta.legal_moves, canasta.apply) for d in (1, 2, 3))
    assert got == PERFT_EXPECTED[name]


# --- (c) the disagreements found: the rules' answer, asserted against the engine --------------------

def _legal(state: State) -> set[str]:
    return {str(m) for m in canasta.legal_moves(state)}


def _reference(state: State) -> set[str]:
    return {str(m) for m in ref.legal_moves(state)}


def test_opening_with_the_pile_may_add_wilds_to_the_take_meld() -> None:
    """§3.4: the opening counts everything melded from the hand plus the top card. Take 9 9 (30) and
    add the 2 from the hand to the 9s (20): 50 reaches the minimum, although no 9 is left in hand."""
    s = build_position(CLASSIC, hands={0: "9H 9D 2C 4S 6H 7D"}, pile="QH 8H 9C", seed=21)
    assert "take 9 9" in _reference(s)
    assert "take 9 9" in _legal(s)
    assert "meld 2 on 9" in _legal(play(s, "take 9 9"))


def test_a_player_who_must_and_can_go_out_has_a_move() -> None:
    """§3.7 with two canastas to go out (a Rules option): after 'yes' the player holding 2 2 can go
    out (2 on the 4s and 2 on the 7s make two canastas), so he must. Each single meld leaves one card
    while the side has fewer than two canastas; the engine used to refuse that (a meld leaving one
    card needed the canastas already), and 'meld 2 2 on 4' goes out with only one: no legal move."""
    r = canasta.rules(canastas_to_go_out=2)
    s = build_position(r, hands={0: "2S 2H"}, pile="AD",
                       melds=[["4S 4S 4D 4C 4C JK", "2S 7S 7H 7H 7D 7C", "QS QD QC"], ["KS KH KD"]],
                       phase="play", turn=Turn(source="stock", permission="yes"), seed=22)
    assert _reference(s) == {"meld 2 on 4", "meld 2 on 7"}
    assert _legal(s) == _reference(s)


def test_a_meld_may_leave_one_card_that_finishes_the_canasta() -> None:
    """§3.7: going out by melding every card; the canasta may be finished in the going-out turn.
    Melding one 6 leaves a 6 that makes the 6s a canasta, so the player can still go out."""
    s = build_position(CLASSIC, hands={0: "6H 6D"}, pile="AC",
                       melds=[["6S 6S 6H 6C 6C", "KS KH KD KC KC"], ["QS QH QD"]], phase="play",
                       turn=Turn(source="stock"), seed=28)
    assert "meld 6" in _reference(s)
    assert "meld 6" in _legal(s)


def test_a_take_may_leave_one_card_that_finishes_the_canasta() -> None:
    """As above for the pile: take Q Q (new meld Q Q Q) leaves the 2, which makes the 10s a canasta."""
    s = build_position(CLASSIC, hands={0: "QD QS 2C"}, pile="QH",
                       melds=[["TS TS TH TH TD TC", "AS AH AD"], ["KS KH KD"]], seed=23)
    assert "take Q Q" in _reference(s)
    assert "take Q Q" in _legal(s)


def test_unopened_take_that_opens_by_going_out() -> None:
    """§3.4 + §3.7: at 1,500 (minimum 90) take K K (30) and meld K K K K 2 (60): 90 from the hand and
    the top card, an 8-card canasta, and the hand is empty: a legal opening that goes out."""
    s = build_position(CLASSIC, hands={0: "KS KS KH KH KD KC 2C"}, pile="KD", scores=[1500, 0], seed=24)
    assert "take K K" in _reference(s)
    assert "take K K" in _legal(s)


def test_red_three_in_the_pile_does_not_join_the_hand() -> None:
    """§3.5 / GC-P10: a red three in a taken pile is laid out. Here the pile is 3H (the covered upcard)
    and 9C: after take 9 9 the pending pile is empty, and reaching 50 with K K K leaves only the Q,
    which could only be discarded to go out without a canasta. So the take must be illegal; the engine
    offers it and the next position has no legal move at all."""
    s = build_position(CLASSIC, hands={0: "9S 9H KS KH KD QC"}, pile="3H 9C", seed=25)
    assert "take 9 9" not in _reference(s)
    assert "take 9 9" not in _legal(s)


def test_red_three_in_the_pile_opened_side() -> None:
    """The same miscount for a side that has opened: after take 9 9 only the Q is left in hand."""
    s = build_position(CLASSIC, hands={0: "9S 9H QC"}, pile="3H 9C", melds=[["KS KH KD"], []], seed=26)
    assert "take 9 9" not in _reference(s)
    assert "take 9 9" not in _legal(s)


def test_meld_no_discard_may_meld_down_to_one_card() -> None:
    """D8 (Britannica/S1 option ``meld_no_discard``): after a last stock card that is a red three the
    player may meld but not discard, then the hand ends: melding 9 9 9 and keeping the Q is legal."""
    r = canasta.rules(last_card_red_three="meld_no_discard")
    s = build_position(r, hands={0: "9S 9H 9D QC"}, pile="5C", melds=[["KS KH KD"], []], stock="",
                       phase="play", turn=Turn(source="stock", no_discard=True), seed=27)
    assert "meld 9 9 9" in _reference(s)
    assert "meld 9 9 9" in _legal(s)


def test_reference_checks_itself() -> None:
    """The reference's own helpers against docs/sources.md numbers (so a broken reference is noticed)."""
    assert ref.minimum_for(CLASSIC, -5) == 15 and ref.minimum_for(CLASSIC, 0) == 50
    assert ref.minimum_for(CLASSIC, 1495) == 50 and ref.minimum_for(CLASSIC, 1500) == 90
    assert ref.minimum_for(CLASSIC, 2995) == 90 and ref.minimum_for(CLASSIC, 3000) == 120
    values = {str(c): ref.POINTS[ref.code_of(c)] for c in parse_cards("JK 2S AH KD 8C 7S 4H 3C 3H")}
    assert values == {"JK": 50, "2S": 20, "AH": 20, "KD": 10, "8C": 10, "7S": 5, "4H": 5, "3C": 5, "3H": 0}
    assert [is_wild(c) for c in parse_cards("JK 2C 3S")] == [True, True, False]
    assert ref.meld_valid(CLASSIC, 2, 3, 5) and not ref.meld_valid(CLASSIC, 2, 4, 6)
    assert not ref.meld_valid(CLASSIC, 1, 2, 3) and not ref.meld_valid(CLASSIC, 2, 0, 2)


if __name__ == "__main__":
    for pname, pstate in PERFT_POSITIONS.items():
        counts = tuple(perft(pstate, d, _reference_moves, raw_apply) for d in (1, 2, 3))
        print(f"    {pname!r}: {counts},")
