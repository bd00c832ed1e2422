"""Rule scenarios for the Classic engine (docs/sources.md §3), each on a fixed position.

Seats 0 and 2 are side 0 (North-South), seats 1 and 3 side 1 (East-West). Positions come from
``canasta.positions.build_position`` through the helpers in golden_helpers.py; legality is checked
through ``legal_moves``, ``why_illegal`` and ``apply`` together.
"""

from __future__ import annotations

import pytest

import canasta
from canasta.canasta.cards import card_str
from golden_helpers import (
    CLASSIC,
    CODE_RE,
    after_draw,
    assert_illegal,
    assert_legal,
    cards,
    deal,
    hand,
    meld_of,
    move,
    moves,
    play,
    position,
    rules,
)

ACES = "AS AH AD"  # side 0 has opened with these unless a test says otherwise
KINGS = "KS KH KD"  # side 1 likewise
K7 = "KS KH KD KC KS KH KD"  # a natural canasta
Q7 = "QS QH QD QC QS QH QD"
A7 = "AS AH AD AC AS AH AD"


def reds(state, side):
    return sorted(card_str(c) for c in state.red_threes[side])


# ------------------------------------------------------------------------------------------------
# Taking the discard pile (docs/sources.md §3.5)
# ------------------------------------------------------------------------------------------------


class TestPileTaking:
    def test_frozen_for_everyone_by_a_wild(self):
        """A wild card in the pile freezes it for both sides, opened or not: only a natural pair."""
        for seat in (0, 1):
            s = position(hands={seat: "9S 9C JK 2H 4D"}, pile="5C 2D 8D 9H",
                         melds=[[ACES, "9D 9C 2S"], [KINGS, "9D 9S JK"]], turn_seat=seat)
            assert s.pile_frozen
            assert_illegal(s, "take 9 JK", "FROZEN_NEEDS_NATURAL_PAIR")
            assert_illegal(s, "take 9 2", "FROZEN_NEEDS_NATURAL_PAIR")
            assert_illegal(s, "take", "FROZEN_NEEDS_NATURAL_PAIR")  # the side's 9 meld does not help
            takes = {m for m in moves(s) if m.startswith("take")}
            assert takes == {"take 9 9"}

    def test_frozen_only_against_an_unopened_side(self):
        """No wild in the pile: frozen against the unopened side only."""
        hands = {0: "9S JK 4D 6H", 1: "9C JK 4C 6S"}
        s0 = position(hands=hands, pile="5C 8D 9H", melds=[[], [KINGS]], turn_seat=0)
        s1 = position(hands=hands, pile="5C 8D 9H", melds=[[], [KINGS]], turn_seat=1)
        assert not s0.pile_frozen
        assert_illegal(s0, "take 9 JK", "UNOPENED_NEEDS_NATURAL_PAIR")
        s2 = assert_legal(s1, "take 9 JK")
        assert meld_of(s2, 1, "9") == cards("9H 9C JK")
        v = canasta.view(s0, 0)
        assert v["sides"][0]["pile_frozen_for_side"] and not v["sides"][1]["pile_frozen_for_side"]

    @pytest.mark.parametrize(("top", "code"), [
        ("2C", "PILE_TOP_WILD"), ("JK", "PILE_TOP_WILD"), ("3C", "PILE_TOP_BLACK_THREE"),
        ("3S", "PILE_TOP_BLACK_THREE"),
    ])
    def test_blocked_by_wild_or_black_three_on_top(self, top, code):
        s = position(hands={0: "9S 9C 2H 4D"}, pile=f"9H 9D {top}", melds=[[ACES, "9S 9C 9D"], []])
        assert [m for m in moves(s) if m.startswith("take")] == []
        assert moves(s) == {"draw"}
        err = assert_illegal(s, "take", code)
        assert err.message and err.message != err.code

    def test_one_card_pile_rule(self):
        """A one-card pile may not be taken by a player holding one card; any other size is fine."""
        melds = [["KS KH KD", A7], []]
        s = position(hands={0: "KC"}, pile="KC", melds=melds)
        assert_illegal(s, "take", "ONE_CARD_PILE")
        s = position(hands={0: "KC 5D"}, pile="KC", melds=melds)
        s2 = assert_legal(s, "take")
        assert hand(s2, 0) == ["5D", "KC"]
        s = position(hands={0: "KC"}, pile="4D KC", melds=melds)
        s2 = assert_legal(s, "take")
        assert hand(s2, 0) == ["4D", "KC"]
        s = position(rules(one_card_pile_rule=False), hands={0: "KC"}, pile="KC", melds=melds)
        assert_legal(s, "take")

    def test_top_card_melded_at_once_whole_rest_into_hand(self):
        pile = "4S 5H 6D 7C 8S 9H TD JC QS KH"
        s = position(hands={0: "KS KD 4C 4D"}, pile=pile, melds=[[ACES], []])
        before_stock = s.stock
        s2 = assert_legal(s, "take K K")
        assert s2.pile == () and not s2.pile_frozen
        assert meld_of(s2, 0, "K") == cards("KH KS KD")
        assert hand(s2, 0) == cards("4C 4D 4S 5H 6D 7C 8S 9H TD JC QS")
        assert s2.stock == before_stock
        assert s2.phase == "play" and s2.to_move == 0
        # The pile cards may be melded in the same turn.
        s3 = assert_legal(s2, "meld 4 4 4")  # 4C 4D from the hand, 4S from the pile
        assert meld_of(s3, 0, "4") == cards("4C 4D 4S")

    def test_red_threes_in_a_taken_pile_are_laid_out_not_replaced(self):
        s = position(hands={0: "9C 9H 5C"}, pile="3H 9S 3D 4C 2S 9D", melds=[[ACES], []],
                     red_threes=["3H", ""])
        assert s.pile_frozen
        stock = s.stock
        s2 = assert_legal(s, "take 9 9")
        assert reds(s2, 0) == ["3D", "3H", "3H"]
        assert hand(s2, 0) == cards("5C 9S 4C 2S")
        assert s2.stock == stock

    def test_take_with_pair_when_side_already_has_the_meld_merges(self):
        s = position(hands={0: "9S 9C 5D"}, pile="4C 2D 9H", melds=[[ACES, "9D 9D 9S"], []])
        s2 = assert_legal(s, "take 9 9")
        assert len(meld_of(s2, 0, "9")) == 6 and list(s2.melds[0]).count(9) == 1

    def test_take_wrong_rank_or_too_many_cards(self):
        s = position(hands={0: "9S 9C 9D 2H JK"}, pile="4C 9H", melds=[[ACES], []])
        try:
            canasta.parse_move(s, "take 8 8")
        except ValueError:
            pass  # refused by the notation parser
        else:
            assert_illegal(s, "take 8 8", "TAKE_WRONG_RANK")
        assert_illegal(s, "take 9 9 9", "TAKE_WITH_TWO_CARDS")
        assert_illegal(s, "take 9 2 JK", "TAKE_WITH_TWO_CARDS")
        assert_illegal(s, "take 2 JK")


