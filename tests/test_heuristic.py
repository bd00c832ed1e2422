"""The heuristic player (canasta.players.heuristic): legal in every preset, view-only, reproducible,
stronger than the random and greedy players, and its rules of thumb in hand-built positions."""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from bot_helpers import OTHERS, Spy
from canasta.canasta.moves import ASK, DRAW, NO, YES, Move
from canasta.canasta.state import ANSWER_PHASE, PLAY_PHASE, Turn
from canasta.play.record import play_game
from canasta.players import Player, make_player
from canasta.players.heuristic import HeuristicPlayer, Memory, meld_everything, opening_plan
from canasta.positions import build_position


def _view_of(state: canasta.State) -> tuple[dict[str, Any], list[Move]]:
    return canasta.view(state, state.to_move), canasta.legal_moves(state)


def _play(state: canasta.State, bot: Player | None = None) -> Move:
    view, legal = _view_of(state)
    return (bot or make_player("heuristic")).choose(view, legal)


# --- whole games ------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_plays_every_preset_with_legal_moves_from_the_view_only(variant: str) -> None:
    rules = canasta.rules(variant)
    for seed, mix in ((1, False), (2, True)):
        names = ["heuristic" if not mix or seat % 2 == 0 else "random" for seat in range(rules.players)]
        spies = [Spy(make_player(n, seed=seed * 16 + i)) for i, n in enumerate(names)]
        final, record = play_game(spies, rules, seed=seed)
        assert canasta.is_over(final) and record["result"] == canasta.outcome(final)
        assert sum(s.calls for s in spies) == len(record["moves"])


def test_reproducible_from_a_seed() -> None:
    def game(bot_seed: int) -> list[str]:
        bots = [make_player("heuristic", seed=bot_seed + s) for s in range(4)]
        return list(play_game(bots, seed=9)[1]["moves"])

    assert game(1) == game(1)
    # The same deal with fresh players replays move for move: the memory starts empty.
    bots = [HeuristicPlayer(seed=s) for s in range(4)]
    first = play_game(bots, seed=4)[1]["moves"]
    assert play_game(bots, seed=4)[1]["moves"] == first


def test_a_whole_classic_game_ends() -> None:
    bots = [make_player("heuristic", seed=s) for s in range(4)]
    final, _record = play_game(bots, seed=21)
    assert canasta.is_over(final)  # speed is measured by benchmarks/players.py, not asserted here


def _wins(opponent: str, games: int, seed: int) -> int:
    wins = 0
    for i in range(games):
        side = i % 2  # both seatings
        names = ["heuristic" if seat % 2 == side else opponent for seat in range(4)]
        bots = [make_player(n, seed=(seed + i) * 16 + s) for s, n in enumerate(names)]
        final, _ = play_game(bots, seed=seed + i)
        wins += final.result is not None and final.result["winner"] == side
    return wins


def test_beats_random() -> None:
    wins = _wins("random", 30, seed=100)
    assert wins >= 28, f"heuristic won only {wins} of 30 games against random"


def test_beats_greedy_more_often_than_not() -> None:
    # A regression check only; the measured strength (1,000 games, intervals) is in docs/strength.md.
    wins = _wins("greedy", 40, seed=200)
    assert wins > 20, f"heuristic won only {wins} of 40 games against greedy"


def test_takes_a_big_unfrozen_pile() -> None:
    state = build_position(hands={**OTHERS, 0: "KH KD 5C 6D 7S 8H 9C JS QD 4H 4D"},
                           pile="9S 8D 6S 5D 4S JD AS KS", melds=[["AS AH AD"], ["QS QH QC"]])
    move = _play(state)
    assert DRAW in canasta.legal_moves(state) and move == Move("take", 13, 2)


def test_draws_rather_than_spend_a_joker_on_a_tiny_pile() -> None:
    state = build_position(hands={**OTHERS, 0: "KH 5C 6D 7S 8H 9C JS QD 4H 4D JK"}, pile="KS",
                           melds=[["AS AH AD"], ["QS QH QC"]])
    assert Move("take", 13, 1, 0, 1) in canasta.legal_moves(state)
    assert _play(state) == DRAW


SMALL_PILE_HAND = "KH KD 5C 6D 7S 8H 9C JS QD 4H 4D"


