"""One Canasta game at the table for a front end (the line mode, the Textual app): ``Session``, the Canasta
kind of ``canasta.seated.SeatedGame`` (seats, the record saved after every move, the computer players' and
the hint's moves, undo).

A seat is ``human``, a level (``easy``, ``medium``, ``hard``, ``expert``: ``canasta.players.levels``)
or a player name (``greedy``, ``heuristic``, ``random``, ``search``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..canasta.engine import is_over, legal_moves, new_game
from ..canasta.moves import Move
from ..canasta.rules import Rules
from ..canasta.state import State
from ..canasta.view import view
from ..players import Player, make_player, player_names
from ..players.levels import LEVELS, hint, level_player
from .record import Recorder
from .seated import HUMAN, SeatedGame, default_save_path, parse_seat_names


def seat_choices() -> list[str]:
    """Every name a seat may be given."""
    return [HUMAN, *LEVELS, *player_names()]


def parse_seats(text: str | Sequence[str], players: int) -> list[str]:
    """``"human,hard,expert,medium"`` as one name per seat, exactly one of them human (both front ends
    seat one person); ``ValueError`` naming the problem."""
    return parse_seat_names(text, players, seat_choices())


def computer(name: str, seed: int | None = None) -> Player:
    """The computer player behind a seat name (a level or a player name)."""
    return level_player(name, seed) if name in LEVELS else make_player(name, seed)


def hand_goes_on(before: State, after: State) -> bool:
    """Did the move from ``before`` to ``after`` leave the same hand in play?"""
    return after.hand_number == before.hand_number and not is_over(after)


def news(before: State, move: Move, after: State) -> list[str]:
    """The public history entries (``"1 meld 9 9 9"``) that ``move`` added. A finished hand's history
    is gone with the new deal: then the move itself is the news."""
    if not hand_goes_on(before, after):
        return [f"{before.to_move} {move}"]
    return list(after.history[len(before.history):])


UNDOABLE = ("meld", "combine", "withdraw")


def undoable(before: State, move: Move, after: State) -> bool:
    """May ``move`` be taken back later in the same turn? Only what brought nothing hidden to light and
    passed no turn: melds and combines (staged for an opening or not) and a withdraw. A draw shows a stock
    card, a take or a foot picked up shows cards, a partner's answer is his, a laid-out three draws a
    replacement, a discard ends the turn: all final."""
    return (move.action in UNDOABLE and hand_goes_on(before, after) and after.to_move == before.to_move
            and after.turn_seat == before.turn_seat and len(after.stock) == len(before.stock)
            and after.feet == before.feet)


class Session(SeatedGame[State, Move]):
    """A Canasta game in progress: ``session.state``, ``session.play(move)``, ``session.computer_move()``."""

    FAMILY = "Canasta"
    NOTHING_TO_UNDO = ("nothing to undo: a draw, a take, a partner's answer or a discard is final, and only this "
                       "turn's melds (and a withdraw) can be taken back")

    @staticmethod
    def plays(state: Any) -> bool:
        return isinstance(state, State)

    seat_choices = staticmethod(seat_choices)
    computer = staticmethod(computer)
    over = staticmethod(is_over)
    legal = staticmethod(legal_moves)
    seen = staticmethod(view)
    undoable = staticmethod(undoable)

    @classmethod
    def start(cls, rules: Rules, seats: Sequence[str], seed: int | None = None,
              save_path: Path | None = None) -> Session:
        session = cls(Recorder(new_game(rules, seed), seats), seats, save_path, seed)
        return session

    @classmethod
    def resume(cls, path: Path, seats: Sequence[str] | None = None, save_path: Path | None = None) -> Session:
        """Carry on the game saved in ``path`` (saving it there again unless ``save_path`` says otherwise).
        ``ValueError`` for a file that cannot be read, a record that does not replay, or a finished game."""
        recorder, names, past = cls.resume_recorder(path, seats)
        game = cls(recorder, names, save_path or path, recorder.state.seed)
        game.catch_up(past)
        return game

    @property
    def rules(self) -> Rules:
        return self.state.rules

    def hint(self, level: str = "medium") -> tuple[Move, str]:
        """What ``level``'s player would play for the seat to move, and why."""
        return hint(self.state, self.state.to_move, level)

    def again(self) -> Session:
        """A new game at the same table (the next seed, when the game was seeded)."""
        seed = None if self.seed is None else self.seed + 1
        return Session.start(self.rules, self.seats, seed, self.save_path)


__all__ = ["HUMAN", "Session", "computer", "default_save_path", "hand_goes_on", "news", "parse_seats", "seat_choices",
           "undoable"]
