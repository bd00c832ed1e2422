"""The score pad (canasta.pad): whole games hand by hand, irregularities, corrections, files, bad entries.

The expected totals are worked out by hand in the comments, from each variant's values (docs/variants/)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import canasta
from canasta.pad import PadError, from_csv, load_pad, new_pad, to_csv

# GC-S01 (the rules reference's worked hand): N-S 1,630, E-W 575.
GC_S01_CARDS = [
    {"red_threes": "3D 3D", "went_out": True, "hand": "4S 5S 5H QS KS AS AH",
     "melds": ["3C 3S 3S", "6S 6H 6D 6C 6S 6H 2C", "9S 9H 9D 9C 9S 9H 9D 9C", "TS TH TD", "JS JH JD JC 2S 2H JK"]},
    {"red_threes": "3H", "hand": "2H 5D 6D TH JS JH 4C 4C TD QH QD KH KD",
     "melds": ["4H 4D 2D", "7S 7H 7D 7C 7S 2C JK", "TC TS JK", "AD AC AS AH AD"]},
]
GC_S01_COUNTS = [
    {"melded_points": 305, "canastas": {"natural": 1, "mixed": 2}, "hand_points": 75, "red_threes": 2,
     "went_out": True},
    {"melded_points": 295, "canastas": {"mixed": 1}, "hand_points": 120, "red_threes": 1},
]


def play(variant: str, hands: list[dict[str, Any]], options: dict[str, Any] | None = None) -> list[Any]:
    """Enter the hands one by one; each step's pad."""
    pad = new_pad(variant, options)
    steps = []
    for hand in hands:
        pad = pad.add(hand)
        steps.append(pad)
    return steps


@pytest.mark.parametrize("sides", [GC_S01_CARDS, GC_S01_COUNTS], ids=["cards", "counts"])
def test_worked_example_as_cards_or_counts(sides: list[dict[str, Any]]) -> None:
    pad = new_pad("classic").add({"sides": sides})
    assert pad.totals == [1630, 575]
    assert pad.sheet[0]["sides"][0]["lines"]["mixed_canastas"] == 600
    assert pad.minimums() == [90, 50]  # 1,630 is past 1,500; 575 under it


def test_a_hand_as_cards_scores_what_canasta_score_gives() -> None:
    pad = new_pad("classic").add({"sides": GC_S01_CARDS})
    engine = canasta.score_hand(canasta.rules("classic"), GC_S01_CARDS)
    assert [{"lines": s["lines"], "total": s["total"]} for s in pad.sheet[0]["sides"]] == engine
    # the pad's hand is the canasta score input as it is
    assert canasta.score_hand(canasta.rules(pad.hands[0]["variant"]), pad.hands[0]["sides"]) == engine


def test_classic_game_to_its_end() -> None:
    # N-S: 300 melded + 500 natural + 300 mixed + 100 one red three + 100 going out = 1,300 a hand.
    ns = {"melded_points": 300, "canastas": {"natural": 1, "mixed": 1}, "red_threes": 1, "went_out": True}
    # E-W: hand 1: no meld, 80 in hand, a red three counts minus: -180; later 50 (100 melded, 50 in hand);
    # hand 3: 200 melded.
    ew = [{"hand_points": 80, "red_threes": 1}, {"melded_points": 100, "hand_points": 50},
          {"melded_points": 200}, {"melded_points": 100, "hand_points": 50}]
    steps = play("classic", [{"sides": [ns, e]} for e in ew])
    assert [p.totals for p in steps] == [[1300, -180], [2600, -130], [3900, 70], [5200, 120]]
    # minimum counts for the next hand: 50 from 0, 90 from 1,500, 120 from 3,000; 15 while negative
    assert [p.minimums() for p in steps[:3]] == [[50, 15], [90, 15], [120, 50]]
    assert [p.result for p in steps[:3]] == [None, None, None]
    assert steps[-1].result == {"scores": [5200, 120], "winner": 0, "hands": 4}
    with pytest.raises(PadError, match=r"the game is over \(N-S won"):
        steps[-1].add({"sides": [ns, ew[0]]})