@pytest.mark.parametrize(("variant", "others", "takes"), [
    ("classic", OTHERS, True),  # one canasta goes out: the race makes a free meld worth a small pile
    ("two-player", {1: "5H 5S 6H 6S 7H 7D 8S 8C TH TD JH QH QS JD JC"}, False),  # two needed: keep the pair
])
def test_takes_a_small_pile_with_a_natural_pair_where_one_canasta_goes_out(
        variant: str, others: dict[int, str], takes: bool) -> None:
    state = build_position(canasta.rules(variant), hands={**others, 0: SMALL_PILE_HAND}, pile="6H KS",
                           melds=[["AS AH AD"], ["QS QH QC"]])
    assert DRAW in canasta.legal_moves(state) and Move("take", 13, 2) in canasta.legal_moves(state)
    assert _play(state) == (Move("take", 13, 2) if takes else DRAW)


@pytest.mark.parametrize(("variant", "others", "adds"), [
    ("classic", OTHERS, True), ("two-player", {1: "5H 5S 6H 6S 7H 7D 8S 8C TH TD JH QH QS JD JC"}, False)])
def test_a_two_makes_a_meld_of_five_one_short_before_the_first_canasta(
        variant: str, others: dict[int, str], adds: bool) -> None:
    state = build_position(canasta.rules(variant), hands={**others, 0: "2C 5C 7S 8S KH QD 4D"}, pile="6S 8D",
                           melds=[["9S 9H 9D 9C 9C"], ["QS QH QC"]], phase=PLAY_PHASE, turn=Turn(source="stock"))
    move = _play(state)
    assert (move == Move("meld", 9, 0, 1)) is adds and (move.action == "discard") is not adds


def test_takes_the_pile_to_open() -> None:
    # Neither side has opened; K K with the KS on top plus Q Q Q from the hand reach the 50 needed.
    state = build_position(hands={**OTHERS, 0: "KH KD QH QD QC 5C 6D 7S 9C JS 4D"},
                           pile="8D 6S 5S 4S JD KS")
    assert canasta.legal_moves(state) == [DRAW, Move("take", 13, 2)]
    bot = make_player("heuristic")
    assert _play(state, bot) == Move("take", 13, 2)
    while state.to_move == 0:  # the rest of the turn: complete the opening, then discard
        state = canasta.apply(state, _play(state, bot))
    assert state.opened == (True, False)
    assert sum(state.hands[0]) == 11 - 2 + 5 - 3 - 1  # less K K, plus the pile under the KS, less Q Q Q, the discard


OPPONENT_MELDS = ["9S 9H 9D", "8S 8D 8H", "7S 7C 7D", "JS JH JD", "5S 5D 5H"]
FREEZE_OTHERS = {1: "5H 6H 6S 7D TH TD JH QS QH KS KC", 2: "QD JD TC 6C 7C 8D 9H 4S 4C AH KH",
                 3: "AC KD 5D 6D TS JS 9D 4H 7S 3C 3C"}


@pytest.mark.parametrize(("pile", "freezes"), [("4S 6S 5S 4D KD KS QS TS 8C 6C", True),
                                               ("4S 6S 2D 5S 4D KD KS QS TS 8C 6C", False)])
def test_freezes_a_big_pile_with_a_two(pile: str, freezes: bool) -> None:
    # The next opponent's side has melded most of our ranks: on an unfrozen pile of ten cards any of
    # them would hand it over, so a two freezes it. A pile that is frozen already needs no second two.
    state = build_position(hands={**FREEZE_OTHERS, 0: "9C 8H 7H JC 2C 5C QC"}, pile=pile,
                           melds=[["AS AH AD"], OPPONENT_MELDS], phase=PLAY_PHASE, turn=Turn(source="stock"))
    assert canasta.view(state, 0)["pile_frozen"] is not freezes
    move = _play(state)
    assert move.action == "discard" and (move.rank == 2) is freezes


def test_does_not_feed_the_next_opponents_meld() -> None:
    # Side 1 (seat 1 is next) has a meld of 9s and the pile is not frozen: a 9 would give them the pile.
    state = build_position(hands={**OTHERS, 0: "9D 5C 7S 8S KH KD QD"}, pile="6S 8D JS TS",
                           melds=[["AS AH AD"], ["9H 9S 9C"]], phase=PLAY_PHASE, turn=Turn(source="stock"))
    move = _play(state)
    assert move.action == "discard" and move.rank != 9


def test_prefers_a_black_three_as_a_stop_card() -> None:
    state = build_position(hands={**OTHERS, 0: "3S 5C 7S 8S KH KD QD"}, pile="6S 8D JS TS 4D",
                           melds=[["AS AH AD"], ["9H 9S 9C"]], phase=PLAY_PHASE, turn=Turn(source="stock"))
    assert _play(state) == Move("discard", 3)


