"""The rummy family: golden cases (docs/sources.md worked examples GC-R, GC-B) and a scenario per option."""

from __future__ import annotations

import pytest

import canasta
from canasta.canasta.cards import card_str
from canasta.errors import IllegalMove
from canasta.rummy import RummyRules, RummyState, score_hand
from canasta.rummy.build import build_position


def R(name: str = "500-rum", **options: object) -> RummyRules:
    r = canasta.rules(name, **options)
    assert isinstance(r, RummyRules)
    return r


def moves(state: RummyState) -> set[str]:
    return {str(m) for m in canasta.legal_moves(state)}


# --- presets and names ------------------------------------------------------------------------------

@pytest.mark.parametrize("alias", ["500-rum", "rummy-500", "pinochle-rummy", "michigan-rum", "Michigan Rum"])
def test_500_rum_aliases(alias: str) -> None:
    assert R(alias).name == "500-rum"


def test_presets_listed_and_unknown_names_rejected() -> None:
    assert canasta.variant_names("rummy") == ["500-rum", "500-rum-partnership", "basic-rummy", "dealers-gambit",
                                              "persian-rummy"]
    assert set(canasta.variant_names("rummy")) <= set(canasta.variant_names("all"))
    assert canasta.variant_names() == [*canasta.variant_names("canasta"), *canasta.variant_names("rummy")]  # all
    assert R("dealers-gambit").dealers_joker  # built since: tests/test_rummy_options.py
    with pytest.raises(ValueError, match="unknown option 'wild' for 500-rum; valid options: ace, ace_high_value, "):
        canasta.rules("500-rum", wild=True)
    with pytest.raises(ValueError, match="must be one of low, high, both, around"):
        canasta.rules("500-rum", ace="sideways")
    with pytest.raises(ValueError, match="players"):
        canasta.rules("500-rum", players=6)


def test_deal_sizes_gc_b01() -> None:
    """GC-B01 and §8.1: Basic Rummy 10 cards for two, 7 for three or four; 500 Rum 13 for two, 7 for more."""
    for name, players, size in [("basic-rummy", 2, 10), ("basic-rummy", 3, 7), ("basic-rummy", 4, 7),
                                ("500-rum", 2, 13), ("500-rum", 3, 7), ("500-rum", 4, 7)]:
        s = canasta.new_game(R(name, players=players), seed=1)
        assert [len(h) for h in s.hands] == [size] * players
        assert len(s.pile) == 1 and len(s.stock) == 52 - players * size - 1


def test_options_come_as_text() -> None:
    r = R("500-rum", first_meld="30", go_out_needs_discard="yes", targets_by_players="100,150,200")
    assert (r.first_meld, r.go_out_needs_discard, r.game_target()) == (30, True, 150)


# --- scoring: GC-R01..R05, GC-B02, GC-B03 -----------------------------------------------------------------

def test_gc_r01_85_shown_90_in_hand_is_minus_5() -> None:
    r = R("500-rum", players=2)
    sides = score_hand(r, [{"melds": ["KS KH KD KC", "QS QH QD QC", "5S"], "hand": "JS JH JD JC TS TH TD TC 6S 4S"},
                           {"melds": [], "hand": ""}])
    assert sides[0]["lines"] == {"table": 85, "hand": -90}
    assert sides[0]["total"] == -5


def test_gc_r02_87_shown_90_in_hand_is_minus_3() -> None:
    r = R("500-rum", players=2)
    sides = score_hand(r, [{"melds": ["KS KH KD KC", "QS QH QD QC", "7S"], "hand": "JS JH JD JC TS TH TD TC 6S 4S"},
                           {"melds": [], "hand": ""}])
    assert sides[0]["total"] == 87 - 90


