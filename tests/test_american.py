"""Modern American Canasta (docs/sources.md §4C): the engine side of the worked examples
(docs/sources.md).

Meld limits (GC-M17), the opening (GC-I11), the pile (GC-P12), going out (GC-G07, GC-G03), the last card
being a three (GC-E04), and the structure of the game: no upcard, all threes laid out, bonus cards, wild
melds that hold the wild cards, Splash (pagat), SWAD (CLA). Every legality assertion checks ``legal_moves``,
``why_illegal`` and ``apply`` together (golden_helpers). Sides are ``seat % 2``.
"""

from __future__ import annotations

import json

import pytest

import canasta
from canasta.canasta.cards import BLACK_THREES, RED_THREES, card_str, cards_of
from canasta.canasta.engine import minimum_needed
from canasta.players import make_player
from golden_helpers import after_draw, assert_illegal, assert_legal, cards, moves, position

PAGAT = canasta.rules("modern-american")
CLA = canasta.rules("modern-american-cla")
FILLER = {1: "4S 4C 5S 5C 6S 6C 8S 8C 9H 9C TS TC JS", 2: "4D 5D 6D 8D 9D TD JD QD KD 4H 5H 6H 8H",
          3: "4S 5S 6S 8S 9S TS JS QS KS 4C 5C 6C 8C"}


def opened(rules: canasta.Rules, hand: str, melds: list[str], **kw: object) -> canasta.State:
    """North (side 0) has drawn in a later turn than his side's opening; the opponents have an ace meld."""
    return after_draw(rules, hands={0: hand}, melds=[melds, ["AC AC AD"]], seed=7, **kw)


def opening(rules: canasta.Rules, hand: str, score: int = 0, **kw: object) -> canasta.State:
    """North's side has not opened; he has drawn from the stock."""
    return after_draw(rules, hands={0: hand}, scores=[score, 0], seed=7, **kw)


def side_cards(state: canasta.State, side: int, label: str) -> list[str]:
    return sorted(card_str(c) for c in state.melds[side].get(canasta.canasta.melds.parse_key(label), ()))


# --- the deal ------------------------------------------------------------------------------------------

class TestDeal:
    @pytest.mark.parametrize("seed", range(6))
    def test_no_upcard_and_threes_laid_out(self, seed: int) -> None:
        """No three in a CLA hand; at most one in a pagat hand (kept for a Straight)."""
        s = canasta.new_game(PAGAT, seed)
        assert s.pile == () and all(sum(h) == 13 for h in s.hands)
        assert all(sum(h[k] for k in (*RED_THREES, *BLACK_THREES)) <= 1 for h in s.hands)
        cla = canasta.new_game(CLA, seed)
        assert not any(h[k] for h in cla.hands for k in (*RED_THREES, *BLACK_THREES))
        assert s.history == (f"{s.dealer} upcard",)
        assert canasta.view(s, 0)["upcards"] == []
        assert canasta.why_illegal(s, canasta.Move("take", 9, 2)).code == "PILE_EMPTY"  # type: ignore[union-attr]

    def test_drawn_black_three_is_laid_out_and_replaced(self) -> None:
        s = position(CLA, hands={0: "KS KH QD"}, stock="9C 3C", pile="")
        after = canasta.apply(s, "draw")
        assert sorted(card_str(c) for c in cards_of(after.hands[0])) == cards("KS KH QD 9C")
        assert [card_str(c) for c in after.red_threes[0]] == ["3C"]
        assert after.history[-1] == "0 three 3C"

    def test_last_card_a_three_stops_play_and_stays_in_hand(self) -> None:
        """GC-E04: the last stock card is 3C: play stops at once, the three counts 5 against the side."""
        s = position(PAGAT, hands={0: "KS KH QD"}, stock="3C", pile="9S 9D")
        after = canasta.apply(s, "draw")
        assert after.hand_number == 2
        north = after.last_hand[0]
        assert north["lines"]["cards_in_hand"] <= -(10 + 10 + 10 + 5)  # K K Q and the three
        assert north["went_out"] is False and after.last_hand[1]["went_out"] is False


