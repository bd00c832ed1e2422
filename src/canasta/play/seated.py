"""One game at the table for a front end (the line modes, the Textual app), whatever the family: who sits
where, the game so far as a record saved after every move, the computer players' moves, and taking back this
turn's moves that are not final.

``SeatedGame`` keeps all of that; its two kinds, ``canasta.session.Session`` (Canasta) and
``canasta.rummy.session.RummyGame`` (the rummy family), answer the family's questions: which states it plays,
when a game is over, the legal moves, a seat's view, the computer player behind a seat name, and which moves
may be taken back.

A seat is ``human`` or a computer player's name (a level, or a player of the family). The autosave is a game
record (``canasta.play.record``) whose ``players`` are these seat names, so that resuming knows them again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from ..players import Player
from .autosave import read_record, write
from .record import Recorder, dumps

HUMAN = "human"

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


def default_save_path() -> Path:
    """Where a game is saved when no file is named: ``$XDG_STATE_HOME/canasta/autosave.json``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "canasta" / "autosave.json"


def parse_seat_names(text: str | Sequence[str], players: int, choices: Sequence[str]) -> list[str]:
    """``"human,hard,expert,medium"`` as one name per seat, each among ``choices`` and exactly one of them
    human (the front ends seat one person); ``ValueError`` naming the problem."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) != players:
        raise ValueError(f"give one name per seat ({players}), got {len(names)}: {', '.join(names)}")
    for name in names:
        if name not in choices:
            raise ValueError(f"unknown player {name!r} for a seat; valid players: {', '.join(choices)}")
    humans = names.count(HUMAN)
    if humans != 1:
        raise ValueError(f"{'no seat is' if not humans else f'{humans} seats are'} human: "
                         "give 'human' to exactly one seat")
    return names


class SeatedGame(Generic[StateT, MoveT]):
    """A game in progress: ``game.state``, ``game.play(move)``, ``game.computer_move()``, ``game.undo()``."""

    FAMILY: ClassVar[str] = ""  # in messages: "not a Canasta game"
    NOTHING_TO_UNDO: ClassVar[str] = "nothing to undo"  # and what can be taken back, in the family's terms

    def __init__(self, recorder: Recorder, seats: Sequence[str], save_path: Path | None,
                 seed: int | None = None) -> None:
        self.recorder = recorder
        self.seats = list(seats)
        self.save_path = save_path
        self.seed = seed
        self.computers = {s: self.computer(name, None if seed is None else seed * 16 + s)
                          for s, name in enumerate(self.seats) if name != HUMAN}
        # The states before this turn's moves that may still be taken back, newest last (states are
        # immutable: taking a move back is going back to the state before it).
        self.undo_stack: list[StateT] = []
        self.hands: list[Any] = []  # every finished hand's summary (the state's last_hand), for a score pad
        self.backlog: list[tuple[Any, Any, Any]] = []  # a resumed game's moves, until a table has logged them

    # --- the family's answers ---------------------------------------------------------------------
    @staticmethod
    def plays(state: Any) -> bool:
        """Is ``state`` a game of this family?"""
        raise NotImplementedError

    @staticmethod
    def seat_choices() -> list[str]:
        """Every name a seat may be given."""
        raise NotImplementedError

    @staticmethod
    def computer(name: str, seed: int | None) -> Player:
        """The computer player behind a seat name."""
        raise NotImplementedError

    @staticmethod
    def over(state: StateT) -> bool:
        raise NotImplementedError

    @staticmethod
    def legal(state: StateT) -> list[MoveT]:
        raise NotImplementedError

    @staticmethod
    def seen(state: StateT, seat: int) -> Any:
        """What ``seat`` may see of ``state`` (the family's ``view``)."""
        raise NotImplementedError

    @staticmethod
    def undoable(before: StateT, move: MoveT, after: StateT) -> bool:
        """May ``move`` be taken back later in the same turn?"""
        raise NotImplementedError

    # --- the game -----------------------------------------------------------------------------------
    @classmethod
    def parse_seats(cls, text: str | Sequence[str], players: int) -> list[str]:
        return parse_seat_names(text, players, cls.seat_choices())

    @classmethod
    def resume_recorder(cls, path: Path, seats: Sequence[str] | None
                        ) -> tuple[Recorder, list[str], list[tuple[Any, Any, Any]]]:
        """The recorder carrying on the game saved in ``path``, its seats (``seats``, else the record's) and
        every move replayed as ``(before, move, after)``; ``ValueError`` for a file that cannot be read, a
        record that does not replay or is of another family, or a finished game."""
        past: list[tuple[Any, Any, Any]] = []
        recorder = Recorder.resume(read_record(path), lambda _, before, move, after: past.append((before, move, after)))
        if not cls.plays(recorder.state):
            raise ValueError(f"{str(path)!r} is not a {cls.FAMILY} game")
        if cls.over(recorder.state):
            raise ValueError(f"the game in {str(path)!r} is over; start a new one")
        names = cls.parse_seats(seats if seats is not None else (recorder.players or []),
                                recorder.state.rules.players)
        recorder.players = names
        return recorder, names, past

    def catch_up(self, past: Sequence[tuple[Any, Any, Any]]) -> None:
        """After a resume: the finished hands and this turn's undo as if the moves had been played here, and
        the moves themselves in ``backlog`` for a table's log."""
        for before, move, after in past:
            self.note(before, move, after)
        self.backlog = list(past)

    @property
    def state(self) -> StateT:
        state: StateT = self.recorder.state
        return state

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def computer_to_move(self) -> bool:
        state: Any = self.state
        return not self.over(state) and state.to_move in self.computers

    def computer_move(self) -> MoveT:
        """The move of the computer player whose turn it is (it sees only its seat's view)."""
        state: Any = self.state
        player: Any = self.computers[state.to_move]  # Player is typed for Canasta's moves; it plays either family's
        move: MoveT = player.choose(self.seen(state, state.to_move), self.legal(state))
        return move

    def play(self, move: MoveT) -> StateT:
        """Apply a move (``IllegalMove`` if it is not legal), record it and save the game."""
        before: Any = self.state
        state: StateT = self.recorder.apply(move)  # type: ignore[call-overload]
        self.note(before, move, state)
        self.save()
        return state

    def note(self, before: Any, move: MoveT, after: Any) -> None:
        """Keep what a move changes besides the state: this turn's undo, the finished hands."""
        if self.undoable(before, move, after) and before.to_move not in self.computers:  # a person's own move
            self.undo_stack.append(before)
        else:
            self.undo_stack.clear()  # something final happened: nothing before it comes back
        if after.hand_number != before.hand_number or self.over(after):
            self.hands.append(after.last_hand)

    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def undo(self) -> str:
        """Take back the last move of this turn that is not final (``ValueError`` if there is none);
        returns the move taken back, in notation. The record forgets it too."""
        if not self.undo_stack:
            raise ValueError(self.NOTHING_TO_UNDO)
        self.recorder.state = self.undo_stack.pop()
        taken_back = self.recorder.moves.pop().partition(" ")[2]
        self.save()
        return taken_back

    def record(self) -> dict[str, Any]:
        return self.recorder.record()

    def in_progress(self) -> bool:
        """Has the game begun (a move was played) and not ended? Only such a game is worth saving."""
        return bool(self.recorder.moves) and not self.over(self.state)

    def save(self) -> None:
        """Write the record to ``save_path`` (whole or not at all: a crash never leaves half a file)."""
        if self.save_path is not None:
            write(self.save_path, dumps(self.record()))


__all__ = ["HUMAN", "SeatedGame", "default_save_path", "parse_seat_names"]
