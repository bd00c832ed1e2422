"""The worked examples (GC labels, docs/sources.md) that apply to Classic Canasta, one test per case.

Each test quotes its case ID and sources. Legality is checked through ``legal_moves``/``why_illegal``/
``apply`` together (see golden_helpers), scores through ``score_hand`` or by playing to the end of the
hand and reading ``state.last_hand``. Where a case names a rule disagreement (D-number), the default
and the alternative option are both tested.
"""

from __future__ import annotations

import pytest

import canasta
from canasta.canasta.cards import card_str
from golden_helpers import (
    CLASSIC,
    after_draw,
    assert_illegal,
    assert_legal,
    cards,
    deal,
    hand,
    meld_of,
    moves,
    play,
    position,
    rules,
    score,
)

# Side 0 (seats 0 and 2) has opened with these aces unless a test says otherwise.
ACES = "AS AH AD"

# ------------------------------------------------------------------------------------------------
# A. Meld legality
# ------------------------------------------------------------------------------------------------


def test_gc_m01_natural_pair_plus_wild():
    """GC-M01 (SOURCE; W, S1): meld 5♥ 5♣ 2♥ is LEGAL; card value 5+5+20 = 30."""
    s = after_draw(hands={0: "5H 5C 2H 9S KD"}, melds=[[ACES], []])
    s2 = assert_legal(s, "meld 5 5 2")
    assert meld_of(s2, 0, "5") == cards("5H 5C 2H")
    res = score([{"melds": ["5H 5C 2H"]}, {}])
    assert res[0]["lines"]["melded_cards"] == 30


def test_gc_m02_two_naturals_three_wilds():
    """GC-M02 (SOURCE; W): 9♥ 9♣ 2♥ 2♣ Jk is LEGAL in Classic (value 110); ILLEGAL under the
    wilds ≤ naturals and wilds < naturals readings (D10)."""
    hands = {0: "9H 9C 2H 2C JK 4S KD"}
    s = after_draw(hands=hands, melds=[[ACES], []])
    assert_legal(s, "meld 9 9 2 2 JK")
    assert score([{"melds": ["9H 9C 2H 2C JK"]}, {}])[0]["lines"]["melded_cards"] == 110
    for rule in ("le_naturals", "lt_naturals"):
        s = after_draw(rules(wild_rule=rule), hands=hands, melds=[[ACES], []])
        assert_illegal(s, "meld 9 9 2 2 JK", "TOO_MANY_WILDS")
        with pytest.raises(ValueError):
            score([{"melds": ["9H 9C 2H 2C JK"]}, {}], rules(wild_rule=rule))


def test_gc_m03_only_one_natural():
    """GC-M03 (SOURCE; W, S1): 5♥ 2♣ 2♥ is ILLEGAL (fewer than 2 naturals)."""
    s = after_draw(hands={0: "5H 2C 2H 9S KD"}, melds=[[ACES], []])
    assert_illegal(s, "meld 5 2 2", "TOO_FEW_NATURALS")
    with pytest.raises(ValueError, match="natural"):
        score([{"melds": ["5H 2C 2H"]}, {}])


def test_gc_m04_four_wilds():
    """GC-M04 (SOURCE; W): 9♥ 9♣ 9♦ 2♥ 2♣ 2♦ Jk is ILLEGAL (4 wilds)."""
    s = after_draw(hands={0: "9H 9C 9D 2H 2C 2D JK 4S KD"}, melds=[[ACES], []])
    assert_illegal(s, "meld 9 9 9 2 2 2 JK", "TOO_MANY_WILDS")
    assert_legal(s, "meld 9 9 9 2 2 JK")
    with pytest.raises(ValueError, match="wild"):
        score([{"melds": ["9H 9C 9D 2H 2C 2D JK"]}, {}])


M05_HAND = "5H 5C 2H 2C 2D 2S JK 9S KD"


def test_gc_m05_two_naturals_two_twos_joker():
    """GC-M05 (SOURCE; S1): 5 5 2 2 Jk → LEGAL (value 100)."""
    s = after_draw(hands={0: M05_HAND}, melds=[[ACES], []])
    s2 = assert_legal(s, "meld 5 5 2 2 JK")
    meld = meld_of(s2, 0, "5")
    assert sorted(c[0] for c in meld) == ["2", "2", "5", "5", "J"]  # two 5s, two 2s, the joker
    assert score([{"melds": ["5H 5C 2H 2C JK"]}, {}])[0]["lines"]["melded_cards"] == 100


def test_gc_m06_two_naturals_four_twos():
    """GC-M06 (SOURCE; S1): 5 5 2 2 2 2 → ILLEGAL (4 wilds)."""
    s = after_draw(hands={0: M05_HAND}, melds=[[ACES], []])
    assert_illegal(s, "meld 5 5 2 2 2 2", "TOO_MANY_WILDS")
    with pytest.raises(ValueError):
        score([{"melds": ["5H 5C 2H 2C 2D 2S"]}, {}])


def test_gc_m07_wild_cards_only():
    """GC-M07 (SOURCE; S1, P): 2 2 2 → ILLEGAL (a meld of wild cards only)."""
    s = after_draw(hands={0: M05_HAND}, melds=[[ACES], []])
    # The notation names it as a meld of wild cards, which Classic refuses with a stable code ...
    assert canasta.parse_move(s, "meld 2 2 2") == canasta.Move("meld", 0, 0, 3, 0)
    assert canasta.why_illegal(s, "meld 2 2 2").code == "WILD_MELD_NOT_ALLOWED"
    # ... as does any move object that melds wild cards as a rank of their own ...
    all_wild = canasta.Move("meld", 2, 0, 3, 0)
    err = canasta.why_illegal(s, all_wild)
    assert err is not None and err.code == "WILD_MELD_NOT_ALLOWED"
    with pytest.raises(canasta.IllegalMove):
        canasta.apply(s, all_wild)
    # ... no legal move melds wild cards as a rank of their own, and the scorer rejects it.
    assert all(m.rank not in (0, 2) for m in canasta.legal_moves(s) if m.action == "meld")
    with pytest.raises(ValueError):
        score([{"melds": ["2H 2C 2D"]}, {}])


M08_MELDS = {
    "9 9 9 2 2 JK": "9H 9C 9D 2H 2C JK",
    "9 9 2 2 JK": "9H 9C 2H 2C JK",
    "9 9 2 2 2 JK": "9H 9C 2H 2C 2D JK",
    "9 9 9 2 2": "9H 9C 9D 2H 2C",
    "9 9 2 2": "9H 9C 2H 2C",
}
M08_TABLE = {  # meld: (max3, le_naturals, lt_naturals, max2)
    "9 9 9 2 2 JK": (True, True, False, False),
    "9 9 2 2 JK": (True, False, False, False),
    "9 9 2 2 2 JK": (False, False, False, False),
    "9 9 9 2 2": (True, True, True, True),
    "9 9 2 2": (True, True, False, True),
}
M08_RULES = ("max3", "le_naturals", "lt_naturals", "max2")
M08_CELLS = [
    pytest.param(meld, rule, M08_TABLE[meld][i], id=f"{meld.replace(' ', '')}-{rule}")
    for meld in M08_TABLE for i, rule in enumerate(M08_RULES)
]


