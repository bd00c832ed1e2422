"""Variant presets and house-rule options (issue "Variants I"): golden cases and rule scenarios.

The worked examples (docs/sources.md) that belong to the presets of ``canasta.canasta.variants``
(GC-M18, GC-I15, GC-I16, GC-G04, GC-S12, GC-S16, GC-S17, GC-E03; GC-S22 lives in test_golden.py),
then one scenario class per preset rule (docs/sources.md §4A, §4B) and per house rule (docs/sources.md §5), then the
names, aliases, unsupported variants and the command line.

Positions come from ``canasta.positions.build_position`` through the helpers in golden_helpers.py;
every legality assertion checks ``legal_moves``, ``why_illegal`` and ``apply`` together. Sides are
``seat % teams``: in four-player games seats 0 and 2 are side 0; in ``six-player`` seats 0, 2, 4.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path

import pytest

import canasta
from canasta.canasta.cards import card_str, parse_cards
from canasta.canasta.scoring import score_side
from canasta.canasta.variants import ALIASES, PRESETS, UNSUPPORTED
from canasta.cli import main
from golden_helpers import (
    after_draw,
    assert_illegal,
    assert_legal,
    cards,
    hand,
    meld_of,
    moves,
    play,
    position,
    rules,
)

CLASSIC = canasta.rules()
TWO = canasta.rules("two-player")
CUT = canasta.rules("cutthroat")
SIX = canasta.rules("six-player")
SIX3 = canasta.rules("six-player-three-teams")
BRIT = canasta.rules("british")
URU = canasta.rules("uruguayan")
CUBA = canasta.rules("cuban")

ACES = "AS AH AD"
KINGS = "KS KH KD"
K7 = "KS KH KD KC KS KH KD"
Q7 = "QS QH QD QC QS QH QD"
J7 = "JS JH JD JC JS JH JD"


def reds(state: canasta.State, slot: int) -> list[str]:
    return sorted(card_str(c) for c in state.red_threes[slot])


def wild_meld(state: canasta.State, side: int) -> list[str]:
    return sorted(card_str(c) for c in state.melds[side].get(0, ()))


def side_score(r: canasta.Rules, **side: object) -> dict:
    """One side's hand score through score_hand, the other sides empty."""
    return canasta.score_hand(r, [side, *({} for _ in range(r.teams - 1))])[0]


# ================================================================================================
# Golden cases (the worked examples of docs/sources.md)
# ================================================================================================


def test_gc_m18_uruguay_wild_melds_and_wild_canasta():
    """GC-M18 (SOURCE; Sc, R): Uruguay: `2 2 Jk` is a LEGAL meld; seven wild cards make a wild canasta
    worth 2,000 (on top of its card values)."""
    s = after_draw(URU, hands={0: "2C 2D JK 5H 6D 9S"}, melds=[[ACES], []])
    assert "meld 2 2 JK" in moves(s)
    s2 = assert_legal(s, "meld 2 2 JK")
    assert wild_meld(s2, 0) == cards("2C 2D JK")
    v = canasta.view(s2, 0)["sides"][0]["melds"]
    assert {"rank": "wild", "key": "JK", "cards": ["2D", "2C", "JK"], "naturals": 0, "wilds": 3,
            "canasta": False, "kind": None} in v
    # The same meld is illegal in Classic.
    assert_illegal(after_draw(CLASSIC, hands={0: "2C 2D JK 5H 6D 9S"}, melds=[[ACES], []]), "meld 2 2 JK",
                   "WILD_MELD_NOT_ALLOWED")
    # Seven wild cards: a wild canasta, 2,000 on top of the card values (4 × 20 + 3 × 50 = 230).
    res = side_score(URU, melds=["2C 2D 2H 2S JK JK JK"])
    assert res["lines"]["wild_canastas"] == 2000
    assert res["lines"]["natural_canastas"] == res["lines"]["mixed_canastas"] == 0
    assert res["total"] == 230 + 2000
    # Uruguay keeps Classic's open-ended canastas: an 8-card natural meld is fine.
    assert side_score(URU, melds=["KS KH KD KC KS KH KD KC"])["total"] == 80 + 500


@pytest.mark.parametrize(("meld", "bonus", "points"), [
    ("2C 2D 2H 2S 2C 2D 2H", 4000, 140),  # seven twos
    ("JK JK JK JK 2C 2D 2H", 3000, 260),  # four jokers + three twos
    ("JK JK 2C 2D 2H 2S 2C", 2000, 200),  # GOLDEN's example of "any other"
    ("JK 2C 2D 2H 2S 2C 2D", 2000, 170),
    ("JK JK JK 2C 2D 2H 2S", 2000, 230),
])
def test_gc_m18_cuban_wild_canasta_values(meld, bonus, points):
    """GC-M18 (SOURCE; R): Cuban wild canastas: 7 twos = 4,000; 4 jokers + 3 twos = 3,000; any other
    wild canasta (e.g. 2 Jk + 5 twos) = 2,000."""
    res = side_score(CUBA, melds=[meld])
    assert res["lines"]["wild_canastas"] == bonus
    assert res["lines"]["melded_cards"] == points
    assert res["total"] == bonus + points


def test_gc_m18_cuban_canasta_may_not_exceed_seven_cards():
    """GC-M18 (SOURCE; R): in Cuban a canasta may not exceed 7 cards: no 8th card, natural or wild, on a
    finished canasta, and no 8th card on a wild canasta; score_hand rejects an 8-card meld."""
    s = after_draw(CUBA, hands={0: "KC 2H JK 5D 9S"}, melds=[[K7, "2C 2D 2S 2C 2D 2S JK"], []])
    assert_illegal(s, "meld K", "MELD_TOO_LARGE")
    assert_illegal(s, "meld 2 on K", "MELD_TOO_LARGE")
    assert_illegal(s, "meld JK on K", "MELD_TOO_LARGE")
    assert_illegal(s, "meld JK")  # onto the wild canasta (its code: TestWildCanastas, an engine bug)
    assert not any(m.startswith("meld") for m in moves(s))
    with pytest.raises(ValueError, match="at most 7"):
        canasta.score_hand(CUBA, [{"melds": ["KS KH KD KC KS KH KD KC"]}, {}])
    # Classic has no cap: the same 8th king is fine.
    assert_legal(after_draw(CLASSIC, hands={0: "KC 2H JK 5D 9S"}, melds=[[K7], []]), "meld K")


def test_gc_i15_cuban_thresholds():
    """GC-I15 (SOURCE; R, W): Cuban minimum count: 4,995 → 120; 5,000 → 150 (Classic table below)."""
    for score, need in ((-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120),
                        (5000, 150), (7495, 150)):
        assert CUBA.minimum_count(score) == need, score
    s = position(CUBA, scores=[5000, 4995])
    assert [canasta.minimum_needed(s, i) for i in (0, 1)] == [150, 120]
    # Classic stays at 120.
    assert CLASSIC.minimum_count(5000) == 120
    # In play: 140 is not enough at 5,000. A A A A (80) + K K K 2 2 (70) = 150 is.
    s = after_draw(CUBA, hands={0: "AS AH AD AC KS KH KD 2C 2D 9S 4D"}, scores=[5000, 0])
    s = play(s, "meld A A A A")
    s = play(s, "meld K K K 2")
    assert s.stage.points == 130
    assert_illegal(s, "discard 9", "BELOW_MINIMUM")
    s = play(s, "meld 2 on K", "discard 9")
    assert s.opened[0]


def test_gc_i16_six_player_thresholds():
    """GC-I16 (SOURCE; R): six players, 10,000-point game: 7,500 → 150, otherwise the Classic table."""
    for r in (SIX, SIX3):
        for score, need in ((-5, 15), (0, 50), (1500, 90), (3000, 120), (7495, 120), (7500, 150), (9995, 150)):
            assert r.minimum_count(score) == need, (r.name, score)
    s = position(SIX, scores=[7500, 7495])
    assert [canasta.minimum_needed(s, i) for i in (0, 1)] == [150, 120]
    assert SIX.target == 10000 and SIX3.target == 7500


