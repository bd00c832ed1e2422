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
from canasta.cards import JOKER, card_str, rank_of
from canasta.positions import load_state
from canasta.record import Recorder, replay
from canasta.rummy import RummyRules, RummyState
from canasta.rummy.build import build_position
from canasta.rummy.players import make_rummy_player


def R(name: str = "500-rum", **options: object) -> RummyRules:
    r = canasta.rules(name, **options)
    assert isinstance(r, RummyRules)
    return r


def moves(state: RummyState) -> set[str]:
    return {str(m) for m in canasta.legal_moves(state)}


def cards(text: str) -> list[int]:
    return [int(c) for c in canasta.cards.parse_cards(text)] if text else []


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
    r = R("dealers-gambit")
    assert (r.jokers, r.wild_jokers, r.dealers_joker, r.pack_size) == (2, True, True, 54)
    s = canasta.new_game(r, seed=3)
    assert s.aside == (JOKER,) and len(s.stock) + len(s.pile) + sum(map(len, s.hands)) == 53
    assert canasta.view(s, 0)["dealers_joker"] == ["JK"]  # public
    problem = canasta.why_illegal(s, "take dealer JK")
    assert s.turn_seat != s.dealer and problem is not None and problem.code == "NOT_THE_DEALER"
    # the dealer takes it in his turn, before or after drawing; his turn goes on
    d = build_position(r, hands=["2C 3C", "5S 5D", "9H 9S 4D"], turn_seat=2)
    assert d.dealer == 1
    d = d.replace(dealer=2)
    assert "take dealer JK" in moves(d) and canasta.parse_move(d, "take dealer's JK") == canasta.parse_move(
        d, "take dealer JK")
    after = canasta.apply(d, "take dealer JK")
    assert after.aside == () and JOKER in after.hands[2] and after.phase == "draw" and after.turn_seat == 2
    assert "meld 9S 9H JK" not in moves(after) and "draw" in moves(after)
    problem = canasta.why_illegal(after, "take dealer JK")
    assert problem is not None and problem.code == "NO_DEALERS_JOKER"
    played = canasta.apply(canasta.apply(d, "draw"), "take dealer JK")
    assert "meld 9S 9H JK" in moves(played)


def test_dealers_joker_blocked_once_another_player_melds_a_joker() -> None:
    r = R("dealers-gambit")
    d = build_position(r, hands=["2C 3C", "5S 5D", "9H 9S 4D"], melds=[("7C 7D JK", 0)], turn_seat=2)
    d = d.replace(dealer=2)
    assert "take dealer JK" not in moves(d)
    problem = canasta.why_illegal(d, "take dealer JK")
    assert problem is not None and problem.code == "DEALERS_JOKER_BLOCKED"
    own = build_position(r, hands=["2C 3C", "5S 5D", "9H 9S 4D"], melds=[("7C 7D JK", 2)], turn_seat=2)
    assert "take dealer JK" in moves(own.replace(dealer=2))  # his own joker does not block him


def test_the_dealers_joker_left_aside_scores_nothing_and_changes_with_the_dealer() -> None:
    r = R("dealers-gambit", players=2)
    s = build_position(r, hands=["9S 9D 9H", "KC QC"], phase="play")
    end = canasta.apply(s, "meld 9S 9D 9H")
    assert end.last_hand["sides"][1]["lines"]["hand"] == -20 and end.hand_number == 2
    assert end.aside == (JOKER,) and end.dealer == (s.dealer + 1) % 2
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
    out = build_position(r, hands=["2C 3C 4S", "9S 9D 9H", "4D 5S"], phase="play")
    gone = canasta.apply(canasta.apply(out, "discard 2C"), "meld 9S 9H 9D")  # out of turn, and out
    assert gone.hand_number == 2 and gone.last_hand["went_out"] == 1
    quiet = canasta.apply(build_position(r, hands=["2C 3C 4S", "9S 8D", "4D 5S"], phase="play"), "discard 2C")
    assert quiet.phase == "draw"  # nobody could meld or call: no window


# --- the Rummy Master's Hand ------------------------------------------------------------------------------