# --- GC-M17: meld limits -------------------------------------------------------------------------------

class TestMelds:
    def test_sevens_never_take_wild_cards(self) -> None:
        s = opening(PAGAT, "7S 7H 7D 2C QS QH QD KS KH KD AS AH 9C 9D")
        assert_illegal(s, "meld 7 7 7 2", "PURE_RANK")
        assert_legal(s, "meld 7 7 7")

    def test_two_naturals_two_wilds_but_not_three_wilds(self) -> None:
        s = opening(PAGAT, "KS KH 2C 2D JK QS QH QD 9C 9D 8S 8H 6S 6H")
        assert_legal(s, "meld K K 2 2")
        assert_illegal(s, "meld K K 2 2 JK", "TOO_MANY_WILDS")

    def test_rule_of_five(self) -> None:
        s = opened(PAGAT, "KC 2C 9C 9D 6S", ["KS KH KD KS", "QS QH QD"])
        assert_illegal(s, "meld 2 on K", "RULE_OF_FIVE")
        after = assert_legal(s, "meld K 2 on K")  # five naturals with the king: a wild card may join
        assert side_cards(after, 0, "K") == cards("KS KS KH KD KC 2C")
        five = opened(PAGAT, "2C 9C 9D 6S", ["KS KH KD KS KC", "QS QH QD"])
        assert_legal(five, "meld 2 on K")

    def test_new_meld_after_opening_is_natural_until_five(self) -> None:
        s = opened(PAGAT, "JS JH 2C 9C 9D", ["QS QH QD"])
        assert_illegal(s, "meld J J 2", "RULE_OF_FIVE")
        assert "meld J J 2" not in moves(s)

    def test_aces_with_wild_cards_only_in_the_opening(self) -> None:
        s = opening(PAGAT, "AS AH 2C QS QH QD 8S 8H JK 9C 9D 6S 6H 5S")
        after = assert_legal(s, "meld A A 2")  # inside the opening turn (GC-I11's opening)
        assert side_cards(after, 0, "A") == cards("AS AH 2C")
        later = opened(PAGAT, "AS AH AD 2C 9C 9D 6S", ["QS QH QD"])
        assert_illegal(later, "meld A A A 2", "WILDS_ONLY_IN_OPENING")
        assert_legal(later, "meld A A A")

    def test_no_meld_of_eight(self) -> None:
        s = opened(PAGAT, "KC KD 9C 9D 6S", ["KS KH KD KS KH KC"])
        assert_legal(s, "meld K on K")
        assert_illegal(s, "meld K K on K", "MELD_TOO_LARGE")

    def test_unfinished_wild_meld_holds_the_wild_cards(self) -> None:
        s = opened(PAGAT, "KS KH KD KC KS 2C JK 9C 9D", ["QS QH QD", "2S 2H JK"])
        assert_illegal(s, "meld K K K K K 2", "WILD_MELD_UNFINISHED")
        assert_legal(s, "meld 2 JK on JK")
        assert_legal(s, "meld K K K K K")


# --- GC-I11: the opening -------------------------------------------------------------------------------

