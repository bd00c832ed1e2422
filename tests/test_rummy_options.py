"""The rummy options added after the first presets (docs/rummy.md): wild jokers, Dealer's Gambit, 5-8 players
with two packs, calling "Rum", the Rummy Master's Hand. Scenario tests for each; random-vs-heuristic games
keeping every invariant; the engine's move lists against a brute-force enumerator written here."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest

import canasta
from canasta.canasta.cards import JOKER, card_str, rank_of
from canasta.play.record import Recorder, replay
from canasta.players.rummy import make_rummy_player
from canasta.positions import load_state
from canasta.rummy import RummyRules, RummyState, score_hand
from canasta.rummy.build import build_position
from rummy_helpers import strands


def R(name: str = "500-rum", **options: object) -> RummyRules:
    r = canasta.rules(name, **options)
    assert isinstance(r, RummyRules)
    return r


def moves(state: RummyState) -> set[str]:
    return {str(m) for m in canasta.legal_moves(state)}


def cards(text: str) -> list[int]:
    return [int(c) for c in canasta.canasta.cards.parse_cards(text)] if text else []


# --- wild jokers ----------------------------------------------------------------------------------------

def test_wild_jokers_make_sets_and_runs_with_two_naturals() -> None:
    r = R(jokers=2)
    assert r.pack_size == 54 and r.wild_jokers
    s = build_position(r, hands=["5H 7H JK 9S 9D KS AS", "2C 3C", "4D"], phase="play")
    legal = moves(s)
    assert {"meld 5H JK 7H", "meld 9S 9D JK", "meld JK KS AS"} <= legal
    assert not any(m.startswith("meld") and m.count("JK") and len(m.split()) == 3 for m in legal
                   if sum(w != "JK" for w in m.split()[1:]) < 2)
    # the written order places the joker; cards out of run order are sorted, the joker going upward
    assert str(canasta.parse_move(s, "meld JK 5H 7H")) == "meld 5H JK 7H"
    s2 = build_position(r, hands=["5H 6H JK", "2C 3C", "4D"], phase="play")
    assert str(canasta.parse_move(s2, "meld 6H 5H JK")) == "meld 5H 6H JK"
    assert str(canasta.parse_move(s2, "meld JK 5H 6H")) == "meld JK 5H 6H"
    assert {"meld 5H 6H JK", "meld JK 5H 6H"} <= moves(s2)
    problem = canasta.why_illegal(s, "meld 9S 5H JK")
    assert problem is not None and problem.code == "NOT_A_MELD" and "natural" in problem.message


def test_joker_stands_for_its_place_and_lay_offs_go_round_it() -> None:
    r = R(jokers=1)
    s = build_position(r, hands=["4H 6H 8H TH 2C", "5S 5D", "3D"], melds=[("5H JK 7H", 1)], phase="play")
    s = s.replace(melded=(True, True, False))
    m = s.melds[0]
    assert m.start == 5 and canasta.rummy.melds.label(m) == "5H-7H"
    legal = moves(s)
    assert "lay 4H on 5H-7H" in legal and "lay 8H on 5H-7H" in legal
    assert "lay 6H on 5H-7H" not in legal  # the joker holds the six's place
    after = canasta.apply(s, "lay 8H on 5H-7H")
    assert canasta.rummy.melds.label(after.melds[0]) == "5H-8H"
    # a joker laid off on a run goes on the high end; at the top of the suit it goes low
    r2 = R(jokers=2)
    t = build_position(r2, hands=["JK 2C", "JK 5S", "3D"], melds=[("QH KH AH", 1)], phase="play",
                       melded=[True, True, False])
    after = canasta.apply(t, "lay JK on QH-AH")
    assert canasta.rummy.melds.label(after.melds[0]) == "JH-AH" and after.melds[0].cards[0] == JOKER


def test_joker_scores_fifteen_on_the_table_and_in_hand() -> None:
    r = R(jokers=1, players=2)
    s = build_position(r, hands=["9S 9D JK", "KC QC JC 2D"], phase="play", melded=[True, False])
    end = canasta.apply(s, "meld 9S 9D JK")  # goes out: 9+9+15 on the table; the other hand 10+10+10+2
    side = end.last_hand["sides"]
    assert side[0]["lines"]["table"] == 33 and side[1]["lines"]["hand"] == -32
    s2 = build_position(r, hands=["9S 9D 9H", "KC QC JK"], phase="play")
    end2 = canasta.apply(s2, "meld 9S 9D 9H")
    assert end2.last_hand["sides"][1]["lines"]["hand"] == -35


def test_four_aces_bonus_needs_four_natural_aces() -> None:
    r = R(jokers=1, four_aces_value=100)
    s = build_position(r, hands=["AS AH AD JK 2C", "5S", "3D"], phase="play")
    assert sum(canasta.apply(s, "meld AS AH AD JK").melds[0].points) == 15 * 4
    s2 = build_position(r, hands=["AS AH AD AC 2C", "5S", "3D"], phase="play")
    assert sum(canasta.apply(s2, "meld AS AH AD AC").melds[0].points) == 100


def test_wild_jokers_refused_with_around_the_corner() -> None:
    with pytest.raises(ValueError, match="around"):
        R(jokers=1, ace="around")
    assert R().jokers == 0  # the default pack stays 52 cards


# --- Dealer's Gambit -----------------------------------------------------------------------------------

def test_dealers_gambit_lays_one_joker_aside_for_the_dealer() -> None:
    """§8.1 [S2]: "At each deal one joker is removed ... placed face up beside the pack, nearest the dealer ...
    the dealer may use [it] at any time in the game unless it has been blocked"."""
    r = R("dealers-gambit")
    assert (r.jokers, r.dealers_joker, r.pack_size) == (2, True, 54)
    s = canasta.apply(canasta.new_game(r, seed=3), "nominate wild")
    assert s.aside == (JOKER,) and len(s.stock) + len(s.pile) + sum(map(len, s.hands)) == 53
    assert canasta.view(s, 0)["dealers_joker"] == ["JK"]  # public
    problem = canasta.why_illegal(s, "take dealer JK")
    assert s.turn_seat != s.dealer and problem is not None and problem.code == "NOT_THE_DEALER"
    # the dealer takes it in his turn, before or after drawing; his turn goes on
    d = build_position(r, hands=["2C 3C", "5S 5D", "9H 9S 4D"], turn_seat=2).replace(dealer=2)
    assert "take dealer JK" in moves(d) and canasta.parse_move(d, "take dealer's JK") == canasta.parse_move(
        d, "take dealer JK")
    after = canasta.apply(d, "take dealer JK")
    assert after.aside == () and JOKER in after.hands[2] and after.phase == "draw" and after.turn_seat == 2
    assert "meld 9S 9H JK" not in moves(after) and "draw" in moves(after)
    problem = canasta.why_illegal(after, "take dealer JK")
    assert problem is not None and problem.code == "NO_DEALERS_JOKER"
    played = canasta.apply(canasta.apply(d, "draw"), "take dealer JK")
    assert "meld 9S 9H JK" in moves(played)