def test_a_dealt_seven_card_straight_is_shown_at_once_for_500() -> None:
    r = R(masters_hand=500)
    s = build_position(r, hands=["6H 5H 7H 8H 9H TH JH", "9S 9D", "4D 5D"], scores=[20, 0, 0])
    assert "master 5H 6H 7H 8H 9H TH JH" in moves(s)
    assert str(canasta.parse_move(s, "master JH TH 9H 8H 7H 6H 5H")) == "master 5H 6H 7H 8H 9H TH JH"
    end = canasta.apply(s, "master 5H 6H 7H 8H 9H TH JH")
    assert end.last_hand["masters_hand"] and [x["total"] for x in end.last_hand["sides"]] == [500, 0, 0]
    assert end.result is not None and end.result["winner"] == 0 and end.result["scores"] == [520, 0, 0]
    drawn = canasta.apply(s, "draw")
    problem = canasta.why_illegal(drawn, "master 5H 6H 7H 8H 9H TH JH")
    assert problem is not None and problem.code == "MASTERS_HAND_FIRST_MOVE"
    later = canasta.apply(canasta.apply(drawn, "discard JH"), "draw")
    assert not any(m.startswith("master") for m in moves(later))


def test_masters_hand_needs_the_option_and_a_natural_straight() -> None:
    s = build_position(R(), hands=["5H 6H 7H 8H 9H TH JH", "9S 9D", "4D 5D"])
    problem = canasta.why_illegal(s, "master 5H 6H 7H 8H 9H TH JH")
    assert problem is not None and problem.code == "NO_MASTERS_HAND"
    r = R(masters_hand=500, jokers=1, players=2)
    w = build_position(r, hands=["5H 6H 7H 8H 9H TH JK 2C 3C 4C 5C 6C 7C", "9S 9D"])
    assert not any(m.startswith("master") for m in moves(w))  # no joker in a Master's Hand
    problem = canasta.why_illegal(w, "master 5H 6H 7H 8H 9H TH JK")
    assert problem is not None and problem.code == "NOT_A_STRAIGHT"
    two = build_position(r, hands=["5H 6H 7H 8H 9H TH JH QH 2C 3C 4C 5C 6C", "9S 9D"])
    assert {m for m in moves(two) if m.startswith("master")} == {"master 5H 6H 7H 8H 9H TH JH",
                                                                  "master 6H 7H 8H 9H TH JH QH"}


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
]


def pack_count(s: RummyState) -> Counter[int]:
    every = [*s.stock, *s.pile, *(c for h in s.hands for c in h), *(c for m in s.melds for c in m.cards)]
    every += list(getattr(s, "aside", ()))
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
    if jokers and (r.joker_sets or len(naturals) < 2):
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
    if c == JOKER and not (r.jokers and not r.joker_sets):
        return False
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
    aside = getattr(s, "aside", ())
    if s.phase == "claim":
        top = s.pile[-1]
        for m, name in zip(s.melds, _labels(s.melds), strict=True):
            if fits(r, m, top) and (r.lay_off_on == "any" or r.side_of(m.seats[0]) == r.side_of(seat)):
                out.add(f"rum {card_str(top)} on {name}")
        if r.melds_between_turns:
            out |= {text for text, _c, kind in _plays(s, hand) if kind == "meld"}
        return out | {"pass"}
    if aside and seat == s.dealer and s.phase in ("draw", "play") and not any(
            c == JOKER and who != s.dealer for m in s.melds for c, who in zip(m.cards, m.seats, strict=True)):
        out.add("take dealer JK")
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
        out |= _shows(s, hand)
        return out
    if s.phase != "play":
        return out
    uses = _plays(s, hand)
    if s.must_use >= 0:
        return out | {text for text, cs, kind in uses if s.must_use in cs
                      and (kind == "meld" or not r.take_only_for_new_meld)}
    out |= {text for text, _c, _k in uses}
    discard = set(hand) if r.discard_taken_same_turn else (set(hand) - set(s.taken)) or set(hand)
    out |= {f"discard {card_str(c)}" for c in discard}
    return out


def _shows(s: RummyState, hand: list[int]) -> set[str]:
    r = s.rules
    if not r.masters_hand or any(h.split()[0] == str(s.turn_seat) and h.split()[1] != "upcard"
                                                 for h in s.history):
        return set()
    out = set()
    for combo in set(combinations(sorted(set(hand) - {JOKER}), 7)):
        for text in meld_texts(r, combo):
            out.add("master" + text[4:])
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
def test_players_show_a_masters_hand_and_take_the_dealers_joker(name: str) -> None:
    from canasta.rummy.players import make_rummy_player

    player = make_rummy_player(name, 1)
    s = build_position(R(masters_hand=500), hands=["6H 5H 7H 8H 9H TH JH", "9S 9D", "4D 5D"])
    assert str(player.choose(canasta.view(s, 0), canasta.legal_moves(s))) == "master 5H 6H 7H 8H 9H TH JH"
    d = build_position(R("dealers-gambit"), hands=["2C 3C 7S 9D KH", "5S 5D 8C 4H JD", "9H 9S 4D JC QD"],
                       turn_seat=2).replace(dealer=2)
    assert str(player.choose(canasta.view(d, 2), canasta.legal_moves(d))) == "take dealer JK"
