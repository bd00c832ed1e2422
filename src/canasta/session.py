"""One game at the table for a front end (the line mode, the Textual app): who sits where, the
game so far as a record, saved after every move, and the computer players' and the hint's moves.

A seat is ``human``, a level (``easy``, ``medium``, ``hard``, ``expert``: ``canasta.bots.levels``)
or a player name (``greedy``, ``heuristic``, ``random``, ``search``). The autosave is a game record
(``canasta.record``) whose ``players`` are these seat names, so ``--resume FILE`` knows them again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .bots import Player, make_player, player_names
from .bots.levels import LEVELS, hint, level_player
from .engine import is_over, legal_moves, new_game
from .moves import Move
from .record import Recorder, dumps, load
from .rules import Rules
from .state import State
from .view import view

HUMAN = "human"


def seat_choices() -> list[str]:
    """Every name a seat may be given."""
    return [HUMAN, *LEVELS, *player_names()]


def parse_seats(text: str | Sequence[str], players: int) -> list[str]:
    """``"human,hard,expert,medium"`` as one name per seat, exactly one of them human (both front ends
    seat one person); ``ValueError`` naming the problem."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) != players:
        raise ValueError(f"give one name per seat ({players}), got {len(names)}: {', '.join(names)}")
    for name in names:
        if name not in seat_choices():
            raise ValueError(f"unknown player {name!r} for a seat; valid players: {', '.join(seat_choices())}")
    humans = names.count(HUMAN)
    if humans != 1:
        raise ValueError(f"{'no seat is' if not humans else f'{humans} seats are'} human: "
                         "give 'human' to exactly one seat")
    return names


def computer(name: str, seed: int | None = None) -> Player:
    """The computer player behind a seat name (a level or a player name)."""
    return level_player(name, seed) if name in LEVELS else make_player(name, seed)


def default_save_path() -> Path:
    """Where a game is saved when no file is named: ``$XDG_STATE_HOME/canasta/autosave.json``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "canasta" / "autosave.json"


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


class Session:
    """A game in progress: ``session.state``, ``session.play(move)``, ``session.computer_move()``."""

    def __init__(self, recorder: Recorder, seats: Sequence[str], save_path: Path | None,
                 seed: int | None = None) -> None:
        self.recorder = recorder
        self.seats = list(seats)
        self.save_path = save_path
        self.seed = seed
        self.computers = {s: computer(name, None if seed is None else seed * 16 + s)
                          for s, name in enumerate(self.seats) if name != HUMAN}
        # The states before this turn's moves that may still be taken back, newest last (states are
        # immutable: taking a move back is going back to the state before it).
        self.undo_stack: list[State] = []

    @classmethod
    def start(cls, rules: Rules, seats: Sequence[str], seed: int | None = None,
              save_path: Path | None = None) -> Session:
        session = cls(Recorder(new_game(rules, seed), seats), seats, save_path, seed)
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, seats: Sequence[str] | None = None, save_path: Path | None = None) -> Session:
        """Carry on the game saved in ``path`` (saving it there again unless ``save_path`` says otherwise).
        ``ValueError`` for a file that cannot be read, a record that does not replay, or a finished game."""
        try:
            record = load(path)
        except OSError as exc:
            raise ValueError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{str(path)!r} is not UTF-8 text") from None
        except ValueError as exc:  # JSONDecodeError and a record that is not an object
            raise ValueError(f"{str(path)!r} is not a game record: {exc}") from None
        recorder = Recorder.resume(record)
        if is_over(recorder.state):
            raise ValueError(f"the game in {str(path)!r} is over; start a new one")
        players = recorder.state.rules.players
        names = parse_seats(seats if seats is not None else (recorder.players or []), players)
        recorder.players = names
        return cls(recorder, names, save_path or path, recorder.state.seed)

    @property
    def state(self) -> State:
        state: State = self.recorder.state  # a Canasta game: the rummy family plays in canasta.rummy.lineplay
        return state

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def computer_to_move(self) -> bool:
        return not is_over(self.state) and self.state.to_move in self.computers

    def computer_move(self) -> Move:
        """The move of the computer player whose turn it is (it sees only its seat's view)."""
        seat = self.state.to_move
        return self.computers[seat].choose(view(self.state, seat), legal_moves(self.state))

    def play(self, move: Move) -> State:
        """Apply a move (``IllegalMove`` if it is not legal), record it and save the game."""
        before = self.state
        state = self.recorder.apply(move)
        if undoable(before, move, state) and before.to_move not in self.computers:  # a person's own move
            self.undo_stack.append(before)
        else:
            self.undo_stack.clear()  # something final happened: nothing before it comes back
        self.save()
        return state

    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def undo(self) -> str:
        """Take back the last move of this turn that is not final (``ValueError`` if there is none);
        returns the move taken back, in notation. The record forgets it too."""
        if not self.undo_stack:
            raise ValueError("nothing to undo: a draw, a take, a partner's answer or a discard is final, and "
                             "only this turn's melds (and a withdraw) can be taken back")
        self.recorder.state = self.undo_stack.pop()
        taken_back = self.recorder.moves.pop().partition(" ")[2]
        self.save()
        return taken_back

    def hint(self, level: str = "medium") -> tuple[Move, str]:
        """What ``level``'s player would play for the seat to move, and why."""
        return hint(self.state, self.state.to_move, level)

    def again(self) -> Session:
        """A new game at the same table (the next seed, when the game was seeded)."""
        seed = None if self.seed is None else self.seed + 1
        return Session.start(self.rules, self.seats, seed, self.save_path)

    def save(self) -> None:
        """Write the record to ``save_path`` (whole or not at all: a crash never leaves half a file)."""
        if self.save_path is None:
            return
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.save_path.with_name(self.save_path.name + ".tmp")
        temporary.write_text(dumps(self.recorder.record()), encoding="utf-8")
        os.replace(temporary, self.save_path)


__all__ = ["HUMAN", "Session", "computer", "default_save_path", "hand_goes_on", "news", "parse_seats", "seat_choices",
           "undoable"]