# ------------------------------------------------------------------------------------------------
# Freezing (docs/sources.md §3.5)
# ------------------------------------------------------------------------------------------------


class TestFreezing:
    def test_discarded_wild_freezes_and_taking_unfreezes(self):
        s = after_draw(hands={0: "2C 4D 6H", 1: "9C 5S 6S", 2: "9S 9H JK 7S 5D", 3: "7H JK 8C 4D"},
                       pile="5C 8D", melds=[[ACES], [KINGS]])
        assert not s.pile_frozen
        s = play(s, "discard 2")
        assert s.pile_frozen
        assert_illegal(s, "take", "PILE_TOP_WILD")
        s = play(s, "draw", "discard 9")
        assert s.to_move == 2 and s.pile_frozen
        assert_illegal(s, "take 9 JK", "FROZEN_NEEDS_NATURAL_PAIR")
        s = assert_legal(s, "take 9 9")
        assert not s.pile_frozen and s.pile == ()
        assert sorted(hand(s, 2)) == cards("JK 7S 5D 5C 8D 2C")
        s = play(s, "discard 7")
        assert not s.pile_frozen
        s = assert_legal(s, "take 7 JK")  # unfrozen again: natural + wild works
        assert meld_of(s, 1, "7") == cards("7S 7H JK")

    def test_discarded_joker_freezes(self):
        s = after_draw(hands={0: "JK 4D 6H"}, pile="5C 8D", melds=[[ACES], [KINGS]])
        s = play(s, "discard JK")
        assert s.pile_frozen

    def test_black_three_discard_does_not_freeze_by_default(self):
        s = after_draw(hands={0: "3S 4D 6H"}, pile="5C 8D", melds=[[ACES], [KINGS]])
        assert not play(s, "discard 3").pile_frozen
        s = after_draw(rules(black_three_freezes=True), hands={0: "3S 4D 6H"}, pile="5C 8D",
                       melds=[[ACES], [KINGS]])
        assert play(s, "discard 3").pile_frozen

    def test_red_three_upcard_freezes(self):
        s = deal(upcards="3H 7C")
        assert [card_str(c) for c in s.pile] == ["3H", "7C"]
        assert s.pile_frozen


