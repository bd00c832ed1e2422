"""Issue 43 item 1: nothing lost. The autosave is written only by a game in progress, whole or not at all,
and an unfinished game is never replaced without asking: a test for each path that could overwrite it (the
start screen, quitting, a crash, two programs at once)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.cli import main
from canasta.play import autosave
from canasta.play.seated import default_save_path
from canasta.play.session import Session


def saved_game(path: Path, moves: int = 3) -> str:
    """A Classic game with ``moves`` moves saved in ``path``; its text."""
    game = Session.start(canasta.rules("classic"), ["human", "easy", "easy", "easy"], 5, path)
    for _ in range(moves):
        game.play(game.legal(game.state)[0])
    return path.read_text()


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str,
         stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_new_game_writes_nothing_before_its_first_move(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    game = Session.start(canasta.rules("classic"), ["human", "easy", "easy", "easy"], 5, path)
    assert not path.exists() and not game.in_progress()
    game.play(game.legal(game.state)[0])
    assert json.loads(path.read_text())["moves"] and game.in_progress()


def test_saved_game_describes_only_a_game_worth_asking_about(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    assert autosave.saved_game(path) is None
    saved_game(path, moves=2)
    assert str(autosave.saved_game(path)).endswith("hand 1, 2 moves") and "Classic" in str(autosave.saved_game(path))
    path.write_text("{not json")
    assert "not a game that can be carried on" in str(autosave.saved_game(path))


# --- quitting and the end of the input -------------------------------------------------------------

def test_line_mode_asks_before_replacing_and_keeps_the_game_at_the_end_of_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True)
    before = saved_game(path)
    status, out, _ = play(monkeypatch, capsys, "--seed", "1", "--opponents", "medium", stdin="")
    assert status == 0 and "A game in progress is saved in" in out and "hand 1, 3 moves" in out
    assert "Nothing changed" in out and path.read_text() == before
    # quitting a new game before its first move keeps the saved one too, and says nothing about saving
    status, out, _ = play(monkeypatch, capsys, "--seed", "5", stdin="n\nquit\n")
    assert status == 0 and path.read_text() == before and "The game is saved" not in out


def test_line_mode_continues_the_saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True)
    before = json.loads(saved_game(path))
    status, out, _ = play(monkeypatch, capsys, "--variant", "samba", stdin="c\nquit\n")
    assert status == 0 and "Canasta (classic)" in out and "Samba" not in out
    assert json.loads(path.read_text())["moves"][:3] == before["moves"]
    assert "The game is saved; carry on with: canasta play --resume" in out


# --- a crash ------------------------------------------------------------------------------------------

def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "save.json"
    before = saved_game(path)
    game = Session.resume(path)

    def crash(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        game.play(game.legal(game.state)[0])
    assert path.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_save_to_a_directory_is_refused_without_a_stray_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = play(monkeypatch, capsys, "--plain", "--save", str(tmp_path), stdin="draw\nquit\n")
    assert status == 2 and "is a directory" in err and list(tmp_path.iterdir()) == []
    with pytest.raises(IsADirectoryError):
        autosave.write(tmp_path, "{}")
    assert list(tmp_path.iterdir()) == []


def test_a_crashing_app_leaves_the_last_move_saved(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from canasta.tui.app import CanastaApp

    path = tmp_path / "save.json"
    before = saved_game(path)
    game = Session.resume(path)
    while not game.computer_to_move():  # the app starts with a computer player's move
        game.play(game.legal(game.state)[0])
    before = path.read_text()

    def broken() -> Any:
        raise RuntimeError("a bug in a computer player")

    game.computer_move = broken  # type: ignore[method-assign]
    app = CanastaApp(game, delay=0)

    async def go() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()

    with contextlib.suppress(Exception):  # whichever way Textual reports the worker's error
        asyncio.run(go())
    assert app.return_code == 1 and path.read_text() == before  # the app stopped on the error


# --- the start screen ------------------------------------------------------------------------------

def test_the_start_screen_asks_first_and_leaving_it_changes_nothing(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from canasta.tui.app import CanastaApp
    from canasta.tui.screens import SavedGameScreen, StartScreen

    path = tmp_path / "save.json"
    before = saved_game(path)
    app = CanastaApp(None, save_path=path, saved=autosave.saved_game(path), delay=0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SavedGameScreen)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            await pilot.press("ctrl+q")

    asyncio.run(go())
    assert path.read_text() == before and app.session is None


def test_the_start_screen_continues_the_saved_game(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from canasta.tui.app import CanastaApp, TableScreen

    path = tmp_path / "save.json"
    before = json.loads(saved_game(path))
    app = CanastaApp(None, save_path=path, saved=autosave.saved_game(path), delay=0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.click("#keep")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            await pilot.press("q")

    asyncio.run(go())
    assert app.session is not None and app.session.recorder.moves[:3] == before["moves"]


# --- two programs at once ------------------------------------------------------------------------------

def test_a_second_program_saving_to_the_same_file_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "save.json"
    before = saved_game(path)
    with open(tmp_path / "save.json.lock", "ab") as other:  # the first program's lock
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        status, out, err = play(monkeypatch, capsys, "--save", str(path), stdin="n\ndraw\nquit\n")
        assert status == 1 and "another canasta game is being saved to" in err and out == ""
        status, _, err = play(monkeypatch, capsys, "--resume", str(path), stdin="draw\nquit\n")
        assert status == 1 and "another canasta game" in err
    assert path.read_text() == before
    try:
        autosave.claim(path)  # free again: this process takes it, and may claim it twice
        autosave.claim(path)
    finally:
        autosave.release(path)
