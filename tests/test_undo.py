"""Issue 17 item 1: undo of what is not final in this turn, in the session, the line mode and the app."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

import canasta
from canasta.canasta.state import Turn
from canasta.lineplay import LineGame
from canasta.play.record import Recorder, replay
from canasta.play.session import Session
from canasta.positions import build_position


def table_session(tmp_path: Path, state: canasta.State | None = None) -> Session:
    """North is human and to move, after his draw, his side opened; a session on a built position (a record
    starts at a game's beginning, so the recorder's state is set by hand here)."""
    seats = ["human", "easy", "easy", "easy"]
    s = Session.start(canasta.rules("classic"), seats, 5, tmp_path / "save.json")
    if state is None:
        state = build_position(hands={0: "KH KD KC 9C 9D 9H 5S 6S"}, melds=[["AS AH AD"], ["QS QH QD"]],
                               phase="play", turn=Turn(source="stock"), seed=5)
    s.recorder.state = state
    return s


def test_melds_are_taken_back_one_at_a_time_and_the_state_is_as_before(tmp_path: Path) -> None:
    s = table_session(tmp_path)
    start = s.state
    s.play(canasta.parse_move(s.state, "meld K K K"))
    middle = s.state
    s.play(canasta.parse_move(s.state, "meld 9 9 9"))
    assert s.can_undo()
    assert s.undo() == "meld 9 9 9" and s.state == middle
    assert s.undo() == "meld K K K" and s.state == start
    assert not s.can_undo()
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()


def test_a_discard_a_draw_and_a_computer_move_are_final(tmp_path: Path) -> None:
    s = table_session(tmp_path)
    s.play(canasta.parse_move(s.state, "meld K K K"))
    s.play(canasta.parse_move(s.state, "discard 5S"))
    assert not s.can_undo()  # the turn has passed
    game = Session.start(canasta.rules("classic"), ["human", "easy", "easy", "easy"], 5, tmp_path / "g.json")
    while game.state.to_move != 0:
        game.play(game.computer_move())
    assert not game.can_undo()  # nobody's melds but one's own
    game.play(canasta.parse_move(game.state, "draw"))
    assert not game.can_undo()  # the card drawn has been seen


def test_staged_opening_melds_come_back_and_the_record_replays(tmp_path: Path) -> None:
    game = Session.start(canasta.rules("classic"), ["human", "easy", "easy", "easy"], 5, tmp_path / "save.json")
    while game.state.to_move != 0:
        game.play(game.computer_move())
    game.play(canasta.parse_move(game.state, "draw"))
    staged = [m for m in canasta.legal_moves(game.state) if m.action == "meld"]
    assert staged, "seed 5 gives North a meld to stage"
    before = game.state
    game.play(staged[0])
    assert game.state.stage is not None
    game.undo()
    assert game.state == before and game.state.stage is None
    saved = Recorder.resume(__import__("json").loads((tmp_path / "save.json").read_text()))
    assert saved.state == before and replay(saved.record()) == before  # the save forgot the move too


def test_line_mode_undo(tmp_path: Path) -> None:
    s = table_session(tmp_path)
    out = io.StringIO()
    game = LineGame(s, 0, io.StringIO("meld K K K\nundo\nundo\nquit\n"), out)
    game.run()
    text = out.getvalue()
    assert "Taken back: meld K K K" in text and "nothing to undo" in text
    assert s.state.melds[0].keys() == {14}  # only the aces: the kings went back


def test_app_undo_key(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from canasta.tui.app import CanastaApp, TableScreen

    s = table_session(tmp_path)
    start = s.state
    app = CanastaApp(s, delay=0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            screen.attempt("meld K K K")
            await pilot.pause()
            assert s.state != start
            await pilot.press("u")
            await pilot.pause()
            assert s.state == start
            assert "Taken back" in str(screen.query_one("#message").render())
            await pilot.press("u")
            await pilot.pause()
            assert "final" in str(screen.query_one("#message").render())

    asyncio.run(go())