def test_gc_r05_card_values() -> None:
    r = R()
    assert score_hand(r, [{"melds": ["3S 4S 5S"]}, {}, {}])[0]["lines"]["table"] == 12  # face value (D19)
    assert score_hand(r, [{"melds": ["AS 2S 3S"]}, {}, {}])[0]["lines"]["table"] == 6  # ace low = 1
    assert score_hand(r, [{"melds": ["QS KS AS"]}, {}, {}])[0]["lines"]["table"] == 35  # ace high = 15
    five = R("500-rum", low_cards_five=True)  # S2's own sentence: A-9 count 5
    assert score_hand(five, [{"melds": ["3S 4S 5S"]}, {}, {}])[0]["lines"]["table"] == 15


def test_gc_r03_persian_doubled_melds() -> None:
    r = R("persian-rummy")
    assert score_hand(r, [{"melds": ["JK JK JK JK"]}, {}])[0]["lines"]["table"] == 160
    assert score_hand(r, [{"melds": ["JK JK JK", "JK"]}, {}])[0]["lines"]["table"] == 80
    assert score_hand(r, [{"melds": ["6S 6H 6D 6C"]}, {}])[0]["lines"]["table"] == 48
    assert score_hand(r, [{"melds": ["6S 6H 6D", "6C"]}, {}])[0]["lines"]["table"] == 24
    out = score_hand(r, [{"melds": ["6S 6H 6D"], "went_out": True}, {}])
    assert out[0]["lines"]["going_out"] == 25


def test_gc_r03_persian_doubling_in_play() -> None:
    r = R("persian-rummy")
    s = build_position(r, hands=["JK JK JK JK 5C", "2C", "3C", "4C"], phase="play")
    after = canasta.apply(s, "meld JK JK JK JK")
    assert after.melds[0].points == (40, 40, 40, 40)
    s = build_position(r, hands=["JK JK JK 5C 9D", "2C", "3C", "4C"], phase="play")
    after = canasta.apply(canasta.apply(s, "meld JK JK JK"), "discard 9D")
    assert sum(after.melds[0].points) == 60


def test_gc_b02_winner_takes_all_and_going_rummy() -> None:
    r = R("basic-rummy", players=3)
    sides = [{"melds": ["5H 6H 7H"], "went_out": True}, {"hand": "KC 7D AS"}, {"hand": "QC 2D"}]
    assert score_hand(r, sides)[0]["total"] == 30
    sides[0]["rummy"] = True
    assert score_hand(r, sides)[0]["total"] == 60


def test_going_rummy_in_play_doubles() -> None:
    r = R("basic-rummy")
    s = build_position(r, hands=["5H 6H 7H 9C 9D 9S 2C", "KC 7D AS"], pile="4D", phase="play")
    for m in ["meld 5H 6H 7H", "meld 9S 9D 9C"]:
        s = canasta.apply(s, m)
    s = canasta.apply(s, "discard 2C")
    assert s.last_hand is not None and s.last_hand["went_out"] == 0 and s.last_hand["rummy"] is True
    assert s.last_hand["sides"][0]["lines"] == {"hands_won": 18, "going_rummy": 18}


def test_gc_b03_stalemate_after_second_empty_stock() -> None:
    r = R("basic-rummy")
    # Seat 0 draws the last stock card and discards: the pile is turned over once; later it runs out again.
    s = build_position(r, hands=["2C 5D 9H", "3C 6D TH"], pile="KS QH", stock="JD", phase="draw")
    pile = s.pile  # the rest of the pack lies under KS QH
    s = canasta.apply(s, "draw")
    s = canasta.apply(s, "discard JD")
    assert s.reshuffles == 1 and not s.pile
    assert len(s.stock) == len(pile) + 1 and s.stock[-1] == pile[0]  # turned over: the first discard on top
    while not canasta.is_over(s):
        s = canasta.apply(s, "draw")
        s = canasta.apply(s, str([m for m in canasta.legal_moves(s) if m.action == "discard"][-1]))
    assert s.last_hand is not None and s.last_hand["stalemate"] is True
    assert s.last_hand["stalemate_reason"] == "stock"
    assert [side["total"] for side in s.last_hand["sides"]] == [0, 0]
    # "all players get 0 points, and the game is considered a loss for all of them in the statistics"
    assert s.result == {"scores": [0, 0], "winner": None, "hands": 1, "by": "stalemate", "stalemate": True}