class TestOpening:
    HAND = "QS QH KS KH KD AS AH AD JC JD JH 5S 4S"  # Q Q 20 + K K K 30 + A A A 60 + J J J 30 = 140
    @pytest.mark.parametrize(("score", "need"), [(0, 125), (3000, 155), (5000, 180), (-200, 125), (2995, 125)])
    def test_thresholds(self, score: int, need: int) -> None:
        s = opening(PAGAT, "KS KH KD 9C", score)
        assert minimum_needed(s, 0) == need

    @pytest.mark.parametrize("rules", [PAGAT, CLA], ids=["pagat", "cla"])
    def test_accepted_with_a_natural_triple(self, rules: canasta.Rules) -> None:
        s = opening(rules, "QS QH QD AS AH 2C 8S 8H JK 9C 9D 6S 5S 4S")
        for text in ("meld Q Q Q", "meld A A 2", "meld 8 8 JK"):
            s = assert_legal(s, text)
        assert s.stage is not None and s.stage.points == 160
        after = assert_legal(s, "discard 4")
        assert after.opened[0]

    @pytest.mark.parametrize("rules", [PAGAT, CLA], ids=["pagat", "cla"])
    def test_rejected_without_a_natural_or_wild_meld(self, rules: canasta.Rules) -> None:
        s = opening(rules, "AS AH 2C 8S 8H JK KS KH 2D 9C 9D 6S 5S 4S")
        for text in ("meld A A 2", "meld 8 8 JK", "meld K K 2"):
            s = assert_legal(s, text)
        assert s.stage is not None and s.stage.points == 170
        assert_illegal(s, "discard 4", "OPENING_NEEDS_NATURAL_MELD")

    def test_a_wild_meld_opens_under_pagat_only(self) -> None:
        hand = "2S 2H 2D JK JK KS KH 9C 9D 6S 5S 4S 8C 8D"
        pagat = assert_legal(opening(PAGAT, hand), "meld 2 2 2 JK JK")
        cla = assert_legal(opening(CLA, hand), "meld 2 2 2 JK JK")
        assert pagat.stage.points == cla.stage.points == 160  # type: ignore[union-attr]
        assert_legal(pagat, "discard 4")
        assert_illegal(cla, "discard 4", "OPENING_NEEDS_NATURAL_MELD")

    def test_top_card_does_not_count(self) -> None:
        """Q Q from the hand with the top Q: 20 points, not 30, towards 125."""
        s = position(PAGAT, hands={0: self.HAND}, pile="7S QD")
        after = assert_legal(s, "take Q Q")
        assert after.stage is not None and after.stage.points == 20
        assert [card_str(c) for c in after.stage.pending or ()] == ["7S"]

    def test_splash_opens_without_the_minimum_under_pagat(self) -> None:
        hand = "KS KH KD KC KS KH KD 5S 6S 9C"
        pagat = assert_legal(opening(PAGAT, hand), "meld K K K K K K K")
        assert_legal(pagat, "discard 5")  # 70 < 125, but a natural canasta from the hand opens (Splash)
        cla = assert_legal(opening(CLA, hand), "meld K K K K K K K")
        assert_illegal(cla, "discard 5", "BELOW_MINIMUM")


# --- bonus cards ----------------------------------------------------------------------------------------

class TestBonusCards:
    HAND = "QS QH QD AS AH 2C 8S 8H JK 9C 9D 6S 5S 4S"

    def open_and_discard(self, rules: canasta.Rules, **kw: object) -> canasta.State:
        s = opening(rules, self.HAND, **kw)
        for text in ("meld Q Q Q", "meld A A 2", "meld 8 8 JK", "discard 4"):
            s = canasta.apply(s, text)
        return s

    def test_first_side_to_open_gets_four(self) -> None:
        s = self.open_and_discard(PAGAT)
        assert sum(s.hands[0]) == 14 - 9 - 1 + 4
        assert s.history[-1] == "0 bonus-cards 4" and s.turn_seat == 1

    def test_second_side_gets_three(self) -> None:
        s = self.open_and_discard(PAGAT, opened=[False, True], melds=[[], ["AC AC AD"]])
        assert sum(s.hands[0]) == 14 - 9 - 1 + 3

    def test_none_after_the_turn_card(self) -> None:
        s = self.open_and_discard(PAGAT, stock="KC KC KD KD JC JC JD JD")  # 8 cards: the turn card is gone
        assert sum(s.hands[0]) == 14 - 9 - 1
        assert not any("bonus-cards" in h for h in s.history)

    def test_none_for_an_opening_with_the_pile(self) -> None:
        s = position(PAGAT, hands={0: TestOpening.HAND}, pile="7S QD")
        for text in ("take Q Q", "meld K K K", "meld A A A", "meld J J J"):
            s = canasta.apply(s, text)
        assert s.opened[0] and s.stage is None
        after = canasta.apply(s, "discard 4")
        assert not any("bonus-cards" in h for h in after.history)