def test_samba_game_to_its_end() -> None:
    # A: 400 + samba 1,500 + natural 500 + mixed 300 + two red threes with 3 canastas +200 + out 200 = 3,100.
    a = {"melded_points": 400, "canastas": {"sequence": 1, "natural": 1, "mixed": 1}, "red_threes": 2,
         "went_out": True}
    # B: 200 + mixed 300 - 60 in hand - a red three without two canastas 100 = 340; hand 2: X8 -100.
    b = {"melded_points": 200, "canastas": {"mixed": 1}, "hand_points": 60, "red_threes": 1}
    x8 = {"side": 1, "code": "X8"}
    steps = play("samba", [{"sides": [a, b]}, {"sides": [a, b], "penalties": [x8]}, {"sides": [a, b]},
                           {"sides": [a, b]}])
    assert steps[1].sheet[1]["sides"][1]["lines"]["failed_permission"] == -100
    assert [p.totals for p in steps] == [[3100, 340], [6200, 580], [9300, 920], [12400, 1260]]
    assert [p.minimums() for p in steps[:3]] == [[120, 50], [120, 50], [160, 50]]  # 160 from 7,000 in Samba
    assert steps[2].result is None and steps[3].result is not None and steps[3].result["winner"] == 0


def test_modern_american_game_to_its_end() -> None:
    # A: 500 + canasta of 7s 2,500 + mixed 300 + two red threes with two canastas +300 + out 100 = 3,700.
    a = {"melded_points": 500, "canastas": {"natural_7": 1, "mixed": 1}, "red_threes": 2, "went_out": True}
    # B: 150 + mixed 300 - 40 in hand; a red three with one canasta counts nothing: 410.
    b = {"melded_points": 150, "canastas": {"mixed": 1}, "hand_points": 40, "red_threes": 1}
    # hand 2: B also left an unfinished meld of aces: -2,500.
    b2 = {**b, "unfinished_melds": ["A"]}
    steps = play("modern-american", [{"sides": [a, b]}, {"sides": [a, b2]}, {"sides": [a, b]}])
    assert steps[0].sheet[0]["sides"][0]["lines"]["rank_canastas"] == 2500
    assert [p.totals for p in steps] == [[3700, 410], [7400, -1680], [11100, -1270]]
    assert [p.minimums() for p in steps[:2]] == [[155, 125], [180, 125]]  # 155 from 3,000, 180 from 5,000
    assert steps[1].result is None and steps[2].result == {"scores": [11100, -1270], "winner": 0, "hands": 3}


def test_hand_and_foot_game_of_four_hands() -> None:
    # A: 1,500 + 3 natural 1,500 + 4 mixed 1,200 + out 100 = 4,300.
    a = {"melded_points": 1500, "canastas": {"natural": 3, "mixed": 4}, "went_out": True}
    # B: 900 + natural 500 + 2 mixed 600 - 200 in hand - a red three in hand 300 = 1,500.
    b = {"melded_points": 900, "canastas": {"natural": 1, "mixed": 2}, "hand_points": 200,
         "undeclared_red_threes": 1}
    steps = play("hand-and-foot", [{"sides": [a, b]}] * 4)
    assert [p.totals for p in steps] == [[4300, 1500], [8600, 3000], [12900, 4500], [17200, 6000]]
    assert [p.minimums() for p in steps[:3]] == [[90, 90], [120, 120], [150, 150]]  # by the hand's number
    assert [p.result for p in steps[:3]] == [None] * 3
    assert steps[3].result == {"scores": [17200, 6000], "winner": 0, "hands": 4, "by": "4 hands"}


def test_500_rum_game_to_its_end() -> None:
    # Player 1 goes out with 120 shown; player 2 shows 40 and holds 35: +5.
    hand = {"sides": [{"table_points": 120, "went_out": True}, {"table_points": 40, "hand_points": 35}]}
    steps = play("500-rum", [hand] * 5, {"players": 2})
    assert [p.totals for p in steps] == [[120, 5], [240, 10], [360, 15], [480, 20], [600, 25]]
    assert [p.minimums() for p in steps] == [[0, 0]] * 5
    assert steps[3].result is None and steps[4].result is not None and steps[4].result["winner"] == 0
    assert steps[0].names == ("Player 1", "Player 2")