def test_the_dealer_nominates_the_jokers_effect_after_the_deal() -> None:
    """§8.1 [S2]: "After dealing, before anyone looks at their cards, the dealer nominates the jokers' effect for
    that hand": wild card, double or split."""
    r = R("dealers-gambit")
    s = canasta.new_game(r, seed=5)
    assert (s.phase, s.turn_seat, s.rules.joker_effect) == ("nominate", s.dealer, "")
    assert moves(s) == {"nominate wild", "nominate double", "nominate split"}
    problem = canasta.why_illegal(s, "draw")
    assert problem is not None and problem.code == "NOMINATE_FIRST"
    with pytest.raises(ValueError, match="nominate"):
        canasta.parse_move(s, "nominate sideways")
    for effect in ("wild", "double", "split"):
        after = canasta.apply(s, f"nominate {effect}")
        assert (after.phase, after.turn_seat, after.rules.joker_effect) == ("draw", (s.dealer + 1) % 3, effect)
        assert canasta.view(after, 0)["joker_effect"] == effect and load_state(after.to_json()) == after
        problem = canasta.why_illegal(after, "nominate wild")
        assert problem is not None and problem.code == "NO_NOMINATION"
    assert canasta.rules("dealers-gambit", target=250).game_target() == 250  # "only play to ... 250 points"


def test_wild_jokers_are_worth_zero_on_the_table_and_in_the_hand() -> None:
    """§8.1 [S2]: "the wild joker is worth zero points"; "Jokers have a zero value if still in a player's hand"."""
    r = R("dealers-gambit", players=2)
    s = build_position(r, hands=["9S 9H JK 2C", "KC 5D"], phase="play")
    melded = canasta.apply(s, "meld 9S 9H JK")
    assert melded.melds[0].points == (9, 9, 0)
    end = canasta.apply(melded, "discard 2C")
    assert end.last_hand["sides"][0]["lines"] == {"table": 18, "hand": 0}
    held = build_position(r, hands=["9S 9H 9D", "KC JK"], phase="play")
    end = canasta.apply(held, "meld 9S 9H 9D")
    assert end.last_hand["sides"][1]["lines"] == {"table": 0, "hand": -10}  # KC 10, the joker 0


def test_a_doubling_joker_doubles_a_set_and_seals_it() -> None:
    """§8.1 [S2], Double: "the joker doubles the value of any set; it is placed face up over a meld while it is
    being melded; once added, that set is sealed (no further cards can be laid off on it)"."""
    r = R("dealers-gambit", players=2)
    s = build_position(r, hands=["7C 7D 7H JK 5H 6H 2C", "7S 3D"], phase="play", joker_effect="double")
    assert str(canasta.parse_move(s, "meld 7C 7D 7H JK")) in moves(s)
    assert not any("JK" in m and "5H" in m for m in moves(s))  # not wild: with sets only
    doubled = canasta.apply(s, "meld 7C 7D 7H JK")
    assert doubled.melds[0].points == (14, 14, 14, 0)
    sealed = build_position(r, hands=["2C 4C", "7S 3D"], melds=[("7C 7D 7H JK", 0)], phase="play",
                            turn_seat=1, joker_effect="double")
    problem = canasta.why_illegal(sealed, "lay 7S on 7-set")
    assert problem is not None and problem.code == "DOES_NOT_FIT"