# --- GC-P12: the pile -----------------------------------------------------------------------------------

class TestPile:
    def test_pair_onto_four_makes_seven(self) -> None:
        s = position(PAGAT, hands={0: "KC KD 9C 9D 6S"}, melds=[["KS KH KD KS"], ["AC AC AD"]], pile="5D KH")
        after = assert_legal(s, "take K K")
        assert len(side_cards(after, 0, "K")) == 7

    def test_pair_onto_five_would_make_eight(self) -> None:
        s = position(PAGAT, hands={0: "KC KD 9C 9D 6S"}, melds=[["KS KH KD KS KC"], ["AC AC AD"]], pile="5D KH")
        assert_illegal(s, "take K K", "MELD_TOO_LARGE")

    def test_dead_rank(self) -> None:
        finished = ["8S 8S 8D 8D 8C 2C 2D"]  # the opponents' canasta of 8s (a mixed one)
        s = position(PAGAT, hands={0: "8C 8H 9C 9D 6S"}, melds=[["QS QH QD"], finished], pile="5D 8H")
        assert_illegal(s, "take 8 8", "DEAD_RANK")
        drawn = after_draw(PAGAT, hands={0: "8C 8H 8H 9C 9D 6S"}, melds=[["QS QH QD"], finished], seed=7)
        assert_illegal(drawn, "meld 8 8 8", "DEAD_RANK")

    def test_natural_pair_always_needed(self) -> None:
        s = position(PAGAT, hands={0: "KC 2D 9C 9D 6S"}, melds=[["KS KH KD"], ["AC AC AD"]], pile="5D KH")
        assert_illegal(s, "take K 2", "FROZEN_NEEDS_NATURAL_PAIR")
        assert_illegal(s, "take", "FROZEN_NEEDS_NATURAL_PAIR")


# --- going out -----------------------------------------------------------------------------------------

CANASTAS = ["KS KH KD KC KS KH KD", "QS QH QD QC QS QH 2C"]


class TestGoingOut:
    def test_a_discard_is_needed(self) -> None:
        """GC-G07: melding every card is illegal; keeping one (a wild card may go) goes out."""
        s = opened(PAGAT, "9C 9D 9H", [*CANASTAS, "9S 9S 9H"])
        assert_illegal(s, "meld 9 9 9 on 9", "GO_OUT_NEEDS_DISCARD")
        after = assert_legal(assert_legal(s, "meld 9 9 on 9"), "discard 9")
        assert after.hand_number == 2 and after.last_hand[0]["went_out"]
        wild = opened(PAGAT, "9C 9D 2H", [*CANASTAS, "9S 9S 9H"])
        after = assert_legal(assert_legal(wild, "meld 9 9 on 9"), "discard 2")
        assert after.last_hand[0]["went_out"]

    def test_unfinished_wild_meld_blocks_going_out(self) -> None:
        s = opened(PAGAT, "9C 5D", [*CANASTAS, "9S 9S 9H", "2S 2H JK"])
        assert not canasta.can_go_out(s)
        assert_illegal(s, "meld 9 on 9", "WILD_MELD_UNFINISHED")  # it would leave one card and no way out
        done = opened(PAGAT, "9C 5D", [*CANASTAS, "9S 9S 9H", "2S 2H JK JK 2D 2H JK"])
        assert canasta.can_go_out(done)

    def test_permission_once_a_hand(self) -> None:
        s = opened(PAGAT, "9C 9D 6S 5S", CANASTAS)
        asked = canasta.apply(canasta.apply(s, "ask"), "no")
        history = (*asked.history, "0 discard 5", "1 draw", "1 discard 6")
        later = opened(PAGAT, "9C 9D 6S 5S", CANASTAS).replace(history=history)
        assert_illegal(later, "ask", "ASKED_ONCE")
        assert "ask" in moves(s)
        assert "ask" in moves(opened(CLA, "9C 9D 6S 5S", CANASTAS).replace(history=later.history))