def test_gc_g04_two_players_need_two_canastas():
    """GC-G04 (SOURCE; P, H, R): two-player game; the player has exactly one canasta and could meld out →
    ILLEGAL; he must keep a card. With two canastas (even one finished in this turn) he may go out."""
    s = after_draw(TWO, hands={0: "8S 8H 8D 5C"}, melds=[[K7], []])
    assert_illegal(s, "meld 8 8 8", "NEED_CANASTA_TO_GO_OUT")
    assert not canasta.can_go_out(s)
    s2 = assert_legal(s, "discard 5")
    assert s2.hand_number == 1 and hand(s2, 0) == cards("8S 8H 8D")
    s = after_draw(TWO, hands={0: "8S 8H 8D"}, melds=[[K7], []])
    assert_illegal(s, "meld 8 8 8", "NEED_CANASTA_TO_GO_OUT")
    s = after_draw(TWO, hands={0: "9C"}, melds=[[K7], []])
    assert_illegal(s, "discard 9", "NEED_CANASTA_TO_GO_OUT")
    # Two canastas: he may go out.
    s = after_draw(TWO, hands={0: "8S 8H 8D 5C"}, melds=[[K7, Q7], []])
    assert canasta.can_go_out(s)
    out = play(s, "meld 8 8 8", "discard 5")
    assert out.last_hand[0]["went_out"] and out.last_hand[0]["lines"]["going_out"] == 100
    # The second canasta finished in the going-out turn counts.
    s = after_draw(TWO, hands={0: "QC QS 5C"}, melds=[[K7, "QS QH QD QC QH"], []])
    out = play(s, "meld Q Q", "discard 5")
    assert out.last_hand[0]["went_out"]
    # Classic needs one.
    assert canasta.can_go_out(after_draw(CLASSIC, hands={0: "8S 8H 8D 5C"}, melds=[[K7], []]))


@pytest.mark.parametrize(("n", "value"), [(1, 100), (2, 300), (3, 500), (4, 1000)])
def test_gc_s12_cuban_red_threes(n, value):
    """GC-S12 (SOURCE; R, W): Cuban red threes 1: ±100, 2: ±300, 3: ±500, 4: ±1,000; plus with at least
    one canasta, minus without (a meld is not enough)."""
    threes = " ".join(["3H", "3D", "3H", "3D"][:n])
    with_canasta = side_score(CUBA, melds=[K7], red_threes=threes)
    assert with_canasta["lines"]["red_threes"] == value
    meld_only = side_score(CUBA, melds=["KS KH KD"], red_threes=threes)
    assert meld_only["lines"]["red_threes"] == -value
    nothing = side_score(CUBA, red_threes=threes)
    assert nothing["lines"]["red_threes"] == -value
    # Classic counts the same threes plus for any meld.
    assert side_score(CLASSIC, melds=["KS KH KD"], red_threes=threes)["lines"]["red_threes"] > 0


def test_gc_s12_cuban_black_threes_from_taken_piles():
    """GC-S12 (SOURCE; R, W): black threes found in a taken pile are removed from play and laid aside
    for the side: 5 each, 100 for all four (not 20)."""
    assert [score_side(CUBA, [], [], [], black_threes=[4] * n)["lines"]["black_threes"]
            for n in range(5)] == [0, 5, 10, 15, 100]
    # In play: all four black threes are buried in the pile North takes.
    s = position(CUBA, hands={0: "9S 9C 4D 5H 6S 7C 8D"}, pile="3S 3C 4H 3S 3C 5D 9H", melds=[[ACES, J7], []])
    s = assert_legal(s, "take 9 9")
    assert sorted(card_str(c) for c in s.black_threes[0]) == ["3C", "3C", "3S", "3S"]
    assert hand(s, 0) == cards("4D 5H 6S 7C 8D 4H 5D")  # no black three came into the hand
    # Two black threes taken, then North goes out: the black_threes line is 10, on top of card values.
    s = position(CUBA, hands={0: "9S 9C 4D 4S 5C 5S"}, pile="3S 4H 3C 5D 9H", melds=[[ACES, J7], []])
    s = play(s, "take 9 9", "meld 4 4 4")
    assert len(s.black_threes[0]) == 2
    out = play(s, "meld 5 5 5")
    assert out.hand_number == 2 and out.last_hand[0]["went_out"]
    assert out.last_hand[0]["lines"]["black_threes"] == 10
    assert out.last_hand[1]["lines"]["black_threes"] == 0
    assert out.last_hand[0]["lines"]["melded_cards"] == 60 + 70 + 30 + 15 + 15
    # Classic: black threes in a taken pile go into the hand.
    s = position(CLASSIC, hands={0: "9S 9C 4D"}, pile="3S 4H 3C 5D 9H", melds=[[ACES], []])
    s = play(s, "take 9 9")
    assert s.black_threes == ((), ()) and "3S" in hand(s, 0) and "3C" in hand(s, 0)


def test_gc_s16_six_player_red_threes():
    """GC-S16 (SOURCE; R): six players, three packs: red threes 1-4: 100 each (4 → 400), 5 → 1,000,
    6 → 1,200; minus for a side that has not melded (Classic condition)."""
    threes = ["3H", "3D", "3H", "3D", "3H", "3D"]
    for r in (SIX, SIX3):
        got = [side_score(r, melds=["KS KH KD"], red_threes=" ".join(threes[:n]))["lines"]["red_threes"]
               for n in range(1, 7)]
        assert got == [100, 200, 300, 400, 1000, 1200], r.name
        assert side_score(r, red_threes=" ".join(threes))["lines"]["red_threes"] == -1200
    # Classic's four red threes are 800, not 400.
    assert side_score(CLASSIC, melds=["KS KH KD"], red_threes="3H 3D 3H 3D")["lines"]["red_threes"] == 800


def test_gc_s17_acaba():
    """GC-S17 (SOURCE; W): a team at 3,200 vs 2,900 calls "Acaba" in its turn: the round ends; the
    opponents add +1,500 (→ 4,400) and the caller's team adds 0 (stays 3,200); its melds and bonuses
    in that round do not count."""
    s = position(BRIT, hands={0: "5C 9D 4H"}, melds=[[ACES, K7], ["QS QH QD"]], red_threes=["3H 3D", ""],
                 scores=[3200, 2900])
    assert {"acaba", "ask acaba"} <= moves(s)
    out = assert_legal(s, "acaba")
    assert out.hand_number == 2 and not canasta.is_over(out)
    assert out.scores == (3200, 4400)
    assert out.last_hand[0]["total"] == 0 and all(v == 0 for v in out.last_hand[0]["lines"].values())
    assert out.last_hand[1]["total"] == 1500 and out.last_hand[1]["lines"]["acaba"] == 1500
    assert [h["cumulative"] for h in out.last_hand] == [3200, 4400]
    assert not any(h["went_out"] for h in out.last_hand)


def test_gc_e03_two_players_one_card_left_in_stock():
    """GC-E03 (SOURCE; P, R): two players; one card left in the stock: the player draws it, this counts
    as a full two-card draw, and he finishes his turn normally."""
    s = position(TWO, hands={0: "5C 5D 9S 4H"}, melds=[[ACES], []], stock="8C")
    s = assert_legal(s, "draw")
    assert s.phase == "play" and s.to_move == 0 and s.hand_number == 1
    assert hand(s, 0) == cards("5C 5D 9S 4H 8C") and s.stock == ()
    assert {"discard 8", "discard 9", "discard 5"} <= moves(s)
    s = assert_legal(s, "discard 8")
    assert s.pile[-1] == parse_cards("8C")[0]
    # A red three among the last cards is not replaced and the turn still goes on.
    s = position(TWO, hands={0: "5C 5D 9S 4H"}, melds=[[ACES], []], stock="3H 8C", red_threes=["", ""])
    s = assert_legal(s, "draw")
    assert s.phase == "play" and s.hand_number == 1
    assert hand(s, 0) == cards("5C 5D 9S 4H 8C") and reds(s, 0) == ["3H"]
    s = position(TWO, hands={0: "5C 5D 9S 4H"}, melds=[[ACES], []], stock="3H", red_threes=["", ""])
    s = assert_legal(s, "draw")
    assert s.phase == "play" and s.hand_number == 1 and reds(s, 0) == ["3H"]
    assert hand(s, 0) == cards("5C 5D 9S 4H")
    assert_legal(s, "discard 9")
    # Two cards left: both are drawn.
    s = position(TWO, hands={0: "5C 5D 9S 4H"}, melds=[[ACES], []], stock="7D 8C")
    s = assert_legal(s, "draw")
    assert hand(s, 0) == cards("5C 5D 9S 4H 8C 7D") and s.stock == ()


# ================================================================================================
# Cutthroat (docs/sources.md §4A): the lone hand
# ================================================================================================


