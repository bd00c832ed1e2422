"""Hand and Foot (docs/sources.md §4C, D21; GOLDEN GC-P14): the foot, threes kept in the hand, seven canastas of
which three natural to go out, the minimum by hand number, and a game of four hands.

Positions are built with ``build_position`` (seat 0 to move; sides are ``seat % 2``); every legality
assertion checks ``legal_moves``, ``why_illegal`` and ``apply`` together (golden_helpers).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import canasta
from canasta.canasta.cards import RED_THREES, card_str, cards_of, counts_of, pack
from canasta.canasta.sampling import determinize
from canasta.canasta.state import Turn
from canasta.play.record import Recorder, replay
from canasta.positions import build_position
from golden_helpers import assert_illegal, assert_legal, cards, meld_of, moves, position

HF = canasta.rules("hand-and-foot")
# Seven canastas for side 0: three natural (K, Q, J) and four mixed (T, 9, 8, 7).
NATURAL3 = ["KS KS KH KH KD KD KC", "QS QS QH QH QD QD QC", "JS JS JH JH JD JD JC"]
MIXED4 = ["TS TS TH TH TD 2S 2H", "9S 9S 9H 9H 9D 2D 2C", "8S 8S 8H 8H 8D JK JK", "7S 7S 7H 7H 7D 2S JK"]
OPPONENTS = ["AS AH AD"]


def table(rules: canasta.Rules = HF, melds: list[str] | None = None, foot: str | None = "",
          turn: Turn | None = None, feet: dict[int, str] | None = None, **kw: Any) -> canasta.State:
    """Seat 0 has drawn; his side has ``melds`` (default: all seven canastas); his foot is ``foot``
    ("" = already picked up; None = a foot of 11 dealt from the rest) unless ``feet`` names every foot."""
    if feet is None:
        feet = {} if foot is None else {0: foot}
    return build_position(rules, phase="play", turn=turn or Turn(source="stock"), feet=feet, seed=3,
                          melds=[NATURAL3 + MIXED4 if melds is None else melds, OPPONENTS], **kw)


# --- the preset ---------------------------------------------------------------------------------------

def test_preset_and_player_counts() -> None:
    assert (HF.players, HF.teams, HF.decks, HF.jokers, HF.pack_size) == (4, 2, 5, 10, 270)
    assert (HF.hand_size, HF.foot_size, HF.draw_count, HF.pile_take_limit) == (11, 11, 2, 5)
    assert (HF.canastas_to_go_out, HF.natural_canastas_to_go_out, HF.permission) == (7, 3, "compulsory")
    six = canasta.rules("hand-and-foot", players=6)
    assert (six.decks, six.jokers, six.teams, six.canastas_to_go_out) == (7, 14, 2, 7)
    six3 = canasta.rules("hand-and-foot", players=6, teams=3)
    assert six3.seats_of(0) == (0, 3) and six3.permission == "compulsory"
    five = canasta.rules("hand-and-foot", players=5)
    assert (five.decks, five.teams, five.canastas_to_go_out, five.natural_canastas_to_go_out,
            five.permission) == (6, 5, 3, 1, "none")


def test_deal_gives_each_player_a_hand_and_a_foot() -> None:
    s = canasta.new_game(HF, seed=4)
    assert [sum(h) for h in s.hands] == [11] * 4 and [sum(f) for f in s.feet] == [11] * 4
    assert s.red_threes == ((), ())
    total = sum(map(sum, s.hands)) + sum(map(sum, s.feet)) + len(s.stock) + len(s.pile)
    assert total == 270


def test_red_threes_dealt_stay_in_the_hand() -> None:
    for seed in range(20):
        s = canasta.new_game(HF, seed=seed)
        held = [sum(h[k] for k in RED_THREES) for h in s.hands]
        if any(held):
            assert s.red_threes == ((), ()) and all(sum(h) == 11 for h in s.hands)
            return
    raise AssertionError("no deal with a red three in a hand")


# --- GC-P14: the pile -----------------------------------------------------------------------------------

def test_gc_p14_takes_only_the_top_five_cards() -> None:
    s = position(HF, hands={0: "JS JH 5D 6D 7D"}, pile="4S 5S 6S 7S 8S 9S TS JD",
                 melds=[["AS AH AD", "KS KH KD"], OPPONENTS], feet={0: ""})
    assert "take J J" in moves(s) and "take J 2" not in moves(s)
    after = assert_legal(s, "take J J")
    assert meld_of(after, 0, "J") == cards("JS JH JD")
    assert [card_str(c) for c in after.pile] == ["4S", "5S", "6S"]
    assert sorted(card_str(c) for c in cards_of(after.hands[0])) == cards("5D 6D 7D 7S 8S 9S TS")


def test_pile_needs_a_natural_pair() -> None:
    s = position(HF, hands={0: "JS 2H 5D 6D"}, pile="4S JD", melds=[["JH JC JD"], OPPONENTS])
    assert_illegal(s, "take J 2", "FROZEN_NEEDS_NATURAL_PAIR")
    assert_illegal(s, "take", "FROZEN_NEEDS_NATURAL_PAIR")


# --- the foot -------------------------------------------------------------------------------------------

def test_melding_out_picks_up_the_foot_and_plays_on() -> None:
    foot = "4S 4H 4D 5S 6S 7C 8C TC QC KC AC"
    s = table(melds=["9C 9C 9D", *NATURAL3], foot=foot, hands={0: "9S 9H 9D"})
    after = assert_legal(s, "meld 9 9 9")
    assert after.turn_seat == 0 and after.phase == "play" and not any(after.feet[0])
    assert sorted(card_str(c) for c in cards_of(after.hands[0])) == cards(foot)
    assert after.history[-1] == "0 foot"
    assert "meld 4 4 4" in moves(after) and "discard 5" in moves(after)


def test_discarding_out_picks_up_the_foot_for_the_next_turn() -> None:
    s = table(melds=["9C 9C 9D", *NATURAL3], foot="4S 4H 4D 5S 6S 7C 8C TC QC KC AC", hands={0: "9S 5H"})
    s = assert_legal(s, "meld 9")  # one card left: fine while the foot waits
    after = assert_legal(s, "discard 5")
    assert after.turn_seat == 1 and after.phase == "draw" and after.hand_number == 1
    assert sum(after.hands[0]) == 11 and not any(after.feet[0])
    assert canasta.view(after, 0)["foot_sizes"][0] == 0


def test_without_a_foot_the_same_cards_would_go_out() -> None:
    s = table(melds=["9C 9C 9D", *NATURAL3], foot="", hands={0: "9S 5H"})
    assert_illegal(s, "meld 9", "NEED_CANASTA_TO_GO_OUT")


def test_opening_must_stand_before_playing_into_the_foot() -> None:
    s = table(melds=[], foot=None, hands={0: "9S 9H 9D"})  # hand 1: the side needs 50; nines count 30
    assert canasta.minimum_needed(s, 0) == 50
    assert_illegal(s, "meld 9 9 9", "BELOW_MINIMUM")
    s = table(melds=[], foot=None, hands={0: "AS AH AD"})  # 60: opens and picks up the foot
    after = assert_legal(s, "meld A A A")
    assert after.opened[0] and sum(after.hands[0]) == 11 and not any(after.feet[0])


def test_asking_waits_for_the_foot() -> None:
    s = table(foot=None, hands={0: "5S 5H 6D"})
    assert "ask" not in moves(s)
    assert_illegal(s, "ask", "ASK_BEFORE_FOOT")
    assert "ask" in moves(table(hands={0: "5S 5H 6D"}))


# --- going out ------------------------------------------------------------------------------------------

def test_going_out_needs_seven_canastas_three_natural_and_a_yes() -> None:
    yes = Turn(source="stock", permission="yes")
    two_natural = NATURAL3[:2] + MIXED4 + ["JS JS JH JH JD 2S 2H"]  # seven canastas, two natural
    assert_illegal(table(melds=two_natural, hands={0: "5S"}, turn=yes), "discard 5", "NEED_NATURAL_CANASTAS")
    assert_illegal(table(melds=NATURAL3 + MIXED4[:3], hands={0: "5S"}, turn=yes), "discard 5",
                   "NEED_CANASTA_TO_GO_OUT")
    assert_illegal(table(hands={0: "5S"}), "discard 5", "PERMISSION_REQUIRED")
    after = assert_legal(table(hands={0: "5S"}, turn=yes), "discard 5")
    assert after.hand_number == 2 and after.last_hand[0]["went_out"]
    assert after.last_hand[0]["lines"]["going_out"] == 100


def test_third_natural_canasta_made_while_going_out() -> None:
    """The sixes become the third natural canasta; a two held besides could only spoil a natural canasta
    (every mixed canasta has its three wild cards), so with it the player cannot go out."""
    yes = Turn(source="stock", permission="yes")
    full = ["TS TS TH TH 2S 2H 2D", "9S 9S 9H 9H 2D 2C JK", "8S 8S 8H 8H JK JK 2S", "7S 7S 7H 7H 2S 2C JK"]
    melds = [*NATURAL3[:2], *full, "6S 6S 6H 6H 6D 6C"]
    s = table(melds=melds, hands={0: "6C 4S"}, turn=yes)
    assert canasta.can_go_out(s)
    after = assert_legal(s, "meld 6")
    assert_legal(after, "discard 4")
    s = table(melds=melds, hands={0: "6C 2D 4S"}, turn=yes)
    assert not canasta.can_go_out(s)
    # A fourth natural canasta can spare itself for the two: 3 natural + 4 mixed remain.
    spare = [*NATURAL3, "6S 6S 6H 6H 6D 6C 6D", *full[:3]]
    s = table(melds=spare, hands={0: "2D 5C"}, turn=yes)
    assert canasta.can_go_out(s)
    assert "discard 5" in moves(assert_legal(s, "meld 2 on 6"))
    s = table(melds=[*NATURAL3, *full], hands={0: "2D 5C"}, turn=yes)
    assert not canasta.can_go_out(s)
    assert "meld 2 on K" not in moves(s)


def test_black_threes_are_never_melded() -> None:
    yes = Turn(source="stock", permission="yes")
    s = table(hands={0: "3S 3S 3C"}, turn=yes)
    assert_illegal(s, "meld 3 3 3", "BLACK_THREES_NOT_MELDABLE")
    assert not canasta.can_go_out(s)


# --- threes and scoring ---------------------------------------------------------------------------------

def test_red_three_drawn_stays_and_may_be_discarded() -> None:
    s = position(HF, hands={0: "5S 6S 7S"}, stock="8S 9D 3H", melds=[["AS AH AD"], OPPONENTS])
    s = assert_legal(s, "draw")
    assert s.red_threes == ((), ()) and sorted(card_str(c) for c in cards_of(s.hands[0])) == cards(
        "3H 5S 6S 7S 9D")
    assert "discard 3H" in moves(s) and "discard 3D" not in moves(s)
    after = assert_legal(s, "discard 3H")
    assert card_str(after.pile[-1]) == "3H"
    assert_illegal(after, "take 3 3", "PILE_TOP_RED_THREE")
    assert canasta.parse_move(s, "discard 3h") == canasta.parse_move(s, "discard 3H")


def test_red_three_in_hand_costs_300_and_a_black_three_5() -> None:
    yes = Turn(source="stock", permission="yes")
    s = table(hands={0: "5S", 1: "3H 3S 9C", 2: "4C", 3: "4D"}, turn=yes, feet={0: "", 1: "", 2: "", 3: ""})
    after = assert_legal(s, "discard 5")
    lines = after.last_hand[1]["lines"]
    assert lines["undeclared_red_threes"] == -300
    assert lines["cards_in_hand"] == -(5 + 10 + 5)  # 3S 9C and the 4D of seat 3; the red three has no value


def test_an_unplayed_foot_counts_against_its_side() -> None:
    yes = Turn(source="stock", permission="yes")
    s = table(hands={0: "5S", 1: "4H", 2: "4C", 3: "4D"}, turn=yes,
              feet={0: "", 1: "KH KD 3D", 2: "", 3: ""})
    after = assert_legal(s, "discard 5")
    assert after.last_hand[1]["lines"]["cards_in_hand"] == -(5 + 5 + 10 + 10)
    assert after.last_hand[1]["lines"]["undeclared_red_threes"] == -300


# --- the minimum by hand number and the four hands ----------------------------------------------------------

@pytest.mark.parametrize(("hand_number", "need"), [(1, 50), (2, 90), (3, 120), (4, 150), (5, 150)])
def test_minimum_by_hand_number(hand_number: int, need: int) -> None:
    s = position(HF, hand_number=hand_number, scores=[6000, 0])
    assert canasta.minimum_needed(s, 0) == need == canasta.minimum_needed(s, 1)
    assert canasta.view(s, 0)["sides"][1]["minimum_needed"] == need


def test_game_ends_after_four_hands() -> None:
    yes = Turn(source="stock", permission="yes")
    s = table(hands={0: "5S"}, turn=yes, hand_number=3, scores=[100, 200])
    after = assert_legal(s, "discard 5")
    assert after.hand_number == 4 and not canasta.is_over(after)
    s = table(hands={0: "5S"}, turn=yes, hand_number=4, scores=[100, 200])
    after = assert_legal(s, "discard 5")
    assert canasta.is_over(after)
    result = canasta.outcome(after)
    assert result is not None and result["winner"] == 0 and result["by"] == "4 hands" and result["hands"] == 4


# --- what a seat sees ---------------------------------------------------------------------------------------

def test_the_foot_is_hidden_from_everybody_even_its_owner() -> None:
    s = canasta.new_game(HF, seed=9)
    for seat in range(4):
        v = canasta.view(s, seat)
        assert v["foot_sizes"] == [11, 11, 11, 11]
        assert v["public_state"]["feet"] == [None] * 4
        assert "feet" not in v
        # the view is the same whatever the feet hold
        pool = [c for f in s.feet for c in cards_of(f)]
        random.Random(seat).shuffle(pool)
        feet = tuple(tuple(counts_of(pool[i * 11:(i + 1) * 11])) for i in range(4))
        assert canasta.view(s.replace(feet=feet), seat) == v


def test_determinize_fills_every_foot() -> None:
    s = canasta.new_game(HF, seed=9)
    s = canasta.apply(s, "draw")
    sample = determinize(canasta.view(s, 0), random.Random(1))
    assert [sum(f) for f in sample.feet] == [11] * 4
    assert sample.hands[0] == s.hands[0]
    counts = [0] * 53
    for h in (*sample.hands, *sample.feet):
        for c, n in enumerate(h):
            counts[c] += n
    for c in (*sample.stock, *sample.pile):
        counts[c] += 1
    assert counts == counts_of(pack(5, 10))


def test_json_round_trip_with_feet_and_older_positions() -> None:
    s = table(foot=None, hands={0: "5S 6S"})
    text = s.to_json()
    assert "feet" in json.loads(text)
    again = canasta.State.from_json(text)
    assert again.to_json() == text and again.feet == s.feet
    classic = canasta.new_game(canasta.rules(), seed=1)
    data = json.loads(classic.to_json())
    assert "feet" not in data  # positions without a foot keep their old form
    assert canasta.State.from_dict(data).feet == ((0,) * 53,) * 4
    broken = json.loads(text)
    broken["feet"][1] = broken["feet"][1][1:]
    with pytest.raises(ValueError, match="pack"):
        canasta.State.from_dict(broken)


def test_record_replays() -> None:
    rules = canasta.rules("hand-and-foot", players=3)
    rec = Recorder(canasta.new_game(rules, seed=5), ["random"] * rules.players)
    rng = random.Random(5)
    for _ in range(400):
        if canasta.is_over(rec.state):
            break
        rec.apply(rng.choice(canasta.legal_moves(rec.state)))
    final = replay(json.loads(json.dumps(rec.record())))
    assert final.to_json() == rec.state.to_json()


def test_play_and_simulate_commands(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`canasta play --variant hand-and-foot` through standard input (random legal moves typed from
    `help`), then `canasta simulate` with every kind of computer player but search."""
    import io
    import sys

    from canasta.cli import main
    from test_cli import HelpDriver

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", HelpDriver(out, seed=2))
    assert main(["play", "--variant", "hand-and-foot", "--seed", "3", "--opponents", "greedy"]) == 0
    text = out.getvalue()
    assert "Game over after" in text.splitlines()[-1], text[-2000:]
    assert "Feet (face down): you 11" in text and "picked up" in text
    monkeypatch.undo()
    status = main(["simulate", "--variant", "hand-and-foot", "-n", "1", "--players", "heuristic,greedy",
                   "--no-progress"])
    assert status == 0 and "1 games of hand-and-foot" in capsys.readouterr().out
    status = main(["simulate", "--variant", "hand-and-foot", "-o", "players=5", "-n", "1", "--players", "random",
                   "--no-progress"])
    assert status == 0


def test_has_foot_after_a_pickup_in_play_and_in_a_position_read_back() -> None:
    # The engine leaves one shared all-zero tuple where a foot was picked up and tests it by identity; a position
    # read from JSON holds another all-zero tuple, which must answer the same.
    from canasta.canasta.engine.core import has_foot

    s = table(melds=["9C 9C 9D", *NATURAL3], foot="4S 4H 4D 5S 6S 7C 8C TC QC KC AC", hands={0: "9S 9H 9D"})
    assert has_foot(s, 0)
    after = assert_legal(s, "meld 9 9 9")
    read = canasta.State.from_json(after.to_json())
    assert not has_foot(after, 0) and not has_foot(read, 0)
    assert moves(read) == moves(after)