@pytest.mark.parametrize(("meld", "wild_rule", "legal"), M08_CELLS)
def test_gc_m08_wild_ratio_setting(meld, wild_rule, legal):
    """GC-M08 (DERIVED; D10 [P,B,W,S1] / [W-old] / [W misc.] / [H,R,CLA]): the 20 cells of the
    wild-ratio table, one per meld and ``wild_rule`` value."""
    r = rules(wild_rule=wild_rule)
    s = after_draw(r, hands={0: M08_MELDS[meld] + " 4S KD"}, melds=[[ACES], []])
    if legal:
        assert_legal(s, f"meld {meld}")
        assert score([{"melds": [M08_MELDS[meld]]}, {}], r)[0]["total"] > 0
    else:
        assert_illegal(s, f"meld {meld}", "TOO_MANY_WILDS")
        with pytest.raises(ValueError):
            score([{"melds": [M08_MELDS[meld]]}, {}], r)


def test_gc_m09_black_threes():
    """GC-M09 (SOURCE rules P, B, W, S1, Br; DERIVED cases): black threes only as 3 or 4 of them, no
    wilds, in the going-out turn. (a) 3♣ 3♠ 3♣ going out: LEGAL, 15; (b) not going out: ILLEGAL;
    (c) 3♣ 3♠ 2♥: ILLEGAL; (d) four black threes going out: LEGAL, 20."""
    canasta_k = "KS KH KD KC KS KH KD"
    # (a) meld three black threes and go out with no discard.
    s = after_draw(hands={0: "3C 3S 3C"}, melds=[[canasta_k], []])
    s2 = assert_legal(s, "meld 3 3 3")
    assert s2.hand_number == 2 and s2.last_hand[0]["went_out"]
    assert s2.last_hand[0]["lines"]["melded_cards"] == 70 + 15
    # (a') meld them, then go out by discarding the last card.
    s = after_draw(hands={0: "3C 3S 3C 5H"}, melds=[[canasta_k], []])
    s2 = play(s, "meld 3 3 3", "discard 5")
    assert s2.last_hand[0]["went_out"] and s2.last_hand[0]["lines"]["melded_cards"] == 85
    # (b) the same meld in a turn in which the player does not go out.
    s = after_draw(hands={0: "3C 3S 3C 5H 6D 9S"}, melds=[[canasta_k], []])
    assert_illegal(s, "meld 3 3 3", "BLACK_THREES_ONLY_GOING_OUT")
    # (c) no wilds with black threes.
    s = after_draw(hands={0: "3C 3S 2H"}, melds=[[canasta_k], []])
    assert_illegal(s, "meld 3 3 2", "BLACK_THREES_NO_WILDS")
    with pytest.raises(ValueError):
        score([{"melds": [canasta_k, "3C 3S 2H"], "went_out": True}, {}])
    # (d) all four, going out.
    s = after_draw(hands={0: "3C 3S 3C 3S"}, melds=[[canasta_k], []])
    s2 = assert_legal(s, "meld 3 3 3 3")
    assert s2.last_hand[0]["lines"]["melded_cards"] == 70 + 20
    res = score([{"melds": [canasta_k, "3C 3S 3C 3S"], "went_out": True}, {}])
    assert res[0]["lines"]["melded_cards"] == 90


def test_gc_m10_red_threes_cannot_be_melded():
    """GC-M10 (SOURCE rule; P, B, W, S1): 3♥ 3♦ 3♥ is ILLEGAL as a meld; red threes go to the side's
    table area as bonus cards and are replaced from the stock."""
    with pytest.raises(ValueError, match="red three"):
        score([{"melds": ["3H 3D 3H"]}, {}])
    # A red three drawn is laid out and replaced at once; it never reaches the hand to be melded.
    s = position(hands={0: "5H 5C 9S"}, melds=[[ACES], []], stock="4C 3H")
    s2 = assert_legal(s, "draw")
    assert [card_str(c) for c in s2.red_threes[0]] == ["3H"]
    assert hand(s2, 0) == cards("5H 5C 9S 4C")
    assert not any(m.rank == 3 for m in canasta.legal_moves(s2) if m.action == "meld")


def test_gc_m11_canasta_types_and_base():
    """GC-M11 (SOURCE rules P, B, W; DERIVED cases): K×7 natural canasta (500); K×6 + 2 mixed (300);
    K×4 + 2 2 Jk legal mixed canasta (base of 4); K×3 + 2 2 2 Jk ILLEGAL (4 wilds)."""
    res = score([{"melds": ["KS KH KD KC KS KH KD"]}, {}])
    assert res[0]["lines"]["natural_canastas"] == 500 and res[0]["lines"]["mixed_canastas"] == 0
    res = score([{"melds": ["KS KH KD KC KS KH 2D"]}, {}])
    assert res[0]["lines"]["mixed_canastas"] == 300 and res[0]["lines"]["natural_canastas"] == 0
    res = score([{"melds": ["KS KH KD KC 2S 2H JK"]}, {}])
    assert res[0]["lines"]["mixed_canastas"] == 300
    with pytest.raises(ValueError):
        score([{"melds": ["KS KH KD 2S 2H 2D JK"]}, {}])
    s = after_draw(hands={0: "KS KH KD KC 2S 2H 2D JK 4S 5D"}, melds=[[ACES], []])
    assert_legal(s, "meld K K K K 2 2 JK")
    assert_illegal(s, "meld K K K 2 2 2 JK", "TOO_MANY_WILDS")


def test_gc_m12_one_meld_per_rank_melds_merge():
    """GC-M12 (SOURCE rule; W, P, S1): side has 8 8 8; the partner lays down 8 8 2 → the side has ONE
    meld 8 8 8 8 8 2 (6 cards, value 70)."""
    s = after_draw(hands={2: "8S 8H 2C 4D 9S"}, melds=[["8D 8C 8S"], []], turn_seat=2)
    s2 = assert_legal(s, "meld 8 8 2")
    assert list(s2.melds[0]) == [8]
    assert meld_of(s2, 0, "8") == cards("8D 8C 8S 8S 8H 2C")
    res = score([{"melds": [" ".join(meld_of(s2, 0, "8"))]}, {}])
    assert res[0]["lines"]["melded_cards"] == 70
    with pytest.raises(ValueError, match="one meld per rank"):
        score([{"melds": ["8D 8C 8S", "8S 8H 2C"]}, {}])


def test_gc_m13_take_would_push_canasta_to_four_wilds():
    """GC-M13 (DERIVED; merging W, P + ≤3 wilds P, B, W + unfrozen pile P, W, B): side has the mixed
    canasta K K K K 2 2 Jk; unfrozen pile, top K; the player holds K 2: taking with K 2 is ILLEGAL
    (4 wilds after merging); taking by adding the top K is LEGAL (8 cards, 3 wilds)."""
    s = position(hands={0: "KS 2C 5D 9H"}, pile="4C 7D KD", melds=[["KH KC KS KD 2S 2H JK"], []])
    assert not s.pile_frozen
    assert_illegal(s, "take K 2", "TOO_MANY_WILDS")
    s2 = assert_legal(s, "take")
    meld = meld_of(s2, 0, "K")
    assert len(meld) == 8 and sum(c in ("2S", "2H", "JK") for c in meld) == 3


