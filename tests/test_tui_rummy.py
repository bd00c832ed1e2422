"""The rummy family in the Textual app (issue 18 item 4), driven by Textual's pilot: hands played by keys
to their end, the breakdown, a new hand, the end of the game, and ``canasta play`` opening the app."""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

import canasta
from canasta.players.rummy import make_rummy_player
from canasta.rummy.session import RummyGame, parse_rummy_seats
from canasta.tui.app import CanastaApp
from canasta.tui.cards import sort_hand
from canasta.tui.hand import HandView
from canasta.tui.rummy_screen import RummyTableScreen
from canasta.tui.rummy_table import owner
from canasta.tui.screens import GameOverScreen, HandEndScreen, HelpScreen


def drive(app: CanastaApp, script: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int] = (100, 40)) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


async def settle(pilot: Pilot[None], app: CanastaApp) -> None:
    """Until the computer players have moved and the human (or a modal screen) is waited for: waits on the
    worker, never on the clock."""
    for _ in range(5000):
        await pilot.pause()
        await app.workers.wait_for_complete()
        screen = app.screen
        if not isinstance(screen, RummyTableScreen) or screen.human_to_move():
            await pilot.pause()
            return
    raise AssertionError("the computer players did not finish")


def rendered(renderable: Any) -> str:
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def point_at(pilot: Pilot[None], widget: HandView, card: str) -> None:
    """Move ``widget``'s cursor onto ``card`` with the arrow keys (the widget focused)."""
    widget.focus()
    await pilot.pause()
    target = widget.cards.index(card)
    while widget.cursor != target:
        await pilot.press("right" if widget.cursor < target else "left")


async def select(pilot: Pilot[None], screen: RummyTableScreen, cards: list[str]) -> None:
    hand = screen.query_one("#hand", HandView)
    hand.focus()
    await pilot.press("escape")
    for card in cards:
        await point_at(pilot, hand, card)
        await pilot.press("space")


async def play_by_keys(pilot: Pilot[None], screen: RummyTableScreen, move: str) -> None:
    """Play a move in notation the way a person would: keys on the hand, the pile and the move list."""
    words = move.split()
    if words[0] == "draw":
        await pilot.press("d")
    elif words[0] == "take":
        await point_at(pilot, screen.query_one("#pile", HandView), words[1])
        await pilot.press("t")
    elif words[0] == "meld":
        await select(pilot, screen, words[1:])
        await pilot.press("m")
    elif words[0] == "lay":
        await select(pilot, screen, [words[1]])
        await pilot.press("l")
        moves = screen.query_one("#moves", OptionList)
        if moves.has_focus:  # several melds take the card: the list offers them
            moves.highlighted = moves.get_option_index(move)
            await pilot.press("enter")
    elif words[0] == "discard":
        await select(pilot, screen, [words[1]])
        await pilot.press("x")
    else:  # pass: from the list of legal moves
        moves = screen.query_one("#moves", OptionList)
        moves.focus()
        moves.highlighted = moves.get_option_index(move)
        await pilot.press("enter")
    await pilot.pause()


async def play_hand(pilot: Pilot[None], app: CanastaApp, seed: int = 0) -> HandEndScreen:
    """The human seat plays greedy's moves by keys until the hand ends."""
    chooser = make_rummy_player("greedy", seed)
    for _ in range(400):
        await settle(pilot, app)
        screen = app.screen
        if isinstance(screen, HandEndScreen):
            return screen
        assert isinstance(screen, RummyTableScreen)
        state = screen.session.state
        before = len(screen.session.record()["moves"])
        move = str(chooser.choose(canasta.view(state, screen.seat), canasta.legal_moves(state)))  # type: ignore[arg-type]
        await play_by_keys(pilot, screen, move)
        moves = screen.session.record()["moves"]
        # the move went in (the computer players may have moved after it already)
        assert len(moves) > before and moves[before] == f"{screen.seat} {move}", (move, text_of(screen, "#message"))
    raise AssertionError("the hand did not end")


