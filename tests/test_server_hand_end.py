"""The end of a hand as the server shows it (canasta.server.games: the score pad's line and who went out), asked
of each family (PlayFamily.hand_sides, went_out) rather than read from the summary's shape."""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from canasta.play.family import play_family
from canasta.server.games import final_table, hand_sides


def first_hand_end(variant: str, seed: int) -> tuple[Any, Any, Any]:
    """(the state before the move that ends the first hand, that move, the state after it), greedy players."""
    rules = canasta.rules(variant)
    players = [play_family(rules).make_player("greedy", seed + s) for s in range(rules.players)]
    state = canasta.new_game(rules, seed=seed)
    for _ in range(5000):
        move = players[state.to_move].choose(canasta.view(state, state.to_move), canasta.legal_moves(state))
        after = canasta.apply(state, move)
        if after.hand_number != state.hand_number or canasta.is_over(after):
            return state, move, after
        state = after
    raise AssertionError("the first hand did not end")


# Deals whose first hand a player ends by going out (greedy players, seeded: the same every run).
@pytest.mark.parametrize(("variant", "seed"), [("classic", 2), ("500-rum", 1), ("basic-rummy", 3)])
def test_the_pad_line_and_who_went_out(variant: str, seed: int) -> None:
    before, move, after = first_hand_end(variant, seed)
    sides = hand_sides(after)
    assert len(sides) == before.rules.teams and all(isinstance(side["total"], int) for side in sides)
    table = final_table(before, move, before.to_move)
    assert table["went_out"] == before.to_move and table["hands"][before.to_move] == []
