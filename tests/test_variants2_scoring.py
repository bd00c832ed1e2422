"""Scoring and meld validity for the Samba family and Italian (docs/sources.md §4B, worked examples A and E).

Each test names the GOLDEN case it checks. Hands are scored through ``canasta.score_hand`` (the input
of ``canasta score``) or ``canasta.canasta.scoring.score_side``.
"""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from canasta.canasta.cards import parse_cards
from canasta.canasta.scoring import meld_problem, score_side

SAMBA = canasta.rules("samba")
BOLIVIA = canasta.rules("bolivia")
BRAZILIAN = canasta.rules("brazilian")
CHILEAN = canasta.rules("chilean")
ITALIAN = canasta.rules("italian")
CUBAN = canasta.rules("cuban")
URUGUAYAN = canasta.rules("uruguayan")
CLASSIC = canasta.rules("classic")

CLASSIC_LINES = ["melded_cards", "cards_in_hand", "natural_canastas", "mixed_canastas", "red_threes",
                 "going_out", "undeclared_red_threes"]

Q7 = "QS QH QD QC QS QH QD"  # natural canasta, 70
K7 = "KS KH KD KC KS KH KD"  # natural canasta, 70
SAMBA_D = "5D 6D 7D 8D 9D TD JD"  # sequence canasta (samba), 55
ESCALERA_H = "4H 5H 6H 7H 8H 9H TH"  # escalera, 50
BOLIVIA_7 = "2S 2H 2D JK JK JK JK"  # bolivia (7 wild cards), 60 + 200 = 260


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def problem(rules: canasta.Rules, text: str) -> str | None:
    found: str | None = meld_problem(rules, cards(text))
    return found


def one_side(rules: canasta.Rules, **side: Any) -> dict[str, Any]:
    """Score a hand in which only the first side has anything; return that side's result."""
    result: list[dict[str, Any]] = canasta.score_hand(rules, [side, *({} for _ in range(rules.teams - 1))])
    return result[0]


def assert_sums(result: dict[str, Any]) -> None:
    assert sum(result["lines"].values()) == result["total"]


# --- GC-M15 Samba groups and sequences ------------------------------------------------------------


@pytest.mark.parametrize("meld", ["KS KH KD 2C 2D", "4H 5H 6H", "QS KS AS", SAMBA_D, "KS KH KD KC KS 2C 2D"])
def test_gc_m15_samba_legal_melds(meld: str) -> None:
    """GC-M15: K K K 2 2, 4♥ 5♥ 6♥, Q♠ K♠ A♠ (ace high), the samba 5♦…J♦ and K×5 2 2 are LEGAL."""
    assert problem(SAMBA, meld) is None
    assert_sums(one_side(SAMBA, melds=[meld]))


@pytest.mark.parametrize("meld, why", [
    ("KS KH KD 2C 2D JK", "wild-card limit"),  # 3 wilds; Samba allows 2
    ("AS 2S 3S", "no wild cards"),  # the ace is high only; twos and threes are not naturals in runs
    ("5H 6H 2C", "no wild cards"),
    ("5H 6D 7H", "one suit"),
    ("5D 6D 7D 8D 9D TD JD QD", "stops at 7"),
    ("KS KH KD KC 2C 2D JK", "wild-card limit"),  # a canasta needs 5 naturals in Samba
    ("3S 4S 5S", "threes"),
    ("4S 5S 7S", "consecutive"),
    ("AS 4S 5S", "consecutive"),  # no ace-low runs
])
def test_gc_m15_samba_illegal_melds(meld: str, why: str) -> None:
    """GC-M15: K K K 2 2 Jk, A♠ 2♠ 3♠, 5♥ 6♥ 2♣, 5♥ 6♦ 7♥, an 8-card sequence and K×4 2 2 Jk are
    ILLEGAL, with a message saying why; the scorer refuses them naming the side and meld."""
    text = problem(SAMBA, meld)
    assert text is not None and why in text
    with pytest.raises(ValueError, match=r"side 1 meld 1 .*" + why):
        one_side(SAMBA, melds=[meld])


def test_gc_m15_samba_value_and_bonus() -> None:
    """GC-M15: the samba 5♦…J♦ has card value 55 and bonus 1,500 on the sequence_canastas line."""
    res = one_side(SAMBA, melds=[SAMBA_D])
    assert res["lines"]["melded_cards"] == 55
    assert res["lines"]["sequence_canastas"] == 1500
    assert res["lines"]["natural_canastas"] == 0 and res["lines"]["mixed_canastas"] == 0
    assert res["total"] == 1555