def test_basic_rummy_stalemate_when_nobody_can_finish() -> None:
    """§8.2 [S1-rummy]: a stalemate "when the game detects that none of the players will be able to finish their
    hands. This can for example happen when all players have only one card left, and there are no possible
    lay offs on the melds on the table." """
    r = R("basic-rummy")
    suits = [" ".join(f"{rank}{suit}" for rank in "A23456789TJQK") for suit in "HSD"]  # full runs: nothing fits
    full = [(text, 0) for text in suits]
    s = build_position(r, hands=["2C 3C", "4C"], melds=full, phase="play", scores=[40, 30])
    end = canasta.apply(s, "discard 2C")  # one card each now, and no club fits a meld
    assert end.last_hand["stalemate_reason"] == "stuck" and [x["total"] for x in end.last_hand["sides"]] == [0, 0]
    assert end.result == {"scores": [40, 30], "winner": None, "hands": 1, "by": "stalemate", "stalemate": True}
    fits = build_position(r, hands=["2C 3C", "4C"], melds=[*full[:2], ("5C 6C 7C", 1)], phase="play")
    assert canasta.apply(fits, "discard 2C").phase == "draw"  # 4C (or 8C) fits 5C-7C: play goes on
    off = build_position(R("basic-rummy", stalemate_when_stuck=False), hands=["2C 3C", "4C"], melds=full,
                         phase="play")
    assert canasta.apply(off, "discard 2C").phase == "draw"  # the option off: play goes on


def test_stalemate_proved_when_no_three_cards_off_the_table_make_a_meld() -> None:
    from canasta.rummy.stalemate import nobody_can_finish

    r = R("basic-rummy")
    s = canasta.new_game(r, seed=3)
    assert not nobody_can_finish(s)  # a fresh deal: melds everywhere
    assert nobody_can_finish(s.replace(melds=(), hands=((0,), (5,)), stock=(), pile=(46,)))  # 2C, 3D, KH
    # one card each, a turn brings one: nobody holds three cards, ever, though 2C 3C 4C lie about
    assert nobody_can_finish(s.replace(melds=(), hands=((0,), (4,)), stock=(8,), pile=()))
    assert not nobody_can_finish(s.replace(melds=(), hands=((0, 20), (4,)), stock=(8,), pile=()))


def test_basic_rummy_targets_gc_b03() -> None:
    assert [R("basic-rummy", players=n).game_target() for n in (2, 3, 4)] == [100, 150, 200]


def test_gc_r04_tie_at_500() -> None:
    from canasta.rummy.scoring import game_result

    r = R("500-rum", players=2)
    assert game_result(r, [505, 530], 5, went_out=0)["winner"] == 0  # [S2] the player who went out
    high = R("500-rum", players=2, tie="highest")
    assert game_result(high, [505, 530], 5, went_out=0)["winner"] == 1  # [BcR] the highest score
    assert game_result(high, [530, 530], 5, went_out=None) is None  # equal highest: another hand


# --- the pile: GC-R06 and the options --------------------------------------------------------------------

def test_partnership_highest_over_500_wins_even_if_the_other_team_went_out() -> None:
    """§8.1 partnership [S2]: "The team with the highest score over 500 wins, even if a team goes out first"."""
    from canasta.rummy.scoring import game_result

    r = R("500-rum-partnership")
    assert r.tie == "highest"
    result = game_result(r, [520, 560], 4, went_out=0)  # seat 0 (side 0) went out; side 1 is higher
    assert result is not None and result["winner"] == 1
    assert game_result(r, [540, 540], 4, went_out=0) is None  # equal highest: another hand
    plain = game_result(R("500-rum", players=2), [520, 560], 4, went_out=0)
    assert plain is not None and plain["winner"] == 0  # the plain game: the player who went out