class TestCutthroat:
    """Three players, each with his own score column. The first to take the pile plays alone; the other
    two become partners for the rest of the hand (``seat_sides``), combining their melds; red threes
    count for their owner; each player's own score sets his minimum."""

    def _table(self, **kw):
        base = dict(hands={0: "9S 9C 4D 5H 6S 7C 8D", 1: "KS KH 4C 4H 7D", 2: "QS QH 4S 6H KH"},
                    pile="7S 8H 9H", melds=[[ACES], ["KC KD KS"], ["KC KD 2C", "5S 5D 5H"]],
                    red_threes=["3H", "3D", "3H 3D"])
        return position(CUT, **{**base, **kw})

    def test_preset(self):
        assert (CUT.players, CUT.teams, CUT.hand_size, CUT.draw_count, CUT.canastas_to_go_out, CUT.target) == \
            (3, 3, 13, 2, 2, 7500)
        s = canasta.new_game(CUT, seed=3)
        assert [sum(h) for h in s.hands] == [13, 13, 13]
        assert s.seat_sides == (0, 1, 2) and len(s.scores) == 3
        assert_illegal(after_draw(CUT, hands={0: "5C 9D 4H"}, melds=[[ACES], [], []]), "ask", "NO_PERMISSION_RULE")

    def test_first_to_take_the_pile_plays_alone_and_the_others_combine(self):
        s = assert_legal(self._table(), "take 9 9")
        assert s.seat_sides == (0, 1, 1)
        assert s.seats_of(0) == (0,) and s.seats_of(1) == (1, 2) and s.seats_of(2) == ()
        # The two K melds merged (such a merged meld may pass the wild limit: docs/variants/cutthroat.md);
        # seat 2's 5s joined the partnership's melds; seat 0 keeps his own.
        assert meld_of(s, 1, "K") == cards("KC KD KS KC KD 2C")
        assert meld_of(s, 1, "5") == cards("5S 5D 5H")
        assert s.melds[2] == {}
        assert sorted(s.melds[0]) == [9, 14]
        assert s.opened == (True, True, False)
        # Red threes stay with their owners.
        assert reds(s, 0) == ["3H"] and reds(s, 1) == ["3D"] and reds(s, 2) == ["3D", "3H"]
        v = canasta.view(s, 2)
        assert v["seat_sides"] == [0, 1, 1] and v["side"] == 1
        # A later take changes nothing; each partner adds to the combined melds.
        s = play(s, "discard 4", "take 4 4")
        assert s.seat_sides == (0, 1, 1) and meld_of(s, 1, "4") == cards("4C 4H 4D")
        s = play(s, "meld K")  # not K K: one card left, and the partnership has no two canastas
        assert len(meld_of(s, 1, "K")) == 7
        s = play(s, "discard 7", "draw", "meld K")
        assert len(meld_of(s, 1, "K")) == 8 and s.melds[2] == {}
        assert canasta.view(s, 1)["sides"][1]["canastas"] == 1

    def test_the_lone_hand_is_whoever_takes_first(self):
        s = self._table(hands={0: "JS 4C 4D 5H 6S 7C 8D", 1: "KS KH 9S 9C 7D", 2: "QS QH 4S 6H 7H"}, turn_seat=1)
        s = assert_legal(s, "take 9 9")
        assert s.seat_sides == (0, 1, 0)
        assert meld_of(s, 0, "A") == cards(ACES) and meld_of(s, 0, "5") == cards("5S 5D 5H")
        assert meld_of(s, 0, "K") == cards("KC KD 2C")
        assert meld_of(s, 1, "9") == cards("9S 9C 9H") and s.melds[2] == {}
        assert reds(s, 0) == ["3H"] and reds(s, 2) == ["3D", "3H"]  # red threes stay with their owners

    def test_lone_hand_goes_out_partners_score_together_red_threes_for_owner(self):
        """Seat 0 takes the pile and goes out at once. Seats 1 and 2 each score the partnership's melds
        less both their hands, plus only their own red threes (seat 1 never melded himself: his red
        three still counts plus, because his partnership melded)."""
        s = position(CUT, hands={0: "9S 9C 4D 4S 4H", 1: "4C 6C", 2: "8S 8D"}, pile="5C 5D 5H 9H",
                     melds=[[ACES, K7, Q7], [], ["JC JS 2C", "7S 7H 7D"]], red_threes=["3H", "3D", "3H 3D"],
                     scores=[100, 200, 300])
        s = play(s, "take 9 9", "meld 4 4 4")
        assert s.seat_sides == (0, 1, 1)
        out = assert_legal(s, "meld 5 5 5")
        assert out.hand_number == 2
        lone, p1, p2 = out.last_hand
        assert lone["went_out"] and not p1["went_out"] and not p2["went_out"]
        assert lone["lines"]["melded_cards"] == 60 + 70 + 70 + 30 + 15 + 15
        assert lone["total"] == 260 + 1000 + 100 + 100  # melds, two natural canastas, going out, 3H
        for col in (p1, p2):
            assert col["lines"]["melded_cards"] == 40 + 15  # J J 2 and 7 7 7
            assert col["lines"]["cards_in_hand"] == -(5 + 5 + 10 + 10)  # both partners' hands
        assert p1["lines"]["red_threes"] == 100 and p2["lines"]["red_threes"] == 200
        assert p1["total"] == 25 + 100 and p2["total"] == 25 + 200
        assert out.scores == (100 + 1460, 200 + 125, 300 + 225)
        for col in out.last_hand:
            assert sum(col["lines"].values()) == col["total"]

    def test_partners_who_never_melded_count_their_red_threes_minus(self):
        s = position(CUT, hands={0: "9S 9C 4D 4S 4H", 1: "4C 6C", 2: "8S 8D"}, pile="5C 5D 5H 9H",
                     melds=[[ACES, K7, Q7], [], []], red_threes=["", "3D", "3H 3D"])
        out = play(s, "take 9 9", "meld 4 4 4", "meld 5 5 5")
        assert [c["lines"]["red_threes"] for c in out.last_hand] == [0, -100, -200]

    def test_going_out_before_the_pile_was_taken_makes_the_lone_hand(self):
        s = after_draw(CUT, hands={0: "4C 6C", 1: "9S 9C 9D", 2: "8S 8D"}, turn_seat=1,
                       melds=[["AS AH AD"], [K7, Q7], ["AS AC 2C", "7S 7H 7D"]], red_threes=["3H", "", "3D"])
        assert s.seat_sides == (0, 1, 2)
        out = assert_legal(s, "meld 9 9 9")
        a, lone, c = out.last_hand
        assert lone["went_out"] and lone["total"] == 30 + 140 + 1000 + 100
        # Seats 0 and 2 became partners: the aces merged (A A A A A 2 = 120), 7 7 7 = 15, both hands -30.
        for col in (a, c):
            assert col["lines"]["melded_cards"] == 120 + 15
            assert col["lines"]["cards_in_hand"] == -30
            assert col["lines"]["red_threes"] == 100
        assert a["total"] == c["total"] == 135 - 30 + 100

    def test_pile_never_taken_each_scores_alone_and_play_ends_with_the_last_discard(self):
        """The player who draws the last stock card plays his turn (he may meld), and the hand ends with
        his discard; the pile was never taken, so each player scores alone."""
        hands = {0: "6C 6D 6H 9D", 1: "4C 4D", 2: "8S 8D"}
        s = position(CUT, hands=hands, melds=[[ACES], [KINGS], ["QS QH QD"]], red_threes=["3H", "3D", ""],
                     stock="7D 8C")
        s = assert_legal(s, "draw")
        assert s.hand_number == 1 and s.phase == "play" and s.stock == ()
        assert hand(s, 0) == cards("6C 6D 6H 9D 7D 8C")
        s = assert_legal(s, "meld 6 6 6")
        out = assert_legal(s, "discard 9")
        assert out.hand_number == 2
        assert not any(col["went_out"] for col in out.last_hand)
        a, b, c = out.last_hand
        assert a["lines"]["melded_cards"] == 60 + 15 and a["lines"]["cards_in_hand"] == -15
        assert a["lines"]["red_threes"] == 100 and a["total"] == 160
        assert b["lines"]["melded_cards"] == 30 and b["lines"]["cards_in_hand"] == -10 and b["total"] == 120
        assert c["lines"]["melded_cards"] == 30 and c["lines"]["cards_in_hand"] == -20 and c["total"] == 10

    def test_each_players_own_score_sets_his_minimum(self):
        s = position(CUT, hands={0: "9S 9C 4D 5H 6S 7C 8D", 1: "5C 5D 5S 6C 7D", 2: "4C 4D 4H JS 7H"},
                     pile="7S 8H 9H", melds=[[ACES], [], []], scores=[0, 1600, -100])
        assert [canasta.minimum_needed(s, i, i) for i in range(3)] == [0, 90, 15]
        s = play(s, "take 9 9", "discard 4")
        assert s.seat_sides == (0, 1, 1) and not s.opened[1]
        # The partnership has not opened; each partner meets his own minimum.
        assert canasta.minimum_needed(s, 1, 1) == 90 and canasta.minimum_needed(s, 1, 2) == 15
        s = play(s, "draw", "meld 5 5 5")
        assert s.stage.points == 15
        assert_illegal(s, "discard 7", "BELOW_MINIMUM")
        s = play(s, "withdraw", "discard 7")
        assert not s.opened[1] and s.to_move == 2
        s = play(s, "draw", "meld 4 4 4", "discard 7")
        assert s.opened[1] and meld_of(s, 1, "4") == cards("4C 4D 4H")


