"""Modern American scoring and special hands (docs/sources.md §4C, D20; worked examples E and F).

Each test names the GOLDEN case it checks. ``modern-american`` is pagat's profile, ``modern-american-cla``
the Canasta League of America's. Hands are scored through ``canasta.score_hand`` (the input of
``canasta score``), ``canasta.canasta.scoring.score_side`` (what the engine calls) or the CLI itself.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

import canasta
from canasta.canasta.cards import parse_cards
from canasta.canasta.scoring import LINE_NAMES, meld_problem, score_side, score_special_hand
from canasta.canasta.special_hands import SPECIAL_HANDS, forms, special_hand_of, special_hands_formed
from canasta.cli import main
from canasta.textui import _LINE_LABELS, render_hand_end

MA = canasta.rules("modern-american")
CLA = canasta.rules("modern-american-cla")
CLASSIC = canasta.rules("classic")

CLASSIC_LINES = ["melded_cards", "cards_in_hand", "natural_canastas", "mixed_canastas", "red_threes",
                 "going_out", "undeclared_red_threes"]
MA_LINES = [*CLASSIC_LINES, "wild_canastas", "rank_canastas", "black_threes_laid_out", "unfinished_melds",
            "hand_penalties"]

K7 = "KS KH KD KC KS KH KD"  # natural canasta, 70 + 500
Q7 = "QS QH QD QC QS QH QD"  # natural canasta, 70 + 500
SEVENS7 = "7S 7H 7D 7C 7S 7H 7D"  # natural canasta of sevens, 35 + 2,500
ACES7 = "AS AH AD AC AS AH AD"  # natural canasta of aces, 140 + 2,500
GARBAGE = "KS KH KD KC QS QH QD QC 9S 9H 9D 8S 8H 8D"  # 4 + 4 + 3 + 3, no wild cards
PAIRS = "KS KH QS QH JS JH TS TH 9S 9H 8S 8H 6S 6H"  # seven pairs, no 7s, aces or wild cards


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def one_side(rules: canasta.Rules, **side: Any) -> dict[str, Any]:
    """Score a hand in which only the first side has anything; return that side's result."""
    result: list[dict[str, Any]] = canasta.score_hand(rules, [side, *({} for _ in range(rules.teams - 1))])
    return result[0]


def assert_sums(result: dict[str, Any]) -> None:
    assert sum(result["lines"].values()) == result["total"]


# --- GC-S08, GC-S09 penalties ------------------------------------------------------------------------


def test_gc_s08_penalties_add_up() -> None:
    """GC-S08: an unfinished meld of 7s (-2,500) and a player holding 7 7 7 (-1,500, plus -15 card value):
    -4,015 in all; with no canasta the meld's own 15 points also count minus (GC-S11), so -4,030."""
    res = score_side(MA, [cards("7S 7H 7D")], cards("7C 7S 7H"), [])
    lines = res["lines"]
    assert lines["unfinished_melds"] == -2500 and lines["hand_penalties"] == -1500
    assert lines["unfinished_melds"] + lines["hand_penalties"] + lines["cards_in_hand"] == -4015
    assert lines["melded_cards"] == -15 and res["total"] == -4030
    assert list(lines) == MA_LINES
    assert_sums(res)


def test_gc_s08_with_two_canastas_the_penalties_still_apply() -> None:
    """GC-S08 for a side with two canastas: its melds count plus, the penalties are unchanged."""
    res = one_side(MA, melds=[K7, Q7, "7S 7H 7D"], hand="7C 7S 7H")
    assert res["lines"]["unfinished_melds"] == -2500 and res["lines"]["hand_penalties"] == -1500
    assert res["total"] == 155 + 1000 - 15 - 4000
    assert_sums(res)


def test_gc_s09_penalties_are_per_player() -> None:
    """GC-S09: both partners end with 3 aces: 2 × 1,500 + 6 × 20 = -3,120."""
    res = one_side(MA, hands=["AS AH AD", "AC AS AH"])
    assert res["lines"]["hand_penalties"] == -3000 and res["lines"]["cards_in_hand"] == -120
    assert res["total"] == -3120
    # The same six aces as one player's hand pay once; a player with only two aces pays nothing.
    assert one_side(MA, hand="AS AH AD AC AS AH")["total"] == -1620
    assert one_side(MA, hands=["AS AH", "AD AC AS AH"])["total"] == -1620
    assert one_side(MA, hands=["AS AH", "7S 7H"])["total"] == -50