def test_a_splitting_joker_splits_the_pile_around_the_chosen_card() -> None:
    """§8.1 [S2], Split: "the joker is used to split the discard pile on either side of the card selected; the
    cards inside the split are removed from the game for the rest of the hand, those outside are added to the
    player's hand; as usual the selected card must be used at once"."""
    r = R("dealers-gambit", players=2)
    s = build_position(r, hands=["8H TH JK 2C", "3D 4D"], pile="4S 9H KC 7D QS", joker_effect="split")
    assert {"split 9H", "split 9H to KC", "split 9H to 7D"} <= moves(s)
    assert not any(m.startswith("split 4S") for m in moves(s))  # 4S fits no meld
    whole = canasta.apply(s, "split 9H")  # everything above 9H leaves the game, with the joker
    assert sorted(map(card_str, whole.removed)) == ["7D", "JK", "KC", "QS"]
    assert whole.must_use == cards("9H")[0] and JOKER not in whole.hands[0] and whole.pile == tuple(cards("4S"))
    part = canasta.apply(s, "split 9H to KC")  # KC inside; 7D and QS outside, into the hand
    assert sorted(map(card_str, part.removed)) == ["JK", "KC"] and {"7D", "QS", "9H"} <= {
        card_str(c) for c in part.hands[0]}
    assert load_state(part.to_json()) == part
    assert canasta.apply(part, "meld 8H 9H TH").phase == "play"
    problem = canasta.why_illegal(s, "split QS")
    assert problem is not None and problem.code == "NOTHING_TO_SPLIT"
    wild = build_position(r, hands=["8H TH JK 2C", "3D 4D"], pile="4S 9H KC 7D QS")
    problem = canasta.why_illegal(wild, "split 9H")
    assert problem is not None and problem.code == "NOT_A_SPLIT_HAND"


def test_the_dealers_joker_is_blocked_by_a_joker_placed_face_down_over_it() -> None:
    """§8.1 [S2]: "The dealer's joker can be 'blocked' at any time in the game by placing another joker face down
    over it. If the dealer's joker is so blocked it may not be used by the dealer for the remainder of that
    hand." """
    r = R("dealers-gambit")
    s = build_position(r, hands=["2C 3C JK", "5S 5D", "9H 9S 4D"], turn_seat=0).replace(dealer=2)
    assert "block JK" in moves(s)
    blocked = canasta.apply(s, "block JK")
    assert blocked.aside == (JOKER, JOKER) and JOKER not in blocked.hands[0] and blocked.turn_seat == 0
    assert canasta.view(blocked, 1)["dealers_joker_blocked"] and load_state(blocked.to_json()) == blocked
    dealer = blocked.replace(turn_seat=2)
    problem = canasta.why_illegal(dealer, "take dealer JK")
    assert problem is not None and problem.code == "DEALERS_JOKER_BLOCKED"
    none = build_position(r, hands=["2C 3C 4D", "5S 5D", "9H 9S JK"], turn_seat=0).replace(dealer=2)
    problem = canasta.why_illegal(none, "block JK")
    assert problem is not None and problem.code == "NO_JOKER_TO_BLOCK"
    own = build_position(r, hands=["2C 3C 4D", "5S 5D", "9H 9S JK"], turn_seat=2).replace(dealer=2)
    problem = canasta.why_illegal(own, "block JK")
    assert problem is not None and problem.code == "DEALER_CANNOT_BLOCK"


def test_the_dealers_joker_left_aside_scores_nothing_and_changes_with_the_dealer() -> None:
    r = R("dealers-gambit", players=2)
    s = build_position(r, hands=["9S 9D 9H", "KC QC"], phase="play")
    end = canasta.apply(s, "meld 9S 9D 9H")
    assert end.last_hand["sides"][1]["lines"]["hand"] == -20 and end.hand_number == 2
    assert end.aside == (JOKER,) and end.dealer == (s.dealer + 1) % 2
    assert (end.phase, end.turn_seat, end.rules.joker_effect) == ("nominate", end.dealer, "")  # nominated afresh
    with pytest.raises(ValueError, match="dealers_joker"):
        R("500-rum", dealers_joker=True)


# --- 5-8 players with two packs ---------------------------------------------------------------------------

def test_five_to_eight_players_need_two_packs() -> None:
    with pytest.raises(ValueError, match="packs=2"):
        R(players=5)
    with pytest.raises(ValueError, match="option players=9: must be an integer from 2 to 8"):
        R(players=9, packs=2)
    r = R(players=8, packs=2)
    assert r.pack_size == 104 and r.decks == 2
    s = canasta.new_game(r, seed=4)
    assert [len(h) for h in s.hands] == [7] * 8 and len(s.stock) == 104 - 56 - 1
    assert all(n == 2 for n in Counter([*s.stock, *s.pile, *(c for h in s.hands for c in h)]).values())
    assert R(players=6, packs=2, jokers=2).pack_size == 106


