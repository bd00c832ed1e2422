"""Issue 17 item 4: three readings of the sources as options, each played both ways (defaults unchanged).

- Hand and Foot, "three natural and four mixed canastas" read literally: ``mixed_canastas_to_go_out``.
- Brazilian, a short sequence is "five cards or less" (Wikipedia) or "fewer than five" (Hoyle, Rasa):
  ``short_sequence_under``.
- Samba, "one of the two canastas must be the samba or a natural canasta": ``natural_canastas_to_go_out``.
"""

from __future__ import annotations

import pytest

import canasta
from canasta.canasta.state import Turn
from canasta.positions import build_position
from golden_helpers import after_draw, assert_illegal, assert_legal, play

NATURAL = ["KS KH KD KC KS KH KD", "QS QH QD QC QS QH QD", "JS JH JD JC JS JH JD", "TS TH TD TC TS TH TD"]
MIXED = ["9S 9H 9D 9C 9S 2C 2D", "8S 8H 8D 8C 8S 2H JK", "7S 7H 7D 7C 7S 2S JK", "6S 6H 6D 6C 6S 2C JK"]


def hand_and_foot(natural: int, mixed: int, **options: object) -> canasta.State:
    """North (side 0) has picked up his foot, holds one card and his partner has said yes: he goes out with
    ``natural`` natural and ``mixed`` mixed canastas on the table."""
    rules = canasta.rules("hand-and-foot", **options)
    return build_position(rules, hands={0: "5C"}, melds=[NATURAL[:natural] + MIXED[:mixed], ["AC AC AD"]],
                          feet={0: ""}, phase="play", turn=Turn(source="stock", permission="yes"), seed=5)


class TestHandAndFootMixedCanastas:
    def test_default_an_extra_natural_canasta_stands_in_for_a_mixed_one(self) -> None:
        s = hand_and_foot(4, 3)
        after = assert_legal(s, "discard 5C")
        assert after.last_hand is not None and after.last_hand[0]["went_out"]

    def test_literal_reading_needs_four_mixed(self) -> None:
        s = hand_and_foot(4, 3, mixed_canastas_to_go_out=4)
        err = assert_illegal(s, "discard 5C", "NEED_MIXED_CANASTAS")
        assert "4 mixed" in err.message

    @pytest.mark.parametrize("options", [{}, {"mixed_canastas_to_go_out": 4}])
    def test_three_natural_and_four_mixed_go_out_either_way(self, options: dict[str, object]) -> None:
        after = assert_legal(hand_and_foot(3, 4, **options), "discard 5C")
        assert after.last_hand is not None and after.last_hand[0]["went_out"]

    def test_too_many_required_is_refused_with_a_message(self) -> None:
        with pytest.raises(ValueError, match="mixed_canastas_to_go_out"):
            canasta.rules("hand-and-foot", mixed_canastas_to_go_out=5)


def brazilian_hand_with_a_five_card_sequence(**options: object) -> canasta.State:
    """North goes out with a five-card sequence on the table; the hand is scored."""
    rules = canasta.rules("brazilian", **options)
    table = ["QH QD QC QS QH QD QC", "5H 6H 7H 8H 9H TH JH", "4S 5S 6S 7S 8S"]
    s = after_draw(rules, hands={0: "KC KD KH 9C"}, melds=[table, ["AC AC AD"]], seed=5)
    s = play(s, "ask", "yes", "meld K K K", "discard 9C")
    assert s.last_hand is not None and s.last_hand[0]["went_out"]
    return s


class TestBrazilianShortSequence:
    def test_default_five_cards_are_not_short(self) -> None:
        s = brazilian_hand_with_a_five_card_sequence()
        assert s.last_hand[0]["lines"]["short_sequences"] == 0  # type: ignore[index]

    def test_five_cards_or_less(self) -> None:
        s = brazilian_hand_with_a_five_card_sequence(short_sequence_under=6)
        assert s.last_hand[0]["lines"]["short_sequences"] == -1000  # type: ignore[index]

    def test_out_of_range_is_refused(self) -> None:
        with pytest.raises(ValueError, match="short_sequence_under"):
            canasta.rules("brazilian", short_sequence_under=3)


def samba_going_out(table: list[str], **options: object) -> canasta.State:
    rules = canasta.rules("samba", **options)
    return after_draw(rules, hands={0: "9C 9D 9H 4C"}, melds=[table, ["AC AC AD"]], seed=5)


TWO_MIXED = ["KH KD KC KS 2H 2D KH", "QH QD QC QS JK 2C QH"]


class TestSambaNaturalOrSamba:
    def test_default_any_two_canastas(self) -> None:
        s = samba_going_out(TWO_MIXED)
        after = play(s, "meld 9 9 9", "discard 4C")
        assert after.last_hand is not None and after.last_hand[0]["went_out"]

    def test_reading_one_must_be_natural_or_the_samba(self) -> None:
        s = samba_going_out(TWO_MIXED, natural_canastas_to_go_out=1)
        assert not canasta.can_go_out(s)
        # melding three of the four cards would leave one that cannot go out: refused, with the reason
        err = assert_illegal(s, "meld 9 9 9", "NEED_NATURAL_CANASTAS")
        assert "1 of them natural" in err.message
        three = after_draw(canasta.rules("samba", natural_canastas_to_go_out=1), hands={0: "9C 9D 9H"},
                           melds=[TWO_MIXED, ["AC AC AD"]], seed=5)
        assert_illegal(three, "meld 9 9 9", "NEED_NATURAL_CANASTAS")  # going out by melding every card
        assert_legal(samba_going_out(TWO_MIXED), "meld 9 9 9")  # by default: two canastas of any kind


    @pytest.mark.parametrize("second", ["4S 5S 6S 7S 8S 9S TS", "JH JD JC JS JH JD JC"])
    def test_a_samba_or_a_natural_canasta_will_do(self, second: str) -> None:
        s = samba_going_out([TWO_MIXED[0], second], natural_canastas_to_go_out=1)
        after = play(s, "meld 9 9 9", "discard 4C")
        assert after.last_hand is not None and after.last_hand[0]["went_out"]
