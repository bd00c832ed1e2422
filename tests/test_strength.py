"""canasta.play.strength (was canasta.rummy.arena): duplicate deals, whole games and thinking times between
players the caller makes, for either family (the rummy family's figures: tests/test_rummy_players.py)."""

from __future__ import annotations

import pytest

import canasta
from canasta.play.strength import duplicate, main, thinking_times
from canasta.players import make_player


def test_canasta_duplicate_deals_between_made_players() -> None:
    r = canasta.rules("classic")
    d = duplicate(r, lambda s: make_player("greedy", s), lambda s: make_player("random", s), deals=1, seed=5)
    assert d["deals"] == 1 and d["low"] == d["mean"] == d["high"] and d["a_better"] in (0.0, 1.0)
    again = duplicate(r, lambda s: make_player("greedy", s), lambda s: make_player("random", s), deals=1, seed=5)
    assert again == d  # the players' seeds are the module's own: the same deal gives the same figure


def test_thinking_times_for_each_level_named() -> None:
    times = thinking_times(canasta.rules("basic-rummy"), ["greedy", "medium"], deals=1)
    assert set(times) == {"greedy", "medium"} and len(times["greedy"]) == len(times["medium"]) > 0


def test_the_command_refuses_an_unknown_variant_or_player(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, needle in ((["--variant", "klondike"], "unknown variant 'klondike'"),
                         (["--variant", "classic", "--a", "oracle"], "oracle")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2 and needle in capsys.readouterr().err