# --- SWAD (CLA) ---------------------------------------------------------------------------------------

def test_swad_on_an_empty_pile() -> None:
    cla = opened(CLA, "7S AS 2C 5D 9C", ["QS QH QD"], pile="")
    for text in ("discard 7", "discard A", "discard 2"):
        assert_illegal(cla, text, "EMPTY_PILE_DISCARD")
    assert_legal(cla, "discard 5")
    assert_legal(opened(PAGAT, "7S AS 2C 5D 9C", ["QS QH QD"], pile=""), "discard 7")
    only = opened(CLA, "7S 7H AS", ["QS QH QD"], pile="")
    assert_legal(only, "discard 7")  # nothing else could go


# --- GC-S20: special hands through the engine -------------------------------------------------------------

GARBAGE = "KS KH KD KC QS QH QD QC 9S 9H 9D 6S 6H 6D"  # two fours and two threes of a kind, no wild cards


class TestSpecialHands:
    @pytest.mark.parametrize(("rules", "value"), [(PAGAT, 2000), (CLA, 3000)], ids=["pagat", "cla"])
    def test_garbage_ends_the_hand_and_scores_alone(self, rules: canasta.Rules, value: int) -> None:
        s = opening(rules, GARBAGE, melds=[[], ["AC AC AD"]], opened=[False, True])
        after = assert_legal(s, "declare garbage")
        assert after.hand_number == 2
        declared, other = after.last_hand
        assert declared["lines"] == {"special_hand": value} and declared["total"] == value
        assert other["lines"]["melded_cards"] == -60  # the opponents score as usual: no canasta, melds minus
        assert not other["went_out"] and after.scores[0] == value

    @pytest.mark.parametrize("hand", [GARBAGE, "KS KH QS QH JS JH TS TH 9S 9H 8S 8H 6S 6H"], ids=["garbage", "pairs"])
    def test_the_heuristic_player_declares_a_formed_special_hand(self, hand: str) -> None:
        s = opening(PAGAT, hand)
        move = make_player("heuristic", 1).choose(canasta.view(s, 0), canasta.legal_moves(s))
        assert str(move) == ("declare garbage" if hand == GARBAGE else "declare pairs")

    def test_only_before_opening_and_before_melding(self) -> None:
        assert_illegal(opened(PAGAT, GARBAGE, ["AS AH AD"]), "declare garbage", "SPECIAL_HAND_NOT_NOW")
        s = opening(PAGAT, GARBAGE + " 5S")
        assert_illegal(s, "declare garbage", "SPECIAL_HAND_NOT_FORMED")  # 15 cards
        taken = after_draw(PAGAT, source="pile", hands={0: GARBAGE}, scores=[0, 0], seed=7)
        assert_illegal(taken, "declare garbage", "SPECIAL_HAND_NOT_NOW")

    def test_not_formed_and_not_in_the_rules(self) -> None:
        s = opening(PAGAT, "KS KH KD KC QS QH QD QC 9S 9H 9D 6S 6H 5D")
        assert_illegal(s, "declare garbage", "SPECIAL_HAND_NOT_FORMED")
        assert "declare garbage" not in moves(s)
        pairs = "KS KH QS QH JS JH TS TH 9S 9H 8S 8H 6S 6H"
        assert_legal(opening(PAGAT, pairs), "declare pairs")
        assert_illegal(opening(CLA, pairs), "declare pairs", "NO_SPECIAL_HAND")
        assert_illegal(after_draw(canasta.rules(), hands={0: GARBAGE}, seed=7), "declare garbage", "NO_SPECIAL_HAND")

    def test_notation_round_trip(self) -> None:
        s = opening(PAGAT, GARBAGE)
        for text in ("declare garbage", "declare pairs", "declare pairs_twos_sevens_aces", "declare straight",
                     "layout"):
            assert str(canasta.parse_move(s, text)) == text
        with pytest.raises(ValueError):
            canasta.parse_move(s, "declare flush")