# ================================================================================================
# Acaba (docs/sources.md §4A; british preset, acaba option)
# ================================================================================================


class TestAcaba:
    def _pos(self, r=BRIT, **kw):
        base = dict(hands={0: "5C 5D 5H 9D 4H"}, melds=[[ACES], [KINGS]], scores=[3200, 2900])
        return position(r, **{**base, **kw})

    def test_call_in_the_draw_phase(self):
        s = self._pos()
        assert moves(s) >= {"draw", "acaba", "ask acaba"}
        out = assert_legal(s, "acaba")
        assert out.scores == (3200, 4400) and out.hand_number == 2

    def test_call_in_the_play_phase_after_melding(self):
        s = play(self._pos(), "draw", "meld 5 5 5")
        assert "acaba" in moves(s) and "ask acaba" in moves(s)
        out = assert_legal(s, "acaba")
        assert out.scores == (3200, 4400)
        assert out.last_hand[0]["lines"]["melded_cards"] == 0  # the caller's melds do not count

    def test_partner_yes_forces_acaba(self):
        s = assert_legal(self._pos(), "ask acaba")
        assert s.phase == "answer" and s.to_move == 2 and moves(s) == {"yes", "no"}
        assert_illegal(s, "acaba", "MUST_ANSWER")
        s = assert_legal(s, "yes")
        assert s.to_move == 0 and moves(s) == {"acaba"}
        assert_illegal(s, "draw", "MUST_CALL_ACABA")
        out = assert_legal(s, "acaba")
        assert out.scores == (3200, 4400)
        # Asked after drawing: the same.
        s = play(self._pos(), "draw", "ask acaba", "yes")
        assert s.phase == "play" and moves(s) == {"acaba"}
        assert_illegal(s, "discard 9", "MUST_CALL_ACABA")

    def test_partner_no_forbids_acaba(self):
        s = play(self._pos(), "ask acaba", "no")
        assert s.to_move == 0 and s.phase == "draw"
        assert "acaba" not in moves(s) and "ask acaba" not in moves(s)
        assert_illegal(s, "acaba", "ACABA_REFUSED")
        s = assert_legal(s, "draw")
        assert_illegal(s, "acaba", "ACABA_REFUSED")  # for the whole turn
        assert_illegal(s, "ask acaba")
        s = play(s, "discard 9")
        assert s.hand_number == 1 and s.to_move == 1
        assert "acaba" in moves(s)  # the opponents are not bound

    def test_asking_during_a_staged_opening_keeps_a_valid_position(self):
        """ENGINE BUG: `ask acaba` is listed while an opening is staged (not yet at the minimum); the
        position then has a staged opening in the answer phase, which ``State.from_json`` rejects ("a
        staged opening exists only in the play phase"), so ``to_json`` no longer round-trips. Either the
        question must wait (as `ask` does: ASK_BEFORE_MELDING) or the position must round-trip."""
        s = play(after_draw(BRIT, hands={0: "KC KD KH 7C 9S 4D"}), "meld K K K")
        assert s.stage is not None and s.stage.points == 30
        if "ask acaba" in moves(s):
            s = play(s, "ask acaba")
            text = s.to_json()
            assert canasta.State.from_json(text).to_json() == text
        s = play(after_draw(BRIT, hands={0: "KC KD KH 7C 9S 4D"}), "meld K K K")
        assert "acaba" in moves(s)  # calling it outright is fine: the hand ends
        assert assert_legal(s, "acaba").hand_number == 2

    def test_acaba_can_end_the_game_for_the_opponents(self):
        out = assert_legal(self._pos(scores=[3200, 4000]), "acaba")
        assert canasta.is_over(out) and out.scores == (3200, 5500) and canasta.outcome(out)["winner"] == 1

    def test_no_acaba_rule_in_classic(self):
        s = self._pos(CLASSIC)
        assert "acaba" not in moves(s)
        assert_illegal(s, "acaba", "NO_ACABA_RULE")
        assert_illegal(s, "ask acaba", "NO_ACABA_RULE")
        s = play(s, "draw")
        assert_illegal(s, "acaba", "NO_ACABA_RULE")

    def test_acaba_option_on_other_presets(self):
        s = position(canasta.rules("two-player", acaba=True), hands={0: "5C 9D"}, melds=[[ACES], [KINGS]])
        assert "acaba" in moves(s) and "ask acaba" not in moves(s)  # no partner to ask
        out = assert_legal(s, "acaba")
        assert [h["total"] for h in out.last_hand] == [0, 1500]
        r = canasta.rules("six-player-three-teams", acaba=True, acaba_bonus=1000)
        out = assert_legal(position(r, hands={1: "5C 9D"}, turn_seat=1), "acaba")
        assert out.scores == (1000, 0, 1000)  # every opposing side scores


# ================================================================================================
# Uruguayan and Cuban: the always-frozen pile (docs/sources.md §4B, D5)
# ================================================================================================


class TestAlwaysFrozen:
    @pytest.mark.parametrize("r", [URU, CUBA], ids=["uruguayan", "cuban"])
    def test_natural_pair_always_needed_even_for_an_opened_side(self, r):
        s = position(r, hands={0: "9S 9C 2C JK 4D 5H"}, pile="5C 8D 9H", melds=[[ACES, "9D 9H 9S"], []])
        assert not s.pile_frozen  # nothing in the pile freezes it ...
        assert canasta.view(s, 0)["sides"][0]["pile_frozen_for_side"]  # ... but it is frozen all the same
        assert_illegal(s, "take 9 2", "FROZEN_NEEDS_NATURAL_PAIR")
        assert_illegal(s, "take 9 JK", "FROZEN_NEEDS_NATURAL_PAIR")
        assert_illegal(s, "take", "FROZEN_NEEDS_NATURAL_PAIR")  # adding to the side's 9s is not enough
        assert {m for m in moves(s) if m.startswith("take")} == {"take 9 9"}
        s = position(r, hands={0: "9S 2C JK 4D 5H"}, pile="5C 8D 9H", melds=[[ACES, "9D 9H 9S"], []])
        assert {m for m in moves(s) if m.startswith("take")} == set()

    def test_classic_takes_the_same_pile_three_ways(self):
        s = position(CLASSIC, hands={0: "9S 9C 2C JK 4D 5H"}, pile="5C 8D 9H", melds=[[ACES, "9D 9H 9S"], []])
        assert {m for m in moves(s) if m.startswith("take")} == {"take 9 9", "take 9 2", "take 9 JK", "take"}


# ================================================================================================
# Cuban: canastas capped at 7 cards (docs/sources.md §4B)
# ================================================================================================


class TestCappedCanastas:
    def test_melds_stop_at_seven(self):
        s = after_draw(CUBA, hands={0: "KC KC 2H 5D 9S 4C"}, melds=[[ACES, "KS KH KD KS KH"], []])
        assert "meld K K" in moves(s) and "meld K 2" in moves(s)
        assert_illegal(s, "meld K K 2", "MELD_TOO_LARGE")
        s2 = assert_legal(s, "meld K K")
        assert len(meld_of(s2, 0, "K")) == 7
        assert_illegal(s2, "meld 2 on K", "MELD_TOO_LARGE")
        # A new meld from the hand may not pass 7 either.
        s = after_draw(CUBA, hands={0: "QS QH QD QC QS QH QD 2C 9S 4C"}, melds=[[ACES], []])
        assert "meld Q Q Q Q Q Q Q" in moves(s)
        assert_illegal(s, "meld Q Q Q Q Q Q Q 2", "MELD_TOO_LARGE")

    def test_a_take_that_would_pass_seven_is_illegal(self):
        s = position(CUBA, hands={0: "KC KC 4D 5H"}, pile="5C 8D KD", melds=[[ACES, "KS KH KD KS KH"], []])
        assert_illegal(s, "take K K", "MELD_TOO_LARGE")  # 5 + 1 + 2 = 8
        assert moves(s) == {"draw"}
        s = position(CUBA, hands={0: "KC KC 4D 5H"}, pile="5C 8D KD", melds=[[ACES, "KS KH KD KS"], []])
        s2 = assert_legal(s, "take K K")  # 4 + 1 + 2 = 7: fine
        assert len(meld_of(s2, 0, "K")) == 7
        # Classic has no cap.
        s = position(CLASSIC, hands={0: "KC KC 4D 5H"}, pile="5C 8D KD", melds=[[ACES, "KS KH KD KS KH"], []])
        assert "take K K" in moves(s)