def game(name: str, seats: list[str], seed: int = 3, **options: Any) -> RummyGame:
    return RummyGame.start(canasta.rules(name, **options), seats, seed)


def test_500_rum_hand_by_keys_to_its_end_then_the_next_hand() -> None:
    app = CanastaApp(game("500-rum", ["human", "easy", "medium"]), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, RummyTableScreen)
        v = canasta.view(table.session.state, 0)
        assert "500 Rum to 500 · hand 1" in text_of(table, "#status")
        assert table.query_one("#pile", HandView).cards == v["pile"]  # the whole spread pile
        assert sorted(table.query_one("#hand", HandView).cards) == sorted(v["hand"])
        end = await play_hand(pilot, app)
        shown, pad = end.breakdown, rendered(end.pad)
        summary = table.session.state.last_hand
        assert summary is not None and summary["hand"] == 1
        assert "shown (melds and lay-offs)" in shown and "left in hand" in shown and "net" in shown
        assert "Score pad" in pad and end.footer == "Enter: the next hand"
        for side in summary["sides"]:
            assert f"{'net':<38} {side['total']:>6}" in shown and f" {side['total']} " in pad
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, RummyTableScreen) and table.session.state.hand_number == 2
        assert "hand 2" in text_of(table, "#status")

    drive(app, script)


def test_basic_rummy_hand_by_keys_shows_winner_takes_all() -> None:
    app = CanastaApp(game("basic-rummy", ["human", "hard"], seed=8), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, RummyTableScreen)
        pile = canasta.view(table.session.state, 0)["pile"]
        assert table.query_one("#pile", HandView).cards == pile[-1:]  # Basic Rummy: the top card only
        end = await play_hand(pilot, app, seed=1)
        summary = table.session.state.last_hand
        assert summary is not None
        shown = end.breakdown
        if summary["stalemate"]:
            assert "stalemate" in shown
        else:
            assert "went out" in shown and "the others' hands (winner takes all)" in shown
            assert ("rummy!" in shown) == summary["rummy"]
            assert ("going rummy (doubled)" in shown) == ("going_rummy" in str(summary["sides"]))

    drive(app, script)


def test_game_over_and_play_again() -> None:
    app = CanastaApp(game("500-rum", ["easy", "human"], seed=2, players=2, target=1), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, RummyTableScreen)
        await play_hand(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        assert table.session.state.result is not None  # a net of 1 ends this deal's game
        assert isinstance(app.screen, GameOverScreen)
        assert "The game is over after 1 hand:" in str(app.screen.query_one("#result", Static).render())
        first = table.session
        await pilot.press("a")
        await settle(pilot, app)
        assert table.session is not first and table.session.state.hand_number == 1
        assert table.session.seed == 3  # the next seed

    drive(app, script)


def test_refusals_hint_help_sort_and_lay_off_choice() -> None:
    app = CanastaApp(game("500-rum", ["human", "easy", "easy"], seed=5), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, RummyTableScreen)
        await pilot.press("x")  # discard before drawing
        assert "refused (MUST_DRAW_FIRST)" in text_of(table, "#message")
        before = table.session.state
        await select(pilot, table, table.query_one("#hand", HandView).cards[:2])
        await pilot.press("m")
        assert "three or more" in text_of(table, "#message") and table.session.state is before
        await pilot.press("h")
        hint = text_of(table, "#message")
        assert hint.startswith("Hint (medium): ")
        moves = table.query_one("#moves", OptionList)
        assert moves.highlighted is not None
        assert moves.get_option_at_index(moves.highlighted).id == str(table.session.hint("medium")[0])
        hand = table.query_one("#hand", HandView)
        by_suit = list(hand.cards)
        await pilot.press("s")
        assert hand.cards == sort_hand(by_suit) and "sorted by rank" in text_of(table, "#message")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, RummyTableScreen)

    drive(app, script)


