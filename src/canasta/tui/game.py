"""The table of the Textual app, for every family: the status line, the seats, the family's table (its plug-in,
``face.Face``: melds, pile), the log, the legal moves, the hand and a message line; the computer players moving
one at a time (each thinking in a worker thread, so that the table keeps answering keys); the end of a hand and
of the game. One human seat."""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from .. import is_over, legal_moves, parse_move, view, why_illegal
from ..canasta.view import seat_name
from ..play.session import hand_goes_on
from ..text.names import move_label
from .cards import four_colours, label
from .faces import FACES, face_for
from .hand import HandView
from .screens import GameOverScreen, HandEndScreen, HelpScreen


class TableScreen(Screen[None]):
    """The table for the human seat of ``session`` (``canasta.play.session``: ``state``, ``rules``, ``seats``,
    ``humans``, ``play``, ``computer_to_move``, ``computer_move``, ``hint``, ``undo``, ``again``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "play('draw')", "draw"),
        Binding("t", "take", "take"),
        Binding("m", "meld", "meld"),
        Binding("l", "lay", "lay off"),
        Binding("x", "discard", "discard"),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("s", "sort", "sort", show=False),
        Binding("c", "colours", "four colours", show=False),
        Binding("enter", "play_highlighted", "play the highlighted move", show=False),
        Binding("y", "answer('yes')", "yes", show=False),
        Binding("n", "answer('no')", "no", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_game", "quit"),
    ]
    DEFAULT_CSS = """
    #status { background: $boost; height: 1; }
    #seats { height: auto; }
    #middle { height: 1fr; min-height: 3; }
    #log { width: 1fr; border-top: solid $primary; }
    #moves { border-top: solid $primary; }
    #hand { border-top: solid $primary; }
    #message { height: auto; min-height: 1; }
    .refused { color: $error; }
    """ + "".join(face.CSS for face in FACES.values())

    # A resumed game's log shows this many of its last moves (a whole game's would take a while to write).
    BACKLOG = 400

    def __init__(self, session: Any, hint_level: str, delay: float) -> None:
        super().__init__()
        self.session = session
        self.face = face_for(session.rules)
        self.hint_level = hint_level
        self.delay = delay
        self.waiting = False  # a modal screen is open: the computer players wait
        self.thinking = False  # a computer player is choosing its move in a worker thread
        self.four = False  # four suit colours
        self.order = 0  # the hand's sort order, in ``face.orders()``

    @property
    def seat(self) -> int:
        seat: int = self.session.humans[0]
        return seat

    def compose(self) -> ComposeResult:
        order = self.face.orders()[0]
        yield Static(id="status")
        yield Static(id="seats")
        yield from self.face.compose()
        with Horizontal(id="middle"):
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
            moves = OptionList(id="moves")
            moves.styles.width = self.face.MOVES_WIDTH
            yield moves
        yield HandView(id="hand", order=order.order, group=order.group)
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hand", HandView).focus()
        self.show()
        self.log_line(f"{self.face.title()}; you are {self.face.seat_label(self.my_view(), self.seat)}. "
                      "Press ? for how to play.")
        self.catch_up()
        self.after_move()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A family's own keys (``l`` lay off, ``y``/``n`` answer) only at its table (hidden elsewhere)."""
        return action not in ("lay", "answer") or action in self.face.ACTIONS

    # --- showing ------------------------------------------------------------------------------
    def my_view(self) -> dict[str, Any]:
        seen: dict[str, Any] = view(self.session.state, self.seat)
        return seen

    def show(self) -> None:
        """Draw the table from the human seat's view."""
        v = self.my_view()
        self.show_status()
        self.query_one("#seats", Static).update(self.face.seats(v, self.session.seats))
        self.face.show(self, v)
        self.query_one("#hand", HandView).show(v["hand"])
        self.list_moves()

    def show_status(self) -> None:
        """The status line, with the computer player who is thinking (its move may take seconds)."""
        text = self.face.status(self.my_view())
        if self.thinking:
            seat = self.session.state.to_move
            text.append(f"  ⏳ {seat_name(self.session.rules.players, seat)} ({self.session.seats[seat]}) is thinking…",
                        style="italic yellow")
        self.query_one("#status", Static).update(text)

    def list_moves(self) -> None:
        """The human's legal moves in the move list (empty while the others play)."""
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        if self.human_to_move():
            legal = legal_moves(self.session.state)
            moves.add_options(Option(move_label(str(m)), id=str(m)) for m in legal)
            moves.highlighted = 0 if legal else None

    def log_line(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def say(self, text: str, refused: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(refused, "refused")
        message.update(text)

    def narrate(self, before: Any, move: Any, after: Any, seen: dict[str, Any] | None = None) -> None:
        """The log's lines for a move (``seen``: the human seat's view before it, when at hand): the family's,
        the cards the human drew, and a line between hands."""
        seen = seen if seen is not None else view(before, self.seat)
        for line in self.face.lines(before, move, after, seen, self.seat):
            self.log_line(line)
        same_hand = hand_goes_on(before, after)
        if same_hand and before.to_move == self.seat and move.action == "draw":
            gained = sorted((Counter(view(after, self.seat)["hand"]) - Counter(seen["hand"])).elements())
            if gained:
                self.log_line(f"You drew {' '.join(label(c) for c in gained)}")
        if not same_hand:
            totals = " · ".join(str(score) for score in after.scores)
            self.log_line(f"── hand {before.hand_number} is over{f' (totals {totals})' if totals else ''} ──")

    def catch_up(self) -> None:
        """A resumed game: its moves so far in the log, with the lines between hands."""
        past, self.session.backlog = self.session.backlog, []
        if len(past) > self.BACKLOG:
            self.log_line(f"… {len(past) - self.BACKLOG} earlier moves (canasta replay shows them all)")
        for before, move, after in past[-self.BACKLOG:]:
            self.narrate(before, move, after)
        if past:
            self.log_line("── the game carries on here ──")

    # --- playing ------------------------------------------------------------------------------
    def human_to_move(self) -> bool:
        state = self.session.state
        return bool(not is_over(state) and state.to_move == self.seat and not self.waiting)

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

    def advance(self, move: Any) -> None:
        """Play ``move`` (legal) for the seat to move, show what it did, and the end of the hand it ends."""
        before = self.session.state
        seen = view(before, self.seat)
        after = self.session.play(move)
        self.narrate(before, move, after, seen)
        self.show()
        if not hand_goes_on(before, after):
            v = self.my_view()
            footer = self.face.result(after.result, v) if after.result else "Enter: the next hand"
            self.waiting = True
            self.app.push_screen(HandEndScreen(self.face.hand_end(before, after, v),
                                               self.face.score_pad(self.session.hands, v), footer), self.hand_closed)
            return
        self.after_move()

    def hand_closed(self, _: None = None) -> None:
        self.waiting = False
        state = self.session.state
        if is_over(state):
            assert state.result is not None
            self.waiting = True
            self.app.push_screen(GameOverScreen(self.face.result(state.result, self.my_view())), self.game_closed)
            return
        self.show()
        self.after_move()

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

    # --- actions ------------------------------------------------------------------------------
    def picked(self) -> list[str]:
        return self.query_one("#hand", HandView).picked()

    def action_play(self, text: str) -> None:
        self.attempt(text)

    def action_answer(self, text: str) -> None:
        self.attempt(text)

    def action_take(self) -> None:
        try:
            self.attempt(self.face.take(self))
        except ValueError as exc:
            self.say(str(exc), refused=True)

    def action_meld(self) -> None:
        picked = self.picked()
        if len(picked) < self.face.MELD_MIN:
            self.say(self.face.MELD_PROMPT, refused=True)
            return
        self.attempt(" ".join(["meld", *(self.face.token(c) for c in picked)]))

    def action_lay(self) -> None:
        """Lay the selected card off: on the one meld that takes it, else choose in the list."""
        picked = self.picked()
        if len(picked) != 1:
            self.say("Select one card to lay off.", refused=True)
            return
        if not self.human_to_move():
            self.say("Wait for your turn.", refused=True)
            return
        targets = [str(m) for m in legal_moves(self.session.state) if str(m).startswith(f"lay {picked[0]} on ")]
        if len(targets) == 1:
            self.attempt(targets[0])
            return
        if not targets:
            self.say(f"{label(picked[0])} fits no meld on the table.", refused=True)
            return
        moves = self.query_one("#moves", OptionList)
        moves.highlighted = moves.get_option_index(targets[0])
        moves.focus()
        self.say(f"{label(picked[0])} fits {len(targets)} melds: choose one in the list (enter).")

    def action_discard(self) -> None:
        picked = self.picked()
        if len(picked) != 1:
            self.say("Select one card to discard.", refused=True)
            return
        self.attempt(f"discard {picked[0]}")

    def action_play_highlighted(self) -> None:
        """Enter, whatever has the focus: play the move highlighted in the list."""
        moves = self.query_one("#moves", OptionList)
        if moves.highlighted is None or not moves.option_count:
            self.say("No move is highlighted: it is not your turn.", refused=True)
            return
        option = moves.get_option_at_index(moves.highlighted)
        if option.id is not None:
            self.attempt(option.id)

    def action_sort(self) -> None:
        """The hand's next sort order (by rank, by suit for runs and sequences)."""
        orders = self.face.orders()
        self.order = (self.order + 1) % len(orders)
        hand = self.query_one("#hand", HandView)
        hand.order, hand.group = orders[self.order].order, orders[self.order].group
        hand.cards = []  # re-arranged on the next show
        self.show()
        self.call_after_refresh(self.say, f"Your hand is sorted by {orders[self.order].name}.")

    def action_colours(self) -> None:
        """Switch between the usual two suit colours and four (blue diamonds, green clubs)."""
        self.four = not self.four
        four_colours(self.four)
        self.show()
        self.say("Four suit colours: ♠ black, ♥ red, ♦ blue, ♣ green." if self.four else "Two suit colours.")

    def action_hint(self) -> None:
        if not self.human_to_move():
            self.say("A hint is for your turn.", refused=True)
            return
        move, reason = self.session.hint(self.hint_level)
        self.say(f"Hint ({self.hint_level}): {move_label(str(move))} — {reason}")
        moves = self.query_one("#moves", OptionList)
        moves.highlighted = moves.get_option_index(str(move))

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

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session.rules, self.face.KEYS))

    def action_quit_game(self) -> None:
        self.app.exit()  # nothing to save: the session saved the game after every move

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.attempt(event.option.id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None and self.human_to_move():
            explained = self.face.explain(parse_move(self.session.state, event.option.id), self.my_view())
            if explained is not None:
                self.say(explained)

    def on_hand_view_changed(self, event: HandView.Changed) -> None:
        widget = event.control
        if not widget.selected:
            return
        if widget.id == "pile":
            self.say(self.face.pile_chosen(widget.picked()[0]))
        else:
            self.say("Selected: " + " ".join(label(c) for c in widget.picked()) + "  " + self.face.SELECTED)


__all__ = ["TableScreen", "hand_goes_on"]
