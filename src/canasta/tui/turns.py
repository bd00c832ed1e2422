"""What the Canasta table and the rummy table share: one human seat, the computer players moving one at
a time (each thinking in a worker thread, so that the table keeps answering keys), the log and the
message line. A table subclasses ``PlayScreen`` and defines ``show`` and ``advance``."""

from __future__ import annotations

import contextlib
from typing import Any

from rich.text import Text
from textual import work
from textual.screen import Screen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from .. import is_over, legal_moves, parse_move, why_illegal
from ..canasta.view import seat_name
from ..text.names import move_label
from .cards import four_colours


class PlayScreen(Screen[None]):
    """A table for the game of ``session`` (``canasta.session.Session`` or ``canasta.rummy.session.RummyGame``:
    ``state``, ``humans``, ``computer_to_move()``, ``computer_move()``). Its compose yields a ``RichLog``
    ``#log``, a ``Static`` ``#message`` and an ``OptionList`` ``#moves``."""

    def __init__(self, session: Any, hint_level: str, delay: float) -> None:
        super().__init__()
        self.session = session
        self.hint_level = hint_level
        self.delay = delay
        self.waiting = False  # a modal screen is open: the computer players wait
        self.thinking = False  # a computer player is choosing its move in a worker thread
        self.four = False  # four suit colours

    @property
    def seat(self) -> int:
        seat: int = self.session.humans[0]
        return seat

    def show(self) -> None:
        """Draw the table from the human seat's view."""
        raise NotImplementedError

    def status_text(self) -> Text:
        """The status line: the hand, whose turn it is and what to do."""
        raise NotImplementedError

    def show_status(self) -> None:
        """The status line, with the computer player who is thinking (its move may take seconds)."""
        text = self.status_text()
        if self.thinking:
            seat = self.session.state.to_move
            text.append(f"  ⏳ {seat_name(self.session.rules.players, seat)} ({self.session.seats[seat]}) is thinking…",
                        style="italic yellow")
        self.query_one("#status", Static).update(text)

    def action_play_highlighted(self) -> None:
        """Enter, whatever has the focus: play the move highlighted in the list."""
        moves = self.query_one("#moves", OptionList)
        if moves.highlighted is None or not moves.option_count:
            self.say("No move is highlighted: it is not your turn.", refused=True)
            return
        option = moves.get_option_at_index(moves.highlighted)
        if option.id is not None:
            self.attempt(option.id)

    def action_colours(self) -> None:
        """Switch between the usual two suit colours and four (blue diamonds, green clubs)."""
        self.four = not self.four
        four_colours(self.four)
        self.show()
        self.say("Four suit colours: ♠ black, ♥ red, ♦ blue, ♣ green." if self.four else "Two suit colours.")

    def advance(self, move: Any) -> None:
        """Play ``move`` (legal) for the seat to move and show what it did."""
        raise NotImplementedError

    def narrate(self, before: Any, move: Any, after: Any, seen: Any = None) -> None:
        """Write a played move to the log (``seen``: the human seat's view before it, when at hand)."""
        raise NotImplementedError

    # A resumed game's log shows this many of its last moves (a whole game's would take a while to write).
    BACKLOG = 400

    def catch_up(self) -> None:
        """A resumed game: its moves so far in the log, with the lines between hands."""
        past, self.session.backlog = self.session.backlog, []
        if len(past) > self.BACKLOG:
            self.log_line(f"… {len(past) - self.BACKLOG} earlier moves (canasta replay shows them all)")
        for before, move, after in past[-self.BACKLOG:]:
            self.narrate(before, move, after)
        if past:
            self.log_line("── the game carries on here ──")

    def hand_line(self, number: int, after: Any) -> None:
        """The line between two hands in the log."""
        totals = " · ".join(str(score) for score in after.scores) if hasattr(after, "scores") else ""
        self.log_line(f"── hand {number} is over{f' (totals {totals})' if totals else ''} ──")

    def log_line(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def say(self, text: str, refused: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(refused, "refused")
        message.update(text)

    def human_to_move(self) -> bool:
        state = self.session.state
        return not is_over(state) and state.to_move == self.seat and not self.waiting

    def list_moves(self) -> None:
        """The human's legal moves in the move list (empty while the others play)."""
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        if self.human_to_move():
            legal = legal_moves(self.session.state)
            moves.add_options(Option(move_label(str(m)), id=str(m)) for m in legal)
            moves.highlighted = 0 if legal else None

    def attempt(self, text: str) -> None:
        """Play a move given in notation; a refusal shows the engine's reason and changes nothing."""
        if not self.human_to_move():
            self.say("Wait for your turn.", refused=True)
            return
        state = self.session.state
        try:
            move = parse_move(state, text)
        except ValueError as exc:
            self.say(f"{text}: {exc}", refused=True)
            return
        problem = why_illegal(state, move)
        if problem is not None:
            self.say(f"{move_label(text)}: refused ({problem.code}) {problem.message}", refused=True)
            return
        self.say("")
        self.advance(move)

    def after_move(self) -> None:
        """Let the computer players move, one at a time so that each can be followed."""
        if self.session.computer_to_move() and not self.waiting:
            if self.delay > 0:
                self.set_timer(self.delay, self.computer_step)
            else:
                self.call_later(self.computer_step)
        elif self.human_to_move():
            self.show()

    def computer_step(self) -> None:
        if self.session.computer_to_move() and not self.waiting and not self.thinking:
            self.thinking = True
            self.show_status()
            self.think(self.session.state)

    # Not exclusive: ``thinking`` already keeps it to one at a time, and an exclusive worker would cancel its
    # predecessor, whose thread may still be returning after handing its move over (``wait_for_complete`` then
    # raises WorkerCancelled for a move that was played).
    @work(thread=True, group="computer")
    def think(self, state: Any) -> None:
        """The computer player's choice, off the UI thread: a ``hard`` or ``expert`` player may take seconds,
        and the table keeps answering keys (help, quit) meanwhile. Nothing else moves for that seat then:
        the human's keys are refused while it is not his turn."""
        move = self.session.computer_move()
        if get_current_worker().is_cancelled:
            return
        # RuntimeError: the app has closed meanwhile (the game was saved before this move)
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(self.computer_moved, state, move)

    def computer_moved(self, state: Any, move: Any) -> None:
        self.thinking = False
        # A move that arrives while the app closes (quit, or the end of a test) is dropped: the table's widgets
        # may already be gone, and the game was saved before this move.
        if not (self.is_attached and self.app.is_running):
            return
        self.show_status()
        if self.session.state is state:  # not a game replaced meanwhile ("play again")
            self.advance(move)

    def action_undo(self) -> None:
        """Take back this turn's last move that is not final (the session knows which are)."""
        if not self.human_to_move():
            self.say("Undo is for your turn.", refused=True)
            return
        try:
            taken = self.session.undo()
        except ValueError as exc:
            self.say(str(exc).capitalize() + ".", refused=True)
            return
        self.show()
        self.log_line(f"You took back: {move_label(taken)}")
        self.call_after_refresh(self.say, f"Taken back: {move_label(taken)}")  # after the list's highlight

    def game_closed(self, again: bool | None) -> None:
        """The game-over screen's answer: play again (a new game with the same seats) or leave."""
        if not again:
            self.app.exit()
            return
        self.session = self.session.again()
        self.waiting = False
        self.query_one("#log", RichLog).clear()
        self.log_line("A new game.")
        self.show()
        self.after_move()

    def action_quit_game(self) -> None:
        self.app.exit()  # nothing to save: the session saved the game after every move


__all__ = ["PlayScreen"]