def test_gc_m15_short_sequences_and_groups_have_no_bonus() -> None:
    """GC-M15: a sequence of 6 is no canasta; K×5 2 2 is a mixed canasta (300) in Samba."""
    res = one_side(SAMBA, melds=["5D 6D 7D 8D 9D TD", "KS KH KD KC KS 2C 2D"])
    assert res["lines"]["sequence_canastas"] == 0
    assert res["lines"]["mixed_canastas"] == 300
    assert res["lines"]["melded_cards"] == 45 + 50 + 40
    assert_sums(res)


def test_sequences_are_classic_illegal() -> None:
    """docs/sources.md §4A: Classic has no sequences; a run is refused as a mix of ranks (GC-M15 counterpart)."""
    text = problem(CLASSIC, "4H 5H 6H")
    assert text is not None and "one rank" in text


def test_samba_allows_several_melds_of_one_rank_classic_does_not() -> None:
    """docs/sources.md §4B Samba [H,R]: a side may hold two melds of a rank; Classic keeps one (GC-M12)."""
    res = one_side(SAMBA, melds=["KS KH KD", "KC KS 2D", "4H 5H 6H", "8H 9H TH"])
    assert res["lines"]["melded_cards"] == 30 + 40 + 15 + 30
    with pytest.raises(ValueError, match="one meld per rank"):
        one_side(CLASSIC, melds=["KS KH KD", "KC KS 2D"])


# --- GC-M16 Bolivia wild melds ---------------------------------------------------------------------


def test_gc_m16_bolivia_wild_melds() -> None:
    """GC-M16: 2 2 Jk is a LEGAL wild meld; seven wild cards are a bolivia (2,500); an eighth is
    ILLEGAL; the escalera 4♥…T♥ scores 1,500 (card value 50)."""
    assert problem(BOLIVIA, "2S 2H JK") is None
    assert problem(SAMBA, "2S 2H JK") is not None  # Samba has no wild melds
    res = one_side(BOLIVIA, melds=[BOLIVIA_7])
    assert res["lines"]["wild_canastas"] == 2500 and res["lines"]["melded_cards"] == 260
    text = problem(BOLIVIA, "2S 2H 2D 2C JK JK JK JK")
    assert text is not None and "at most 7" in text
    res = one_side(BOLIVIA, melds=[ESCALERA_H])
    assert res["lines"]["sequence_canastas"] == 1500 and res["lines"]["melded_cards"] == 50
    assert res["total"] == 1550


def test_gc_m16_bolivia_needs_an_escalera_to_go_out() -> None:
    """docs/sources.md §4B Bolivia: two canastas, one of them an escalera; Brazilian: any two; Samba: two."""
    with pytest.raises(ValueError, match="sequence canasta"):
        one_side(BOLIVIA, melds=[K7, Q7], went_out=True)
    with pytest.raises(ValueError, match="2 canasta"):
        one_side(BOLIVIA, melds=[ESCALERA_H], went_out=True)
    assert one_side(BOLIVIA, melds=[K7, ESCALERA_H], went_out=True)["lines"]["going_out"] == 200
    assert one_side(BRAZILIAN, melds=[K7, Q7], went_out=True)["lines"]["going_out"] == 200
    assert one_side(SAMBA, melds=[K7, Q7], went_out=True)["lines"]["going_out"] == 200
    with pytest.raises(ValueError, match="2 canasta"):
        one_side(SAMBA, melds=[K7], went_out=True)


# --- GC-M18 Uruguayan / Cuban wild canastas (kept) -------------------------------------------------


def test_gc_m18_uruguayan_and_cuban_wild_canastas() -> None:
    """GC-M18: Uruguay 2 2 Jk legal, 7 wilds 2,000; Cuban 7 twos 4,000, 4 jokers + 3 twos 3,000,
    2 jokers + 5 twos 2,000; a Cuban canasta may not exceed 7 cards."""
    assert problem(URUGUAYAN, "2S 2H JK") is None
    assert one_side(URUGUAYAN, melds=["2S 2H 2D 2C JK JK JK"])["lines"]["wild_canastas"] == 2000
    assert one_side(CUBAN, melds=["2S 2H 2D 2C 2S 2H 2D"])["lines"]["wild_canastas"] == 4000
    assert one_side(CUBAN, melds=["2S 2H 2D JK JK JK JK"])["lines"]["wild_canastas"] == 3000
    assert one_side(CUBAN, melds=["2S 2H 2D 2C 2S JK JK"])["lines"]["wild_canastas"] == 2000
    text = problem(CUBAN, "KS KH KD KC KS KH KD KC")
    assert text is not None and "at most 7" in text