def test_gc_m14_wild_added_to_natural_canasta():
    """GC-M14 (SOURCE rule P via the Dutch note, W-old; DERIVED numbers): natural canasta Q×7 =
    70 + 500 = 570; after a 2 is added it is mixed: 70 + 20 + 300 = 390."""
    q7 = "QS QH QD QC QS QH QD"
    assert score([{"melds": [q7]}, {}])[0]["total"] == 570
    assert score([{"melds": [q7 + " 2C"]}, {}])[0]["total"] == 390
    # In play: add the 2 and go out by discarding; the hand scores the canasta as mixed.
    s = after_draw(hands={0: "2C 5H"}, melds=[[q7], []])
    s2 = play(s, "meld 2 on Q")
    assert meld_of(s2, 0, "Q") == cards(q7 + " 2C")
    # s2 now holds only 5H: discarding it goes out (+100).
    s3 = play(s2, "discard 5")
    lines = s3.last_hand[0]["lines"]
    assert lines["natural_canastas"] == 0 and lines["mixed_canastas"] == 300
    assert lines["melded_cards"] == 90 and lines["going_out"] == 100
    # The partner's cards in hand count against the side as usual.
    assert s3.last_hand[0]["total"] == 90 + 300 + 100 + lines["cards_in_hand"]


# ------------------------------------------------------------------------------------------------
# B. Initial meld (minimum count)
# ------------------------------------------------------------------------------------------------

EXTRA = " 4S 6H 9D"  # three odd cards so that the opening does not go out


def _opening(score_side0, hand_text, melds_texts):
    """Stage the melds of an unopened side 0 (after a stock draw); return the state."""
    s = after_draw(hands={0: hand_text + EXTRA}, scores=[score_side0, 0])
    for text in melds_texts:
        s = assert_legal(s, text)
    return s


def _accepted(s):
    """The staged opening may end the turn: a discard is legal and the side is then opened."""
    s2 = assert_legal(s, "discard 4")
    assert s2.opened[0]
    return s2


def _rejected(s):
    assert_illegal(s, "discard 4", "BELOW_MINIMUM")
    assert "withdraw" in moves(s)


def test_gc_i01_65_points_at_1600():
    """GC-I01 (SOURCE; W): score 1,600 → requirement 90; 7♣ 7♦ 7♥ (15) + Q♣ Q♦ Q♥ 2♦ (50) = 65 →
    REJECTED."""
    s = _opening(1600, "7C 7D 7H QC QD QH 2D", ["meld 7 7 7", "meld Q Q Q 2"])
    assert canasta.minimum_needed(s, 0) == 90
    assert s.stage.points == 65
    _rejected(s)


def test_gc_i02_95_points_at_1600():
    """GC-I02 (SOURCE; W): 7♣ 7♦ 7♥ (15) + A♣ A♦ A♥ 2♦ (80) = 95 ≥ 90 → ACCEPTED."""
    s = _opening(1600, "7C 7D 7H AC AD AH 2D", ["meld 7 7 7", "meld A A A 2"])
    assert s.stage.points == 95
    _accepted(s)


@pytest.mark.parametrize(("cum", "accept65", "accept95"), [
    (0, True, True), (1495, True, True), (-5, True, True), (3000, False, False), (4500, False, False),
])
def test_gc_i03_same_openings_at_other_scores(cum, accept65, accept95):
    """GC-I03 (SOURCE; W): below 1,500 (requirement 50) both the 65 and the 95 opening are accepted;
    at 3,000 or more (requirement 120) both are rejected."""
    for hand_text, melds_texts, ok in (
        ("7C 7D 7H QC QD QH 2D", ["meld 7 7 7", "meld Q Q Q 2"], accept65),
        ("7C 7D 7H AC AD AH 2D", ["meld 7 7 7", "meld A A A 2"], accept95),
    ):
        s = _opening(cum, hand_text, melds_texts)
        if ok:
            _accepted(s)
        else:
            _rejected(s)


def test_gc_i04_seed_004_version():
    """GC-I04 (SOURCE; S4, paraphrase of W-old): 6-6-6, K-K-K-2 = 65 rejected at 1,600;
    6-6-6, A-A-A-2 = 95 accepted."""
    s = _opening(1600, "6C 6D 6H KC KD KH 2D", ["meld 6 6 6", "meld K K K 2"])
    assert s.stage.points == 65
    _rejected(s)
    s = _opening(1600, "6C 6D 6H AC AD AH 2D", ["meld 6 6 6", "meld A A A 2"])
    assert s.stage.points == 95
    _accepted(s)


I05_PILE = "4S KD QS 9H KC"  # bottom ... top: top K; a K and a Q buried


def test_gc_i05_opening_with_pile_only_top_card_counts():
    """GC-I05 (SOURCE; P via sharanrb.ru): unopened side, top K, a K and a Q buried, hand K K Q Q 2.
    Requirement 50: K K K (30) + Q Q 2 (40) = 70 → ACCEPTED, then the buried K and Q are added in the
    same turn. Requirement 90: REJECTED (buried cards never count: 70 + 20 would be 90)."""
    s = position(hands={0: "KH KS QH QD 2C"}, pile=I05_PILE, scores=[0, 0])
    s = assert_legal(s, "take K K")
    assert meld_of(s, 0, "K") == cards("KC KH KS")
    s = assert_legal(s, "meld Q Q 2")
    assert s.opened[0]
    assert hand(s, 0) == cards("4S KD QS 9H")  # the rest of the pile joined the hand
    s = play(s, "meld K", "meld Q")
    assert meld_of(s, 0, "K") == cards("KC KH KS KD")
    assert meld_of(s, 0, "Q") == cards("QH QD 2C QS")
    play(s, "discard 4")
    # Requirement 90: the take cannot lead to a legal opening.
    s = position(hands={0: "KH KS QH QD 2C"}, pile=I05_PILE, scores=[1500, 0])
    assert_illegal(s, "take K K", "OPENING_NOT_REACHABLE")