def test_gc_r06_deep_take_brings_every_card_above() -> None:
    r = R("500-rum", players=2)
    s = build_position(r, hands=["9S 9D 2C", "3C"], pile="4S 9H KC 7D")
    assert "take 9H" in moves(s) and "take 4S" not in moves(s)  # 4S fits nothing
    after = canasta.apply(s, "take 9H")
    assert sorted(map(card_str, after.taken)) == ["7D", "9H", "KC"] and card_str(after.pile[-1]) == "4S"
    assert after.must_use >= 0
    assert all("9H" in str(m) for m in canasta.legal_moves(after))  # the chosen card first
    err = canasta.why_illegal(after, "discard 2C")
    assert err is not None and err.code == "MUST_USE_TAKEN_CARD"
    err = canasta.why_illegal(s, "take 4S")
    assert err is not None and err.code == "TAKEN_CARD_UNUSABLE"


def test_no_picking_up_to_hit() -> None:
    base = dict(hands=["2C 3D", "4C"], pile="KD 8H", melds=[("5H 6H 7H", 1)])
    assert "take 8H" in moves(build_position(R("500-rum", players=2), **base))
    strict = build_position(R("500-rum", players=2, take_only_for_new_meld=True), **base)
    assert "take 8H" not in moves(strict)
    err = canasta.why_illegal(strict, "take 8H")
    assert err is not None and err.code == "NEW_MELD_ONLY"


def test_basic_rummy_top_only_and_no_discard_of_taken_card() -> None:
    r = R("basic-rummy")
    s = build_position(r, hands=["2C 3D 9S", "4C"], pile="KD 8H")
    assert moves(s) == {"draw", "take 8H"}
    err = canasta.why_illegal(s, "take KD")
    assert err is not None and err.code == "TOP_CARD_ONLY"
    after = canasta.apply(s, "take")
    err = canasta.why_illegal(after, "discard 8H")
    assert err is not None and err.code == "CANNOT_DISCARD_TAKEN"
    assert "discard 2C" in moves(after)
    keep = build_position(R("basic-rummy", discard_taken_same_turn=True), hands=["2C 3D 9S", "4C"], pile="KD 8H")
    assert "discard 8H" in moves(canasta.apply(keep, "take"))


def test_basic_rummy_taken_card_never_discarded_even_as_the_last_card() -> None:
    """§8.2 [S1-rummy]: "If you drew from the discard pile you can not discard that card in the same round",
    with no exception for a last card: a meld that would leave only the taken card is not offered."""
    s = build_position(R("basic-rummy"), hands=["5H 6H 7H", "4C 9D"], pile="KD 8S")
    after = canasta.apply(s, "take")
    assert moves(after) == {"discard 5H", "discard 6H", "discard 7H"}
    err = canasta.why_illegal(after, "meld 5H 6H 7H")
    assert err is not None and err.code == "TAKEN_CARD_LEFT"
    # the meld stays when the taken card can then be laid off on it: he goes out by laying it off
    fits = canasta.apply(build_position(R("basic-rummy"), hands=["5H 6H 7H", "4C 9D"], pile="KD 8H"), "take")
    out = canasta.apply(canasta.apply(fits, "meld 5H 6H 7H"), "lay 8H on 5H-7H")
    assert out.last_hand is not None and out.last_hand["went_out"] == 0


def test_taken_card_kept_option() -> None:
    r = R("500-rum", players=2, taken_card="keep")
    s = build_position(r, hands=["2C 3D", "4C"], pile="KD 8H")
    assert "take KD" in moves(s)  # any card, kept without a meld
    after = canasta.apply(s, "take KD")
    assert after.must_use < 0 and "discard 2C" in moves(after)