def test_score_side_player_hands_must_match_hand() -> None:
    """score_side: player_hands alone give the hand; given with a different hand they are refused."""
    split = [cards("AS AH AD"), cards("7S 7H 7D")]
    assert score_side(MA, [], [], [], player_hands=split)["total"] == -60 - 15 - 3000
    assert score_side(MA, [], cards("AS AH AD 7S 7H 7D"), [], player_hands=split)["total"] == -3075
    with pytest.raises(ValueError, match="player_hands"):
        score_side(MA, [], cards("AS AH AD 7S 7H"), [], player_hands=split)


def test_hand_penalties_only_under_modern_american() -> None:
    """Classic has no hand penalties and no such line: three aces cost only their 60 points."""
    res = one_side(CLASSIC, hands=["AS AH AD"])
    assert res["total"] == -60 and list(res["lines"]) == CLASSIC_LINES


# --- GC-S10 threes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("melds", "expected"), [([], -400), ([K7], 0), ([K7, Q7], 400)])
def test_gc_s10_threes_by_colour_and_canasta_count(melds: list[str], expected: int) -> None:
    """GC-S10: 2 red threes + 1 black three = 300 + 100; minus with no canasta, 0 with one, plus with two."""
    res = one_side(MA, melds=melds, threes="3H 3D 3C")
    assert res["lines"]["red_threes"] + res["lines"]["black_threes_laid_out"] == expected
    assert abs(res["lines"]["red_threes"]) == (300 if expected else 0)
    assert_sums(res)


@pytest.mark.parametrize(("n", "value"), [(1, 100), (2, 300), (3, 500), (4, 1000)])
def test_gc_s10_scale_per_colour(n: int, value: int) -> None:
    """GC-S10: per colour 1 → 100, 2 → 300, 3 → 500, 4 → 1,000 (here with two canastas, so plus)."""
    reds = ["3H", "3D", "3H", "3D"][:n]
    blacks = ["3S", "3C", "3S", "3C"][:n]
    res = score_side(MA, [cards(K7), cards(Q7)], [], cards(" ".join(reds + blacks)))
    assert res["lines"]["red_threes"] == value and res["lines"]["black_threes_laid_out"] == value


def test_threes_field_takes_both_colours_only_where_all_threes_are_laid_out() -> None:
    """score_hand: red_threes (or threes) may hold black threes in Modern American, not in Classic."""
    assert one_side(MA, melds=[K7, Q7], red_threes="3S")["lines"]["black_threes_laid_out"] == 100
    with pytest.raises(ValueError, match="3S is not a red three"):
        one_side(CLASSIC, red_threes="3S")
    with pytest.raises(ValueError, match="unknown field"):
        one_side(CLASSIC, threes="3H")
    with pytest.raises(ValueError, match="once"):
        one_side(MA, threes="3H", red_threes="3D")
    with pytest.raises(ValueError, match="4S is not a three"):
        one_side(MA, threes="4S")


# --- GC-S11 melds minus without a canasta ----------------------------------------------------------------


def test_gc_s11_melds_count_minus_without_canasta() -> None:
    """GC-S11: no canasta; melds K K K + Q Q Q 2 = 80; one red three -100; hand 30 → -210."""
    res = one_side(MA, melds=["KS KH KD", "QS QH QD 2C"], threes="3H", hand="KC 9D 6C 4H")
    assert res["lines"]["melded_cards"] == -80 and res["lines"]["red_threes"] == -100
    assert res["total"] == -210
    plain = canasta.rules("modern-american", melds_minus_without_canasta=False)
    assert one_side(plain, melds=["KS KH KD", "QS QH QD 2C"], threes="3H", hand="KC 9D 6C 4H")["total"] == -50


def test_a_wild_canasta_is_a_canasta_for_the_meld_values() -> None:
    """Any canasta (a wild one too) lets the side's melds count plus."""
    res = one_side(MA, melds=["2S 2H 2D 2C 2S 2H 2D", "KS KH KD"])
    assert res["lines"]["melded_cards"] == 140 + 30


# --- canasta bonuses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("meld", "rank", "natural", "mixed"), [
    (SEVENS7, 2500, 0, 0), (ACES7, 2500, 0, 0), (K7, 0, 500, 0),
    ("AS AH AD AC AS 2C 2D", 0, 0, 300),  # a mixed ace canasta (wild cards allowed in the opening)
])
def test_canastas_of_sevens_and_aces(meld: str, rank: int, natural: int, mixed: int) -> None:
    """§4C: a natural canasta of 7s or of aces 2,500; other naturals 500; a mixed ace canasta 300."""
    res = one_side(MA, melds=[meld])
    assert res["lines"]["rank_canastas"] == rank
    assert res["lines"]["natural_canastas"] == natural and res["lines"]["mixed_canastas"] == mixed
    assert_sums(res)