def test_two_packs_sets_hold_each_suit_once_and_equal_melds_get_numbered_labels() -> None:
    r = R(players=5, packs=2)
    s = build_position(r, hands=["7H 7H 7S 7D 5C 6C 8C", "7S 7C 2D", "3D", "4D", "5D"],
                       melds=[("4H 5H 6H", 1), ("4H 5H 6H", 2), ("9S 9H 9D", 3)], phase="play",
                       melded=[False, True, True, True, False])
    legal = moves(s)
    assert "meld 7S 7H 7D" in legal and not any(m.count("7H") == 2 for m in legal)
    problem = canasta.why_illegal(s, "meld 7H 7H 7S")
    assert problem is not None and problem.code == "NOT_A_MELD"
    assert canasta.rummy.melds.labels(s.melds) == ["4H-6H", "4H-6H#2", "9-set"]
    assert {"lay 7H on 4H-6H", "lay 7H on 4H-6H#2"} <= legal and "lay 7S on 9-set" not in legal
    after = canasta.apply(s, "meld 7S 7H 7D")
    assert canasta.rummy.melds.labels(after.melds)[-1] == "7-set"
    # the other 7H may not join that set (its suit is there), but fits a second set of sevens
    assert "lay 7H on 7-set" not in moves(after)
    view = canasta.view(after, 1)
    assert [m["label"] for m in view["melds"]] == ["4H-6H", "4H-6H#2", "9-set", "7-set"]
    t = build_position(r, hands=["4H 8H 2C", "2D", "3D", "4D", "5D"], melds=[("5H 6H 7H", 1), ("5H 6H 7H", 2)],
                       phase="play")
    assert {"lay 4H on 5H-7H", "lay 4H on 5H-7H#2", "lay 8H on 5H-7H#2"} <= moves(t)
    done = canasta.apply(t, "lay 8H on 5H-7H#2")
    assert canasta.rummy.melds.labels(done.melds) == ["5H-7H", "5H-8H"] and done.melds[1].seats[-1] == 0


# --- calling "Rum" ------------------------------------------------------------------------------------------

def test_a_playable_discard_opens_a_claim_window_and_rum_scores_for_the_caller() -> None:
    r = R(call_rum=True)
    s = build_position(r, hands=["8H 2C 3C", "9S 9D", "4D 5D"], melds=[("5H 6H 7H", 1)], phase="play")
    quiet = canasta.apply(s, "discard 2C")  # fits nothing: no window, no extra moves
    assert quiet.phase == "draw" and quiet.turn_seat == 1
    c = canasta.apply(s, "discard 8H")
    assert (c.phase, c.turn_seat, c.claim_from) == ("claim", 1, 0)
    assert moves(c) == {"rum 8H on 5H-7H", "pass"} and canasta.view(c, 2)["claim_from"] == 0
    problem = canasta.why_illegal(c, "draw")
    assert problem is not None and problem.code == "CLAIM_PENDING"
    assert load_state(c.to_json()) == c
    rum = canasta.apply(c, "rum")
    assert rum.melds[0].cards[-1] == cards("8H")[0] and rum.melds[0].seats[-1] == 1 and rum.pile == s.pile
    assert (rum.phase, rum.turn_seat) == ("draw", 1)  # play goes on from the discarder's left
    end = canasta.apply(canasta.apply(rum, "draw"), "discard 9S")
    assert end.phase == "draw" or end.phase == "claim"
    # passing asks the next player who could lay it off; when all pass, the discarder's left draws
    passed = canasta.apply(c, "pass")
    assert (passed.phase, passed.turn_seat) == ("claim", 2)
    assert "rum 8H on 5H-7H" in moves(passed)
    done = canasta.apply(passed, "pass")
    assert (done.phase, done.turn_seat, done.pile[-1]) == ("draw", 1, cards("8H")[0])


def test_rum_is_offered_only_to_players_who_could_lay_it_off() -> None:
    r = R(call_rum=True, first_meld=30)
    s = build_position(r, hands=["8H 2C 3C", "9S 9D", "4D 5D"], melds=[("5H 6H 7H", 1)], phase="play",
                       melded=[False, True, False])
    c = canasta.apply(s, "discard 8H")
    assert c.turn_seat == 1 and canasta.apply(c, "pass").phase == "draw"  # seat 2 has not opened
    problem = canasta.why_illegal(s, "rum 8H on 5H-7H")
    assert problem is not None and problem.code == "NO_RUM_CALL"
    partners = build_position(R(call_rum=True, players=4, teams=2, lay_off_on="own_side"),
                            hands=["8H 2C", "9S 9D", "4D 5D", "KC"], melds=[("5H 6H 7H", 0)], phase="play")
    window = canasta.apply(partners, "discard 8H")
    assert (window.phase, window.turn_seat) == ("claim", 2)  # seat 1 may not lay off on side 0's melds
    assert canasta.apply(window, "pass").turn_seat == 1 and canasta.apply(window, "pass").phase == "draw"


def test_going_out_by_a_discard_opens_no_window() -> None:
    r = R(call_rum=True)
    s = build_position(r, hands=["8H", "9S 9D", "4D 5D"], melds=[("5H 6H 7H", 1)], phase="play")
    assert canasta.apply(s, "discard 8H").hand_number == 2