def test_rummy_cards_and_masters_hand() -> None:
    pad = new_pad("500-rum", {"players": 2, "masters_hand": 500})
    pad = pad.add({"sides": [{"melds": ["5H 6H 7H", "KS KD KC"], "hand": "", "went_out": True},
                             {"melds": ["2C 3C 4C"], "hand": "QD 9S"}]})
    assert pad.totals == [18 + 30, 9 - 19]  # 5+6+7 and 10x3 shown; 2+3+4 shown, Q 10 and 9 held
    pad = pad.add({"sides": [{"masters_hand": True}, {"hand_points": 50}]})
    assert pad.sheet[1]["sides"][0]["lines"] == {"masters_hand": 500}
    with pytest.raises(PadError, match="Master's Hand is not played"):
        new_pad("500-rum", {"players": 2}).add({"sides": [{"masters_hand": True}, {}]})


@pytest.mark.parametrize("variant, options, code, line, points", [
    ("classic", {}, "X7", "excess_wild_cards", -100),
    ("samba", {}, "X8", "failed_permission", -100),
    ("classic", {"failed_permission_penalty": 100}, "X8", "failed_permission", -100),
    ("hand-and-foot", {"exact_cut_bonus": 100}, "X13", "exact_cut", 100),
])
def test_irregularity_lines(variant: str, options: dict[str, Any], code: str, line: str, points: int) -> None:
    pad = new_pad(variant, options)
    listed = {x["code"]: x for x in pad.summary()["irregularities"]}
    assert listed[code]["source"].startswith("§7 " + code)
    pad = pad.add({"sides": [{}, {}], "penalties": [{"side": 1, "code": code, "count": 2}]})
    assert pad.sheet[0]["sides"][1]["lines"][line] == 2 * points
    assert pad.totals[1] == 2 * points and pad.totals[0] == 0  # never credited to the opponents


def test_undeclared_red_three_and_other_penalty() -> None:
    pad = new_pad("classic").add({"sides": [{"hand": "3H 4C"}, {}],
                                  "penalties": [{"side": 0, "code": "other", "points": -25, "note": "slow play"}]})
    lines = pad.sheet[0]["sides"][0]["lines"]
    assert lines["undeclared_red_threes"] == -500 and lines["other_penalties"] == -25  # X6 [S1]
    assert pad.totals[0] == -500 - 5 - 25  # the red three costs its penalty only, the 4 its 5


def test_irregularity_not_stated_by_the_variant_is_refused() -> None:
    with pytest.raises(PadError, match="'X8' is not an irregularity with points in classic"):
        new_pad("classic").add({"sides": [{}, {}], "penalties": [{"side": 0, "code": "X8"}]})


def test_withdrawn_opening_raises_the_minimum_for_that_hand() -> None:
    pad = new_pad("classic", {"withdrawn_opening_raise": 10})
    pad = pad.add({"sides": [{}, {}], "penalties": [{"side": 1, "code": "X5"}]})
    assert pad.sheet[0]["raised"] == [0, 10]
    assert pad.totals == [0, 0]


def test_correct_a_past_hand_and_undo() -> None:
    pad = new_pad("classic").add({"sides": GC_S01_COUNTS}).add({"sides": [{}, {"melded_points": 100}]})
    assert pad.totals == [1630, 675]
    fixed = pad.correct(1, {"sides": GC_S01_COUNTS, "penalties": [{"side": 0, "code": "X7"}]})
    assert fixed.totals == [1530, 675] and fixed.sheet[1]["sides"][0]["cumulative"] == 1530
    assert fixed.undo().to_dict()["hands"] == pad.to_dict()["hands"]
    assert fixed.undo().undo().totals == [1630, 575]
    assert fixed.undo().undo().undo().hands == ()
    with pytest.raises(PadError, match="nothing to undo"):
        fixed.undo().undo().undo().undo()
    with pytest.raises(PadError, match="no hand 3"):
        pad.correct(3, {"sides": [{}, {}]})


def test_a_correction_that_would_end_the_game_early_is_refused() -> None:
    big = {"melded_points": 5000, "canastas": {"natural": 4}}
    pad = new_pad("classic").add({"sides": [{}, {}]}).add({"sides": [{}, {}]})
    with pytest.raises(PadError, match="ends after hand 1"):
        pad.correct(1, {"sides": [big, {}]})


def test_json_and_csv_round_trip() -> None:
    pad = (new_pad("classic", {"target": 6000}, ["Ana & Bo", "Cy, \"Di\""])
           .add({"sides": GC_S01_CARDS, "note": "first hand"})
           .add({"sides": GC_S01_COUNTS, "penalties": [{"side": 1, "code": "X7", "count": 1}]}))
    again = load_pad(json.loads(pad.to_json()))
    assert again.to_dict() == pad.to_dict() and again.summary() == pad.summary()
    sheet = to_csv(pad)
    back = from_csv(sheet)
    assert back.hands == pad.hands and back.names == pad.names and back.totals == pad.totals
    tampered = sheet.replace(",1630,1630,", ",1730,1630,", 1)
    with pytest.raises(PadError, match="the sheet says total '1730' but the hand scores 1630"):
        from_csv(tampered)