# --- melds and aces ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ace,cards,ok", [
    ("both", "AS 2S 3S", True), ("both", "QS KS AS", True), ("both", "KS AS 2S", False),
    ("low", "QS KS AS", False), ("low", "AS 2S 3S", True), ("high", "AS 2S 3S", False),
    ("around", "KS AS 2S", True), ("around", "QS KS AS 2S 3S", True), ("around", "JS KS AS", False),
])
def test_ace_options(ace: str, cards: str, ok: bool) -> None:
    r = R("500-rum", players=2, ace=ace)
    hand = cards + " 9D"
    s = build_position(r, hands=[hand, "4C"], phase="play")
    err = canasta.why_illegal(s, f"meld {cards}")
    assert (err is None) == ok, err
    if not ok:
        assert err is not None and err.code == "NOT_A_MELD"


def test_lay_off_on_anyones_meld_is_credited_to_the_player() -> None:
    r = R("500-rum", players=2)
    s = build_position(r, hands=["8H 2C 3D", "4C"], melds=[("5H 6H 7H", 1)], phase="play")
    after = canasta.apply(s, "lay 8H on 5H-7H")
    assert after.melds[0].seats == (1, 1, 1, 0) and after.melds[0].points[-1] == 8
    assert canasta.parse_move(s, "lay 8H") == canasta.parse_move(s, "lay 8H on 6H")  # a card names the meld
    err = canasta.why_illegal(s, "lay 2C on 5H-7H")
    assert err is not None and err.code == "DOES_NOT_FIT"
    err = canasta.why_illegal(s, "lay 2C on 9S-JS")
    assert err is not None and err.code == "NO_SUCH_MELD"


def test_lay_off_own_side_only_option() -> None:
    r = R("500-rum", players=2, lay_off_on="own_side")
    s = build_position(r, hands=["8H 2C 3D", "4C"], melds=[("5H 6H 7H", 1)], phase="play")
    err = canasta.why_illegal(s, "lay 8H on 5H-7H")
    assert err is not None and err.code == "NOT_YOUR_SIDES_MELD"


def test_partners_lay_off_and_score_together() -> None:
    r = R("500-rum-partnership")
    s = build_position(r, hands=["8H 2C 3D", "4C", "5C", "6C"], melds=[("5H 6H 7H", 2)], phase="play")
    after = canasta.apply(s, "lay 8H on 5H-7H")
    assert after.melds[0].seats == (2, 2, 2, 0)
    assert r.side_of(0) == r.side_of(2) == 0


def test_first_meld_of_30() -> None:
    r = R("500-rum", players=2, first_meld=30)
    s = build_position(r, hands=["2S 3S 4S KS KH KD 9C", "4C"], melds=[("5H 6H 7H", 1)], phase="play")
    err = canasta.why_illegal(s, "meld 2S 3S 4S")
    assert err is not None and err.code == "FIRST_MELD_TOO_LOW"
    assert canasta.why_illegal(s, "lay 4S on 5H-7H") is not None
    after = canasta.apply(s, "meld KS KH KD")
    assert "meld 2S 3S 4S" in moves(after)


def test_must_discard_to_go_out_boathouse() -> None:
    r = R("500-rum", players=2, go_out_needs_discard=True, draw_count=2)
    s = build_position(r, hands=["5H 6H 7H", "4C"], phase="play")
    err = canasta.why_illegal(s, "meld 5H 6H 7H")
    assert err is not None and err.code == "MUST_KEEP_DISCARD"
    d = build_position(r, hands=["5H 6H 7H", "4C"], stock="2D 3D 9S")
    after = canasta.apply(d, "draw")
    assert len(after.hands[0]) == 5  # Boathouse: draw two


