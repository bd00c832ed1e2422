"""Issue 43 item 5: how to play every preset in plain words, from the rules object (the help's first part)."""

from __future__ import annotations

import pytest

import canasta
from canasta.presets import variant_names
from canasta.text.how_to_play import how_to_play


@pytest.mark.parametrize("name", variant_names())
def test_every_preset_has_a_how_to_play(name: str) -> None:
    text = how_to_play(canasta.rules(name))
    for part in ("# How to play", "## The aim", "## The deal", "## Your turn"):
        assert part in text
    assert "None" not in text and "{" not in text


def test_the_text_follows_the_rules_object() -> None:
    classic = how_to_play(canasta.rules("classic"))
    assert "11 cards" in classic and "reach 5000" in classic and "50 from 0, 90 from 1500, 120 from 3000" in classic
    assert "reach 7500" in how_to_play(canasta.rules("classic", target=7500))
    assert "the foot" in how_to_play(canasta.rules("hand-and-foot"))
    assert "Threes are not laid out" in how_to_play(canasta.rules("hand-and-foot"))
    assert "sequences of one suit" in how_to_play(canasta.rules("samba"))
    assert "any card of it with all the cards above it" in how_to_play(canasta.rules("500-rum"))
    assert "top card of the discard pile" in how_to_play(canasta.rules("basic-rummy"))


def test_the_help_screen_starts_with_how_to_play(tmp_path: object) -> None:
    pytest.importorskip("textual")
    import asyncio

    from textual.widgets import Markdown

    from canasta.play.session import Session
    from canasta.tui.app import CanastaApp
    from canasta.tui.screens import HelpScreen

    app = CanastaApp(Session.start(canasta.rules("samba"), ["human", "easy", "easy", "easy"], 5), delay=0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            source = app.screen.query_one(Markdown).source
            assert source.startswith("# How to play Samba") and source.index("## Keys") < source.index("| parameter")

    asyncio.run(go())


def test_the_line_modes_print_it(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                 tmp_path: object) -> None:
    import io
    import sys

    from canasta.cli import main

    for variant, title in (("classic", "# How to play Classic"), ("500-rum", "# How to play 500 Rum")):
        monkeypatch.setattr(sys, "stdin", io.StringIO("rules\nquit\n"))
        assert main(["play", "--variant", variant, "--seed", "4", "--save", f"{tmp_path}/{variant}.json"]) == 0
        assert title in capsys.readouterr().out