# ================================================================================================
# Wild-card melds and wild canastas (Uruguayan, Cuban)
# ================================================================================================


class TestWildCanastas:
    @pytest.mark.parametrize("r", [URU, CUBA], ids=["uruguayan", "cuban"])
    def test_meld_add_and_finish(self, r):
        s = after_draw(r, hands={0: "2C 2D JK 2H 2S JK JK 2C 9S 4D"}, melds=[[ACES], []])
        assert {"meld 2 2 JK", "meld 2 2 2", "meld JK JK JK", "meld 2 2 2 2 JK JK JK"} <= moves(s)
        assert "meld 2 2" not in moves(s) and "meld 2 2 2 2 2 JK JK JK" not in moves(s)
        s = assert_legal(s, "meld 2 2 JK")
        # Adding one or more wild cards to the wild meld: "meld 2" or "meld JK JK".
        s = assert_legal(s, "meld 2")
        s = assert_legal(s, "meld JK JK")
        assert len(wild_meld(s, 0)) == 6
        s = assert_legal(s, "meld 2")
        assert wild_meld(s, 0) == cards("2C 2D 2H 2S JK JK JK")
        v = canasta.view(s, 0)["sides"][0]
        assert v["canastas"] == 1
        assert {"rank": "wild", "canasta": True, "kind": "wild"}.items() <= \
            next(m for m in v["melds"] if m["rank"] == "wild").items()
        # An 8th wild card is illegal.
        assert "meld 2" not in moves(s) and "meld 2 on K" not in moves(s)
        assert_illegal(s, "meld 2")

    @pytest.mark.parametrize("r", [URU, CUBA], ids=["uruguayan", "cuban"])
    def test_illegal_wild_melds_are_explained(self, r):
        """ENGINE BUG: explain.py checks ``3 <= rank <= 14`` before it looks at melds of wild cards, so every
        illegal ``meld`` of wild cards only gets UNKNOWN_MOVE ("no such rank")."""
        s = after_draw(r, hands={0: "2C 2D JK 2H 2S JK JK 2C 9S 4D"}, melds=[[ACES], []])
        assert_illegal(s, "meld 2 2", "MELD_TOO_SMALL")
        assert_illegal(s, "meld 2 2 2 2 2 JK JK JK", "MELD_TOO_LARGE")
        assert_illegal(s, "meld 2 2 2 2 2 2", "CARDS_NOT_IN_HAND")
        s = after_draw(r, hands={0: "2H 9S 4D"}, melds=[[ACES, "2C 2D 2S JK JK JK 2C"], []])
        assert_illegal(s, "meld 2", "MELD_TOO_LARGE")

    def test_wild_canasta_line_at_the_end_of_a_hand(self):
        s = after_draw(URU, hands={0: "2H 2S 9S", 2: "4C"}, melds=[[ACES, "2C 2D JK JK JK"], []])
        s = play(s, "meld 2 2")
        assert canasta.can_go_out(s)
        out = assert_legal(s, "discard 9")
        lines = out.last_hand[0]["lines"]
        assert out.last_hand[0]["went_out"]
        assert lines["wild_canastas"] == 2000 and lines["mixed_canastas"] == 0 and lines["natural_canastas"] == 0
        assert lines["melded_cards"] == 60 + 80 + 150
        assert out.last_hand[0]["total"] == 290 - 5 + 2000 + 100
        assert "wild_canastas" in out.last_hand[1]["lines"] and out.last_hand[1]["lines"]["wild_canastas"] == 0
        # Classic has no such line.
        res = canasta.score_hand(CLASSIC, [{"melds": [K7]}, {}])
        assert "wild_canastas" not in res[0]["lines"]

    def test_cuban_seven_twos_in_play(self):
        s = after_draw(CUBA, hands={0: "2H 2S 9S"}, melds=[[ACES, "2C 2D 2C 2D 2H"], []])
        out = play(s, "meld 2 2", "discard 9")
        assert out.last_hand[0]["lines"]["wild_canastas"] == 4000

    def test_wild_meld_counts_toward_the_opening(self):
        s = after_draw(URU, hands={0: "2C 2D JK 5H 6D 9S"})
        s = assert_legal(s, "meld 2 2 JK")
        assert s.stage.points == 90
        s = assert_legal(s, "discard 9")
        assert s.opened[0]


# ================================================================================================
# House rules (docs/sources.md §5) as options on Classic
# ================================================================================================


class TestPileBlockedForCanastas:
    R = rules(pile_blocked_for_canastas=True)
    K_CANASTA = "KS KH KD KC 2C 2D JK"  # leaves one K of each suit

    def test_no_take_onto_a_finished_canasta(self):
        s = position(self.R, hands={0: "KS KH 4D 5H"}, pile="5C 8D KD", melds=[[ACES, self.K_CANASTA], []])
        assert_illegal(s, "take", "PILE_BLOCKED_BY_CANASTA")
        assert_illegal(s, "take K K", "PILE_BLOCKED_BY_CANASTA")  # the pair would merge into the canasta
        assert moves(s) == {"draw"}
        # Classic allows both.
        s = position(CLASSIC, hands={0: "KS KH 4D 5H"}, pile="5C 8D KD", melds=[[ACES, self.K_CANASTA], []])
        assert {"take", "take K K"} <= moves(s)

    def test_a_meld_short_of_a_canasta_still_takes(self):
        s = position(self.R, hands={0: "KS KH 4D 5H"}, pile="5C 8D KD", melds=[[ACES, "KS KH KD KC 2C"], []])
        assert {"take", "take K K"} <= moves(s)
        s2 = assert_legal(s, "take")
        assert len(meld_of(s2, 0, "K")) == 6


class TestJokersDiscardable:
    R = rules(jokers_discardable=False)

    def test_joker_discard_refused_while_other_cards_are_held(self):
        s = after_draw(self.R, hands={0: "JK 5C 9D"}, melds=[[ACES], []])
        assert_illegal(s, "discard JK", "JOKER_DISCARD_NOT_ALLOWED")
        assert {"discard 5", "discard 9"} <= moves(s)
        assert "discard JK" in moves(after_draw(CLASSIC, hands={0: "JK 5C 9D"}, melds=[[ACES], []]))

    def test_allowed_when_nothing_else_is_held(self):
        s = after_draw(self.R, hands={0: "JK JK"}, melds=[[ACES], []])
        assert "discard JK" in moves(s)
        s = assert_legal(s, "discard JK")
        assert s.pile_frozen and hand(s, 0) == ["JK"]
        # Going out with a joker as the last card.
        s = after_draw(self.R, hands={0: "JK", 2: "4C"}, melds=[[ACES, K7], []])
        out = assert_legal(s, "discard JK")
        assert out.last_hand[0]["went_out"]

    def test_last_joker_without_a_canasta_is_explained_by_the_canasta(self):
        """ENGINE BUG: with only a joker left and no canasta, the reason is the missing canasta; explain.py
        says JOKER_DISCARD_NOT_ALLOWED ("while you hold another card"), which is false here."""
        s = after_draw(self.R, hands={0: "JK"}, melds=[[ACES], []])
        assert_illegal(s, "discard JK", "NEED_CANASTA_TO_GO_OUT")


class TestPileNeedsOpenedSide:
    R = rules(pile_needs_opened_side=True)

    def test_unopened_side_may_not_take(self):
        hands = {0: "QS QH AS AH AD 5C"}  # take Q Q (30) + A A A (60) would open in Classic
        assert "take Q Q" in moves(position(CLASSIC, hands=hands, pile="4C QD"))
        s = position(self.R, hands=hands, pile="4C QD")
        assert_illegal(s, "take Q Q", "MUST_OPEN_BEFORE_PILE")
        assert moves(s) == {"draw"}

    def test_opened_side_may_take(self):
        s = position(self.R, hands={0: "QS QH 5C", 2: "4D"}, pile="4C QD", melds=[[ACES], []], turn_seat=0)
        assert_legal(s, "take Q Q")
        # Opened by the partner earlier: the same.
        s = position(self.R, hands={0: "QS QH 5C"}, pile="4C QD", melds=[[ACES], []],
                     has_melded=[False, False, True, False])
        assert_legal(s, "take Q Q")


