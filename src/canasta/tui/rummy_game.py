"""A rummy game at the Textual table (no Textual here): who sits where, the game so far as a record, the
computer players' and the hint's moves. The same surface as ``canasta.session.Session`` where the table
needs it (``state``, ``rules``, ``humans``, ``computer_to_move``, ``computer_move``, ``play``, ``hint``,
``again``), for the rummy family (``canasta.rummy``).

A seat is ``human``, a level (``easy``: greedy; ``medium`` to ``expert``: heuristic, the rummy family
having no search player yet) or a rummy player's name (``greedy``, ``heuristic``, ``random``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..bots import Player
from ..bots.levels import LEVELS
from ..record import Recorder, dumps, load
from ..rummy import RummyMove, RummyRules, RummyState, is_over, legal_moves, new_game, view
from ..rummy.players import make_rummy_player, rummy_player_names

HUMAN = "human"


def rummy_seat_choices() -> list[str]:
    """Every name a rummy seat may be given."""
    return [HUMAN, *LEVELS, *rummy_player_names()]


def parse_rummy_seats(text: str | Sequence[str], players: int) -> list[str]:
    """One name per seat, exactly one of them human; ``ValueError`` naming the problem."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) != players:
        raise ValueError(f"give one name per seat ({players}), got {len(names)}: {', '.join(names)}")
    for name in names:
        if name not in rummy_seat_choices():
            raise ValueError(f"unknown player {name!r} for a rummy seat; valid: {', '.join(rummy_seat_choices())}")
    if names.count(HUMAN) != 1:
        raise ValueError("give 'human' to exactly one seat")
    return names


class RummyGame:
    """A rummy game in progress: ``game.state``, ``game.play(move)``, ``game.computer_move()``. Saved after
    every move as a game record when ``save_path`` is given."""

    def __init__(self, rules: RummyRules, seats: Sequence[str], seed: int | None = None,
                 save_path: Path | None = None) -> None:
        self.seats = parse_rummy_seats(seats, rules.players)
        self.seed = seed
        self.save_path = save_path
        self.recorder = Recorder(new_game(rules, seed), self.seats)
        self.computers = self.players_for(self.seats, seed)
        self.save()

    @classmethod
    def resume(cls, path: Path, seats: Sequence[str] | None = None, save_path: Path | None = None) -> RummyGame:
        """Carry on the rummy game saved in ``path`` (saving it there again unless ``save_path`` says
        otherwise); ``ValueError`` for a record that does not replay, is not a rummy game, or is over."""
        try:
            recorder = Recorder.resume(load(path))
        except OSError as exc:
            raise ValueError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
        if not isinstance(recorder.state, RummyState):
            raise ValueError(f"{str(path)!r} is not a rummy game")
        if is_over(recorder.state):
            raise ValueError(f"the game in {str(path)!r} is over; start a new one")
        game = cls.__new__(cls)
        game.seats = parse_rummy_seats(seats if seats is not None else (recorder.players or []),
                                       recorder.state.rules.players)
        recorder.players = game.seats
        game.recorder, game.seed, game.save_path = recorder, recorder.state.seed, save_path or path
        game.computers = game.players_for(game.seats, game.seed)
        return game

    @staticmethod
    def players_for(seats: Sequence[str], seed: int | None) -> dict[int, Player]:
        return {s: make_rummy_player(name, None if seed is None else seed * 16 + s)
                for s, name in enumerate(seats) if name != HUMAN}

    @property
    def state(self) -> RummyState:
        state: RummyState = self.recorder.state
        return state

    @property
    def rules(self) -> RummyRules:
        return self.state.rules

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    def computer_to_move(self) -> bool:
        return not is_over(self.state) and self.state.to_move in self.computers

    def computer_move(self) -> RummyMove:
        """The move of the computer player whose turn it is (it sees only its seat's view)."""
        seat = self.state.to_move
        move: RummyMove = self.computers[seat].choose(view(self.state, seat), legal_moves(self.state))  # type: ignore[arg-type, assignment]
        return move

    def play(self, move: RummyMove) -> RummyState:
        """Apply a move (``IllegalMove`` if it is not legal), record it and save the game."""
        state: RummyState = self.recorder.apply(move)
        self.save()
        return state

    def hint(self, level: str = "medium") -> RummyMove:
        """What ``level``'s player would play for the seat to move."""
        seat = self.state.to_move
        move: RummyMove = make_rummy_player(level, 0).choose(view(self.state, seat), legal_moves(self.state))  # type: ignore[arg-type, assignment]
        return move

    def again(self) -> RummyGame:
        """A new game at the same table (the next seed, when the game was seeded)."""
        return RummyGame(self.rules, self.seats, None if self.seed is None else self.seed + 1, self.save_path)

    def record(self) -> dict[str, Any]:
        return self.recorder.record()

    def save(self) -> None:
        if self.save_path is None:
            return
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.save_path.with_name(self.save_path.name + ".tmp")
        temporary.write_text(dumps(self.record()), encoding="utf-8")
        temporary.replace(self.save_path)


__all__ = ["HUMAN", "RummyGame", "parse_rummy_seats", "rummy_seat_choices"]