@pytest.mark.parametrize(("cum", "need"), [
    (-1000, 15), (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (9995, 120),
])
def test_gc_i06_where_thresholds_change(cum, need):
    """GC-I06 (DERIVED from P/B/W tables): the minimum count at each edge of the table."""
    assert CLASSIC.minimum_count(cum) == need
    s = position(scores=[cum, 0])
    assert canasta.minimum_needed(s, 0) == need


def test_gc_i07_dummies_1495_vs_1525():
    """GC-I07 (SOURCE; D): 1,495 → 50; 1,525 → 90."""
    assert canasta.minimum_needed(position(scores=[1495, 1525]), 0) == 50
    assert canasta.minimum_needed(position(scores=[1495, 1525]), 1) == 90


def test_gc_i08_canasta_bonus_does_not_count_toward_minimum():
    """GC-I08 (SOURCE rule P; DERIVED numbers): requirement 50; a natural canasta 5×7 (card value 35)
    laid down as the opening → REJECTED (the 500 bonus does not count). Exception: GC-I18."""
    s = _opening(0, "5S 5H 5D 5C 5S 5H 5D", ["meld 5 5 5 5 5 5 5"])
    assert s.stage.points == 35
    _rejected(s)


def test_gc_i09_negative_score():
    """GC-I09 (SOURCE; W): score −200 → requirement 15; 4 4 4 = 15 → accepted."""
    s = _opening(-200, "4C 4D 4H", ["meld 4 4 4"])
    assert canasta.minimum_needed(s, 0) == 15
    # EXTRA holds a 4S too; discard the 6 instead.
    s2 = assert_legal(s, "discard 6")
    assert s2.opened[0]


def test_gc_i10_red_threes_do_not_count():
    """GC-I10 (SOURCE rule; P, Katz): requirement 50; the side has 3♥ 3♦ laid out; K K K = 30 →
    REJECTED."""
    s = after_draw(hands={0: "KC KD KH" + EXTRA}, red_threes=["3H 3D", ""])
    s = assert_legal(s, "meld K K K")
    assert s.stage.points == 30
    _rejected(s)


def test_gc_i17_opening_short_then_withdrawn():
    """GC-I17 (SOURCE; S1, D), the part the engine models: requirement 50; K K K + 7 7 7 = 45 staged
    cannot end the turn; the player either adds cards from the hand to reach 50 or withdraws the
    staged melds. The real-table penalty (requirement +10 after a withdrawal) and "the meld stands if
    the opponents notice late" are irregularities of a physical table: the first is the house rule
    ``withdrawn_opening_raise`` (below); the engine never lets a short opening stand."""
    s0 = after_draw(hands={0: "KC KD KH 7C 7D 7H 2S 9S 4D"})
    s = play(s0, "meld K K K", "meld 7 7 7")
    assert s.stage.points == 45
    assert_illegal(s, "discard 4", "BELOW_MINIMUM")
    assert_illegal(s, "discard 9", "BELOW_MINIMUM")
    # Withdraw: the hand and the table are as before the staged melds.
    w = assert_legal(s, "withdraw")
    assert hand(w, 0) == hand(s0, 0)
    assert w.melds[0] == {} and not w.opened[0]
    assert canasta.minimum_needed(w, 0) == 50
    # Or add cards from the hand to reach the minimum.
    s2 = assert_legal(s, "meld 2 on K")
    assert s2.stage.points == 65
    s3 = assert_legal(s2, "discard 4")
    assert s3.opened[0]


def test_gc_i17_withdrawal_raises_the_minimum_under_the_house_rule():
    """§7 X5 [S1, D] as the option withdrawn_opening_raise=10: once the staged 45 is withdrawn the side needs
    60 for the rest of the hand; the other side's minimum is unchanged."""
    r = canasta.rules("classic", withdrawn_opening_raise=10)
    s0 = after_draw(r, hands={0: "KC KD KH 7C 7D 7H 2S 9S 4D"})
    w = play(s0, "meld K K K", "meld 7 7 7", "withdraw")
    assert canasta.minimum_needed(w, 0) == 60 and canasta.minimum_needed(w, 1) == 50
    assert canasta.view(w, 0)["sides"][0]["minimum_needed"] == 60
    short = play(w, "meld K K K", "meld 7 7 7", "meld 2 on 7")  # 30 + 15 + 20 = 65, enough for 60
    assert play(short, "discard 4").opened[0]
    assert canasta.minimum_needed(play(s0, "meld K K K", "meld 7 7 7", "meld 2 on K"), 0) == 50  # no withdraw


I18_HAND = "KS KH KD KC KS KH KD 5S 5H 5D"  # K×7 (70) + 5 5 5 (15) = 85


def _i18_from_stock(r):
    s = after_draw(r, hands={0: I18_HAND}, scores=[1500, 0])
    return play(s, "meld K K K K K K K")


def test_gc_i18_concealed_going_out_without_minimum():
    """GC-I18 (SOURCE rule P/B*; DERIVED numbers; D2): unopened side, requirement 90. Drew from the
    stock, melds K×7 (70) + 5 5 5 (15) = 85 and goes out with no discard: LEGAL under P/B (default
    concealed_waives_minimum="stock_only") and scores the concealed bonus (200 in total). Having taken
    the pile (top K) to make the same melds: ILLEGAL (85 < 90). S1 ("always"): legal both ways;
    W ("never"): illegal both ways."""
    s = _i18_from_stock(CLASSIC)
    assert canasta.can_go_out(s)
    s2 = assert_legal(s, "meld 5 5 5")
    res = s2.last_hand[0]
    assert res["went_out"] and res["concealed"]
    assert res["lines"]["going_out"] == 200
    assert res["lines"]["melded_cards"] == 85 and res["lines"]["natural_canastas"] == 500
    assert res["total"] == 85 + 500 + 200 + res["lines"]["cards_in_hand"]  # partner's hand
    # The pile: top K, hand K×6 5 5 5.
    s = position(hands={0: "KS KH KD KC KS KH 5S 5H 5D"}, pile="KD", scores=[1500, 0])
    assert_illegal(s, "take K K", "OPENING_NOT_REACHABLE")


def test_gc_i18_concealed_melds_in_any_order():
    """GC-I18 (D2 default): the same concealed going out with 5 5 5 melded before the canasta."""
    s = after_draw(hands={0: I18_HAND}, scores=[1500, 0])
    s = play(s, "meld 5 5 5")
    s2 = assert_legal(s, "meld K K K K K K K")
    assert s2.hand_number == 2 and s2.last_hand[0]["concealed"]


def test_gc_i18_concealed_going_out_with_final_discard():
    """GC-I18 (D2 default "stock_only") with a final discard: docs/sources.md §3.7 lets a player go out by
    melding every card but one and discarding it, and the engine scores such a going out as
    concealed. Drew from the stock; melds K×7 + 5 5 5 (85 < 90) and discards 9♣: LEGAL, concealed."""
    s = after_draw(hands={0: I18_HAND + " 9C"}, scores=[1500, 0])
    s = play(s, "meld K K K K K K K")
    s = assert_legal(s, "meld 5 5 5")  # leaves one card: only sensible as a going out
    assert canasta.can_go_out(s)
    out = assert_legal(s, "discard 9")
    assert out.hand_number == 2
    assert out.last_hand[0]["went_out"] and out.last_hand[0]["concealed"]
    assert out.last_hand[0]["lines"]["going_out"] == 200


def test_gc_i18_option_concealed_allows_pile():
    """GC-I18 / D2 (d): with the default concealed_allows_pile=True a side may take the pile and go
    out concealed in that turn (200); with concealed_allows_pile=False it still goes out, but with
    the ordinary 100 and not concealed. Requirement 50: take K K (30) + K K K K (40) = 70."""
    for allows, bonus in ((True, 200), (False, 100)):
        r = rules(concealed_allows_pile=allows)
        s = position(r, hands={0: "KS KH KC KS KH KD 5S 5H 5D"}, pile="9C KD")
        s = play(s, "take K K", "meld K K K K")
        assert s.opened[0] and hand(s, 0) == cards("5S 5H 5D 9C")
        out = play(s, "meld 5 5 5", "discard 9")
        last = out.last_hand[0]
        assert last["went_out"] and last["concealed"] is allows
        assert last["lines"]["going_out"] == bonus


def test_gc_i18_option_never():
    """GC-I18 / D2 (c) [W] (concealed_waives_minimum="never"): the 85-point concealed going out at a
    requirement of 90 is ILLEGAL even after drawing from the stock."""
    s = _i18_from_stock(rules(concealed_waives_minimum="never"))
    assert not canasta.can_go_out(s)
    assert_illegal(s, "meld 5 5 5", "BELOW_MINIMUM")


def test_gc_i18_option_always_from_stock():
    """GC-I18 / D2 (b) [S1] (concealed_waives_minimum="always"): legal after drawing from the stock."""
    s = _i18_from_stock(rules(concealed_waives_minimum="always"))
    s2 = assert_legal(s, "meld 5 5 5")
    assert s2.last_hand[0]["concealed"] and s2.last_hand[0]["lines"]["going_out"] == 200


def test_gc_i18_option_always_with_pile():
    """GC-I18 / D2 (b) [S1] (concealed_waives_minimum="always"): no minimum ever for a concealed going
    out, so taking the pile (top K) with K K and melding out K×7 + 5 5 5 (85 < 90) is LEGAL."""
    r = rules(concealed_waives_minimum="always")
    s = position(r, hands={0: "KS KH KD KC KS KH 5S 5H 5D"}, pile="KD", scores=[1500, 0])
    s = assert_legal(s, "take K K")
    s = play(s, "meld K K K K")
    s2 = assert_legal(s, "meld 5 5 5")
    assert s2.hand_number == 2 and s2.last_hand[0]["went_out"] and s2.last_hand[0]["concealed"]


# ------------------------------------------------------------------------------------------------
# C. Taking the discard pile
# ------------------------------------------------------------------------------------------------


def test_gc_p01_pile_frozen_against_unopened_side():
    """GC-P01 (SOURCE rule; P, W, B): side unopened, no wild or red three in the pile, top 9. Holding
    9 2 → cannot take; holding 9 9 (and meeting the minimum) → can take."""
    s = position(hands={0: "9S 2C 4D 6H"}, pile="5C 8D 9H")
    assert not s.pile_frozen and not s.opened[0]
    assert_illegal(s, "take 9 2", "UNOPENED_NEEDS_NATURAL_PAIR")
    s = position(hands={0: "9S 9C AS AH AD 4D"}, pile="5C 8D 9H")
    s = assert_legal(s, "take 9 9")
    s = assert_legal(s, "meld A A A")  # 30 + 60 = 90 ≥ 50
    assert s.opened[0]


def test_gc_p02_opened_side_unfrozen_natural_plus_wild():
    """GC-P02 (SOURCE rule; P, W, B, S1): side opened, unfrozen pile, top 9; the player holds 9 Jk →
    can take (melds 9 9 Jk)."""
    s = position(hands={0: "9S JK 4D 6H"}, pile="5C 8D 9H", melds=[[ACES], []])
    s2 = assert_legal(s, "take 9 JK")
    assert meld_of(s2, 0, "9") == cards("9S 9H JK")
    assert hand(s2, 0) == cards("4D 6H 5C 8D")  # the rest of the pile joined the hand


def test_gc_p03_pile_frozen_by_wild():
    """GC-P03 (SOURCE rule; P, W, B): as GC-P02 but a 2 lies in the pile: 9 Jk → cannot take;
    9 9 → can take."""
    s = position(hands={0: "9S 9C JK 4D 6H"}, pile="5C 2D 8D 9H", melds=[[ACES], []])
    assert s.pile_frozen
    assert_illegal(s, "take 9 JK", "FROZEN_NEEDS_NATURAL_PAIR")
    assert_legal(s, "take 9 9")


@pytest.mark.parametrize(("top", "code"), [
    ("3S", "PILE_TOP_BLACK_THREE"), ("2H", "PILE_TOP_WILD"), ("JK", "PILE_TOP_WILD"),
])
def test_gc_p04_wild_or_black_three_on_top(top, code):
    """GC-P04 (SOURCE rule; all): top 3♠ → nobody may take the pile this turn; top 2 or Jk → nobody
    may take it until a natural card covers it."""
    for seat in (0, 1):
        hands = {seat: "3C 3S 2C 2D JK 4D 4H"}
        s = position(hands=hands, pile="5C 8D " + top, melds=[[ACES], ["KS KH KD"]], turn_seat=seat)
        assert not any(m.action == "take" for m in canasta.legal_moves(s))
        assert_illegal(s, "take", code)
    # Once a natural covers the wild, the (frozen) pile can be taken with a natural pair.
    s = position(hands={1: "8S 8C 4D"}, pile="5C 2H 8D", melds=[[ACES], ["KS KH KD"]], turn_seat=1)
    assert_legal(s, "take 8 8")


def test_gc_p05_adding_top_card_to_own_meld():
    """GC-P05 (SOURCE rule; P, W, B, S1): side has 9 9 9; unfrozen pile, top 9 → can take by adding
    the 9 (nothing from hand). Frozen → cannot, unless holding 9 9. Also legal onto a finished
    canasta."""
    s = position(hands={0: "4D 6H KC"}, pile="5C 8D 9H", melds=[["9S 9C 9D"], []])
    s2 = assert_legal(s, "take")
    assert meld_of(s2, 0, "9") == cards("9S 9C 9D 9H")
    s = position(hands={0: "4D 6H KC"}, pile="5C 2D 8D 9H", melds=[["9S 9C 9D"], []])
    assert_illegal(s, "take", "FROZEN_NEEDS_NATURAL_PAIR")
    s = position(hands={0: "9S 9C 6H KC"}, pile="5C 2D 8D 9H", melds=[["9D 9C 9D"], []])
    assert_legal(s, "take 9 9")
    s = position(hands={0: "4D 6H KC"}, pile="5C 8D 9H", melds=[["9S 9C 9D 9S 9C 9D 2H"], []])
    s2 = assert_legal(s, "take")
    assert len(meld_of(s2, 0, "9")) == 8


def test_gc_p06_one_card_pile_one_card_hand():
    """GC-P06 (SOURCE; B, S1, Br; D6): the pile is a single K; the player holds one card (a K) and the
    side has a K meld → cannot take (default one_card_pile_rule=True). Under the other reading →
    could take."""
    melds = [["KS KH KD", "AS AH AD AC AS AH AD"], []]
    s = position(hands={0: "KC"}, pile="KC", melds=melds)
    assert len(s.pile) == 1
    assert not any(m.action == "take" for m in canasta.legal_moves(s))
    assert_illegal(s, "take", "ONE_CARD_PILE")
    assert_illegal(s, "take K", "ONE_CARD_PILE")
    s = position(rules(one_card_pile_rule=False), hands={0: "KC"}, pile="KC", melds=melds)
    s2 = assert_legal(s, "take")
    assert len(meld_of(s2, 0, "K")) == 4


def test_gc_p07_wild_turned_up_at_deal():
    """GC-P07 (SOURCE rule; P, W, B): first upcard 2♣ → another card is turned onto it (8♥); the pile
    is frozen for both sides (a natural pair of 8s is needed) until someone takes it."""
    s = deal(hands={0: "8S 8C 9H JK 4D 4H 5S 5H 6S 6H 7S"}, upcards="2C 8H")
    assert [card_str(c) for c in s.pile] == ["2C", "8H"]
    assert s.pile_frozen
    assert s.to_move == 0
    assert_illegal(s, "take 8 JK")  # frozen: no wild may help
    s = position(hands={0: "8S 8C JK 4D"}, pile="2C 8H", melds=[[ACES], []])
    assert_illegal(s, "take 8 JK", "FROZEN_NEEDS_NATURAL_PAIR")
    s2 = assert_legal(s, "take 8 8")
    assert not s2.pile_frozen and s2.pile == ()


def test_gc_p08_black_three_turned_up_at_deal():
    """GC-P08 (SOURCE; D4): upcard 3♠. P/W (default black_three_upcard="stays"): it stays; the first
    player cannot take the pile; once covered, the pile is not frozen. B ("covered" and
    black_three_freezes): more cards are turned until a natural shows and the pile is frozen."""
    hands = {0: "8S 8C 9H JK 4D 4H 5S 5H 6S 6H 7S", 1: "7C 7H 2S KD KH QS QH JS JH TS TH"}
    s = deal(hands=hands, upcards="3S", then="AD")
    assert [card_str(c) for c in s.pile] == ["3S"] and not s.pile_frozen
    assert_illegal(s, "take", "PILE_TOP_BLACK_THREE")
    s = play(s, "draw", "discard 7")
    assert not s.pile_frozen
    # East is unopened: the pile is frozen only against his side (a natural pair is needed).
    assert_legal(s, "take 7 7")
    # Bicycle reading.
    rb = rules(black_three_upcard="covered", black_three_freezes=True)
    s = deal(rb, hands=hands, upcards="3S 9D")
    assert [card_str(c) for c in s.pile] == ["3S", "9D"]
    assert s.pile_frozen


def test_gc_p09_black_three_discarded_mid_hand():
    """GC-P09 (SOURCE; D4): both sides opened, no wilds in the pile. West discards 3♠; North cannot
    take; North discards 7♦; East holds 7♣ 2♥. P/W (default): not frozen → East CAN take with 7 + 2.
    B (black_three_freezes=True): frozen → East CANNOT (needs 7 7)."""
    for r, east_can in ((CLASSIC, True), (rules(black_three_freezes=True), False)):
        s = after_draw(r, hands={3: "3S 9C 4H", 0: "7D 5C 6S", 1: "7C 2H 5S 8D"}, pile="4C 9H",
                       melds=[[ACES], ["KS KH KD"]], turn_seat=3)
        s = play(s, "discard 3")
        assert s.to_move == 0
        assert_illegal(s, "take", "PILE_TOP_BLACK_THREE")
        assert not any(m.action == "take" for m in canasta.legal_moves(s))
        s = play(s, "draw", "discard 7")
        assert s.to_move == 1
        if east_can:
            assert not s.pile_frozen
            s2 = assert_legal(s, "take 7 2")
            assert meld_of(s2, 1, "7") == cards("7D 7C 2H")
        else:
            assert s.pile_frozen
            assert_illegal(s, "take 7 2", "FROZEN_NEEDS_NATURAL_PAIR")


def test_gc_p10_red_three_inside_taken_pile():
    """GC-P10 (SOURCE rule; B, S1, P via profile): East takes a pile holding 3♦ (turned up at the deal
    and covered) → 3♦ is laid out for East-West, NOT replaced from the stock, and counts 100."""
    canasta_e = "QS QH QD QC QS QH QD"
    s = position(hands={1: "9S 9D 4S"}, pile="3D 5C 9C", melds=[[ACES], [canasta_e, "5S 5H 5D"]],
                 turn_seat=1)
    assert s.pile_frozen
    stock_before = s.stock
    s = assert_legal(s, "take 9 9")
    assert [card_str(c) for c in s.red_threes[1]] == ["3D"]
    assert s.stock == stock_before
    assert hand(s, 1) == cards("4S 5C")  # not replaced: the hand got only the rest of the pile
    s = play(s, "meld 5", "discard 4")
    assert s.last_hand[1]["went_out"]
    assert s.last_hand[1]["lines"]["red_threes"] == 100


# ------------------------------------------------------------------------------------------------
# D. Going out
# ------------------------------------------------------------------------------------------------


def test_gc_g01_going_out_needs_canasta():
    """GC-G01 (SOURCE rule; P, B, W, S1): side has no canasta, the player holds 8 8 after drawing and
    the side has an 8 meld: laying off one 8 (then discarding the other) or both → ILLEGAL; discarding
    one 8 and keeping the other is legal. With a canasta he may go out either way (+100)."""
    s = after_draw(hands={0: "8S 8H"}, melds=[["8D 8C 8S", ACES], []])
    assert_illegal(s, "meld 8", "NEED_CANASTA_TO_GO_OUT")
    assert_illegal(s, "meld 8 8", "NEED_CANASTA_TO_GO_OUT")
    s2 = assert_legal(s, "discard 8")
    assert s2.hand_number == 1 and len(hand(s2, 0)) == 1 and hand(s2, 0)[0][0] == "8"
    assert not canasta.can_go_out(s)
    # With a canasta.
    k7 = "KS KH KD KC KS KH KD"
    s = after_draw(hands={0: "8S 8H"}, melds=[["8D 8C 8S", k7], []])
    assert canasta.can_go_out(s)
    out = assert_legal(s, "meld 8 8")
    assert out.last_hand[0]["went_out"] and out.last_hand[0]["lines"]["going_out"] == 100
    out = play(s, "meld 8", "discard 8")
    assert out.last_hand[0]["went_out"] and out.last_hand[0]["lines"]["going_out"] == 100


def test_gc_g02_black_threes_when_going_out():
    """GC-G02 (SOURCE; Br): holding only 3♣ 3♠ → cannot go out; only 3♠ → can go out by discarding it;
    3♣ 3♠ 3♣ → can meld them and go out (side has a canasta)."""
    k7 = "KS KH KD KC KS KH KD"
    s = after_draw(hands={0: "3C 3S"}, melds=[[k7], []])
    assert not canasta.can_go_out(s)
    assert_illegal(s, "meld 3 3")
    s2 = assert_legal(s, "discard 3")
    assert s2.hand_number == 1  # he keeps one black three
    s = after_draw(hands={0: "3S"}, melds=[[k7], []])
    out = assert_legal(s, "discard 3")
    assert out.last_hand[0]["went_out"]
    s = after_draw(hands={0: "3C 3S 3C"}, melds=[[k7], []])
    out = assert_legal(s, "meld 3 3 3")
    assert out.last_hand[0]["went_out"]


def test_gc_g03_asking_permission():
    """GC-G03 (SOURCE; P, W, S1, B): "may I go out?" → "no" → he may NOT go out this turn; → "yes" →
    he MUST go out this turn [W]. Going out without asking is allowed."""
    k7 = "KS KH KD KC KS KH KD"
    s = after_draw(hands={0: "8S 8H 8D 5C"}, melds=[[k7], []])
    # Without asking.
    out = play(s, "meld 8 8 8", "discard 5")
    assert out.last_hand[0]["went_out"]
    # Ask → partner (seat 2) answers.
    asked = assert_legal(s, "ask")
    assert asked.to_move == 2
    assert moves(asked) == {"yes", "no"}
    no = assert_legal(asked, "no")
    assert no.to_move == 0
    assert_illegal(no, "meld 8 8 8", "PERMISSION_REFUSED")
    assert not canasta.can_go_out(no)
    no2 = assert_legal(no, "discard 5")  # keeps his cards
    assert no2.hand_number == 1
    yes = assert_legal(asked, "yes")
    assert_illegal(yes, "discard 5", "MUST_GO_OUT")
    assert_illegal(yes, "discard 8", "MUST_GO_OUT")
    out = play(yes, "meld 8 8 8", "discard 5")
    assert out.last_hand[0]["went_out"]


def test_x8_failed_permission_costs_the_side_under_the_option():
    """§7 X8 [Sp] as failed_permission_penalty (Samba's 100): asked, told yes, then could not go out."""
    from canasta.canasta.engine.end import end_hand

    k7 = "KS KH KD KC KS KH KD"
    r = canasta.rules("classic", failed_permission_penalty=100)
    failed = play(after_draw(r, hands={0: "8S 9H 5C"}, melds=[[k7], []]), "ask", "yes", "discard 5")
    ended = end_hand(failed, None)
    assert [side["lines"]["failed_permission"] for side in ended.last_hand] == [-100, 0]
    out = play(after_draw(r, hands={0: "8S 8H 8D 5C"}, melds=[[k7], []]), "ask", "yes", "meld 8 8 8", "discard 5")
    assert out.last_hand[0]["lines"]["failed_permission"] == 0  # went out after the yes: no penalty
    plain = end_hand(play(after_draw(hands={0: "8S 9H 5C"}, melds=[[k7], []]), "ask", "yes", "discard 5"), None)
    assert "failed_permission" not in plain.last_hand[0]["lines"]  # Classic states no such penalty
    assert canasta.rules("samba").failed_permission_penalty == 100


# ------------------------------------------------------------------------------------------------
# E. Hand and game scoring
# ------------------------------------------------------------------------------------------------


def test_gc_s01_full_classic_hand():
    """GC-S01 (SOURCE; S4 = W-old, checked correct): N-S 1,630, E-W 575, line by line."""
    ns = {
        "red_threes": "3D 3D",
        "melds": ["3C 3S 3S", "6S 6H 6D 6C 6S 6H 2C", "9S 9H 9D 9C 9S 9H 9D 9C", "TS TH TD",
                  "JS JH JD JC 2S 2H JK"],
        "hand": "4S 5S 5H QS KS AS AH",
        "went_out": True,
    }
    ew = {
        "red_threes": "3H",
        "melds": ["4H 4D 2D", "7S 7H 7D 7C 7S 2C JK", "TC TS JK", "AD AC AS AH AD"],
        "hand": "2H 5D 6D TH JS JH" + " 4C 4C TD QH QD KH KD",
    }
    res = score([ns, ew])
    assert res[0]["lines"]["melded_cards"] == 305
    assert res[0]["lines"]["cards_in_hand"] == -75
    assert res[0]["lines"]["mixed_canastas"] == 600
    assert res[0]["lines"]["natural_canastas"] == 500
    assert res[0]["lines"]["red_threes"] == 200
    assert res[0]["lines"]["going_out"] == 100
    assert res[0]["total"] == 1630
    assert res[1]["lines"]["melded_cards"] == 295
    assert res[1]["lines"]["cards_in_hand"] == -120
    assert res[1]["lines"]["mixed_canastas"] == 300
    assert res[1]["lines"]["natural_canastas"] == 0
    assert res[1]["lines"]["red_threes"] == 100
    assert res[1]["lines"]["going_out"] == 0
    assert res[1]["total"] == 575
    for side in res:
        assert sum(side["lines"].values()) == side["total"]


def test_gc_s02_seven_kings():
    """GC-S02 (SOURCE; P): natural canasta K×7 = 7×10 + 500 = 570."""
    assert score([{"melds": ["KS KH KD KC KS KH KD"]}, {}])[0]["total"] == 570


def test_gc_s03_four_red_threes():
    """GC-S03 (SOURCE; P, B, W, Br, D): all four red threes and at least one meld: +800; without any
    meld: −800."""
    assert score([{"red_threes": "3H 3H 3D 3D", "melds": ["5S 5H 5D"]}, {}])[0]["lines"]["red_threes"] == 800
    assert score([{"red_threes": "3H 3H 3D 3D"}, {}])[0]["total"] == -800


def test_gc_s04_three_red_threes_no_meld():
    """GC-S04 (SOURCE; S4/W-old): three red threes and no meld → −300 (not +300)."""
    assert score([{"red_threes": "3H 3H 3D"}, {}])[0]["total"] == -300


def test_gc_s05_going_out_concealed():
    """GC-S05 (SOURCE rule; DERIVED hand; D1): North goes out concealed with K×7 (70) + 5 5 5 2 (35);
    South holds Q Q 4 (25); no red threes → N-S = 70 + 35 − 25 + 500 + 200 = 780 (not 880 or 980)."""
    res = score([{"melds": ["KS KH KD KC KS KH KD", "5S 5H 5D 2C"], "hand": "QS QH 4D",
                  "went_out": True, "concealed": True}, {}])
    assert res[0]["lines"]["going_out"] == 200
    assert res[0]["total"] == 780
    # The same hand played: North (unopened, requirement 50) melds his whole hand in one turn.
    s = after_draw(hands={0: "KS KH KD KC KS KH KD 5S 5H 5D 2C", 2: "QS QH 4D"})
    s = play(s, "meld K K K K K K K", "meld 5 5 5 2")
    last = s.last_hand[0]
    assert last["went_out"] and last["concealed"]
    assert last["lines"]["going_out"] == 200
    assert last["total"] == 780


def test_gc_s06_side_with_no_meld():
    """GC-S06 (DERIVED from P/B/W rules): the opponents go out; side B never melded, has 2 red threes
    on the table, hands 5 5 K Jk (70) and A 3♣ (25) → −200 − 95 = −295."""
    res = score([{"melds": ["QS QH QD QC QS QH QD"], "went_out": True},
                 {"red_threes": "3H 3D", "hand": "5S 5H KS JK AS 3C"}])
    assert res[1]["lines"]["red_threes"] == -200
    assert res[1]["lines"]["cards_in_hand"] == -95
    assert res[1]["total"] == -295


def test_gc_s18_black_threes_left_in_hand():
    """GC-S18 (SOURCE; P/B/W), Classic part: 3♣ 3♠ in hand at the end → −10."""
    res = score([{"melds": ["QS QH QD QC QS QH QD"], "went_out": True},
                 {"melds": ["5S 5H 5D"], "hand": "3C 3S"}])
    assert res[1]["lines"]["cards_in_hand"] == -10
    assert res[1]["total"] == 15 - 10


def test_gc_s19_valid_meld_kept_in_hand_counts_minus():
    """GC-S19 (SOURCE rule; P via the Dutch note): K K K still in hand when the opponents go out →
    −30."""
    res = score([{"melds": ["QS QH QD QC QS QH QD"], "went_out": True}, {"hand": "KS KH KD"}])
    assert res[1]["lines"]["cards_in_hand"] == -30
    assert res[1]["total"] == -30


def test_gc_s22_two_player_scoring_unchanged():
    """GC-S22 (SOURCE; P): two-player hands score exactly as Classic (bonuses 500/300, going out 100/200
    total, red threes 100/800); only the deal, draw and going-out rules differ (two canastas to go out)."""
    side = {"melds": ["KS KH KD KC KS KH KD", "5S 5H 5D 5C 5S 5H 2C"], "hand": "QS QH 4D",
            "red_threes": "3H 3D 3H 3D", "went_out": True, "concealed": True}
    two = canasta.score_hand(canasta.rules("two-player"), [side, {}])
    assert two == canasta.score_hand(CLASSIC, [side, {}])
    # 70 + 500 (natural) + 50 + 300 (mixed) - 25 + 800 (four red threes) + 200 (concealed, in all)
    assert two[0]["total"] == 1895
    with pytest.raises(ValueError, match="2 canasta"):  # one canasta is not enough to go out
        canasta.score_hand(canasta.rules("two-player"), [dict(side, melds=["KS KH KD KC KS KH KD"]), {}])


# ------------------------------------------------------------------------------------------------
# F. Stock runs out
# ------------------------------------------------------------------------------------------------


def _e01(r, melds):
    return position(r, hands={0: "5C 5D 9S 4H"}, melds=melds, stock="3H", red_threes=["", ""])


def test_gc_e01_last_card_red_three_default():
    """GC-E01 (SOURCE; D8, P/B/W default last_card_red_three="end_no_meld"): the stock holds one card;
    North draws it and it is 3♥: the hand ends at once, North may not meld or discard; 3♥ counts +100
    for N-S (−100 had N-S never melded); no going-out bonus."""
    s = _e01(CLASSIC, [[ACES], []])
    s2 = assert_legal(s, "draw")
    assert s2.hand_number == 2
    assert s2.last_hand[0]["lines"]["red_threes"] == 100
    assert s2.last_hand[0]["lines"]["going_out"] == 0 and s2.last_hand[1]["lines"]["going_out"] == 0
    assert not s2.last_hand[0]["went_out"] and not s2.last_hand[1]["went_out"]
    # The 5 5 9 4 stayed in North's hand: 5 + 5 + 10 + 5 counted minus.
    assert s2.last_hand[0]["lines"]["cards_in_hand"] <= -25
    s2 = assert_legal(_e01(CLASSIC, [[], ["KS KH KD"]]), "draw")
    assert s2.last_hand[0]["lines"]["red_threes"] == -100


def test_gc_e01_last_card_red_three_meld_no_discard():
    """GC-E01 (SOURCE; D8, Br/S1 last_card_red_three="meld_no_discard"): North may meld and lay off
    first, but may not discard; the hand then ends with no going-out bonus."""
    r = rules(last_card_red_three="meld_no_discard")
    s = assert_legal(_e01(r, [[ACES], []]), "draw")
    assert s.hand_number == 1 and s.phase == "play"
    assert [card_str(c) for c in s.red_threes[0]] == ["3H"]
    assert not any(m.action == "discard" for m in canasta.legal_moves(s))
    assert_illegal(s, "discard 9", "NO_DISCARD_NOW")
    assert "pass" in moves(s)
    s = play(s, "pass")
    assert s.hand_number == 2
    assert s.last_hand[0]["lines"]["red_threes"] == 100
    assert s.last_hand[0]["lines"]["going_out"] == 0
    # Melding first is allowed.
    s = position(r, hands={0: "5C 5D 5S 9S 4H"}, melds=[[ACES], []], stock="3H")
    s = play(s, "draw", "meld 5 5 5", "pass")
    assert s.last_hand[0]["lines"]["melded_cards"] == 60 + 15


def _e02(r, ew_melds, east_hand):
    """Stock empty, unfrozen pile with a J on top, East (seat 1) to draw. All wild cards and red
    threes are kept out of the pile so that it is unfrozen."""
    wilds = {2: "2S 2H 2D 2C 2S 2H 2D 2C JK JK JK", 3: "JK 4S 4H 5S 6S"}
    return position(r, hands={1: east_hand, **wilds, 0: "8S 8H 9C 4D"}, stock="", pile="JD",
                    melds=[[ACES], ew_melds], red_threes=["3H 3D", "3H 3D"], turn_seat=1)


def test_gc_e02_play_after_stock_gone():
    """GC-E02 (SOURCE; P, B, W, S1; D26 default forced_take_after_stock="matches_own_meld_unfrozen"):
    stock empty, unfrozen pile, top J. E-W have a J meld → East MUST take (adds the J). Had E-W no J
    meld, East holding J J MAY take (P/B). When the next player cannot or does not take, the hand
    ends and nobody scores the going-out bonus [S1]."""
    s = _e02(CLASSIC, ["JS JH JC", "KS KH KD"], "7C 7D 5C 9S")
    assert not s.stock and not s.pile_frozen and s.pile[-1] == canasta.parse_cards("JD")[0]
    assert "take" in moves(s)
    assert "pass" not in moves(s)
    assert_illegal(s, "pass", "MUST_TAKE_PILE")
    s2 = assert_legal(s, "take")
    assert len(meld_of(s2, 1, "J")) == 4
    # No J meld, East holds J J: he may take, or pass (the hand ends).
    s = _e02(CLASSIC, ["KS KH KD"], "JS JH 7C 5C")
    assert {"take J J", "pass"} <= moves(s)
    ended = assert_legal(s, "pass")
    assert ended.hand_number == 2
    assert all(not side["went_out"] and side["lines"]["going_out"] == 0 for side in ended.last_hand)
    taken = assert_legal(s, "take J J")
    assert len(meld_of(taken, 1, "J")) == 3


def test_gc_e02_option_whenever_able():
    """GC-E02 / D26 [W] (forced_take_after_stock="whenever_able"): East holding J J with no J meld
    MUST take."""
    s = _e02(rules(forced_take_after_stock="whenever_able"), ["KS KH KD"], "JS JH 7C 5C")
    assert "take J J" in moves(s) and "pass" not in moves(s)
    assert_illegal(s, "pass")


def test_gc_e02_option_never():
    """GC-E02 / D26 (forced_take_after_stock="never"): even with a J meld East may pass."""
    s = _e02(rules(forced_take_after_stock="never"), ["JS JH JC", "KS KH KD"], "7C 7D 5C 9S")
    assert {"take", "pass"} <= moves(s)


def test_gc_e02_hand_ends_when_next_player_cannot_take():
    """GC-E02 (SOURCE; P, B, W, S1): stock empty; after East's discard South cannot take it, so the
    hand ends at once, with no going-out bonus for anyone."""
    s = _e02(CLASSIC, ["JS JH JC", "KS KH KD"], "7C 7D 5C 9S")
    s = play(s, "take", "discard 9")
    # South holds only wild cards: no natural pair of 9s, and no 9 meld for N-S.
    assert s.hand_number == 2
    assert all(not side["went_out"] and side["lines"]["going_out"] == 0 for side in s.last_hand)


# ------------------------------------------------------------------------------------------------
# G. Irregularities
# ------------------------------------------------------------------------------------------------


def test_gc_x01_red_three_never_laid_out():
    """GC-X01 (SOURCE; S1): South still holds 3♦ at scoring → N-S are charged −500 (the
    ``undeclared_red_threes`` line); the 3♦ gives no ±100 and has no card value."""
    res = score([{"melds": ["5S 5H 5D"], "hand": "3D"},
                 {"melds": ["QS QH QD QC QS QH QD"], "went_out": True}])
    lines = res[0]["lines"]
    assert lines["undeclared_red_threes"] == -500
    assert lines["red_threes"] == 0
    assert lines["cards_in_hand"] == 0
    assert res[0]["total"] == 15 - 500