# --- GC-M19 / GC-S14 Italian -------------------------------------------------------------------------


def test_gc_m19_twos_as_their_own_rank() -> None:
    """GC-M19: 2 2 2 may be melded as a rank in Italian (not in Classic or Samba); jokers are its
    wild cards within the limit (2); a single two with jokers is no meld of twos."""
    assert problem(ITALIAN, "2S 2H 2D") is None
    assert problem(ITALIAN, "2S 2H 2D JK JK") is None
    assert "wild-card limit" in (problem(ITALIAN, "2S 2H JK JK JK") or "")
    assert "at least 2 twos" in (problem(ITALIAN, "2S JK JK") or "")
    assert problem(CLASSIC, "2S 2H 2D") is not None
    assert problem(SAMBA, "2S 2H 2D") is not None
    res = one_side(ITALIAN, melds=["2S 2H 2D"])
    assert res["lines"]["melded_cards"] == 60 and res["lines"]["twos_canastas"] == 0


SEVEN_TWOS = "2S 2H 2D 2C 2S 2H 2D"
MIXED_TWOS = "2S 2H 2D 2C 2C JK JK"


def test_gc_m19_gc_s14_twos_canastas_only_for_the_side_going_out() -> None:
    """GC-M19, GC-S14: 7 twos +3,000 and a canasta of twos with jokers +2,000, only for the side going
    out; the other side scores only their card values (no natural/mixed bonus either)."""
    out = [K7, Q7, "AS AH AD AC AS AH AD"]  # three natural canastas: going out without the twos
    res = canasta.score_hand(ITALIAN, [{"melds": [*out, SEVEN_TWOS], "went_out": True},
                                       {"melds": [MIXED_TWOS]}])
    going, other = res
    assert going["lines"]["twos_canastas"] == 3000
    assert going["lines"]["natural_canastas"] == 1500  # the twos canasta is not also a natural canasta
    assert other["lines"]["twos_canastas"] == 0
    assert other["lines"]["mixed_canastas"] == 0 and other["lines"]["natural_canastas"] == 0
    assert other["lines"]["melded_cards"] == 5 * 20 + 2 * 50
    assert other["total"] == 200
    res = canasta.score_hand(ITALIAN, [{"melds": [*out, MIXED_TWOS], "went_out": True}, {}])
    assert res[0]["lines"]["twos_canastas"] == 2000
    for side in res:
        assert_sums(side)


def test_italian_canasta_of_twos_does_not_count_to_go_out() -> None:
    """docs/sources.md §4B Italian [R]: 2 canastas to go out; a wild canasta (here: of twos, as the engine's
    out_canastas reads it) does not count."""
    with pytest.raises(ValueError, match="do not count"):
        one_side(ITALIAN, melds=[K7, SEVEN_TWOS], went_out=True)
    assert one_side(ITALIAN, melds=[K7, Q7], went_out=True)["lines"]["going_out"] == 300


def test_gc_s14_italian_red_threes_and_going_out() -> None:
    """GC-S14: red threes 3 → 300, 4 → 800, 5 → 1,000, 6 → 1,200; going out 300."""
    reds = ["3H 3D 3H", "3H 3D 3H 3D", "3H 3D 3H 3D 3H", "3H 3D 3H 3D 3H 3D"]
    got = [one_side(ITALIAN, melds=[K7, Q7], red_threes=r)["lines"]["red_threes"] for r in reds]
    assert got == [300, 800, 1000, 1200]
    assert one_side(ITALIAN, melds=[K7, Q7], went_out=True)["lines"]["going_out"] == 300


NATURALS = [" ".join(f"{r}{s}" for s in "SHDCSHD") for r in "456789TJQKA"]
WILDS = ["2S", "2H", "2D", "2C"] * 3
MIXED = [" ".join(f"{r}{s}" for s in "SHDCSH") + f" {w}" for r, w in zip("456789TJQKA", WILDS, strict=False)]