class TestCanastasToWin:
    R = rules(canastas_to_win=2)

    def _out(self, r, ns, ew, scores):
        s = after_draw(r, hands={0: "5C", 1: "9S", 2: "4D", 3: "9H"}, melds=[ns, ew], scores=scores)
        return play(s, "discard 5")

    def test_side_going_out_with_that_many_canastas_wins_at_once(self):
        out = self._out(self.R, [K7, Q7], [], [100, 4800])
        assert canasta.is_over(out) and canasta.outcome(out)["winner"] == 0
        assert out.scores[0] < out.scores[1]  # it wins even though behind
        assert canasta.legal_moves(out) == []

    def test_other_side_with_that_many_canastas_wins_at_once(self):
        out = self._out(self.R, [K7], [Q7, J7], [4000, 100])
        assert canasta.is_over(out) and canasta.outcome(out)["winner"] == 1

    def test_acaba_callers_canastas_do_not_win(self):
        """ENGINE BUG (two options together): a hand ended by Acaba gives the caller's side nothing, "its
        melds and bonuses in that round do not count" (GC-S17); the engine still lets its canastas win the
        game (``_game_result`` counts the melds left on the table)."""
        r = canasta.rules("british", canastas_to_win=2)
        s = position(r, hands={0: "5C 9D 4H"}, melds=[[K7, Q7], []], scores=[100, 100])
        out = assert_legal(s, "acaba")
        assert out.scores == (100, 1600)
        assert not canasta.is_over(out) and out.hand_number == 2

    def test_fewer_canastas_or_option_off_the_game_goes_on(self):
        out = self._out(self.R, [K7], [Q7], [100, 100])
        assert not canasta.is_over(out) and out.hand_number == 2
        out = self._out(CLASSIC, [K7, Q7], [], [100, 4800])
        assert not canasta.is_over(out) and out.hand_number == 2


class TestRecyclePile:
    R = rules(recycle_pile=True)

    def _start(self, r):
        # The stock holds one card; every card not placed goes under the pile (build_position), so the pile
        # is long and holds wild cards (frozen).
        return position(r, hands={0: "5C 9D 4H", 1: "6C 7D", 2: "8S", 3: "TC"}, melds=[[ACES], [KINGS]],
                        stock="8C", pile="4C JK 6D 7S")

    def test_pile_under_its_top_card_becomes_the_stock(self):
        s = self._start(self.R)
        assert s.pile_frozen and len(s.stock) == 1
        s = play(s, "draw")
        old_pile = s.pile
        s = play(s, "discard 9")
        assert s.hand_number == 1 and s.to_move == 1 and s.recycled
        assert [card_str(c) for c in s.pile] == ["9D"]  # the top card stays as the pile
        assert s.stock == tuple(reversed(old_pile))  # turned over: the old bottom card is on top
        assert not s.pile_frozen  # the wild cards went into the stock
        bottom = old_pile[0]
        s = play(s, "draw")
        assert s.hands[1][bottom] >= 1 or bottom in s.red_threes[1]

    def test_only_once_per_hand(self):
        s = play(self._start(self.R), "draw", "discard 9")
        assert s.recycled
        # Draw and discard until the new stock is gone; it is not recycled again.
        while s.hand_number == 1 and s.stock:
            s = play(s, "draw")
            if s.hand_number != 1:
                break
            s = play(s, str(next(m for m in canasta.legal_moves(s) if m.action == "discard")))
        assert s.hand_number == 2 or (s.stock == () and s.recycled)
        assert s.hand_number == 2 or s.phase == "draw"

    def test_off_by_default(self):
        s = play(self._start(CLASSIC), "draw", "discard 9")
        # No new stock: East cannot take the 9, so the hand is over (docs/sources.md §3.8).
        assert s.hand_number == 2 and s.last_hand is not None


class TestPileTakeLimit:
    R = rules(pile_take_limit=3)

    def test_only_the_top_cards_are_taken_and_the_rest_stays_frozen(self):
        s = position(self.R, hands={0: "9S 9C 4D"}, pile="4C JK 5D 6H 7S 8D 9H", melds=[[ACES], []])
        assert s.pile_frozen
        assert_illegal(s, "take", "FROZEN_NEEDS_NATURAL_PAIR")  # the joker deep in the pile still freezes it
        s = assert_legal(s, "take 9 9")
        assert hand(s, 0) == cards("4D 7S 8D")
        assert [card_str(c) for c in s.pile] == ["4C", "JK", "5D", "6H"]
        assert s.pile_frozen  # what is left still holds the joker

    def test_the_rest_unfreezes_when_the_wild_card_was_taken(self):
        s = position(self.R, hands={0: "9S 9C 4D"}, pile="4C 5D 6H 2C 8D 9H", melds=[[ACES], []])
        assert s.pile_frozen
        s = assert_legal(s, "take 9 9")
        assert hand(s, 0) == cards("4D 2C 8D")
        assert [card_str(c) for c in s.pile] == ["4C", "5D", "6H"] and not s.pile_frozen
        # The rest of the pile is now takeable as an unfrozen pile by the next side that can.
        assert s.to_move == 0 and s.phase == "play"

    def test_short_piles_are_taken_whole(self):
        s = position(self.R, hands={0: "9S 9C 4D"}, pile="8D 9H", melds=[[ACES], []])
        s = assert_legal(s, "take 9 9")
        assert s.pile == () and hand(s, 0) == cards("4D 8D")

    def test_classic_takes_everything(self):
        s = position(CLASSIC, hands={0: "9S 9C 4D"}, pile="4C JK 5D 6H 7S 8D 9H", melds=[[ACES], []])
        s = assert_legal(s, "take 9 9")
        assert s.pile == () and len(hand(s, 0)) == 7


class TestConcealedCanastaBonus:
    R = rules(concealed_canasta_bonus=300)

    def test_canasta_laid_down_whole_scores_the_bonus(self):
        s = after_draw(self.R, hands={0: Q7 + " 5C", 2: "4C"}, melds=[[ACES], []])
        out = play(s, "meld Q Q Q Q Q Q Q", "discard 5")
        lines = out.last_hand[0]["lines"]
        assert lines["concealed_canastas"] == 300 and lines["natural_canastas"] == 500
        assert out.last_hand[0]["total"] == 60 + 70 + 500 + 300 + 100 - 5
        assert out.last_hand[1]["lines"]["concealed_canastas"] == 0

    def test_canasta_built_up_does_not(self):
        s = after_draw(self.R, hands={0: "QS QH QD 5C", 2: "4C"}, melds=[[ACES, "QS QH QD QC"], []])
        out = play(s, "meld Q Q Q", "discard 5")
        assert out.last_hand[0]["lines"]["concealed_canastas"] == 0
        assert out.last_hand[0]["lines"]["natural_canastas"] == 500

    def test_line_absent_without_the_option(self):
        s = after_draw(CLASSIC, hands={0: Q7 + " 5C", 2: "4C"}, melds=[[ACES], []])
        out = play(s, "meld Q Q Q Q Q Q Q", "discard 5")
        assert "concealed_canastas" not in out.last_hand[0]["lines"]