def test_opens_with_the_fewest_cards_and_keeps_wild_cards() -> None:
    # 50 to open: A A A (60) beats K K 2 (40) + anything, and the joker stays in the hand.
    state = build_position(hands={**OTHERS, 0: "AH AD AC KH KD 5C 6D 7S 9C JK QD"}, pile="4S 8S",
                           phase=PLAY_PHASE, turn=Turn(source="stock"))
    assert _play(state) == Move("meld", 14, 3)
    rules = canasta.rules()
    rc = [0] * 15
    for rank, n in ((14, 2), (13, 3), (12, 2), (5, 1), (2, 1), (0, 1)):
        rc[rank] = n
    plan = opening_plan(rules, rc, {}, 90, 2)
    assert plan is not None and sum(m.cards for m in plan) <= 6
    assert opening_plan(rules, rc, {}, 500, 2) is None


def test_asks_before_going_out_and_answers_the_partner() -> None:
    state = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S"}, pile="8D",
                           melds=[["AS AH AD AC AS AH AD", "KS KC KS"], []], phase=PLAY_PHASE,
                           turn=Turn(source="stock"))
    assert ASK in canasta.legal_moves(state) and _play(state) == ASK
    asked = canasta.apply(state, "ask")
    assert asked.phase == ANSWER_PHASE and asked.to_move == 2
    # Seat 2 holds a small hand: yes.
    small = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S", 2: "4S 4C"}, pile="8D",
                           melds=[["AS AH AD AC AS AH AD", "KS KC KS"], []], phase=ANSWER_PHASE,
                           turn=Turn(source="stock", permission="asked"))
    assert _play(small) == YES
    # Seat 2 holds a lot it could still meld (three queens, jokers): no.
    big = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S", 2: "QH QS QD JK JK 9H 9D TC TD 6C 7C"},
                         pile="8D", melds=[["AS AH AD AC AS AH AD", "KS KC KS"], []], phase=ANSWER_PHASE,
                         turn=Turn(source="stock", permission="asked"))
    assert _play(big) == NO
    after_yes = canasta.apply(asked, "yes")
    bot = make_player("heuristic")
    while after_yes.hand_number == 1:
        after_yes = canasta.apply(after_yes, _play(after_yes, bot))
    assert after_yes.last_hand is not None and after_yes.last_hand[0]["went_out"]


def test_says_why_in_reason_codes() -> None:
    """A hint says why in the player's own terms (codes the browser translates): asking to go out, the
    partner's "no" for the points he still holds, and after that "no" the partner needing to meld first."""
    melds = [["AS AH AD AC AS AH AD", "KS KC KS"], []]
    bot = make_player("heuristic")
    ready = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S"}, pile="8D", melds=melds, phase=PLAY_PHASE,
                           turn=Turn(source="stock"))
    assert _play(ready, bot) == ASK and bot.last_why == (("may_go_out", 0),)
    big = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S", 2: "QH QS QD JK JK 9H 9D TC TD 6C 7C"},
                         pile="8D", melds=melds, phase=ANSWER_PHASE, turn=Turn(source="stock", permission="asked"))
    assert _play(big, bot) == NO
    assert bot.last_why == (("points_to_meld", 3 * 10 + 2 * 50),)  # the three queens and the two jokers
    refused = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S"}, pile="8D", melds=melds, phase=PLAY_PHASE,
                             turn=Turn(source="stock", permission="no"))
    move = _play(refused, bot)
    assert move != ASK and ("partner_needs_to_meld", 0) in bot.last_why
    drawn = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S"}, pile="8D", melds=melds)
    _play(drawn, bot)
    assert bot.last_why == ()  # a plain draw: nothing to say