def test_melds_grouped_by_owner_with_points() -> None:
    meld = {"cards": ["5H", "6H", "7H", "8H"], "seats": [1, 1, 1, 0], "points": [5, 5, 5, 5]}
    assert owner(meld) == 1
    assert owner({"cards": ["5H", "5S", "5D"], "seats": [2, 0, 2], "points": [5, 5, 5]}) == 2
    from canasta.tui.rummy_table import melds

    v = {"players": 3, "seat": 0, "melds": [{"kind": "run", **meld}]}
    text = melds(v).plain  # type: ignore[arg-type]
    assert "Player 1 (you): 5 on the table" in text and "Player 2: 15 on the table" in text
    assert "8♥(1)" in text and "Player 3: 0 on the table · no melds" in text


def test_seats_are_checked() -> None:
    assert parse_rummy_seats("human, hard, random", 3) == ["human", "hard", "random"]
    for bad, needle in (("human,human", "exactly one"), ("human,minimax", "unknown player"), ("human", "one name per")):
        with pytest.raises(ValueError, match=needle):
            parse_rummy_seats(bad, 2)


def test_canasta_play_opens_the_app_for_rummy_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from canasta import cli

    opened: list[Any] = []
    monkeypatch.setattr(CanastaApp, "run", lambda self: opened.append(self.session))

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("sys.stdout", Terminal())
    save = tmp_path / "rummy.json"
    assert cli.main(["play", "--variant", "500-rum", "--seats", "hard,human,easy", "--seed", "4",
                     "--save", str(save)]) == 0
    first = opened[-1]
    assert isinstance(first, RummyGame) and first.seats == ["hard", "human", "easy"] and first.humans == [1]
    first.play(first.legal(first.state)[0])  # the app was not run: a move as if it had been
    record = json.loads(save.read_text())
    assert record["rules"]["variant"] == "500-rum" and record["players"] == ["hard", "human", "easy"]
    assert cli.main(["play", "--resume", str(save)]) == 0
    again = opened[-1]
    assert isinstance(again, RummyGame) and again.state.to_json() == first.state.to_json()
    assert cli.main(["play", "--variant", "basic-rummy", "--seats", "human,deep-blue"]) == 2


def test_the_start_screen_starts_a_rummy_game(tmp_path: Path) -> None:
    from textual.widgets import Select

    from canasta.tui.screens import StartScreen

    app = CanastaApp(None, save_path=tmp_path / "save.json", seed=3, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        variants = screen.query_one("#variant", Select)
        assert [value for _, value in variants._options] == canasta.variant_names()
        variants.value = "basic-rummy"
        await pilot.pause()
        assert "Basic Rummy" in text_of(screen, "#summary") and "Target 100" in text_of(screen, "#summary")
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert isinstance(app.screen, RummyTableScreen) and app.screen.session.rules.name == "basic-rummy"

    drive(app, script)


def test_undo_takes_back_this_turns_meld() -> None:
    app = CanastaApp(game("500-rum", ["human", "greedy"], seed=5, players=2), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, RummyTableScreen)
        await pilot.press("u")
        assert "nothing to undo" in text_of(table, "#message").lower()
        rng = random.Random(5)
        for _ in range(400):  # the human plays anything but a meld until one is legal
            await settle(pilot, app)
            legal = canasta.legal_moves(table.session.state)
            melds = [m for m in legal if m.action == "meld"]
            if melds:
                break
            table.attempt(str(rng.choice([m for m in legal if m.action not in ("meld", "lay")] or legal)))
        else:
            raise AssertionError("no meld came up")
        before = table.session.state
        table.attempt(str(melds[0]))
        await pilot.pause()
        assert table.session.state is not before
        await pilot.press("u")
        await pilot.pause()
        assert table.session.state is before and text_of(table, "#message").startswith("Taken back: ")

    drive(app, script)