@pytest.mark.parametrize("pure, mixed, bonus", [
    (5, 0, 2000),  # 5 pure canastas
    (4, 1, 1000),  # 4 pure + 1 mixed
    (4, 0, 0),
    (3, 2, 0),
    (6, 1, 2000),  # the best entry of the "pure" group only
    (5, 5, 4000),  # 5 pure (2,000) and 10 canastas (2,000)
    (0, 10, 2000),
])
def test_gc_s14_italian_canasta_sets(pure: int, mixed: int, bonus: int) -> None:
    """GC-S14: 5 pure canastas +2,000; 4 pure + 1 mixed +1,000; 10 canastas +2,000 (best of each group)."""
    melds = NATURALS[:pure] + MIXED[pure:pure + mixed]
    res = one_side(ITALIAN, melds=melds)
    assert res["lines"]["canasta_sets"] == bonus
    assert_sums(res)


def test_gc_s14_a_sequence_canasta_is_pure() -> None:
    """GC-S14 (decision): a sequence canasta has no wild cards, so it counts as pure in the sets."""
    res = one_side(ITALIAN, melds=[*NATURALS[:4], SAMBA_D])
    assert res["lines"]["canasta_sets"] == 2000
    res = one_side(ITALIAN, melds=[*NATURALS[:3], SAMBA_D, MIXED[5]])
    assert res["lines"]["canasta_sets"] == 1000


# --- GC-S12 Cuban (kept) -------------------------------------------------------------------------------


@pytest.mark.parametrize("n, value", [(1, 100), (2, 300), (3, 500), (4, 1000)])
def test_gc_s12_cuban_red_threes(n: int, value: int) -> None:
    """GC-S12: Cuban red threes 1:100, 2:300, 3:500, 4:1,000; plus with a canasta, minus without."""
    reds = " ".join(["3H", "3D"] * 2)[: 3 * n - 1]
    assert one_side(CUBAN, melds=[K7], red_threes=reds)["lines"]["red_threes"] == value
    assert one_side(CUBAN, melds=["KS KH KD"], red_threes=reds)["lines"]["red_threes"] == -value


def test_gc_s12_cuban_black_threes_laid_aside() -> None:
    """GC-S12: black threes from taken piles count 5 each, all four 100 (score_hand's black_threes)."""
    assert one_side(CUBAN, black_threes="3S 3C 3S 3C")["lines"]["black_threes"] == 100
    assert one_side(CUBAN, black_threes="3S 3C")["lines"]["black_threes"] == 10
    with pytest.raises(ValueError, match="not a black three"):
        one_side(CUBAN, black_threes="3H")
    with pytest.raises(ValueError, match="unknown field"):
        one_side(CLASSIC, black_threes="3S")


# --- GC-S13 Brazilian --------------------------------------------------------------------------------


@pytest.mark.parametrize("n, value", [(4, 400), (5, 1000), (6, 1200)])
def test_gc_s13_brazilian_red_threes(n: int, value: int) -> None:
    """GC-S13: red threes 4 → 400, 5 → 1,000, 6 → 1,200; minus if the side has no canasta."""
    reds = " ".join(["3H", "3D"] * 3)[: 3 * n - 1]
    assert one_side(BRAZILIAN, melds=[K7], red_threes=reds)["lines"]["red_threes"] == value
    assert one_side(BRAZILIAN, melds=["KS KH KD"], red_threes=reds)["lines"]["red_threes"] == -value


@pytest.mark.parametrize("meld, penalty", [
    ("4H 5H 6H", -1000), ("4H 5H 6H 7H", -1000), ("4H 5H 6H 7H 8H", 0), ("4H 5H 6H 7H 8H 9H", 0),
    (ESCALERA_H, 0), ("KS KH KD", 0),
])
def test_gc_s13_brazilian_short_sequences(meld: str, penalty: int) -> None:
    """GC-S13: a melded sequence of fewer than 5 cards at the hand's end → −1,000; 5 or 6 → none."""
    res = one_side(BRAZILIAN, melds=[meld])
    assert res["lines"]["short_sequences"] == penalty
    assert_sums(res)
    assert "short_sequences" not in one_side(SAMBA, melds=[meld])["lines"]