def test_melds_between_turns_in_the_claim_window() -> None:
    with pytest.raises(ValueError, match="call_rum"):
        R(melds_between_turns=True)
    r = R(call_rum=True, melds_between_turns=True)
    s = build_position(r, hands=["2C 3C 4S", "9S 9D 9H 5D", "4D 5S"], phase="play")
    w = canasta.apply(s, "discard 2C")  # fits no meld, but seat 1 holds one
    assert (w.phase, w.turn_seat, w.claim_from) == ("claim", 1, 0)
    assert moves(w) == {"meld 9S 9H 9D", "pass"}
    m = canasta.apply(w, "meld 9S 9H 9D")
    assert (m.phase, m.turn_seat) == ("claim", 1) and m.melds[0].seats == (1, 1, 1) and m.melded[1]
    assert moves(m) == {"pass"}
    nxt = canasta.apply(m, "pass")
    assert (nxt.phase, nxt.turn_seat) == ("draw", 1)
    problem = canasta.why_illegal(w, "meld 9S 9H 5D")
    assert problem is not None and problem.code == "NOT_A_MELD"
    problem = canasta.why_illegal(w, "draw")  # 2C fits no meld: the message does not say it does
    assert problem is not None and problem.message == "seat 0 discarded 2C: meld or 'pass' first"
    out = build_position(r, hands=["2C 3C 4S", "9S 9D 9H", "4D 5S"], phase="play")
    gone = canasta.apply(canasta.apply(out, "discard 2C"), "meld 9S 9H 9D")  # out of turn, and out
    assert gone.hand_number == 2 and gone.last_hand["went_out"] == 1
    quiet = canasta.apply(build_position(r, hands=["2C 3C 4S", "9S 8D", "4D 5S"], phase="play"), "discard 2C")
    assert quiet.phase == "draw"  # nobody could meld or call: no window


def test_lay_offs_between_turns_in_the_claim_window() -> None:
    """§8.1 [S2], calling "Rum": "melds or matching cards on other people's turns" (``lay_offs_between_turns``)."""
    with pytest.raises(ValueError, match="call_rum"):
        R(lay_offs_between_turns=True)
    r = R(call_rum=True, lay_offs_between_turns=True)
    s = build_position(r, hands=["2C 3C 4S", "8H 9D", "4D 5S"], melds=[("5H 6H 7H", 2)], phase="play")
    w = canasta.apply(s, "discard 2C")  # fits nothing, but seat 1 may lay 8H off
    assert (w.phase, w.turn_seat) == ("claim", 1) and moves(w) == {"lay 8H on 5H-7H", "pass"}
    problem = canasta.why_illegal(w, "draw")
    assert problem is not None and problem.message == "seat 0 discarded 2C: lay off or 'pass' first"
    laid = canasta.apply(w, "lay 8H on 5H-7H")
    assert laid.melds[0].seats[-1] == 1 and laid.melded[1] and (laid.phase, laid.turn_seat) == ("claim", 1)
    assert moves(laid) == {"pass"} and canasta.apply(laid, "pass").turn_seat == 1
    out = canasta.apply(build_position(r, hands=["2C 3C 4S", "8H", "4D 5S"], melds=[("5H 6H 7H", 2)],
                                       phase="play"), "discard 2C")
    assert canasta.apply(out, "lay 8H on 5H-7H").last_hand["went_out"] == 1  # out of turn, and out


def test_low_cards_five_covers_a_low_ace() -> None:
    """§8.1 [S2]: "A-9 are 5" (``low_cards_five``) covers an ace used low; high, it stays 15."""
    r = R("500-rum", low_cards_five=True)
    assert score_hand(r, [{"melds": ["AS 2S 3S"]}, {}, {}])[0]["lines"]["table"] == 15
    assert score_hand(r, [{"melds": ["QS KS AS"]}, {}, {}])[0]["lines"]["table"] == 35
    assert score_hand(R("500-rum"), [{"melds": ["AS 2S 3S"]}, {}, {}])[0]["lines"]["table"] == 6


# --- the Rummy Master's Hand ------------------------------------------------------------------------------

def test_a_seven_card_straight_laid_down_then_the_last_card_discarded_scores_500() -> None:
    """§8.1 [S2]: "If a player lays down a 7-card straight and then discards his last card, he is awarded 500
    points"."""
    r = R(masters_hand=500)
    s = build_position(r, hands=["6H 5H 7H 8H 9H TH JH 2C", "9S 9D", "4D 5D"], scores=[20, 0, 0], phase="play")
    assert not any(m.startswith("master") for m in moves(s))  # no move of its own: the play itself
    end = canasta.apply(canasta.apply(s, "meld 5H 6H 7H 8H 9H TH JH"), "discard 2C")
    assert end.last_hand["masters_hand"] and [x["total"] for x in end.last_hand["sides"]] == [500, 0, 0]
    assert end.result is not None and end.result["winner"] == 0 and end.result["scores"] == [520, 0, 0]
    with pytest.raises(ValueError, match="unknown move"):
        canasta.parse_move(s, "master 5H 6H 7H 8H 9H TH JH")