@pytest.mark.parametrize("variant", ["modern-american", "modern-american-cla"])
@pytest.mark.parametrize("seed", [None, 4])
def test_whole_games_record_and_replay(variant: str, seed: int | None) -> None:
    """Bots play whole (two-hand) games; the record, through JSON, replays to the same final position
    (bonus cards, laid-out threes and special hands included), seeded or dealt by the secure RNG."""
    from canasta.play.record import dumps, play_game, replay

    rules = canasta.rules(variant, hands_per_game=2)
    bots = [make_player("heuristic" if seat % 2 else "greedy", seed=seat) for seat in range(4)]
    final, record = play_game(bots, rules, seed=seed)
    assert canasta.is_over(final) and final.result is not None and final.result["hands"] == 2
    assert replay(json.loads(dumps(record))).to_json() == final.to_json()


# --- the three kept for a Straight (pagat) --------------------------------------------------------------

STRAIGHT = "3C 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2D JK"  # three to ace and two wild cards


class TestKeptThree:
    def test_first_three_drawn_while_unopened_is_kept(self) -> None:
        s = position(PAGAT, hands={0: "KS KH QD"}, stock="9C 3C", pile="")
        after = canasta.apply(s, "draw")
        assert sorted(card_str(c) for c in cards_of(after.hands[0])) == cards("KS KH QD 3C")
        assert after.red_threes[0] == () and len(after.stock) == 1
        assert "layout" in moves(after)
        assert_illegal(after, "discard 3", "THREES_NOT_DISCARDED")
        laid = assert_legal(after, "layout")
        assert sorted(card_str(c) for c in cards_of(laid.hands[0])) == cards("KS KH QD 9C")
        assert [card_str(c) for c in laid.red_threes[0]] == ["3C"] and laid.history[-1] == "0 three 3C"

    def test_a_second_three_is_laid_out(self) -> None:
        s = position(PAGAT, hands={0: "KS KH 3S"}, stock="9C 3D", pile="")
        after = canasta.apply(s, "draw")
        assert sorted(card_str(c) for c in cards_of(after.hands[0])) == cards("KS KH 3S 9C")
        assert [card_str(c) for c in after.red_threes[0]] == ["3D"]

    def test_laid_out_at_the_draw_once_the_side_has_opened(self) -> None:
        s = position(PAGAT, hands={0: "KS KH 3S 5D"}, stock="9C 8C 8D", pile="", melds=[["QS QH QD"], []])
        after = canasta.apply(s, "draw")
        assert sorted(card_str(c) for c in cards_of(after.hands[0])) == cards("KS KH 5D 8D 8C")
        assert [card_str(c) for c in after.red_threes[0]] == ["3S"]

    def test_the_straight(self) -> None:
        s = opening(PAGAT, STRAIGHT, melds=[[], ["AC AC AD"]], opened=[False, True])
        after = assert_legal(s, "declare straight")
        assert after.last_hand[0]["lines"] == {"special_hand": 3000}
        assert_illegal(opening(CLA, STRAIGHT.replace("3C", "4C")), "declare straight", "NO_SPECIAL_HAND")
        assert_illegal(opening(PAGAT, STRAIGHT.replace("2D", "5D")), "declare straight", "SPECIAL_HAND_NOT_FORMED")

    def test_cannot_go_out_holding_it(self) -> None:
        s = opened(PAGAT, "9C 3S", [*CANASTAS, "9S 9S 9H"])
        assert not canasta.can_go_out(s)
        assert_illegal(s, "meld 9 on 9", "CANNOT_GO_OUT_WITH_LAST_CARD")
        assert_legal(s, "layout")
