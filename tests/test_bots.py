"""Computer players and the simulator (canasta.players, canasta.play.simulate)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import canasta
from bot_helpers import OTHERS, Spy
from canasta.canasta.moves import ASK, DRAW, YES, Move
from canasta.canasta.state import PLAY_PHASE, Turn
from canasta.play.record import play_game, replay
from canasta.play.simulate import seat_players, simulate
from canasta.players import Player, make_player, player_names
from canasta.positions import build_position


def test_registry() -> None:
    assert player_names() == ["greedy", "heuristic", "learned", "random", "search"]
    for name in player_names():
        bot = make_player(name, seed=1)
        assert isinstance(bot, Player) and bot.name == name
    with pytest.raises(ValueError, match="valid players: greedy, heuristic, learned, random, search"):
        make_player("alphazero")




@pytest.mark.parametrize("names", [("random",) * 4, ("greedy",) * 4, ("greedy", "random") * 2])
def test_bots_play_whole_games_with_legal_moves(names: tuple[str, ...]) -> None:
    spies = [Spy(make_player(n, seed=i)) for i, n in enumerate(names)]
    final, record = play_game(spies, seed=11)
    assert canasta.is_over(final) and record["result"] == canasta.outcome(final)
    assert sum(s.calls for s in spies) == len(record["moves"])


@pytest.mark.parametrize("variant", canasta.variant_names("canasta"))
def test_random_and_greedy_play_whole_games_of_every_preset(variant: str) -> None:
    rules = canasta.rules(variant)
    names = ["greedy" if seat % 2 == 0 else "random" for seat in range(rules.players)]
    spies = [Spy(make_player(n, seed=i)) for i, n in enumerate(names)]
    final, record = play_game(spies, rules, seed=3)
    assert canasta.is_over(final) and record["result"] == canasta.outcome(final)
    assert sum(s.calls for s in spies) == len(record["moves"])


def test_random_player_is_reproducible() -> None:
    games = [play_game([make_player("random", seed=s) for s in range(4)], seed=5)[1] for _ in range(2)]
    assert games[0] == games[1]
    other = play_game([make_player("random", seed=s + 10) for s in range(4)], seed=5)[1]
    assert other["moves"] != games[0]["moves"]


def test_greedy_beats_random() -> None:
    wins = 0
    for i in range(20):
        greedy_side = i % 2  # play both seatings
        names = [("greedy" if seat % 2 == greedy_side else "random") for seat in range(4)]
        bots = [make_player(n, seed=100 * i + seat) for seat, n in enumerate(names)]
        final, _ = play_game(bots, seed=i)
        wins += final.result is not None and final.result["winner"] == greedy_side
    assert wins >= 16, f"greedy won only {wins} of 20 games against random"


def _view_of(state: canasta.State) -> tuple[dict[str, Any], list[Move]]:
    return canasta.view(state, state.to_move), canasta.legal_moves(state)


def test_greedy_answers_yes_and_prefers_the_pile() -> None:
    bot = make_player("greedy")
    assert bot.choose({"phase": "answer"}, [YES, Move("no")]) == YES
    state = build_position(hands={**OTHERS, 0: "KH KD 5C 6D 7S 8H 9C JS QD 4H 4D"}, pile="9S 8D KS",
                           melds=[["AS AH AD"], []], scores=[0, 0])
    view, legal = _view_of(state)
    assert DRAW in legal and bot.choose(view, legal) == Move("take", 13, 2)


def test_greedy_melds_then_discards_a_safe_card() -> None:
    # Side 0 has opened (a meld of aces); the hand holds three queens, two wild cards, and singletons.
    state = build_position(hands={**OTHERS, 0: "QH QD QS 2C JK 5C 9D 7S 3S"}, pile="8D",
                           melds=[["AS AH AD"], ["9H 9S 9C"]], phase=PLAY_PHASE, turn=Turn(source="stock"))
    bot = make_player("greedy")
    view, legal = _view_of(state)
    move = bot.choose(view, legal)
    assert move == Move("meld", 12, 3)  # the natural queens, keeping the wild cards
    state = canasta.apply(state, move)
    view, legal = _view_of(state)
    assert bot.choose(view, legal) == Move("discard", 3)  # a black three first
    state = build_position(hands={**OTHERS, 0: "2C JK 5C 9D 7S 8S"}, pile="8D",
                           melds=[["AS AH AD"], ["9H 9S 9C"]], phase=PLAY_PHASE, turn=Turn(source="stock"))
    view, legal = _view_of(state)
    # 9s would feed the opponents' meld and wild cards are kept: the lowest other singleton goes.
    assert bot.choose(view, legal) in (Move("discard", 5), Move("discard", 7))


def test_greedy_asks_when_it_can_go_out() -> None:
    state = build_position(hands={**OTHERS, 0: "KH KD 5C 5D 5S"}, pile="8D",
                           melds=[["AS AH AD AC AS AH AD", "KS KC KS"], []], phase=PLAY_PHASE,
                           turn=Turn(source="stock"))
    view, legal = _view_of(state)
    assert ASK in legal and make_player("greedy").choose(view, legal) == ASK


# --- simulate ---------------------------------------------------------------------------------

def test_seat_players() -> None:
    rules = canasta.rules()
    assert seat_players(rules, "random") == ["random"] * 4
    assert seat_players(rules, ["greedy", "random"]) == ["greedy", "random", "greedy", "random"]
    assert seat_players(rules, ["a", "b", "c", "d"]) == ["a", "b", "c", "d"]
    with pytest.raises(ValueError, match="one per side"):
        seat_players(rules, ["a", "b", "c"])


def test_simulate_summary_and_reproducibility(tmp_path: Path) -> None:
    err = io.StringIO()
    one = simulate(6, seed=3, jobs=1, players=("greedy", "random"), progress="always", stream=err,
                   records_dir=tmp_path)
    two = simulate(6, seed=3, jobs=2, players=("greedy", "random"), progress=False)
    assert one["results"] == two["results"]
    for key in ("games", "hands", "moves", "moves_per_hand", "sides", "draws"):
        assert one[key] == two[key]
    assert one["games"] == 6 and one["hands"] >= 6 and one["moves"] > one["hands"]
    assert sum(s["wins"] for s in one["sides"]) + one["draws"] == 6
    assert one["sides"][0]["players"] == ["greedy", "greedy"] and one["sides"][1]["players"] == ["random", "random"]
    assert one["moves_per_second"] > 0 and one["hands_per_second"] > 0 and one["elapsed"] > 0
    assert "\r[" in err.getvalue() and "6/6 games" in err.getvalue()
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(1, 7)]
    for i, f in enumerate(files):
        record = json.loads(f.read_text())
        assert record["seed"] == 3 + i
        final = replay(record)
        assert final.result is not None and final.result["scores"] == one["results"][i]["scores"]
    assert simulate(6, seed=4, jobs=1, progress=False)["results"] != one["results"]


def test_simulate_progress_only_on_a_terminal() -> None:
    err = io.StringIO()  # not a TTY
    simulate(1, seed=1, progress=True, stream=err)
    assert err.getvalue() == ""


def test_simulate_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="valid players"):
        simulate(1, players=("greedy", "nobody"), progress=False)
    with pytest.raises(ValueError, match="valid variants"):
        simulate(1, variant="nope", progress=False)


@pytest.mark.parametrize("variant", ["classic", "samba", "modern-american", "hand-and-foot"])
def test_players_that_take_lean_views_decide_as_with_views(variant: str) -> None:
    """A player with ``lean_views`` plays the same moves from lean views (fields built when read) as from
    whole views, through a game's first 250 moves; the others keep whole views."""
    from canasta.canasta.view import lean_view, view

    lean = [name for name in player_names() if make_player(name, seed=0).lean_views]
    assert set(lean) == {"random", "greedy", "heuristic"}
    rules = canasta.rules(variant)
    for name in lean:
        games = []
        for looks in (view, lean_view):
            state = canasta.new_game(rules, seed=3)
            players = [make_player(name, seed=10 + seat) for seat in range(rules.players)]
            moves = []
            while not canasta.is_over(state) and len(moves) < 250:
                seat = state.to_move
                move = players[seat].choose(looks(state, seat), canasta.legal_moves(state))
                moves.append(str(move))
                state = canasta.apply(state, move)
            games.append(moves)
        assert games[0] == games[1] and len(games[0]) > 100, name