class TestDealAndDraw:
    @pytest.mark.parametrize("n", [11, 13, 15])
    def test_hand_size(self, n):
        r = rules(hand_size=n)
        s = canasta.new_game(r, seed=5)
        assert [sum(h) for h in s.hands] == [n] * 4
        total = sum(sum(h) for h in s.hands) + len(s.stock) + len(s.pile) + sum(len(x) for x in s.red_threes)
        assert total == 108

    def test_hand_size_must_fit_the_pack(self):
        with pytest.raises(ValueError, match="do not fit"):
            rules(hand_size=27)

    def test_draw_count_two(self):
        r = rules(draw_count=2)
        s = position(r, hands={0: "5C 9D"}, melds=[[ACES], []], stock="4H 6S 7D 3H 8C")
        s = assert_legal(s, "draw")
        # 8C, then the red three 3H (laid out and replaced by 7D): two cards into the hand.
        assert hand(s, 0) == cards("5C 9D 8C 7D") and reds(s, 0) == ["3H"]
        assert [card_str(c) for c in s.stock] == ["4H", "6S"]
        assert s.phase == "play"

    @pytest.mark.parametrize(("rule", "legal"), [
        ("max3", {"meld 9 9 9 2 2 JK", "meld 9 9 2 2 JK", "meld 9 9 9 2 2", "meld 9 9 2 2", "meld 9 9 2"}),
        ("le_naturals", {"meld 9 9 9 2 2 JK", "meld 9 9 9 2 2", "meld 9 9 2 2", "meld 9 9 2"}),
        ("lt_naturals", {"meld 9 9 9 2 2", "meld 9 9 2"}),
        ("max2", {"meld 9 9 9 2 2", "meld 9 9 2 2", "meld 9 9 2"}),
    ])
    def test_wild_rule(self, rule, legal):
        """GC-M08's table in play: which 9 melds the engine lists under each wild_rule value."""
        s = after_draw(rules(wild_rule=rule), hands={0: "9S 9C 9D 2C 2D JK 5H 4C"}, melds=[[ACES], []])
        probe = {"meld 9 9 9 2 2 JK", "meld 9 9 2 2 JK", "meld 9 9 9 2 2", "meld 9 9 2 2", "meld 9 9 2"}
        assert moves(s) & probe == legal
        for text in probe - legal:
            assert_illegal(s, text, "TOO_MANY_WILDS")

    def test_wild_rule_applies_to_additions(self):
        s = after_draw(rules(wild_rule="lt_naturals"), hands={0: "2C JK 5H 4C"}, melds=[[ACES, "9S 9C 9D 2D"], []])
        assert "meld 2 on 9" in moves(s)
        assert_illegal(s, "meld 2 JK on 9", "TOO_MANY_WILDS")
        s = assert_legal(s, "meld 2 on 9")
        assert_illegal(s, "meld JK on 9", "TOO_MANY_WILDS")  # 3 naturals, 3 wilds


class TestCubanBlackThrees:
    def test_not_discarded_in_the_first_round(self):
        s = after_draw(CUBA, hands={0: "3S 5C 9D"}, melds=[[ACES], []])
        assert_illegal(s, "discard 3", "BLACK_THREE_FIRST_ROUND")
        assert "discard 3" in moves(after_draw(CLASSIC, hands={0: "3S 5C 9D"}, melds=[[ACES], []]))
        s = play(s, "discard 5")
        for _ in range(3):  # the other three players' first turns
            s = play(s, "draw")
            s = play(s, str(next(m for m in canasta.legal_moves(s) if m.action == "discard")))
        assert s.to_move == 0 and s.hand_number == 1
        s = play(s, "draw")
        assert "discard 3" in moves(s)

    def test_allowed_when_nothing_else_is_held(self):
        s = after_draw(CUBA, hands={0: "3S 3C"}, melds=[[ACES], []])
        assert "discard 3" in moves(s)

    def test_first_round_in_a_dealt_hand(self):
        """Each player's first turn of a dealt hand is the first round; from the fifth discard on, black
        threes may go."""
        s = canasta.new_game(CUBA, seed=1)
        checked = [0, 0]
        for turn in range(12):
            s = play(s, "draw")
            assert s.hand_number == 1
            held = s.hands[s.turn_seat]
            if held[4] + held[7]:  # a black three, among other cards
                assert ("discard 3" in moves(s)) == (turn >= 4), turn
                checked[turn >= 4] += 1
            discards = [m for m in canasta.legal_moves(s) if m.action == "discard"]
            s = play(s, str(discards[-1]))
        assert all(checked), checked

    def test_first_round_is_the_reason_only_when_it_is(self):
        """ENGINE BUG: explain.py answers BLACK_THREE_FIRST_ROUND for any refused black-three discard under
        this rule: after the first round (here an opening below the minimum is the reason), and when the
        black three is the only card (the rule does not apply; the missing canasta is the reason)."""
        s = after_draw(CUBA, hands={0: "3S 9D 4H 4D 4C"})
        s = s.replace(history=("0 discard 4", "1 discard 4", "2 discard 4", "3 discard 4"))
        assert "discard 3" in moves(s)
        s = play(s, "meld 4 4 4")
        assert_illegal(s, "discard 3", "BELOW_MINIMUM")
        s = after_draw(CUBA, hands={0: "3S"}, melds=[[ACES], []])
        assert_illegal(s, "discard 3", "NEED_CANASTA_TO_GO_OUT")


# ================================================================================================
# The presets themselves: seating, pack, deal
# ================================================================================================


@pytest.mark.parametrize("name", canasta.variant_names("canasta"))
def test_preset_deals_its_pack(name):
    r = canasta.rules(name)
    s = canasta.new_game(r, seed=2)
    assert [sum(h) for h in s.hands] == [r.hand_size] * r.players
    total = sum(sum(h) for h in s.hands) + len(s.stock) + len(s.pile) + sum(len(x) for x in s.red_threes)
    total += sum(sum(f) for f in s.feet)  # Hand and Foot: the feet
    assert [sum(f) for f in s.feet] == [r.foot_size] * r.players
    assert total == r.pack_size == r.decks * 52 + r.jokers
    assert len(s.scores) == r.teams and s.to_move == 0 and s.dealer == r.players - 1
    for seat in range(r.players):
        assert s.side_of(seat) == seat % r.teams


def test_preset_parameters():
    """The presets' differences from Classic, as docs/sources.md §4A/§4B give them."""
    assert (TWO.players, TWO.hand_size, TWO.draw_count, TWO.canastas_to_go_out) == (2, 15, 2, 2)
    three = canasta.rules("three-player")
    assert (three.players, three.teams, three.hand_size, three.draw_count, three.canastas_to_go_out) == (3, 3, 13, 1, 1)
    assert (SIX.players, SIX.teams, SIX.pack_size, SIX.hand_size, SIX.canastas_to_go_out) == (6, 2, 162, 13, 2)
    assert SIX.seats_of(0) == (0, 2, 4) and SIX3.seats_of(0) == (0, 3) and SIX3.seats_of(2) == (2, 5)
    assert (CUBA.pack_size, CUBA.hand_size, CUBA.draw_count, CUBA.target, CUBA.going_out_bonus,
            CUBA.concealed_going_out_bonus) == (108, 13, 1, 7500, 100, 100)
    assert (URU.pack_size, URU.hand_size, URU.draw_count, URU.target) == (108, 11, 1, 5000)
    assert BRIT.acaba and not CLASSIC.acaba and BRIT.acaba_bonus == 1500


def test_two_and_three_players_have_no_permission_to_ask():
    for r in (TWO, canasta.rules("three-player")):
        s = after_draw(r, hands={0: "8S 8H 8D 5C 5D 9C"}, melds=[[K7]] + [[]] * (r.teams - 1))
        assert "ask" not in moves(s)
        assert_illegal(s, "ask", "NO_PERMISSION_RULE")


def test_six_player_partners_and_permission():
    s = after_draw(SIX, hands={0: "8S 8H 8D 5C 5D 5H 9C", 2: "4C", 4: "4D"}, melds=[[K7, Q7], []])
    s = assert_legal(s, "ask")
    assert s.to_move == 2 and s.side_of(2) == 0  # the next partner answers
    s = assert_legal(s, "yes")
    assert s.to_move == 0
    assert_illegal(s, "discard 9", "MUST_GO_OUT")
    out = play(s, "meld 8 8 8", "meld 5 5 5", "discard 9")
    assert out.last_hand[0]["went_out"]
    assert out.last_hand[0]["lines"]["cards_in_hand"] == -10  # both other partners' hands count


def test_cuban_going_out_concealed_scores_only_100():
    s = after_draw(CUBA, hands={0: Q7 + " 6S 6H 6D 9C", 2: "4S"})
    out = play(s, "meld Q Q Q Q Q Q Q", "meld 6 6 6", "discard 9")
    assert out.last_hand[0]["concealed"] and out.last_hand[0]["lines"]["going_out"] == 100
    out = play(after_draw(CLASSIC, hands={0: Q7 + " 6S 6H 6D 9C", 2: "4S"}), "meld Q Q Q Q Q Q Q", "meld 6 6 6",
               "discard 9")
    assert out.last_hand[0]["lines"]["going_out"] == 200


# ================================================================================================
# Names: aliases, unsupported variants, unknown names and options
# ================================================================================================


@pytest.mark.parametrize("name", ["boat", "five-player", "Boat", "five_player", "FIVE PLAYER"])
def test_unsupported_variants_raise_with_the_reason(name):
    with pytest.raises(ValueError, match="not supported") as info:
        canasta.rules(name)
    key = name.lower().replace("_", "-").replace(" ", "-")
    assert UNSUPPORTED[key] in str(info.value)


