"""What the play layer asks of the Canasta family at a table, beyond the engine: which moves a person may take
back, what a move showed the table (its public history entries), the pack a record's deal is drawn from, and
what a finished hand's summary (``State.last_hand``) says to the score pad. Wired into ``canasta.play.family``."""

from __future__ import annotations

from typing import Any

from .cards import pack
from .engine import is_over
from .moves import Move
from .rules import Rules
from .state import State

UNDOABLE = ("meld", "combine", "withdraw")
NOTHING_TO_UNDO = ("nothing to undo: a draw, a take, a partner's answer or a discard is final, and only this turn's "
                   "melds (and a withdraw) can be taken back")


def hand_goes_on(before: State, after: State) -> bool:
    """Did the move from ``before`` to ``after`` leave the same hand in play?"""
    return after.hand_number == before.hand_number and not is_over(after)


def news(before: State, move: Move, after: State) -> list[str]:
    """The public history entries (``"1 meld 9 9 9"``) that ``move`` added. A finished hand's history is gone
    with the new deal: then the move itself is the news."""
    if not hand_goes_on(before, after):
        return [f"{before.to_move} {move}"]
    return list(after.history[len(before.history):])


def undoable(before: State, move: Move, after: State) -> bool:
    """May ``move`` be taken back later in the same turn? Only what brought nothing hidden to light and passed no
    turn: melds and combines (staged for an opening or not) and a withdraw. A draw shows a stock card, a take or
    a foot picked up shows cards, a partner's answer is his, a laid-out three draws a replacement, a discard ends
    the turn: all final."""
    return (move.action in UNDOABLE and hand_goes_on(before, after) and after.to_move == before.to_move
            and after.turn_seat == before.turn_seat and len(after.stock) == len(before.stock)
            and after.feet == before.feet)


def dealt_pack(rules: Rules) -> list[int]:
    """Every card a hand is dealt from (a record's deal must be this pack, shuffled)."""
    return pack(rules.decks, rules.jokers)


__all__ = ["NOTHING_TO_UNDO", "UNDOABLE", "dealt_pack", "hand_goes_on", "news", "undoable"]


def hand_sides(state: State) -> list[dict[str, Any]]:
    """Each side's scores of the hand just finished (``last_hand`` is that list), for the score pad."""
    return list(state.last_hand or ())


def went_out(state: State, seat: int, hand_left: bool) -> int | None:
    """Who went out in the hand ``seat``'s move just ended (``hand_left``: his hand still holds cards): the
    summary names the side that went out, so the mover, when his move emptied his hand; else nobody."""
    return seat if not hand_left and any(side.get("went_out") for side in state.last_hand or ()) else None