def test_going_out_by_melding_ends_the_hand() -> None:
    r = R("500-rum", players=2)
    s = build_position(r, hands=["5H 6H 7H", "4C 9C"], phase="play")
    after = canasta.apply(s, "meld 5H 6H 7H")
    assert after.hand_number == 2 and after.last_hand is not None and after.last_hand["went_out"] == 0
    assert after.last_hand["sides"][0]["lines"] == {"table": 18, "hand": 0}
    assert after.last_hand["sides"][1]["lines"] == {"table": 0, "hand": -13}


def test_deadwood_to_winner_and_divide_by_five() -> None:
    r = R("500-rum", players=2, deadwood_to_winner=True, divide_by_five=True, target=100)
    s = build_position(r, hands=["5H 6H 7H", "4C 9C"], phase="play")
    after = canasta.apply(s, "meld 5H 6H 7H")
    lines = after.last_hand["sides"][0]["lines"]
    assert lines["table"] + lines["deadwood"] == 31 and sum(lines.values()) == 6  # 31 / 5, towards zero


def test_add_the_opponents_hand_instead_of_deducting_it() -> None:
    """§8.1 [S2]: "Instead of players subtracting their remaining totals when play is finished, they add the
    values in their hands to the total of the player who went out"."""
    r = R("500-rum", deadwood_to_winner=True)  # three players
    s = build_position(r, hands=["5H 6H 7H", "4C 9C", "KD"], phase="play")
    sides = canasta.apply(s, "meld 5H 6H 7H").last_hand["sides"]
    assert sides[0]["lines"] == {"table": 18, "hand": 0, "deadwood": 23}
    assert sides[1]["lines"] == {"table": 0, "hand": 0} and sides[2]["lines"] == {"table": 0, "hand": 0}


@pytest.mark.parametrize("players,teams", [(2, 2), (4, 2), (3, 3)])
def test_add_the_opponents_hand_when_the_stock_is_depleted(players: int, teams: int) -> None:
    """§8.1 [S2]: nobody out when the stock is depleted: "With more than two players: do not add any totals.
    With two players, or two partnerships: add opponent's remainder to your score"."""
    r = R("500-rum", players=players, teams=teams, deadwood_to_winner=True, empty_stock="end")
    hands = ["2C 5D 9H", "3C 6D TH", "4S", "7S"][:players]
    s = build_position(r, hands=hands, pile="KS", stock="JD")
    s = canasta.apply(canasta.apply(s, "draw"), "discard JD")
    assert s.last_hand is not None and s.last_hand["went_out"] is None
    got = [side["lines"].get("deadwood", 0) + side["lines"]["hand"] for side in s.last_hand["sides"]]
    if teams == 2:
        held = [16 + (4 if players == 4 else 0), 19 + (7 if players == 4 else 0)]
        assert got == [held[1], held[0]]
    else:
        assert got == [0, 0, 0]


@pytest.mark.parametrize("deducts", [True, False])
def test_d31_stock_runs_out_deduct_or_not(deducts: bool) -> None:
    """D31, §8.1 [S2]: "If the drawing pile runs out of cards and nobody is able to make a play, then the hand
    ends and nobody deducts the score from their hand" (``stock_out_deducts=false``) against "the hand is
    finished with all cards in each player's hand counting against them" (the default)."""
    r = R("500-rum", players=2, empty_stock="end", stock_out_deducts=deducts)
    s = build_position(r, hands=["2C 5D 9H", "3C 6D TH"], pile="KS", stock="JD")
    s = canasta.apply(canasta.apply(s, "draw"), "discard JD")
    assert [side["lines"]["hand"] for side in s.last_hand["sides"]] == ([-16, -19] if deducts else [0, 0])


def test_card_value_options() -> None:
    r = R("500-rum", ace_high_value=25, four_aces_value=100)
    assert score_hand(r, [{"melds": ["AS AH AD AC"]}, {}, {}])[0]["lines"]["table"] == 100
    assert score_hand(r, [{"melds": ["AS AH AD"]}, {}, {}])[0]["lines"]["table"] == 75
    always = R("500-rum", ace_low_value=15)  # aces 15 always
    assert score_hand(always, [{"melds": ["AS 2S 3S"]}, {}, {}])[0]["lines"]["table"] == 20