def test_gc_s13_two_short_sequences_cost_twice() -> None:
    """GC-S13: the penalty is per sequence."""
    assert one_side(BRAZILIAN, melds=["4H 5H 6H", "QS KS AS"])["lines"]["short_sequences"] == -2000


# --- GC-S15 Samba -----------------------------------------------------------------------------------


def test_gc_s15_samba_total_2325() -> None:
    """GC-S15: Q×7 (70 + 500) + samba 5♦…J♦ (55 + 1,500) + going out 200 = 2,325; no concealed bonus."""
    res = one_side(SAMBA, melds=[Q7, SAMBA_D], went_out=True)
    assert res["total"] == 2325
    assert res["lines"]["going_out"] == 200
    assert one_side(SAMBA, melds=[Q7, SAMBA_D], went_out=True, concealed=True)["total"] == 2325
    assert_sums(res)


@pytest.mark.parametrize("n, value", [(5, 500), (6, 1000)])
def test_gc_s15_samba_red_threes(n: int, value: int) -> None:
    """GC-S15: red threes 5 → 500, all 6 → 1,000; minus unless the side has 2 canastas (D14)."""
    reds = " ".join(["3H", "3D"] * 3)[: 3 * n - 1]
    assert one_side(SAMBA, melds=[Q7, SAMBA_D], red_threes=reds)["lines"]["red_threes"] == value
    assert one_side(SAMBA, melds=[Q7], red_threes=reds)["lines"]["red_threes"] == -value


# --- GC-S18 black threes in hand ---------------------------------------------------------------------


def test_gc_s18_black_threes_left_in_hand() -> None:
    """GC-S18: 3♣ 3♠ in hand: Classic −10 (card values), Bolivia −200 (−100 each); melded by the side
    going out in Bolivia, +5 each."""
    classic = one_side(CLASSIC, hand="3C 3S")
    assert classic["total"] == -10 and classic["lines"]["cards_in_hand"] == -10
    assert "black_threes_in_hand" not in classic["lines"]
    bolivia = one_side(BOLIVIA, hand="3C 3S")
    assert bolivia["total"] == -200
    assert bolivia["lines"]["black_threes_in_hand"] == -200 and bolivia["lines"]["cards_in_hand"] == 0
    mixed_hand = one_side(BRAZILIAN, hand="3C 3S KD")
    assert mixed_hand["lines"]["cards_in_hand"] == -10 and mixed_hand["lines"]["black_threes_in_hand"] == -200
    melded = one_side(BOLIVIA, melds=[K7, ESCALERA_H, "3C 3S 3C"], went_out=True)
    assert melded["lines"]["melded_cards"] == 70 + 50 + 15
    assert melded["lines"]["black_threes_in_hand"] == 0
    with pytest.raises(ValueError, match="black threes may be melded only"):
        one_side(BOLIVIA, melds=["3C 3S 3C"])


# --- GC-S21 Bolivia big hand --------------------------------------------------------------------------


def test_gc_s21_bolivia_big_hand_4510() -> None:
    """GC-S21: bolivia 2 2 2 Jk Jk Jk Jk (260 + 2,500) + escalera 4♥…T♥ (50 + 1,500) + going out 200
    = 4,510."""
    res = one_side(BOLIVIA, melds=[BOLIVIA_7, ESCALERA_H], went_out=True)
    assert res["total"] == 4510
    assert res["lines"]["wild_canastas"] == 2500 and res["lines"]["sequence_canastas"] == 1500
    assert res["lines"]["melded_cards"] == 310 and res["lines"]["going_out"] == 200
    assert_sums(res)


# --- line names and sums for each preset --------------------------------------------------------------


EXPECTED_LINES = {
    "classic": CLASSIC_LINES,
    "samba": [*CLASSIC_LINES, "sequence_canastas"],
    "bolivia": [*CLASSIC_LINES, "wild_canastas", "sequence_canastas", "black_threes_in_hand"],
    "chilean": [*CLASSIC_LINES, "wild_canastas", "sequence_canastas", "black_threes_in_hand"],
    "brazilian": [*CLASSIC_LINES, "wild_canastas", "sequence_canastas", "short_sequences", "black_threes_in_hand"],
    "italian": [*CLASSIC_LINES, "sequence_canastas", "twos_canastas", "canasta_sets"],
    "cuban": [*CLASSIC_LINES, "black_threes", "wild_canastas"],
    "uruguayan": [*CLASSIC_LINES, "wild_canastas"],
}