# ------------------------------------------------------------------------------------------------
# The opening (docs/sources.md §3.4)
# ------------------------------------------------------------------------------------------------


class TestOpening:
    def test_minimum_from_cumulative_score(self):
        s = position(scores=[1600, -50])
        assert canasta.minimum_needed(s, 0) == 90
        assert canasta.minimum_needed(s, 1) == 15
        v = canasta.view(s, 0)
        assert [side["minimum_needed"] for side in v["sides"]] == [90, 15]
        s = position(scores=[3500, 0], melds=[[ACES], []])
        assert canasta.minimum_needed(s, 0) == 0  # opened

    def test_opening_from_stock_reaches_minimum_over_several_melds(self):
        s = after_draw(hands={0: "KC KD KH 7C 7D 7H 5S 5H 5D 9S 4D"})
        s = play(s, "meld K K K", "meld 7 7 7")
        assert s.stage.points == 45 and not s.opened[0]
        assert_illegal(s, "discard 4", "BELOW_MINIMUM")
        s = play(s, "meld 5 5 5")
        assert s.stage.points == 60
        s = play(s, "discard 4")
        assert s.opened[0] and s.stage is None

    def test_partner_melds_freely_once_side_opened(self):
        s = after_draw(hands={2: "4C 4D 4H 9S 7D"}, melds=[[ACES], []], turn_seat=2)
        s = play(s, "meld 4 4 4", "discard 9")
        assert s.to_move == 3

    def test_withdraw_staged_melds(self):
        s0 = after_draw(hands={0: "KC KD KH 7C 7D 7H 9S 4D"})
        s = play(s0, "meld K K K", "meld 7 7 7")
        assert "withdraw" in moves(s)
        w = assert_legal(s, "withdraw")
        assert hand(w, 0) == hand(s0, 0) and w.melds[0] == {} and w.stage is None
        assert "withdraw" not in moves(w)
        assert_illegal(w, "withdraw", "NOTHING_TO_WITHDRAW")
        # After withdrawing, a different turn: just discard.
        w2 = assert_legal(w, "discard 4")
        assert not w2.opened[0]

    def test_pile_opening_only_top_card_counts_rest_pending(self):
        """Unopened side takes the pile: the take (top Q + Q Q = 30) counts; buried aces do not. The
        rest of the pile stays pending (not in hand) until melds from the hand reach 50."""
        s = position(hands={0: "QS QH KC KD KS 5C 5D 5H 7D"}, pile="AS AH 4C QD")
        s = assert_legal(s, "take Q Q")
        assert s.stage is not None and s.stage.points == 30
        assert sorted(card_str(c) for c in s.stage.pending) == cards("AS AH 4C")
        assert hand(s, 0) == cards("KC KD KS 5C 5D 5H 7D")
        assert canasta.view(s, 0)["pending_pile"] is not None
        assert not any(m.startswith("discard") for m in moves(s))
        assert_illegal(s, "discard 7", "MUST_COMPLETE_OPENING")
        assert "withdraw" not in moves(s)  # the take itself cannot be withdrawn
        # Stage 5 5 5 (45 in all), then withdraw it: back to the take alone.
        s5 = assert_legal(s, "meld 5 5 5")
        assert s5.stage.points == 45 and s5.stage.pending is not None and not s5.opened[0]
        w = assert_legal(s5, "withdraw")
        assert w.stage.points == 30 and hand(w, 0) == hand(s, 0)
        assert meld_of(w, 0, "Q") == cards("QD QS QH") and meld_of(w, 0, "5") == []
        # K K K reaches 60: the side opens and the pending cards join the hand.
        s = assert_legal(w, "meld K K K")
        assert s.opened[0] and (s.stage is None or s.stage.pending is None)
        assert hand(s, 0) == cards("5C 5D 5H 7D AS AH 4C")
        s = play(s, "meld 5 5 5", "discard 4")
        assert s.to_move == 1

    def test_take_that_cannot_reach_minimum_is_illegal(self):
        """Buried cards (A A A = 60) would reach 50, but only the top card and the hand count."""
        s = position(hands={0: "QS QH 5C 7D 9S"}, pile="AS AH AD 4C QD")
        assert_illegal(s, "take Q Q", "OPENING_NOT_REACHABLE")
        assert moves(s) == {"draw"}
        err = canasta.why_illegal(s, move(s, "take Q Q"))
        assert "50" in err.message

    def test_take_reachable_only_with_wilds_from_hand(self):
        s = position(hands={0: "QS QH 8C 8D 2S 5C 7D"}, pile="4C QD")
        s = assert_legal(s, "take Q Q")  # 30 + 8 8 2 (40) = 70
        s = assert_legal(s, "meld 8 8 2")
        assert s.opened[0] and hand(s, 0) == cards("5C 7D 4C")

    def test_unopened_side_cannot_take_with_natural_plus_wild(self):
        s = position(hands={0: "QS 2H AS AH AD"}, pile="4C QD")
        assert_illegal(s, "take Q 2", "UNOPENED_NEEDS_NATURAL_PAIR")