@pytest.mark.parametrize(("meld", "bonus"), [
    ("2S 2H 2D 2C 2S 2H 2D", 3000), ("JK JK JK JK 2S 2H 2D", 2500),
    ("JK 2S 2H 2D 2C 2S 2H", 2000), ("JK JK JK 2S 2H 2D 2C", 2000),
])
def test_wild_canastas(meld: str, bonus: int) -> None:
    """§4C: a wild canasta of seven twos 3,000; four jokers and three twos 2,500; any other 2,000."""
    for rules in (MA, CLA):
        res = one_side(rules, melds=[meld])
        assert res["lines"]["wild_canastas"] == bonus and res["lines"]["unfinished_melds"] == 0


# --- unfinished melds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("meld", "pagat", "cla"), [
    ("JK 2S 2H", 2000, 2000), ("JK JK JK JK 2S", 2500, 2000), ("JK JK JK JK", 2500, 2000),
    ("JK JK JK 2S 2H 2D", 2000, 2000), ("AS AH AD", 2500, 2500), ("AS AH 2C", 2500, 2500),
    ("7S 7H 7D 7C 7S 7H", 2500, 2500), ("KS KH KD", 0, 0), (SEVENS7, 0, 0), (ACES7, 0, 0),
])
def test_unfinished_melds(meld: str, pagat: int, cla: int) -> None:
    """§4C, D20: an unfinished meld of aces or 7s -2,500, of wild cards -2,000; holding all four jokers
    -2,500 under pagat, -2,000 under the CLA; finished canastas and other ranks cost nothing."""
    assert one_side(MA, melds=[meld])["lines"]["unfinished_melds"] == -pagat
    assert one_side(CLA, melds=[meld])["lines"]["unfinished_melds"] == -cla


# --- GC-E04 a three left in hand -----------------------------------------------------------------------


@pytest.mark.parametrize("three", ["3C", "3S", "3H", "3D"])
def test_gc_e04_a_three_left_in_hand_costs_5(three: str) -> None:
    """GC-E04: the last stock card is a three; it stays in hand and counts -5 (either colour)."""
    res = one_side(MA, hand=three)
    assert res["total"] == -5
    assert_sums(res)


# --- GC-M17 meld legality the scorer checks ---------------------------------------------------------------


@pytest.mark.parametrize(("meld", "why"), [
    ("7S 7H 7D 2C", "never holds wild cards"), ("KS KH 2C 2D JK", "wild-card limit"),
    ("KS KH KD KC KS KH KD KC", "at most 7"), ("3S 3C 3S", "never melded"),
])
def test_gc_m17_illegal_melds(meld: str, why: str) -> None:
    """GC-M17: 7 7 7 2, K K 2 2 Jk and any 8-card meld are ILLEGAL; threes are never melded in MA."""
    problem = meld_problem(MA, cards(meld))
    assert problem is not None and why in problem
    with pytest.raises(ValueError, match="side 1 meld 1"):
        one_side(MA, melds=[meld])


@pytest.mark.parametrize("meld", ["KS KH 2C 2D", "AS AH 2C", "7S 7H 7D"])
def test_gc_m17_legal_melds(meld: str) -> None:
    """GC-M17: K K 2 2 and A A 2 (in the opening) are LEGAL; a meld of 7s without wild cards too."""
    assert meld_problem(MA, cards(meld)) is None
    assert meld_problem(CLASSIC, cards("7S 7H 7D 2C")) is None  # Classic sevens take wild cards


# --- GC-S20 special hands ---------------------------------------------------------------------------------


def test_gc_s20_garbage_scores_only_its_value() -> None:
    """GC-S20: an unopened side lays down garbage: 2,000 [P] or 3,000 [CLA] and nothing else; the
    opponents score their hand normally."""
    sides = [{"special_hand": "garbage", "hand": GARBAGE, "threes": "3H"},
             {"melds": [K7.replace("K", "J")], "hand": "9C", "threes": "3D"}]
    for rules, value in ((MA, 2000), (CLA, 3000)):
        declarer, other = canasta.score_hand(rules, sides)
        assert declarer == {"lines": {"special_hand": value}, "total": value}
        assert other["total"] == 70 + 500 - 10 + 0  # one canasta: the three counts 0
        assert list(other["lines"]) == MA_LINES
    assert score_special_hand(MA, "pairs") == {"lines": {"special_hand": 2500}, "total": 2500}
    with pytest.raises(ValueError, match="not a special hand"):
        score_special_hand(CLA, "pairs")
    with pytest.raises(ValueError, match="not a special hand"):
        score_special_hand(CLASSIC, "garbage")