@pytest.mark.parametrize("mode", ["end", "play_from_pile"])
def test_empty_stock_modes(mode: str) -> None:
    r = R("500-rum", players=2, empty_stock=mode)
    s = build_position(r, hands=["2C 5D 9H", "3C 6D TH"], pile="KS", stock="JD")
    s = canasta.apply(canasta.apply(s, "draw"), "discard JD")
    if mode == "end":
        assert s.hand_number == 2 and s.last_hand is not None and s.last_hand["went_out"] is None
    else:
        assert s.hand_number == 1 and "pass" in moves(s) and "draw" not in moves(s)
        err = canasta.why_illegal(s, "draw")
        assert err is not None and err.code == "STOCK_EMPTY"
        after = canasta.apply(s, "pass")
        assert after.hand_number == 2


def test_illegal_moves_raise_with_codes() -> None:
    s = canasta.new_game(R(), seed=3)
    with pytest.raises(IllegalMove) as info:
        canasta.apply(s, "discard " + card_str(s.hands[s.to_move][0]))
    assert info.value.code == "MUST_DRAW_FIRST"
    with pytest.raises(ValueError, match="unknown move"):
        canasta.apply(s, "dance")
    with pytest.raises(ValueError, match="not a card"):
        canasta.parse_move(s, "meld 5X 6H 7H")
    after = canasta.apply(s, "draw")
    err = canasta.why_illegal(after, "draw")
    assert err is not None and err.code == "ALREADY_DREW"


def test_ace_points_round_the_corner() -> None:
    r = R("500-rum", ace="around")
    assert score_hand(r, [{"melds": ["QS KS AS"]}, {}, {}])[0]["lines"]["table"] == 35  # high: 15
    assert score_hand(r, [{"melds": ["AS 2S 3S"]}, {}, {}])[0]["lines"]["table"] == 6  # low: 1
    assert score_hand(r, [{"melds": ["KS AS 2S"]}, {}, {}])[0]["lines"]["table"] == 27  # with the king: 15


# --- the family-neutral entry points of ``canasta`` ---------------------------------------------------------

def test_every_family_neutral_entry_point_takes_rummy() -> None:
    r = R("500-rum", players=2, first_meld=30)
    sheet = canasta.score_hand(r, [{"melds": ["7H 8H 9H"], "went_out": True}, {"hand": "KS"}])
    assert [side["total"] for side in sheet] == [24, -10]
    s = build_position(r, hands=["5H 6H 7H 8H KS", "4C 9C"], phase="play")
    assert canasta.minimum_needed(s, 0) == 30 and canasta.minimum_needed(s, 1) == 30
    assert not canasta.can_go_out(s)  # 5H-8H is worth 26, short of the first meld of 30
    opened = build_position(r, hands=["5H 6H 7H 8H KS", "4C 9C"], phase="play", melded=[True, False])
    assert canasta.minimum_needed(opened, 0) == 0 and canasta.can_go_out(opened)
    stuck = build_position(r, hands=["5H 6H 7H 8H KS QD", "4C 9C"], phase="play", melded=[True, False])
    assert not canasta.can_go_out(stuck) and not canasta.can_go_out(canasta.new_game(r, seed=1))  # draw first
    assert canasta.game_result(r, [510, 520], 3, went_out=0) == {"scores": [510, 520], "winner": 0, "hands": 3}
    assert canasta.game_result(r, [410, 20], 3) is None
    with pytest.raises(ValueError, match="2 scores"):
        canasta.game_result(r, [1, 2, 3], 3)
    with pytest.raises(TypeError, match="game's rules"):
        canasta.score_hand("500-rum", [])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="own builder"):
        canasta.positions.build_position(r, hands=["5H"])  # type: ignore[arg-type]
