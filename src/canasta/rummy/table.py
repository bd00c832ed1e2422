"""What the play layer asks of the rummy family at a table, beyond the engine: which moves a person may take
back, what a move showed the table, why the hint's move is worth playing (in a player's words), and what a
finished hand's summary (``RummyState.last_hand``) says to the score pad. Wired into ``canasta.play.family``."""

from __future__ import annotations

from typing import Any

from .api import is_over
from .melds import card_points
from .moves import RummyMove
from .state import RummyState

UNDOABLE = ("meld", "lay")
NOTHING_TO_UNDO = ("nothing to undo: a draw, a take, a call or a discard is final, and only this turn's melds and "
                   "lay-offs can be taken back")


def undoable(before: RummyState, move: RummyMove, after: RummyState) -> bool:
    """May ``move`` be taken back later in the same turn? A meld or a lay-off of one's own turn that left the
    hand in play: it showed only the mover's own cards. A draw, a take, a call and a discard are final."""
    return (move.action in UNDOABLE and after.hand_number == before.hand_number and not is_over(after)
            and after.to_move == before.to_move and after.turn_seat == before.turn_seat
            and after.phase == before.phase and len(after.stock) == len(before.stock))


def news(before: RummyState, move: RummyMove, after: RummyState) -> list[str]:
    """What the table saw of ``move``, as history entries (``"1 meld 5H 6H 7H"``): the move itself (a rummy
    move shows all it does)."""
    return [f"{before.to_move} {move}"]


def hint_reason(state: RummyState, move: RummyMove) -> str:
    """Why a move is worth playing, from what it does to the mover's points."""
    r = state.rules
    points = sum(card_points(r, c) for c in move.cards)
    if move.action == "meld":
        return f"it puts {points} points on the table and out of your hand"
    if move.action in ("lay", "rum"):
        return f"it lays {points} points off on a meld: on the table, not against you"
    if move.action == "take":
        return "the pile card can be used at once, in a meld or on one"
    if move.action == "draw":
        return "nothing in the pile fits your hand well enough to take it"
    if move.action == "discard":
        return f"that card helps your hand least (it would count {points} against you if caught)"
    return "the computer player's choice here"


__all__ = ["NOTHING_TO_UNDO", "UNDOABLE", "hint_reason", "news", "undoable"]


def hand_sides(state: RummyState) -> list[dict[str, Any]]:
    """Each side's scores of the hand just finished (the ``sides`` of the ``last_hand`` summary), for the score
    pad."""
    return list((state.last_hand or {}).get("sides") or [])


def went_out(state: RummyState, seat: int, hand_left: bool) -> int | None:
    """Who went out in the hand ``seat``'s move just ended: the summary names the seat (None: nobody)."""
    went: int | None = (state.last_hand or {}).get("went_out")
    return went
