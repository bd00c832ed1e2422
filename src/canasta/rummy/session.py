"""One rummy game at the table for a front end (the line mode, the Textual app): ``RummyGame``, the rummy
family's kind of ``canasta.seated.SeatedGame`` (seats, the record saved after every move, the computer
players' and the hint's moves, undo), with the same surface as Canasta's ``canasta.session.Session``.

A seat is ``human``, a level (``easy``: greedy; ``medium``: heuristic; ``hard`` and ``expert``: search) or a
rummy player's name (``greedy``, ``heuristic``, ``random``, ``search``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..play.record import Recorder
from ..play.seated import HUMAN, SeatedGame, parse_seat_names
from ..players import Player
from ..players.levels import LEVELS
from ..players.rummy import make_rummy_player, rummy_player_names
from .api import is_over, legal_moves
from .deal import new_game
from .melds import card_points
from .moves import RummyMove
from .rules import RummyRules
from .state import RummyState
from .view import view


def rummy_seat_choices() -> list[str]:
    """Every name a rummy seat may be given."""
    return [HUMAN, *LEVELS, *rummy_player_names()]


def parse_rummy_seats(text: str | Sequence[str], players: int) -> list[str]:
    """One name per seat, exactly one of them human; ``ValueError`` naming the problem."""
    return parse_seat_names(text, players, rummy_seat_choices())


UNDOABLE = ("meld", "lay")


def rummy_undoable(before: RummyState, move: RummyMove, after: RummyState) -> bool:
    """May ``move`` be taken back later in the same turn? A meld or a lay-off of one's own turn that left the
    hand in play: it showed only the mover's own cards. A draw, a take, a call and a discard are final."""
    return (move.action in UNDOABLE and after.hand_number == before.hand_number and not is_over(after)
            and after.to_move == before.to_move and after.turn_seat == before.turn_seat
            and after.phase == before.phase and len(after.stock) == len(before.stock))


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


class RummyGame(SeatedGame[RummyState, RummyMove]):
    """A rummy game in progress: ``game.state``, ``game.play(move)``, ``game.computer_move()``."""

    FAMILY = "rummy"
    NOTHING_TO_UNDO = ("nothing to undo: a draw, a take, a call or a discard is final, and only this turn's melds "
                       "and lay-offs can be taken back")

    @staticmethod
    def plays(state: Any) -> bool:
        return isinstance(state, RummyState)

    @staticmethod
    def seat_choices() -> list[str]:
        return rummy_seat_choices()

    @staticmethod
    def computer(name: str, seed: int | None) -> Player:
        return make_rummy_player(name, seed)

    over = staticmethod(is_over)
    legal = staticmethod(legal_moves)

    @staticmethod
    def seen(state: RummyState, seat: int) -> Any:
        return view(state, seat)

    undoable = staticmethod(rummy_undoable)

    @classmethod
    def start(cls, rules: RummyRules, seats: Sequence[str], seed: int | None = None,
              save_path: Path | None = None) -> RummyGame:
        names = parse_rummy_seats(seats, rules.players)
        game = cls(Recorder(new_game(rules, seed), names), names, save_path, seed)
        return game

    @classmethod
    def resume(cls, path: Path, seats: Sequence[str] | None = None, save_path: Path | None = None) -> RummyGame:
        """Carry on the rummy game saved in ``path`` (saving it there again unless ``save_path`` says
        otherwise); ``ValueError`` for a record that does not replay, is not a rummy game, or is over."""
        recorder, names, past = cls.resume_recorder(path, seats)
        game = cls(recorder, names, save_path or path, recorder.state.seed)
        game.catch_up(past)
        return game

    @property
    def rules(self) -> RummyRules:
        return self.state.rules

    def hint(self, level: str = "medium") -> tuple[RummyMove, str]:
        """What ``level``'s player would play for the seat to move, and why (in a player's words)."""
        seat = self.state.to_move
        move: RummyMove = make_rummy_player(level, 0).choose(view(self.state, seat), legal_moves(self.state))  # type: ignore[arg-type, assignment]
        return move, hint_reason(self.state, move)

    def again(self) -> RummyGame:
        """A new game at the same table (the next seed, when the game was seeded)."""
        return RummyGame.start(self.rules, self.seats, None if self.seed is None else self.seed + 1, self.save_path)


__all__ = ["RummyGame", "parse_rummy_seats", "rummy_seat_choices", "rummy_undoable"]