# ------------------------------------------------------------------------------------------------
# Going out (docs/sources.md §3.7)
# ------------------------------------------------------------------------------------------------


class TestGoingOut:
    def test_needs_a_canasta_to_discard_last_card(self):
        s = after_draw(hands={0: "5C 9D"}, melds=[[ACES], []])
        s = play(s, "discard 5")
        assert s.hand_number == 1  # kept one card
        s = after_draw(hands={0: "9D"}, melds=[[ACES], []])
        assert_illegal(s, "discard 9", "NEED_CANASTA_TO_GO_OUT")

    def test_never_end_with_no_cards_without_canasta(self):
        s = after_draw(hands={0: "8S 8H 8D"}, melds=[[ACES], []])
        assert_illegal(s, "meld 8 8 8", "NEED_CANASTA_TO_GO_OUT")
        s = after_draw(hands={0: "8S 8H 8D 5C"}, melds=[[ACES], []])
        assert_illegal(s, "meld 8 8 8", "NEED_CANASTA_TO_GO_OUT")  # would leave only the discard
        assert_legal(s, "discard 5")

    def test_canasta_finished_in_the_going_out_turn(self):
        s = after_draw(hands={0: "KC 5D"}, melds=[["KS KH KD KC KS KH"], []])
        s = play(s, "meld K", "discard 5")
        assert s.last_hand[0]["went_out"] and s.last_hand[0]["lines"]["natural_canastas"] == 500

    def test_going_out_with_and_without_final_discard(self):
        s = after_draw(hands={0: "8S 8H 8D 5C"}, melds=[[K7], []])
        out = play(s, "meld 8 8 8", "discard 5")
        assert out.last_hand[0]["went_out"] and out.last_hand[0]["lines"]["going_out"] == 100
        s = after_draw(hands={0: "8S 8H 8D"}, melds=[[K7], []])
        out = play(s, "meld 8 8 8")
        assert out.last_hand[0]["went_out"] and out.last_hand[0]["lines"]["going_out"] == 100
        assert out.hand_number == 2 and not out.last_hand[1]["went_out"]

    def test_concealed_bonus_is_200_in_total(self):
        """Partner opened earlier; this player never melded and melds his whole hand at once."""
        hand_text = "QS QH QD QC QS QH QD 6S 6H 6D 9C"
        s = after_draw(hands={0: hand_text, 2: "4S"}, melds=[[ACES], []], has_melded=[False, False, True, False])
        out = play(s, "meld Q Q Q Q Q Q Q", "meld 6 6 6", "discard 9")
        last = out.last_hand[0]
        assert last["concealed"] and last["lines"]["going_out"] == 200
        assert last["total"] == 60 + 70 + 15 + 500 + 200 - 5

    def test_not_concealed_after_adding_to_partners_meld(self):
        s = after_draw(hands={0: "QS QH QD QC QS QH QD AC 9C"}, melds=[[ACES], []],
                       has_melded=[False, False, True, False])
        out = play(s, "meld Q Q Q Q Q Q Q", "meld A", "discard 9")
        assert not out.last_hand[0]["concealed"] and out.last_hand[0]["lines"]["going_out"] == 100

    def test_not_concealed_after_an_earlier_meld(self):
        s = after_draw(hands={0: "QS QH QD QC QS QH QD 9C"}, melds=[[ACES], []],
                       has_melded=[True, False, True, False])
        out = play(s, "meld Q Q Q Q Q Q Q", "discard 9")
        assert not out.last_hand[0]["concealed"] and out.last_hand[0]["lines"]["going_out"] == 100

    def test_concealed_going_out_by_opening_side_meets_minimum(self):
        s = after_draw(hands={0: "QS QH QD QC QS QH QD 9C"})
        out = play(s, "meld Q Q Q Q Q Q Q", "discard 9")
        assert out.last_hand[0]["concealed"] and out.last_hand[0]["total"] == 70 + 500 + 200 + \
            out.last_hand[0]["lines"]["cards_in_hand"]