@pytest.mark.parametrize("variant", sorted(EXPECTED_LINES))
def test_line_names_per_preset(variant: str) -> None:
    """The public contract (docs/): each rule's own lines appear only under the rules that have them, in a fixed
    order."""
    r = canasta.rules(variant)
    assert list(score_side(r, [], [], [])["lines"]) == EXPECTED_LINES[variant]


BUSY_HANDS: dict[str, list[dict[str, Any]]] = {
    "samba": [{"melds": [Q7, SAMBA_D, "KS KH KD 2C", "4H 5H 6H"], "hand": "9S 3C JK",
               "red_threes": "3H 3D 3H", "went_out": True},
              {"melds": ["AS AH AD AC AS 2S 2D", "8S 8H 8D"], "hand": "5C 5D 2H", "red_threes": "3D"}],
    "bolivia": [{"melds": [BOLIVIA_7, ESCALERA_H, "QS QH QD 2C"], "hand": "", "red_threes": "3H",
                 "went_out": True},
                {"melds": ["2C 2C JK", "KS KH KD KC"], "hand": "3C 3S 9D", "red_threes": "3D 3D"}],
    "chilean": [{"melds": [BOLIVIA_7, ESCALERA_H], "went_out": True},
                {"melds": ["8S 9S TS"], "hand": "3C AS"}],
    "brazilian": [{"melds": [K7, "2S 2H 2D 2C JK JK 2S", "4D 5D 6D"], "hand": "", "red_threes": "3H 3D 3H 3D 3H",
                   "went_out": True},
                  {"melds": ["QS KS AS", "7C 7D 7H"], "hand": "3C", "red_threes": "3D"}],
    "italian": [{"melds": [*NATURALS[:4], "8S 8H 8D 8C 8S 8H JK", SEVEN_TWOS], "hand": "", "red_threes": "3H 3D 3H 3D",
                 "went_out": True},
                {"melds": [MIXED_TWOS, SAMBA_D], "hand": "4C 3S", "red_threes": "3H"}],
}


@pytest.mark.parametrize("variant", sorted(BUSY_HANDS))
def test_lines_sum_to_total_for_each_new_preset(variant: str) -> None:
    """the public contract (docs/): lines sum to total, with every new kind of line in play, for each new preset."""
    r = canasta.rules(variant)
    for side, expected in zip(canasta.score_hand(r, BUSY_HANDS[variant]), (True, False), strict=True):
        assert list(side["lines"]) == EXPECTED_LINES[variant]
        assert_sums(side)
        assert (side["lines"]["going_out"] > 0) is expected


def test_busy_italian_hand_values() -> None:
    """GC-S14 worked through: 4 pure + 1 mixed canasta + 7 twos for the side going out (+3,000; as a canasta
    with no jokers it is the 5th pure one: +2,000 rather than +1,000), red threes 4 → 800, going out 300;
    the other side's mixed canasta of twos earns only card values and no part in a set."""
    going, other = canasta.score_hand(ITALIAN, BUSY_HANDS["italian"])
    assert going["lines"]["canasta_sets"] == 2000 and going["lines"]["twos_canastas"] == 3000
    assert going["lines"]["red_threes"] == 800 and going["lines"]["going_out"] == 300
    assert other["lines"]["twos_canastas"] == 0 and other["lines"]["sequence_canastas"] == 1500
    assert other["lines"]["canasta_sets"] == 0
    assert other["lines"]["red_threes"] == 100  # two canastas: the twos canasta still counts as one


def test_gc_s14_twos_canasta_joins_a_set_only_for_the_side_going_out() -> None:
    """GC-S14 (decision): a canasta of twos is scored only for the side going out, so only there does it
    count towards the canasta sets; for the other side it is card values only (but still a canasta for
    the red-three condition)."""
    melds = [*NATURALS[:4], SEVEN_TWOS]
    assert one_side(ITALIAN, melds=melds, went_out=True)["lines"]["canasta_sets"] == 2000
    res = one_side(ITALIAN, melds=melds, red_threes="3H")
    assert res["lines"]["canasta_sets"] == 0 and res["lines"]["twos_canastas"] == 0
    assert res["lines"]["red_threes"] == 100
    assert res["total"] == 4 * 500 + (5 + 5 + 5 + 5) * 7 + 140 + 100