def test_masters_hand_needs_the_straight_just_before_the_last_discard() -> None:
    r = R(masters_hand=500)
    hands = ["5H 6H 7H 8H 9H TH JH 2C 3C", "9S 9D", "4D 5D"]
    # another play between the straight and the discard: a plain going out
    s = build_position(r, hands=hands, melds=[("4C 5C 6C", 1)], phase="play")
    s = canasta.apply(canasta.apply(s, "meld 5H 6H 7H 8H 9H TH JH"), "lay 3C on 4C-6C")
    s = canasta.apply(s, "discard 2C")
    assert not s.last_hand.get("masters_hand") and s.last_hand["sides"][0]["lines"]["table"] == 58
    six = build_position(r, hands=["5H 6H 7H 8H 9H TH 2C", "9S 9D", "4D 5D"], phase="play")
    six = canasta.apply(canasta.apply(six, "meld 5H 6H 7H 8H 9H TH"), "discard 2C")
    assert not six.last_hand.get("masters_hand")  # six cards are no Master's Hand
    off = build_position(R(), hands=["5H 6H 7H 8H 9H TH JH 2C", "9S 9D", "4D 5D"], phase="play")
    off = canasta.apply(canasta.apply(off, "meld 5H 6H 7H 8H 9H TH JH"), "discard 2C")
    assert not off.last_hand.get("masters_hand")  # masters_hand=0: off


# --- random play and the brute-force enumerator -----------------------------------------------------------

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("500-rum", {"jokers": 2}),
    ("500-rum", {"jokers": 1, "players": 2, "ace": "low", "first_meld": 30}),
    ("basic-rummy", {"jokers": 2, "ace": "high"}),
    ("dealers-gambit", {}),
    ("dealers-gambit", {"players": 2, "jokers": 4}),
    ("500-rum", {"players": 6, "packs": 2}),
    ("500-rum-partnership", {"players": 8, "packs": 2, "jokers": 2}),
    ("500-rum", {"call_rum": True, "jokers": 1}),
    ("500-rum-partnership", {"call_rum": True, "lay_off_on": "own_side", "first_meld": 30}),
    ("500-rum", {"masters_hand": 500, "players": 2, "call_rum": True, "ace": "around"}),
    ("500-rum", {"call_rum": True, "melds_between_turns": True, "jokers": 2, "first_meld": 30}),
    ("500-rum", {"call_rum": True, "lay_offs_between_turns": True, "players": 4, "low_cards_five": True}),
    ("500-rum", {"deadwood_to_winner": True, "stock_out_deducts": False, "masters_hand": 500, "empty_stock": "end"}),
]


def pack_count(s: RummyState) -> Counter[int]:
    every = [*s.stock, *s.pile, *(c for h in s.hands for c in h), *(c for m in s.melds for c in m.cards)]
    every += [*s.aside, *s.removed]
    return Counter(every)


def whole_pack(r: RummyRules) -> Counter[int]:
    want: Counter[int] = Counter({c: getattr(r, "packs", 1) for c in range(52)})
    if r.jokers:
        want[JOKER] = r.jokers
    return want


def play_out(r: RummyRules, seed: int, seats: list[str]) -> None:
    players = [make_rummy_player(name, seed + i) for i, name in enumerate(seats)]
    rng = random.Random(seed)
    rec = Recorder(canasta.new_game(r, seed=seed))
    want = whole_pack(r)
    plies = 0
    while not canasta.is_over(rec.state):
        s = rec.state
        assert pack_count(s) == want  # every card somewhere, at every ply
        legal = canasta.legal_moves(s)
        assert legal and len(set(legal)) == len(legal)
        if plies % 7 == 0 and len(s.hands[s.to_move]) <= 14:
            assert {str(m) for m in legal} == brute_moves(s), s.to_json()
            assert load_state(s.to_json()) == s
            check_views(s)
        player = players[s.to_move]
        move = rng.choice(legal) if seats[s.to_move] == "random" else player.choose(
            canasta.view(s, s.to_move), legal)  # type: ignore[arg-type]
        assert move in legal
        assert canasta.parse_move(s, str(move)) == move
        rec.apply(move)
        plies += 1
        assert plies < 20000, "the game must end"
    record = json.loads(json.dumps(rec.record()))
    assert replay(record) == rec.state
    out = canasta.outcome(rec.state)
    assert out is not None and len(out["scores"]) == r.teams


def check_views(s: RummyState) -> None:
    r = s.rules
    for seat in range(r.players):
        v = canasta.view(s, seat)
        json.dumps(v)
        assert v["hand"] == [card_str(c) for c in s.hands[seat]]
        assert "hands" not in v and isinstance(v["stock"], int)
        assert v["hand_sizes"] == [len(h) for h in s.hands]
        assert v.get("dealers_joker", []) == [card_str(c) for c in getattr(s, "aside", ())]
    assert "hand" not in canasta.public_view(s)


@pytest.mark.parametrize("name,options", CONFIGS)
def test_random_and_heuristic_games_keep_every_invariant(name: str, options: dict[str, object]) -> None:
    r = R(name, **options)
    seats = ["random", "heuristic", "greedy", "random", "heuristic", "greedy", "random", "heuristic"]
    play_out(r, 0, seats[:r.players])


