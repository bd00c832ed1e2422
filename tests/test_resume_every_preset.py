"""Issue 43 item 2: every record and autosave of both families replays (``replay``, ``replay -v``,
``--resume``), over a game of every preset; a resumed game has the score pad of the earlier hands, the log
and this turn's undo."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.cli import main
from canasta.play import autosave
from canasta.play.session import Session
from canasta.presets import variant_names


def autosaved(name: str, path: Path) -> Any:
    """A game of preset ``name`` saved in ``path``: greedy play in every seat (the human's too) through the
    first hand, on into the second until the human has just made a move that can be taken back (or a
    while longer)."""
    rules = canasta.rules(name)
    game = Session.start(rules, ["human", *["greedy"] * (rules.players - 1)], 11)
    mine = game.computer("greedy", 0)
    for _ in range(5000):
        state = game.state
        move = mine.choose(game.seen(state, 0), game.legal(state)) if state.to_move == 0 else game.computer_move()
        game.play(move)
        if game.over(game.state):
            pytest.fail(f"{name}: the game ended before the test's point")
        if game.hands and (game.can_undo() or len(game.recorder.moves) > 4000):
            break
    assert game.hands, f"{name}: no hand finished"
    game.save_path = path  # saved once, not after every move: a lean test
    game.save()
    return game


@pytest.mark.parametrize("name", variant_names())
def test_every_preset_replays_and_resumes(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "save.json"
    game = autosaved(name, path)
    assert main(["replay", str(path)]) == 0
    assert main(["replay", "-v", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Hand 1 is over" in out and "the game is not finished" in out and "discard T" not in out
    again = autosave.resume(path)
    assert type(again) is type(game) and again.state.to_json() == game.state.to_json()
    assert again.hands == game.hands  # the score pad's hands
    assert [s.to_json() for s in again.undo_stack] == [s.to_json() for s in game.undo_stack]
    assert len(again.backlog) == len(json.loads(path.read_text())["moves"])  # the log's moves
    if game.can_undo():
        assert again.undo() == game.undo()


@pytest.mark.parametrize("name", ["classic", "500-rum"])
def test_the_app_resumes_with_the_pad_the_log_and_undo(name: str, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from textual.widgets import RichLog

    from canasta.tui.app import CanastaApp

    path = tmp_path / "save.json"
    game = autosaved(name, path)
    assert game.can_undo(), "the test wants a move to take back"
    moves = len(game.recorder.moves)
    app = CanastaApp(autosave.resume(path), delay=0)

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            log = "\n".join(strip.text for strip in app.screen.query_one("#log", RichLog).lines)
            assert "hand 1 is over" in log and "the game carries on here" in log
            await pilot.press("u")
            await pilot.pause()
            assert len(app.screen.session.recorder.moves) == moves - 1  # type: ignore[attr-defined]
            assert app.screen.session.hands == game.hands  # type: ignore[attr-defined]

    asyncio.run(go())