@pytest.mark.parametrize("side, message", [
    ({"hand_points": -5}, "hand_points cannot be negative"),
    ({"melded_points": 100, "canastas": {"mixed": -1}}, "canastas mixed cannot be negative"),
    ({"red_threes": 5}, "red_threes is 5, more than 4"),
    ({"red_threes": "3H 3H 3D 3D 3H"}, "3H but the pack of 108 holds only 2"),
    ({"melds": ["KH KD ZZ"]}, "'ZZ'"),
    ({"melded_points": 5000, "canastas": {"natural": 12}}, "more canastas than the pack of 108 allows"),
    ({"melded_points": 5000, "canastas": {"mixed": 13}}, "13 mixed canastas need 13 wild cards, the pack has 12"),
    ({"melded_points": 20, "canastas": {"natural": 1}}, "at least 35 points"),
    ({"melded_points": 500, "canastas": {"sequence": 1}}, "'sequence' is not a kind of canasta in classic"),
    ({"melds": ["KH KD KS"], "melded_points": 30}, "give melds as cards or melded_points as a count"),
])
def test_bad_entries_are_refused_and_nothing_is_lost(side: dict[str, Any], message: str) -> None:
    pad = new_pad("classic").add({"sides": GC_S01_COUNTS})
    before = pad.to_dict()
    with pytest.raises(PadError, match=message.replace("(", r"\(")):
        pad.add({"sides": [side, {}]})
    with pytest.raises(PadError):
        pad.correct(1, {"sides": [side, {}]})
    assert pad.to_dict() == before


def test_red_threes_across_sides_are_counted_against_the_pack() -> None:
    with pytest.raises(PadError, match="5 red threes in all"):
        new_pad("classic").add({"sides": [{"red_threes": 3}, {"red_threes": "3H 3D"}]})


@pytest.mark.parametrize("data, message", [
    ({"format": "other"}, "not a pad"),
    ({"format": "canasta-pad", "version": 9}, "version 9"),
    ({"format": "canasta-pad", "version": 1, "variant": "nope"}, "nope"),
    ({"format": "canasta-pad", "version": 1, "names": ["only one"]}, "want 2 names"),
    ({"format": "canasta-pad", "version": 1, "hands": [{"sides": [{"hand_points": -1}, {}]}]}, "hand 1: side 1"),
])
def test_bad_pad_files_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(PadError, match=message):
        load_pad(data)


def test_special_hand_and_acaba() -> None:
    # Modern American: a straight scores 3,000 alone; the other side's 100 melded without a canasta count minus.
    pad = new_pad("modern-american").add({"sides": [{"special_hand": "straight"},
                                                    {"melded_points": 100, "hand_points": 30}]})
    assert pad.totals == [3000, -130]
    # Acaba (an option of Classic): the opponents of the caller score acaba_bonus each.
    pad = new_pad("classic", {"acaba": True}).add({"sides": [{}, {}], "acaba_by": 0})
    assert pad.totals == [0, 1500]
    with pytest.raises(PadError, match="Acaba is not played"):
        new_pad("classic").add({"sides": [{}, {}], "acaba_by": 0})


def test_the_form_asks_what_the_rules_have() -> None:
    """The summary's form names the ranks unfinished_melds and hand_penalties take and whether Acaba is played,
    so the page shows those lines only where the rules have them."""
    modern = new_pad("modern-american").summary()["form"]
    assert modern["unfinished_melds"] == ["A", "7", "JK", "JK4"]
    assert modern["hand_penalties"] == [{"rank": "A", "count": 3}, {"rank": "7", "count": 3}]
    assert not modern["acaba"] and "black_threes_in_hand" not in modern["counts"]
    bolivia = new_pad("bolivia").summary()["form"]
    assert "black_threes_in_hand" in bolivia["counts"] and bolivia["unfinished_melds"] == []
    assert new_pad("british").summary()["form"]["acaba"] and not new_pad("classic").summary()["form"]["acaba"]