def _readings(r: RummyRules, naturals: list[int]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for c in naturals:
        rank = rank_of(c)
        choices = [rank] if rank != 14 else {"low": [1], "high": [14], "both": [1, 14], "around": [1]}[r.ace]
        out = [[*p, x] for p in out for x in choices]
    return out


def meld_texts(r: RummyRules, combo: tuple[int, ...]) -> set[str]:
    """Every way these cards are a meld, as move text (a run in position order, a set sorted, jokers last)."""
    naturals = [c for c in combo if c != JOKER]
    jokers = len(combo) - len(naturals)
    out: set[str] = set()
    if len(combo) < 3:
        return out
    if not naturals:
        if r.joker_sets and len(combo) <= 4:
            out.add("meld " + " ".join(["JK"] * jokers))
        return out
    if jokers and r.doubling_jokers:  # Dealer's Gambit, Double: one joker over a new set of 3-4
        if jokers == 1 and len(naturals) in (3, 4) and len({rank_of(c) for c in naturals}) == 1 and len(
                {c & 3 for c in naturals}) == len(naturals):
            out.add("meld " + " ".join([card_str(c) for c in sorted(naturals)] + ["JK"]))
        return out
    if jokers and (not r.wild_jokers or len(naturals) < 2):
        return out
    if len({rank_of(c) for c in naturals}) == 1:
        if len(combo) <= 4 and len({c & 3 for c in naturals}) == len(naturals):
            out.add("meld " + " ".join([card_str(c) for c in sorted(naturals)] + ["JK"] * jokers))
        return out
    if len({c & 3 for c in naturals}) != 1 or len(set(naturals)) != len(naturals):
        return out
    n = len(combo)
    for pos in _readings(r, naturals):
        if r.ace == "around":
            if jokers:
                continue
            for start in range(1, 14):
                ring = [(start - 1 + k) % 13 + 1 for k in range(n)]
                if sorted(ring) == sorted(pos) and n <= 13:
                    at = dict(zip(pos, naturals, strict=True))
                    out.add("meld " + " ".join(card_str(at[p]) for p in ring))
            continue
        lo = 1 if r.ace in ("low", "both") else 2
        hi = 14 if r.ace in ("high", "both") else 13
        for start in range(lo, hi - n + 2):
            window = list(range(start, start + n))
            if len(set(pos)) == len(pos) and set(pos) <= set(window):
                at = dict(zip(pos, naturals, strict=True))
                out.add("meld " + " ".join(card_str(at[p]) if p in at else "JK" for p in window))
    return out


def _run_positions(r: RummyRules, m: object) -> list[int]:
    cards_, start = m.cards, m.start  # type: ignore[attr-defined]
    if r.ace == "around":
        return [(start - 1 + i) % 13 + 1 for i in range(len(cards_))]
    return [start + i for i in range(len(cards_))]


def fits(r: RummyRules, m: object, c: int) -> bool:
    kind, mc = m.kind, m.cards  # type: ignore[attr-defined]
    if kind == "jokers":
        return c == JOKER and len(mc) < 4
    if c == JOKER and not r.wild_jokers:
        return False
    if kind == "set" and JOKER in mc and r.doubling_jokers:
        return False  # sealed
    if kind == "set":
        return len(mc) < 4 and (c == JOKER or (rank_of(c) == m.start  # type: ignore[attr-defined]
                                               and all(x == JOKER or x & 3 != c & 3 for x in mc)))
    pos = _run_positions(r, m)
    if len(pos) >= 13:
        return False
    suit = next(x for x in mc if x != JOKER) & 3
    if r.ace == "around":
        if c == JOKER or c & 3 != suit:
            return False
        mine = 1 if rank_of(c) == 14 else rank_of(c)
        return mine in (pos[-1] % 13 + 1, (pos[0] - 2) % 13 + 1)
    lo = 1 if r.ace in ("low", "both") else 2
    hi = 14 if r.ace in ("high", "both") else 13
    ends = [p for p in (pos[-1] + 1, pos[0] - 1) if lo <= p <= hi]
    if c == JOKER:
        return bool(ends)
    return c & 3 == suit and any(p in ends for p in _readings(r, [c])[0] + _readings(r, [c])[-1])


def _labels(melds: tuple[object, ...]) -> list[str]:
    return canasta.rummy.melds.labels(melds)  # type: ignore[attr-defined,no-any-return]


def brute_moves(s: RummyState) -> set[str]:
    r = s.rules
    seat = s.turn_seat
    hand = list(s.hands[seat])
    out: set[str] = set()
    aside = s.aside
    if s.phase == "nominate":
        return {"nominate wild", "nominate double", "nominate split"}
    if s.phase == "claim":
        top = s.pile[-1]
        for m, name in zip(s.melds, _labels(s.melds), strict=True):
            if fits(r, m, top) and (r.lay_off_on == "any" or r.side_of(m.seats[0]) == r.side_of(seat)):
                out.add(f"rum {card_str(top)} on {name}")
        kinds = {k for k, on in (("meld", r.melds_between_turns), ("lay", r.lay_offs_between_turns)) if on}
        out |= {text for text, _c, kind in _plays(s, hand) if kind in kinds}
        return out | {"pass"}
    if len(aside) == 1 and s.phase in ("draw", "play"):  # lying there, not blocked
        if seat == s.dealer:
            out.add("take dealer JK")
        elif JOKER in hand and len(hand) >= 2 and s.must_use < 0:
            out.add("block JK")
    if s.phase == "draw":
        if s.stock:
            out.add("draw")
        elif r.empty_stock == "play_from_pile":
            out.add("pass")
        indices = range(len(s.pile)) if r.pile_take == "any" else range(len(s.pile) - 1, len(s.pile))
        for i in indices:
            card = s.pile[i]
            if card in s.pile[i + 1:]:
                continue
            if r.taken_card == "keep" or _uses(s, hand + list(s.pile[i:]), card):
                out.add(f"take {card_str(card)}")
        if r.splitting_jokers and JOKER in hand and r.pile_take == "any":
            rest = list(hand)
            rest.remove(JOKER)
            for i in range(len(s.pile) - 1):
                card = s.pile[i]
                if card in s.pile[i + 1:]:
                    continue
                for j in range(i + 1, len(s.pile)):
                    if s.pile[j] in s.pile[j + 1:]:
                        continue  # the topmost copy names the end
                    if r.taken_card == "keep" or _uses(s, [*rest, card, *s.pile[j + 1:]], card):
                        end = "" if j == len(s.pile) - 1 else f" to {card_str(s.pile[j])}"
                        out.add(f"split {card_str(card)}{end}")
        return out
    if s.phase != "play":
        return out
    uses = _plays(s, hand)
    if s.must_use >= 0:
        return out | {text for text, cs, kind in uses if s.must_use in cs
                      and (kind == "meld" or not r.take_only_for_new_meld)}
    out |= {text for text, _c, _k in uses}
    if not r.discard_taken_same_turn:  # never the taken card, nor a play that leaves only it, unplayable
        out = {text for text in out if not strands(s, text, brute_moves)}
    discard = set(hand) if r.discard_taken_same_turn else set(hand) - set(s.taken)
    out |= {f"discard {card_str(c)}" for c in discard}
    return out


def _uses(s: RummyState, hand: list[int], card: int) -> bool:
    return any(card in cs and (kind == "meld" or not s.rules.take_only_for_new_meld)
               for _t, cs, kind in _plays(s, hand))


def _plays(s: RummyState, hand: list[int]) -> list[tuple[str, tuple[int, ...], str]]:
    r = s.rules
    seat = s.turn_seat
    opened = s.melded[seat] or s.turn_melded or r.first_meld == 0
    out = []
    from canasta.rummy.generate import meld_value

    jokers = [c for c in hand if c == JOKER]
    groups = [[c for c in hand if c != JOKER and key(c) == k] for key in (rank_of, lambda c: c & 3) for k in
              {key(c) for c in hand if c != JOKER}]  # a meld's naturals share a rank or a suit
    combos: set[tuple[int, ...]] = set()
    for group in [*groups, []]:
        for n in range(len(group) + 1):
            for part in combinations(sorted(group), n):
                for j in range(len(jokers) + 1):
                    if n + j >= 3:
                        combos.add((*part, *jokers[:j]))
    for combo in combos:
        n = len(combo)
        if r.go_out_needs_discard and n >= len(hand):
            continue
        if True:
            for text in meld_texts(r, combo):
                if not opened and meld_value(r, tuple(cards(text[5:]))) < r.first_meld:
                    continue
                out.append((text, combo, "meld"))
    if opened and not (r.go_out_needs_discard and len(hand) <= 1):
        for m, name in zip(s.melds, _labels(s.melds), strict=True):
            if r.lay_off_on == "own_side" and r.side_of(m.seats[0]) != r.side_of(seat):
                continue
            for c in set(hand):
                if fits(r, m, c):
                    out.append((f"lay {card_str(c)} on {name}", (c,), "lay"))
    return out


def _perft_positions() -> list[RummyState]:
    states = []
    for name, options in CONFIGS:
        r = R(name, **options)
        for seed in (1, 2):
            s = canasta.new_game(r, seed=seed)
            rng = random.Random(seed)
            for _ in range(6 + 5 * seed):
                if canasta.is_over(s):
                    break
                s = canasta.apply(s, rng.choice(canasta.legal_moves(s)))
            states.append(s)
    return states


@pytest.mark.parametrize("index", range(2 * len(CONFIGS)))
def test_perft_matches_the_brute_force_enumerator(index: int) -> None:
    s = _perft_positions()[index]

    def engine(state: RummyState) -> set[str]:
        return {str(m) for m in canasta.legal_moves(state)}

    def count(state: RummyState, depth: int, moves_of: object) -> int:
        if depth == 0 or canasta.is_over(state):
            return 1
        return sum(count(canasta.apply(state, t), depth - 1, moves_of) for t in sorted(moves_of(state)))  # type: ignore[operator]

    frontier = [s]
    for _ in range(2):
        nxt = []
        for st in frontier:
            assert engine(st) == brute_moves(st), st.to_json()
            nxt += [canasta.apply(st, m) for m in sorted(engine(st))]
        frontier = nxt
    assert count(s, 3, engine) == count(s, 3, brute_moves) > 0


# --- the computer players and the options -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["greedy", "heuristic", "hard"])
def test_players_take_the_dealers_joker(name: str) -> None:
    from canasta.players.rummy import make_rummy_player

    player = make_rummy_player(name, 1)
    d = build_position(R("dealers-gambit"), hands=["2C 3C 7S 9D KH", "5S 5D 8C 4H JD", "9H 9S 4D JC QD"],
                       turn_seat=2).replace(dealer=2)
    assert str(player.choose(canasta.view(d, 2), canasta.legal_moves(d))) == "take dealer JK"