def test_does_not_go_out_to_lose_the_game_and_goes_out_to_win_it() -> None:
    """Going out ends the game when a side reaches the target: not when that hands the game to the
    opponents (the player plays on and builds instead), always when it wins it."""
    melds = [["AS AH AD AC AS AH AD", "KS KC KS"], ["JS JC JH", "9C 9C 2H"]]
    hand = {**OTHERS, 0: "KH KD 5C 5D 5S"}
    threes = [[], ["3H", "3D", "3H", "3D"]]  # 800 for the opponents: with 4,800 they reach 5,000 whoever goes out
    losing = build_position(hands=hand, pile="8D", melds=melds, phase=PLAY_PHASE, turn=Turn(source="stock"),
                            scores=[2000, 4800], red_threes=threes)
    move = _play(losing)
    assert move != ASK and move.action == "meld" and move.cards <= 3  # lays down what it can, keeps two
    level = build_position(hands=hand, pile="8D", melds=melds, phase=PLAY_PHASE, turn=Turn(source="stock"),
                           scores=[2000, 2000], red_threes=threes)
    assert _play(level) == ASK  # the game goes on either way: out as usual
    # The partner asks holding much it could still meld (a "no" in the test above), but "yes" wins the game.
    winning = build_position(hands={**hand, 2: "QH QS QD JK JK 9H 9D TC TD 6C 7C"}, pile="8D", melds=melds,
                             phase=ANSWER_PHASE, turn=Turn(source="stock", permission="asked"), scores=[4800, 2000],
                             red_threes=threes)
    assert _play(winning) == YES
    losing_answer = build_position(hands={**hand, 2: "4S 4C"}, pile="8D", melds=melds, phase=ANSWER_PHASE,
                                   turn=Turn(source="stock", permission="asked"), scores=[2000, 4800],
                                   red_threes=threes)
    assert _play(losing_answer) == NO


def test_meld_everything_finishes_canastas_with_spare_wild_cards() -> None:
    rules = canasta.rules()
    rc = [0] * 15
    rc[9], rc[2], rc[0] = 2, 2, 1
    result = meld_everything(rules, rc, {13: (5, 0, 5)})
    assert result is not None
    moves, points, canastas = result
    assert canastas == 1 and points == 20 + 40 + 50
    assert sum(m.cards for m in moves) == 5
    rc[4] = 1  # a lone 4 cannot be melded
    assert meld_everything(rules, rc, {13: (5, 0, 5)}) is None


def test_memory_tracks_pile_takes() -> None:
    mem = Memory()
    view = {"hand_number": 1, "players": 4, "pile": [],
            "history": ["3 upcard 5H", "0 draw", "0 discard 9", "1 draw", "1 discard 8", "2 take 8 8"]}
    mem.update(view, False)
    assert mem.known[2] == {5: 1, 9: 1}
    assert mem.declined[1] == {9: 0} and mem.discarded[1] == {8: 0} and mem.pile == []


# --- the Samba family ---------------------------------------------------------------------------

def _samba(hand: str, melds: list[str], pile: str = "5D") -> canasta.State:
    """Seat 0 to play (after its draw) in Samba, its side open with ``melds``."""
    return build_position(canasta.rules("samba"), hands={**OTHERS, 0: hand}, pile=pile, seed=1,
                          opened=[True, False], melds=[melds, []], phase=PLAY_PHASE)


def test_samba_lengthens_a_sequence_and_keeps_a_short_run_in_the_hand() -> None:
    state = _samba("7H 8C 9C TC JD JD KS 4S", ["QS QS QH", "4H 5H 6H"])
    move = _play(state)
    assert move.action == "meld" and str(move) == "meld 7H on seqH"
    state = canasta.apply(state, move)
    assert all(str(m) != "meld 8C 9C TC on seqC" or _play(state) != m for m in canasta.legal_moves(state))
    assert _play(state).action == "discard"


def test_samba_goes_out_with_a_samba_as_one_of_its_canastas() -> None:
    state = _samba("QH QD QC 9D", ["KS KS KH KH KD KD KC", "4S 5S 6S 7S 8S 9S TS"])
    assert _play(state) == ASK


def test_pair_chance_reads_the_hand_not_a_random_draw() -> None:
    """The chance that the next opponent holds a pair (the danger of a discard, docs/players.md)."""
    from canasta.players.heuristic import HELD_WEIGHTS, _Turn

    chance = _Turn.pair_chance
    p, hidden = 6 / 80, 5
    binomial_pair = 1 - (1 - p) ** hidden - hidden * p * (1 - p) ** (hidden - 1)
    plain = dict.fromkeys(HELD_WEIGHTS, 1.0)
    assert chance(p, 0, hidden, True, False, False, False, plain)[0] == pytest.approx(binomial_pair)
    assert chance(p, 2, hidden, True, False, False, False) == (1.0, 0.0)  # both copies seen going in
    kept = chance(p, 0, hidden, True, False, False, False)[0]
    assert kept > 2 * binomial_pair  # a small hand after opening is mostly pairs
    assert chance(p, 0, hidden, True, True, False, False)[0] < kept / 20  # it threw that rank
    assert chance(p, 0, hidden, True, False, False, True)[0] < kept / 5  # its side melded the rank
    assert chance(p, 1, hidden, True, False, False, False)[0] > kept  # one copy known: one more is a pair
    assert chance(p, 0, 0, True, False, False, False) == (0.0, 0.0)  # nothing hidden