@pytest.mark.parametrize(("alias", "target"), sorted(ALIASES.items()))
def test_every_alias_resolves(alias, target):
    assert target in PRESETS
    r = canasta.rules(alias)
    assert r.name == target and r == canasta.rules(target)
    assert canasta.rules(alias.upper()).name == target


def test_every_preset_name_resolves_and_round_trips():
    assert canasta.variant_names("canasta") == sorted(PRESETS)
    for name in canasta.variant_names("canasta"):
        r = canasta.rules(name)
        assert r.name == name and r.to_dict() == {"variant": name, "options": {}}
        s = canasta.new_game(r, seed=1)
        assert canasta.State.from_json(s.to_json()).rules == r


def test_unknown_variant_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown variant 'klondike'") as info:
        canasta.rules("klondike")
    text = str(info.value)
    assert "valid variants:" in text
    for name in [*PRESETS, *ALIASES]:
        assert name in text


def test_unknown_option_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown option 'colour' for cuban; valid options:") as info:
        canasta.rules("cuban", colour="blue")
    text = str(info.value)
    assert "valid options:" in text
    for key in ("players", "pile_take_limit", "recycle_pile", "acaba", "wild_rule", "canastas_to_win"):
        assert key in text


@pytest.mark.parametrize(("options", "needle"), [
    ({"wild_rule": "max4"}, "max3"),
    ({"pile_take_limit": "lots"}, "pile_take_limit"),
    ({"recycle_pile": "maybe"}, "recycle_pile"),
    ({"cutthroat": True}, "three-player"),
    ({"players": 7}, "players"),
])
def test_bad_option_values_are_rejected(options, needle):
    with pytest.raises(ValueError, match=needle):
        canasta.rules("classic", **options)


def test_options_accept_text_as_from_the_command_line():
    r = canasta.rules("cuban", pile_take_limit="5", recycle_pile="yes", jokers_discardable="false",
                      wild_rule="max2")
    assert (r.pile_take_limit, r.recycle_pile, r.jokers_discardable, r.wild_rule) == (5, True, False, "max2")
    assert r.name == "cuban" and r.max_meld_size == 7
    assert r.to_dict()["options"] == {"jokers_discardable": False, "pile_take_limit": 5, "recycle_pile": True,
                                      "wild_rule": "max2"}


# ================================================================================================
# The command line: play, simulate, score and rules with --variant and --option
# ================================================================================================


class _Typist(io.TextIOBase):
    """Standard input for ``canasta play``: types ``help``, then one of the moves it listed."""

    def __init__(self, out: io.StringIO, seed: int) -> None:
        self.out, self.rng, self.help_next, self.lines = out, random.Random(seed), True, 0

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        if self.lines > 40_000:
            return ""
        self.help_next = not self.help_next
        if not self.help_next:
            return "help\n"
        text = self.out.getvalue()
        block = text[text.rindex("Legal moves:"):].splitlines()[1:]
        listed = [re.split(r"\s{2,}", line.strip())[0] for line in block if line.startswith("  ")]
        return self.rng.choice(listed) + "\n"


@pytest.mark.parametrize(("argv", "banner"), [
    (["--variant", "two-player", "--option", "target=1500"], "Canasta (two-player)"),
    (["--variant", "cuba", "--seat", "1", "--option", "target=1000", "--option", "pile_take_limit=5"],
     "Canasta (cuban)"),
    (["--variant", "cutthroat", "--seat", "2", "--option", "target=1500"], "Canasta (cutthroat)"),
])
def test_cli_play(argv, banner, monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", _Typist(out, seed=3))
    status = main(["play", "--seed", "4", "--opponents", "random", *argv])
    text = out.getvalue()
    assert status == 0
    assert banner in text
    assert "Game over after" in text.splitlines()[-1], text[-1500:]


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("variant", "options", "teams"), [
    ("cuban", ["pile_take_limit=5", "recycle_pile=true"], 2),
    ("six-player-three-teams", ["acaba=true"], 3),
    ("cutthroat", ["jokers_discardable=false"], 3),
])
def test_cli_simulate(variant, options, teams, capsys, tmp_path: Path):
    argv = ["simulate", "--games", "2", "--seed", "5", "--players", "random", "--json", "--variant", variant,
            "--records", str(tmp_path)]
    for option in options:
        argv += ["--option", option]
    status, out, _ = _run(capsys, *argv)
    data = json.loads(out)
    assert status == 0 and data["variant"] == canasta.rules(variant).name and data["games"] == 2
    assert len(data["sides"]) == teams
    assert set(data["options"]) == {o.split("=")[0] for o in options}
    status, out, _ = _run(capsys, "replay", str(tmp_path / "game-00001.json"))
    assert status == 0 and out.startswith("ok:")


def test_cli_score_variants(capsys, tmp_path: Path):
    """`canasta score` reads the variant and options from its JSON input."""
    data = {"variant": "cuban", "options": {},
            "sides": [{"melds": ["2C 2D 2H 2S 2C 2D 2H", K7], "hand": "4C", "red_threes": "3H 3D",
                       "went_out": True}, {"melds": ["QS QH QD"], "hand": "9S", "red_threes": "3H"}]}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data))
    status, out, _ = _run(capsys, "score", "--json", str(path))
    sides = json.loads(out)["sides"]
    assert status == 0
    assert sides[0]["lines"]["wild_canastas"] == 4000 and sides[0]["lines"]["red_threes"] == 300
    assert sides[0]["total"] == 140 + 70 + 4000 + 500 + 300 + 100 - 5
    assert sides[1]["lines"]["red_threes"] == -100 and sides[1]["total"] == 30 - 10 - 100
    data["variant"], data["options"] = "six-hand", {"target": 12000}
    data["sides"] = [{"melds": [K7, Q7], "red_threes": "3H 3D 3H 3D 3H", "went_out": True}, {}]
    path.write_text(json.dumps(data))
    status, out, _ = _run(capsys, "score", "--json", str(path))
    assert status == 0 and json.loads(out)["sides"][0]["lines"]["red_threes"] == 1000
    data["variant"] = "boat"
    path.write_text(json.dumps(data))
    status, _, err = _run(capsys, "score", str(path))
    assert status == 1 and "not supported" in err  # a mistake in the file: 1 (2 is for the command line)


def test_cli_rules_and_errors(capsys):
    status, out, _ = _run(capsys, "rules", "uruguay", "--option", "recycle_pile=true", "--json")
    data = json.loads(out)
    assert status == 0 and data["variant"] == "uruguayan" and data["options"] == {"recycle_pile": True}
    params = {p["name"]: p["value"] for p in data["parameters"]}
    assert params["wild_melds"] is True and params["pile_always_frozen"] is True and params["recycle_pile"] is True
    for argv, needle in ((["rules", "boat"], "not supported"), (["rules", "five-player"], "not supported"),
                         (["simulate", "-n", "1", "--variant", "klondike"], "valid variants:"),
                         (["play", "--variant", "cuban", "--option", "colour=red"], "valid options:"),
                         (["play", "--variant", "two-player", "--seat", "3"], "--seat must be 0..1")):
        status, _, err = _run(capsys, *argv)
        assert status == 2 and needle in err, argv


def test_two_player_last_card_red_three_leaves_one_card_that_may_not_go_out() -> None:
    """Found by the arena: a player holding one card draws the last stock card, a red three, which is not
    replaced (two-player); without the two canastas he may not discard it, so he passes and the hand ends."""
    s = position(TWO, hands={0: "9C"}, stock="3H", melds=[[K7, ACES], ["QS QH QD"]], seed=3)
    s = play(s, "draw")
    assert moves(s) == {"pass"}
    after = play(s, "pass")
    assert after.hand_number == 2 and not any(e["went_out"] for e in after.last_hand)


def test_the_same_rules_are_one_object_and_other_rules_another():
    # Rules objects are immutable, and the engine keeps its per-ruleset work per object: asking again shares it
    classic = canasta.rules("classic")
    assert canasta.rules("Classic") is classic and canasta.rules("classic", target=5000) is not classic
    assert canasta.rules("classic", target=10000) is canasta.rules("classic", target=10000)
    assert canasta.rules("classic", target="10000") == canasta.rules("classic", target=10000)
    # values equal to an accepted one but not an accepted value (0 == False) are still refused
    assert canasta.rules("classic", upcard=False).upcard is False
    for _ in range(2):
        with pytest.raises(ValueError):
            canasta.rules("classic", upcard=0)
        with pytest.raises(ValueError):
            canasta.rules("classic", no_such_option=1)