# ------------------------------------------------------------------------------------------------
# Permission to go out (docs/sources.md §3.7, D11)
# ------------------------------------------------------------------------------------------------


class TestPermission:
    def _ready(self):
        return after_draw(hands={0: "8S 8H 8D 5C 5D 5H 9C"}, melds=[[K7], []])

    def test_ask_goes_to_partner(self):
        s = assert_legal(self._ready(), "ask")
        assert s.phase == "answer" and s.to_move == 2
        assert moves(s) == {"yes", "no"}
        assert_illegal(s, "discard 9", "MUST_ANSWER")
        assert_illegal(s, "meld 8 8 8", "MUST_ANSWER")

    def test_no_forbids_going_out(self):
        s = play(self._ready(), "ask", "no")
        assert s.to_move == 0 and s.phase == "play"
        assert not canasta.can_go_out(s)
        s = play(s, "meld 8 8 8")  # melding is fine, going out is not
        # 5 5 5 would leave only 9C, and discarding it would go out: refused.
        err = assert_illegal(s, "meld 5 5 5", "PERMISSION_REFUSED")
        assert "no" in err.message.lower()
        s = play(s, "discard 9")
        assert s.hand_number == 1 and hand(s, 0) == cards("5C 5D 5H")

    def test_no_forbids_discarding_the_last_card(self):
        s = play(after_draw(hands={0: "8S 8H 8D 9C"}, melds=[[K7], []]), "ask", "no")
        assert_illegal(s, "meld 8 8 8", "PERMISSION_REFUSED")
        s = assert_legal(s, "discard 9")
        assert s.hand_number == 1

    def test_yes_obliges_going_out(self):
        s = play(self._ready(), "ask", "yes")
        assert s.turn.permission == "yes"
        for card in ("9", "5", "8"):
            assert_illegal(s, f"discard {card}", "MUST_GO_OUT")
        s = play(s, "meld 8 8 8", "meld 5 5 5")
        out = assert_legal(s, "discard 9")
        assert out.last_hand[0]["went_out"]

    def test_ask_only_once_and_before_melding(self):
        s = play(self._ready(), "ask", "no")
        assert_illegal(s, "ask", "ALREADY_ASKED")
        s = play(self._ready(), "meld 8 8 8")
        assert_illegal(s, "ask", "ASK_BEFORE_MELDING")

    def test_ask_only_after_drawing(self):
        """docs/sources.md §3.7: pagat and Wikipedia have the question asked when the player is ready to go
        out; S1 alone also allows it before drawing. The engine takes the first reading (documented in
        docs/rules/classic.md): before drawing, `ask` is MUST_DRAW_FIRST."""
        s = position(hands={0: "8S 8H 8D 5C 5D 5H"}, melds=[[K7], []])
        assert s.phase == "draw"
        assert_illegal(s, "ask", "MUST_DRAW_FIRST")
        s = assert_legal(s, "draw")
        s = assert_legal(s, "ask")
        s = assert_legal(s, "yes")
        assert s.to_move == 0

    def test_yes_answer_binds_partner_not_opponents(self):
        s = play(self._ready(), "ask", "yes", "meld 8 8 8", "meld 5 5 5", "discard 9")
        # A fresh hand: nobody is bound by last hand's answer.
        assert s.turn.permission is None


# ------------------------------------------------------------------------------------------------
# Black threes (docs/sources.md §3.3, §3.7)
# ------------------------------------------------------------------------------------------------


class TestBlackThrees:
    def test_melded_only_when_going_out(self):
        s = after_draw(hands={0: "3C 3S 3C 8S 8H 8D 9C"}, melds=[[K7], []])
        assert_illegal(s, "meld 3 3 3", "BLACK_THREES_ONLY_GOING_OUT")
        s = play(s, "meld 8 8 8")
        s = assert_legal(s, "meld 3 3 3")
        out = assert_legal(s, "discard 9")
        assert out.last_hand[0]["lines"]["melded_cards"] == 70 + 30 + 15

    def test_not_without_a_canasta(self):
        s = after_draw(hands={0: "3C 3S 3C 9C"}, melds=[[ACES], []])
        assert "meld 3 3 3" not in moves(s)
        assert canasta.why_illegal(s, move(s, "meld 3 3 3")).code == "NEED_CANASTA_TO_GO_OUT"

    def test_black_three_discard_stops_only_the_next_player(self):
        s = after_draw(hands={0: "3S 4D 6H", 1: "5S 9D 9S", 2: "9H 9C 4C"}, pile="5C 8D",
                       melds=[[ACES], [KINGS]])
        s = play(s, "discard 3")
        assert_illegal(s, "take", "PILE_TOP_BLACK_THREE")
        s = play(s, "draw", "discard 9")
        assert "take 9 9" in moves(s)


