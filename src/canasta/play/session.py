"""One game at the table for a front end (the line mode, the Textual app), whatever its family: who sits where,
the game so far as a record saved after every move, the computer players' and the hint's moves, and taking back
this turn's moves that are not final.

``Session`` asks the game's family (``canasta.play.family.play_family``) what differs: the computer player
behind a seat name, which moves may be taken back, what a move showed the table, the hint.

A seat is ``human`` or a computer player's name: a level (``easy``, ``medium``, ``hard``, ``expert``) or a player
of the family (``greedy``, ``heuristic``, ``random``, ``search`` …). The autosave is a game record
(``canasta.play.record``) whose ``players`` are these seat names, so that resuming knows them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from .. import is_over, legal_moves, new_game, view
from ..players import Player
from .family import CANASTA, PlayFamily, play_family
from .record import Recorder, dumps
from .savefile import read_record, write
from .seated import HUMAN, default_save_path, parse_seat_names


class Session:
    """A game in progress: ``session.state``, ``session.play(move)``, ``session.computer_move()``,
    ``session.undo()``, ``session.hint()``."""

    ONLY: ClassVar[PlayFamily | None] = None  # a kind that plays one family only (``RummyGame``, for old code)
    # The engine's answers (the package's entry points serve every family), by the names faces used.
    legal = staticmethod(legal_moves)
    over = staticmethod(is_over)
    seen = staticmethod(view)

    def __init__(self, recorder: Recorder, seats: Sequence[str], save_path: Path | None,
                 seed: int | None = None) -> None:
        self.family = play_family(recorder.state)
        self.recorder = recorder
        self.seats = list(seats)
        self.save_path = save_path
        self.seed = seed
        self.computers = {s: self.family.make_player(name, None if seed is None else seed * 16 + s)
                          for s, name in enumerate(self.seats) if name != HUMAN}
        # The states before this turn's moves that may still be taken back, newest last (states are
        # immutable: taking a move back is going back to the state before it).
        self.undo_stack: list[Any] = []
        self.hands: list[Any] = []  # every finished hand's summary (the state's last_hand), for a score pad
        self.backlog: list[tuple[Any, Any, Any]] = []  # a resumed game's moves, until a table has logged them

    @classmethod
    def _family(cls, game: Any) -> PlayFamily:
        family = play_family(game)
        if cls.ONLY is not None and family is not cls.ONLY:
            raise ValueError(f"not a {cls.ONLY.name} game")
        return family

    @classmethod
    def start(cls, rules: Any, seats: Sequence[str], seed: int | None = None,
              save_path: Path | None = None) -> Session:
        """A new game of ``rules`` (either family) with one name per seat (``ValueError`` naming a bad one)."""
        names = parse_seat_names(seats, rules.players, cls._family(rules).seat_choices())
        return cls(Recorder(new_game(rules, seed), names), names, save_path, seed)

    @classmethod
    def resume(cls, path: Path, seats: Sequence[str] | None = None, save_path: Path | None = None) -> Session:
        """Carry on the game saved in ``path`` (saving it there again unless ``save_path`` says otherwise), its
        seats ``seats`` or else the record's. ``ValueError`` for a file that cannot be read, a record that does
        not replay, or a finished game."""
        past: list[tuple[Any, Any, Any]] = []
        recorder = Recorder.resume(read_record(path), lambda _, before, move, after: past.append((before, move, after)))
        try:
            family = cls._family(recorder.state)
        except ValueError as exc:
            raise ValueError(f"{str(path)!r} is {exc}") from None
        if is_over(recorder.state):
            raise ValueError(f"the game in {str(path)!r} is over; start a new one")
        recorder.players = parse_seat_names(seats if seats is not None else (recorder.players or []),
                                            recorder.state.rules.players, family.seat_choices())
        game = cls(recorder, recorder.players, save_path or path, recorder.state.seed)
        game.catch_up(past)
        return game

    def catch_up(self, past: Sequence[tuple[Any, Any, Any]]) -> None:
        """After a resume: the finished hands and this turn's undo as if the moves had been played here, and
        the moves themselves in ``backlog`` for a table's log."""
        for before, move, after in past:
            self.note(before, move, after)
        self.backlog = list(past)

    @property
    def state(self) -> Any:
        return self.recorder.state

    @property
    def rules(self) -> Any:
        return self.state.rules

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def computer_to_move(self) -> bool:
        return not is_over(self.state) and self.state.to_move in self.computers

    def computer_move(self) -> Any:
        """The move of the computer player whose turn it is (it sees only its seat's view)."""
        state = self.state
        player: Any = self.computers[state.to_move]  # Player is typed for Canasta's moves; it plays either family's
        return player.choose(view(state, state.to_move), legal_moves(state))

    def computer(self, name: str, seed: int | None = None) -> Player:
        """The computer player of this game's family behind a seat name (a level or a player name)."""
        return self.family.make_player(name, seed)

    def hint(self, level: str = "medium") -> tuple[Any, str]:
        """What ``level``'s player would play for the seat to move, and why."""
        return self.family.hint(self.state, self.state.to_move, level)

    def play(self, move: Any) -> Any:
        """Apply a move (``IllegalMove`` if it is not legal), record it and save the game."""
        before = self.state
        state = self.recorder.apply(move)
        self.note(before, move, state)
        self.save()
        return state

    def note(self, before: Any, move: Any, after: Any) -> None:
        """Keep what a move changes besides the state: this turn's undo, the finished hands."""
        if self.family.undoable(before, move, after) and before.to_move not in self.computers:  # a person's own move
            self.undo_stack.append(before)
        else:
            self.undo_stack.clear()  # something final happened: nothing before it comes back
        if not hand_goes_on(before, after):
            self.hands.append(after.last_hand)

    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def undo(self) -> str:
        """Take back the last move of this turn that is not final (``ValueError`` if there is none); returns
        the move taken back, in notation. The record forgets it too."""
        if not self.undo_stack:
            raise ValueError(self.family.nothing_to_undo)
        self.recorder.state = self.undo_stack.pop()
        taken_back = self.recorder.moves.pop().partition(" ")[2]
        self.save()
        return taken_back

    def record(self) -> dict[str, Any]:
        return self.recorder.record()

    def in_progress(self) -> bool:
        """Has the game begun (a move was played) and not ended? Only such a game is worth saving."""
        return bool(self.recorder.moves) and not is_over(self.state)

    def save(self) -> None:
        """Write the record to ``save_path`` (whole or not at all: a crash never leaves half a file)."""
        if self.save_path is not None:
            write(self.save_path, dumps(self.record()))

    def again(self) -> Session:
        """A new game at the same table (the next seed, when the game was seeded)."""
        return type(self).start(self.rules, self.seats, None if self.seed is None else self.seed + 1, self.save_path)


def hand_goes_on(before: Any, after: Any) -> bool:
    """Did the move from ``before`` to ``after`` leave the same hand in play?"""
    return after.hand_number == before.hand_number and not is_over(after)


def news(before: Any, move: Any, after: Any) -> list[str]:
    """What the table saw of ``move``: history entries ``"SEAT WHAT"`` (Canasta's public history entries it
    added; the move itself when the hand ended, or in the rummy family)."""
    return play_family(before).news(before, move, after)


# Canasta's seats, as before the families shared one class (old imports).
def seat_choices() -> list[str]:
    """Every name a Canasta seat may be given."""
    return CANASTA.seat_choices()


def parse_seats(text: str | Sequence[str], players: int) -> list[str]:
    """``"human,hard,expert,medium"`` as one name per Canasta seat, exactly one of them human; ``ValueError``
    naming the problem."""
    return parse_seat_names(text, players, seat_choices())


def computer(name: str, seed: int | None = None) -> Player:
    """The Canasta computer player behind a seat name (a level or a player name)."""
    return CANASTA.make_player(name, seed)


undoable = CANASTA.undoable


__all__ = ["HUMAN", "Session", "computer", "default_save_path", "hand_goes_on", "news", "parse_seats", "seat_choices",
           "undoable"]