def test_gc_s20_garbage_detected_from_14_cards() -> None:
    """GC-S20: two four-of-a-kinds and two three-of-a-kinds of four ranks, no wild cards, is garbage."""
    assert special_hand_of(MA, cards(GARBAGE)) == "garbage"
    assert special_hand_of(CLA, cards(GARBAGE)) == "garbage"
    assert special_hand_of(CLASSIC, cards(GARBAGE)) is None  # no special hands in Classic
    assert special_hands_formed(cards(GARBAGE)) == ["garbage"]


@pytest.mark.parametrize("hand", [
    GARBAGE.replace("KC", "2C"),  # a wild card
    GARBAGE.replace("KC", "JK"),  # a joker
    "KS KH KD KC QS QH QD QC 9S 9H 9D 9C 8S 8H",  # 4 + 4 + 4 + 2
    "KS KH KD KC QS QH QD 9S 9H 9D 8S 8H 8D 8C".replace("8C", "6C"),  # five ranks
    GARBAGE.replace(" 8D", ""),  # 13 cards
    f"{GARBAGE} 5S",  # 15 cards
    "KS KH KD KC KS KH KD KC 9S 9H 9D 8S 8H 8D",  # eight kings: one rank, not two four-of-a-kinds
])
def test_gc_s20_non_garbage_rejected(hand: str) -> None:
    """GC-S20: hands with wild cards, the wrong shape or the wrong size are not garbage."""
    assert not forms("garbage", cards(hand))
    assert special_hand_of(MA, cards(hand)) is None


def test_pairs_hands() -> None:
    """pagat's pairs (2,500): seven pairs of different ranks, no 7s, aces or wild cards; with a pair of
    twos, 7s or aces it is pairs_twos_sevens_aces (2,000). The CLA profile here has garbage only."""
    assert special_hand_of(MA, cards(PAIRS)) == "pairs"
    assert special_hand_of(CLA, cards(PAIRS)) is None
    for pair in ("7S 7H", "AS AH", "2S 2H"):
        hand = cards(PAIRS.replace("6S 6H", pair))
        assert special_hand_of(MA, hand) == "pairs_twos_sevens_aces"
        assert not forms("pairs", hand)
    assert special_hand_of(MA, cards(PAIRS.replace("6S 6H", "JK JK"))) is None  # jokers never
    assert special_hand_of(MA, cards(PAIRS.replace("6S 6H", "KS KH"))) is None  # a rank repeated
    assert special_hand_of(MA, cards(PAIRS.replace("6S 6H", "6S 2H"))) is None  # a wild card in a pair
    assert special_hand_of(MA, cards(PAIRS.replace("6S 6H", "6S 6H 6D"))) is None  # 15 cards
    assert special_hand_of(MA, cards(PAIRS.replace("6S 6H", "3S 3C"))) is None  # threes are laid out
    assert set(SPECIAL_HANDS) >= {name for name, _ in MA.special_hands}


@pytest.mark.parametrize(("side", "needle"), [
    ({"special_hand": "flush"}, "not one of modern-american's special hands"),
    ({"special_hand": "garbage", "melds": ["KS KH KD"]}, "unopened side"),
    ({"special_hand": "garbage", "hand": PAIRS}, "does not form garbage"),
    ({"special_hand": "garbage", "hand": "KS KH"}, "14 cards"),
    ({"special_hand": "garbage", "hands": [GARBAGE, "5S"]}, None),  # either partner's hand may form it
])
def test_special_hand_input_checked(side: dict[str, Any], needle: str | None) -> None:
    if needle is None:
        assert one_side(MA, **side)["total"] == 2000
        return
    with pytest.raises(ValueError, match=needle):
        one_side(MA, **side)


def test_one_special_hand_and_no_going_out() -> None:
    with pytest.raises(ValueError, match="more than one side"):
        canasta.score_hand(MA, [{"special_hand": "garbage"}, {"special_hand": "pairs"}])
    with pytest.raises(ValueError, match="no side can also have gone out"):
        canasta.score_hand(MA, [{"special_hand": "garbage"}, {"melds": [K7, Q7], "went_out": True}])
    with pytest.raises(ValueError, match="unknown field"):
        one_side(CLASSIC, special_hand="garbage")


# --- hands input -------------------------------------------------------------------------------------------


def test_hands_input_checked() -> None:
    with pytest.raises(ValueError, match="once"):
        one_side(MA, hand="AS", hands=["AH"])
    with pytest.raises(ValueError, match="hands has 3 entries but a side has 2"):
        one_side(MA, hands=["AS", "AH", "AD"])
    with pytest.raises(ValueError, match="list"):
        one_side(MA, hands="AS AH")
    with pytest.raises(ValueError, match="side 1 hand of player 2"):
        one_side(MA, hands=["AS", "AX"])