# ------------------------------------------------------------------------------------------------
# The stock runs out (docs/sources.md §3.8)
# ------------------------------------------------------------------------------------------------


def _no_stock(hands, ew_melds, pile="JD", turn_seat=1, ns_melds=(ACES,), r=None):
    """Stock empty; all wild cards and red threes kept out of the pile so it is unfrozen."""
    wilds = {2: "2S 2H 2D 2C 2S 2H 2D 2C JK JK JK", 3: "JK 4S 4H 5S 6S"}
    return position(r, hands={**wilds, **hands}, stock="", pile=pile, melds=[list(ns_melds), ew_melds],
                    red_threes=["3H 3D", "3H 3D"], turn_seat=turn_seat)


class TestEndOfStock:
    def test_last_card_red_three_ends_hand(self):
        s = position(hands={0: "5C 9D"}, melds=[[ACES], []], stock="3D")
        out = assert_legal(s, "draw")
        assert out.hand_number == 2 and out.last_hand[0]["lines"]["red_threes"] == 100
        assert not any(side["went_out"] for side in out.last_hand)

    def test_last_card_red_three_counts_minus_for_unopened_side(self):
        s = position(hands={0: "5C 9D"}, melds=[[], [KINGS]], stock="3D")
        out = assert_legal(s, "draw")
        assert out.last_hand[0]["lines"]["red_threes"] == -100

    def test_draw_with_empty_stock(self):
        s = _no_stock({1: "7C 7D 5C 9S"}, [KINGS])
        assert_illegal(s, "draw", "STOCK_EMPTY")

    def test_forced_take_when_discard_fits_own_meld(self):
        s = _no_stock({1: "7C 7D 5C 9S"}, ["JS JH JC", KINGS])
        assert moves(s) == {"take"}
        assert_illegal(s, "pass", "MUST_TAKE_PILE")

    def test_not_forced_when_frozen_for_the_side(self):
        """E-W have not opened: the pile is frozen against them, so even holding J J they may pass."""
        s = _no_stock({1: "JS JH AC AC AS 9S"}, [])
        assert {"take J J", "pass"} <= moves(s)

    def test_hand_ends_when_a_player_cannot_take(self):
        s = _no_stock({1: "7C 7D 5C 9S"}, ["JS JH JC", KINGS])
        out = play(s, "take", "discard 9")
        assert out.hand_number == 2
        assert all(side["lines"]["going_out"] == 0 for side in out.last_hand)

    def test_hand_ends_when_a_player_declines(self):
        s = _no_stock({1: "JS JH 5C 9S"}, [KINGS])
        out = assert_legal(s, "pass")
        assert out.hand_number == 2
        assert not any(side["went_out"] for side in out.last_hand)

    def test_play_continues_after_last_card_drawn(self):
        """The last stock card is an ordinary card: the turn goes on; the next player must take the
        discard because it fits his side's meld (the pile holds no wild card)."""
        wilds = {2: "2S 2H 2D 2C 2S 2H 2D 2C JK JK JK", 3: "JK 4S 4H 5S 6S"}
        s = position(hands={**wilds, 0: "5C 9D 4C", 1: "6C 7D"}, melds=[[ACES], ["9C 9H 9S"]], stock="8C",
                     red_threes=["3H 3D", "3H 3D"])
        assert not s.pile_frozen
        s = play(s, "draw", "discard 9")
        assert s.hand_number == 1 and s.to_move == 1 and not s.stock
        assert moves(s) == {"take"}


# ------------------------------------------------------------------------------------------------
# Melds: merging, wilds onto canastas (docs/sources.md §3.3)
# ------------------------------------------------------------------------------------------------


class TestMelds:
    def test_wild_added_to_natural_canasta_makes_it_mixed(self):
        s = after_draw(hands={0: "JK 5C 9D"}, melds=[[Q7], []])
        v = canasta.view(s, 0)
        assert v["sides"][0]["melds"][0]["kind"] == "natural"
        s = assert_legal(s, "meld JK on Q")
        v = canasta.view(s, 0)
        assert v["sides"][0]["melds"][0]["kind"] == "mixed"
        assert canasta.score_hand(CLASSIC, [{"melds": [" ".join(meld_of(s, 0, "Q"))]}, {}])[0]["total"] == \
            70 + 50 + 300

    def test_wild_limit_on_a_finished_canasta(self):
        s = after_draw(hands={0: "2C 5C 9D"}, melds=[["QS QH QD QC 2S 2H JK"], []])
        assert_illegal(s, "meld 2 on Q", "TOO_MANY_WILDS")
        assert_legal(s, "discard 5")

    def test_one_meld_per_rank(self):
        s = after_draw(hands={0: "8S 8H 2C 5C 9D"}, melds=[["8D 8C 8S"], ["8D 8C 8H"]])
        s = assert_legal(s, "meld 8 8")  # two 8s merge into the side's 8s (no 3-card minimum)
        assert meld_of(s, 0, "8") == cards("8D 8C 8S 8S 8H")
        assert meld_of(s, 1, "8") == cards("8D 8C 8H")  # the other side keeps its own 8s
        s = assert_legal(s, "meld 2 on 8")
        assert len(s.melds[0]) == 1

    def test_never_onto_opponents_melds(self):
        s = after_draw(hands={0: "KC 2C 5C 9D"}, melds=[[ACES], [KINGS]])
        assert "meld K" not in moves(s)
        assert_illegal(s, "meld K", "TOO_FEW_NATURALS")


# ------------------------------------------------------------------------------------------------
# Hands and the game: dealer, minimum across hands, target (docs/sources.md §3.1, §3.4, §3.10)
# ------------------------------------------------------------------------------------------------


def _go_out_position(scores, ew_melds=(), hand_number=1):
    """North (seat 0) goes out by discarding 5C; N-S have K×7; South holds 4D; East/West hold 9s."""
    return after_draw(hands={0: "5C", 1: "9S", 2: "4D", 3: "9H"}, melds=[[K7], list(ew_melds)],
                      scores=scores, hand_number=hand_number)


class TestHandsAndGame:
    def test_new_game_dealer_and_first_player(self):
        s = canasta.new_game(CLASSIC, seed=7)
        assert s.hand_number == 1 and s.dealer == 3 and s.to_move == 0 and s.turn_seat == 0
        assert [sum(h) for h in s.hands] == [11, 11, 11, 11]
        assert len(s.stock) + len(s.pile) + 44 + sum(len(r) for r in s.red_threes) == 108

    def test_dealer_rotates_and_minimum_follows_cumulative_score(self):
        s = _go_out_position([1450, 10], hand_number=3)
        assert s.dealer == 3
        assert CLASSIC.minimum_count(1450) == CLASSIC.minimum_count(10) == 50
        out = play(s, "discard 5")
        assert out.hand_number == 4
        assert out.last_hand[0]["total"] == 570 + 100 - 5
        assert out.last_hand[1]["total"] == -20
        assert out.scores == (1450 + 665, 10 - 20)
        assert out.dealer == 0 and out.to_move == 1 and out.turn_seat == 1
        assert out.opened == (False, False) and out.melds == ({}, {})
        assert [canasta.minimum_needed(out, i) for i in (0, 1)] == [90, 15]
        assert [sum(h) for h in out.hands] == [11, 11, 11, 11]

    def test_minimum_120_at_3000(self):
        out = play(_go_out_position([2400, 3010]), "discard 5")
        assert out.scores == (3065, 2990)
        assert [canasta.minimum_needed(out, i) for i in (0, 1)] == [120, 90]

    def test_game_ends_at_5000(self):
        out = play(_go_out_position([4335, 4000]), "discard 5")
        assert out.scores == (5000, 3980)
        assert canasta.is_over(out)
        assert canasta.outcome(out)["winner"] == 0
        assert canasta.outcome(out)["scores"] == [5000, 3980]
        assert canasta.legal_moves(out) == []
        assert_illegal(out, "draw", "GAME_OVER")

    def test_game_goes_on_below_5000(self):
        out = play(_go_out_position([4330, 4000]), "discard 5")
        assert out.scores == (4995, 3980)
        assert not canasta.is_over(out) and canasta.outcome(out) is None
        assert out.hand_number == 2

    def test_higher_total_wins_even_if_other_side_went_out(self):
        out = play(_go_out_position([4900, 4800], ew_melds=[A7, Q7]), "discard 5")
        assert out.last_hand[0]["went_out"]
        assert out.scores == (4900 + 665, 4800 + 640 + 570 - 20)
        assert canasta.is_over(out)
        assert canasta.outcome(out)["winner"] == 1

    def test_red_threes_at_deal_laid_out_and_replaced(self):
        """Seat 0 is dealt 3♥: laid out, replaced by another 3♥ (laid out too), then by K♣. Seat 1 is
        dealt 3♦ 3♦: laid out and replaced by A♣ and A♦. Each counts for the seat's side."""
        hands = {0: "3H 4S 4H 5S 5H 6S 6H 7S 7H 8S 8H", 1: "3D 3D 4C 5C 6C 7C 8C 9C TC JC QC"}
        s = deal(hands=hands, upcards="9D", then="3H KC AC AD")
        assert reds(s, 0) == ["3H", "3H"]
        assert reds(s, 1) == ["3D", "3D"]
        assert hand(s, 0) == cards("4S 4H 5S 5H 6S 6H 7S 7H 8S 8H KC")
        assert hand(s, 1) == cards("4C 5C 6C 7C 8C 9C TC JC QC AC AD")
        assert [card_str(c) for c in s.pile] == ["9D"]
        assert len(s.stock) == 108 - 44 - 1 - 4
        assert s.to_move == 0 and s.phase == "draw"