# --- lines, labels, going out ------------------------------------------------------------------------------


def test_lines_and_a_full_hand() -> None:
    """Both profiles have the same lines; a side going out with natural 7s and a wild canasta, with threes
    of both colours and an unfinished ace meld, sums its lines to the total."""
    for rules in (MA, CLA):
        assert list(score_side(rules, [], [], [])["lines"]) == MA_LINES
    res = one_side(MA, melds=[SEVENS7, "2S 2H 2D 2C JK JK JK", "AS AH AD"], threes="3H 3S 3C",
                   hand="", went_out=True)
    assert res["lines"] == {
        "melded_cards": 35 + 230 + 60, "cards_in_hand": 0, "natural_canastas": 0, "mixed_canastas": 0,
        "red_threes": 100, "going_out": 100, "undeclared_red_threes": 0, "wild_canastas": 2000,
        "rank_canastas": 2500, "black_threes_laid_out": 300, "unfinished_melds": -2500, "hand_penalties": 0}
    assert_sums(res)
    # no concealed bonus in Modern American
    assert one_side(MA, melds=[SEVENS7, K7], went_out=True, concealed=True)["lines"]["going_out"] == 100


def test_new_lines_have_labels() -> None:
    """Every scoring line has a label in the hand-end breakdown."""
    assert set(LINE_NAMES) - {"black_threes", "concealed_canastas", "acaba"} <= set(_LINE_LABELS)
    text = render_hand_end([{**one_side(MA, melds=[SEVENS7]), "cumulative": 0},
                            {**score_special_hand(MA, "garbage"), "cumulative": 0}], 1, 4)
    assert "canastas of 7s and aces" in text and "special hand" in text and "unfinished melds" in text


# --- the CLI -------------------------------------------------------------------------------------------------


def run_score(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
              data: dict[str, Any], *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    status = main(["score", "-", "--json", *argv])
    out, err = capsys.readouterr()
    return status, out, err


MA_INPUT: dict[str, Any] = {
    "variant": "modern-american",
    "sides": [
        {"melds": [SEVENS7, K7, "AS AH AD"], "threes": "3H 3D 3C", "hand": "", "went_out": True},
        {"melds": ["QS QH QD"], "hands": [["AS AH AD", "4C"], "8S 8H 8D"], "red_threes": "3S"},
    ],
}


def test_cli_scores_a_modern_american_hand(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run_score(capsys, monkeypatch, MA_INPUT)
    assert status == 0
    going, other = json.loads(out)["sides"]
    # 35 + 70 + 60 cards, 2,500 + 500 canastas, threes 300 + 100, going out 100, unfinished aces -2,500
    assert going["total"] == 165 + 3000 + 400 + 100 - 2500
    # no canasta: -30 melds, -100 black three, -(60 + 5 + 30) hand, -1,500 for three aces
    assert other["total"] == -30 - 100 - 95 - 1500
    assert other["lines"]["hand_penalties"] == -1500
    for side in (going, other):
        assert sum(side["lines"].values()) == side["total"]
    status, out, _ = run_score(capsys, monkeypatch, MA_INPUT, "--variant", "modern-american-cla")
    assert status == 0 and json.loads(out)["sides"][0]["total"] == going["total"]


def test_cli_special_hand_and_errors(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"variant": "modern-american-cla",
            "sides": [{"special_hand": "garbage", "hand": GARBAGE}, {"melds": ["QS QH QD"], "hand": "5C"}]}
    status, out, _ = run_score(capsys, monkeypatch, data)
    assert status == 0
    assert [s["total"] for s in json.loads(out)["sides"]] == [3000, -35]
    data["sides"][0]["special_hand"] = "pairs"
    status, out, err = run_score(capsys, monkeypatch, data)
    assert status != 0 and out == "" and "special_hand 'pairs'" in err
    status, out, err = run_score(capsys, monkeypatch, {**MA_INPUT, "variant": "classic"})
    assert status != 0 and "unknown field(s) threes" in err


def test_threes_scale_is_not_confused_with_the_black_three_bonus_scale() -> None:
    """Modern American with Cuban pile black threes on top: laid-out black threes still use red_three_scale."""
    mixed = canasta.rules("modern-american", pile_black_threes="bonus")
    res = score_side(mixed, [cards(K7), cards(Q7)], [], cards("3C 3S"), black_threes=cards("3C"))
    assert res["lines"]["black_threes_laid_out"] == 300 and res["lines"]["black_threes"] == 5