# ------------------------------------------------------------------------------------------------
# Error codes and messages (the public contract (docs/))
# ------------------------------------------------------------------------------------------------


def test_error_codes_are_stable_upper_case_with_readable_messages():
    cases = [
        (position(hands={0: "9S 2C 4D"}, pile="5C 9H"), "take 9 2", "UNOPENED_NEEDS_NATURAL_PAIR"),
        (position(hands={0: "9S 9C 4D"}, pile="5C 9H"), "meld 9 9 9", "MUST_DRAW_FIRST"),
        (after_draw(hands={0: "5H 2C 2H 9S"}, melds=[[ACES], []]), "meld 5 2 2", "TOO_FEW_NATURALS"),
        (after_draw(hands={0: "5H 9S"}, melds=[[ACES], []]), "draw", "ALREADY_DREW"),
        (after_draw(hands={0: "5H 9S"}, melds=[[ACES], []]), "discard K", "CARDS_NOT_IN_HAND"),
        (after_draw(hands={0: "5H 9S"}, melds=[[ACES], []]), "yes", "NO_QUESTION"),
        (after_draw(hands={0: "5H 9S"}, melds=[[ACES], []]), "pass", "CANNOT_PASS"),
    ]
    for state, text, code in cases:
        err = assert_illegal(state, text, code)
        assert isinstance(err, canasta.IllegalMove) and isinstance(err, ValueError)
        assert CODE_RE.match(err.code) and err.code.upper() == err.code
        assert isinstance(err.message, str) and len(err.message.split()) >= 3
        assert err.code not in err.message
        assert err.code in str(err)
        with pytest.raises(canasta.IllegalMove) as info:
            canasta.apply(state, move(state, text))
        assert info.value.code == code and info.value.message == err.message


def test_card_values():
    """docs/sources.md §2: Jk 50; 2 and A 20; K-8 10; 7-4 and black 3 5; a red three has no card value."""
    for text, value in (("JK", 50), ("2C", 20), ("AS", 20), ("KH", 10), ("8D", 10), ("7C", 5),
                        ("4S", 5), ("3S", 5), ("3C", 5)):
        res = canasta.score_hand(CLASSIC, [{"hand": text}, {}])
        assert res[0]["lines"]["cards_in_hand"] == -value, text


def test_apply_leaves_the_old_state_unchanged():
    s = after_draw(hands={0: "9S 9C 9D 4D 5H"}, melds=[[ACES], []])
    before = s.to_json()
    s2 = play(s, "meld 9 9 9", "discard 4")
    assert s.to_json() == before and s2 != s
    with pytest.raises(AttributeError):
        s.phase = "draw"


def test_move_notation_round_trips():
    s = after_draw(hands={0: "9S 9C 2H JK 4D"}, melds=[[ACES], []])
    for text in ("meld 9 9 2", "meld 9 9 JK", "meld 9 9 2 JK", "discard 4", "meld 2 on A", "meld JK on A"):
        assert str(move(s, text)) == text
    for m in canasta.legal_moves(s):
        assert move(s, str(m)) == m
