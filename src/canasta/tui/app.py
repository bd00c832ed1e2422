"""The Textual app: ``CanastaApp(session).run()``, or ``CanastaApp(None, save_path=...)`` to open the
start screen first. The session (``canasta.play.session``) keeps the game and saves it after every move."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, OptionList, RichLog, Static

from .. import parse_move
from ..canasta.engine import is_over
from ..canasta.moves import Move
from ..canasta.rules import Rules
from ..canasta.state import State
from ..canasta.view import view
from ..play.session import Session, hand_goes_on, news
from ..rummy import RummyRules
from ..rummy.session import RummyGame
from ..text.names import variant_title
from ..textui import describe_history, explain_move, render_result
from . import table
from .cards import label, sort_by_suit, sort_hand
from .hand import HandView, rank_group, suit_group
from .rummy_screen import RummyTableScreen
from .screens import GameOverScreen, HandEndScreen, HelpScreen, SavedGameScreen, StartScreen
from .turns import PlayScreen


def _rank_token(card: str) -> str:
    """A card as move notation wants it in ``meld``/``take``: its rank (``JK`` for a joker)."""
    return card if card == "JK" else card[:-1]


class TableScreen(PlayScreen):
    """The table for the human seat: everything it may see, its hand, the legal moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "play('draw')", "draw"),
        Binding("t", "take", "take"),
        Binding("m", "meld", "meld"),
        Binding("x", "discard", "discard"),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("s", "sort", "sort", show=False),
        Binding("c", "colours", "four colours", show=False),
        Binding("enter", "play_highlighted", "play the highlighted move", show=False),
        Binding("y", "play('yes')", "yes", show=False),
        Binding("n", "play('no')", "no", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_game", "quit"),
    ]
    DEFAULT_CSS = """
    #status { background: $boost; height: 1; }
    #seats { height: auto; }
    #sides { height: auto; max-height: 10; }
    #sides > Static { width: 1fr; height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    #pile-row { height: auto; }
    #pile-cards { width: auto; margin-right: 2; }
    #pile { width: 1fr; }
    #middle { height: 1fr; min-height: 3; }
    #log { width: 1fr; border-top: solid $primary; }
    #moves { width: 28; border-top: solid $primary; }
    #hand { border-top: solid $primary; }
    #message { height: auto; min-height: 1; }
    .refused { color: $error; }
    """

    session: Session

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="seats")
        with Horizontal(id="sides"):
            yield Static(id="us")
            yield Static(id="them")
        with Horizontal(id="pile-row"):
            yield Static(id="pile-cards")
            yield Static(id="pile")
        with Horizontal(id="middle"):
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
            yield OptionList(id="moves")
        yield HandView(id="hand")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.show()
        self.log_line(f"{variant_title(self.session.rules.name)}; you are {self.seat_label(self.seat)}. "
                      "Press ? for how to play.")
        self.catch_up()
        self.after_move()

    # --- showing ------------------------------------------------------------------------------
    def seat_label(self, seat: int) -> str:
        from ..canasta.view import seat_name

        return seat_name(self.session.rules.players, seat)

    def show(self) -> None:
        v = view(self.session.state, self.seat)
        self.show_status()
        self.query_one("#seats", Static).update(table.seats(v, self.session.seats))
        them = [i for i in range(len(v["sides"])) if i != v["side"]]
        self.query_one("#us", Static).update(table.side(v, v["side"]))
        self.query_one("#them", Static).update(Text("\n").join(table.side(v, i) for i in them))
        self.query_one("#pile-cards", Static).update(table.pile_cards(v))
        self.query_one("#pile", Static).update(table.pile(v))
        self.query_one(HandView).show(v["hand"])
        self.list_moves()

    def status_text(self) -> Text:
        return table.status(view(self.session.state, self.seat))

    # --- playing ------------------------------------------------------------------------------
    def advance(self, move: Move) -> None:
        before = self.session.state
        seen = view(before, self.seat)
        after = self.session.play(move)
        self.narrate(before, move, after, seen)
        self.show()
        if not hand_goes_on(before, after):
            assert after.last_hand is not None
            v = view(after, self.seat)
            pad = table.score_pad(self.session.hands, v)
            footer = (render_result(after.result, after.rules.players, after.rules.side_of(self.seat))
                      if after.result else "Enter: the next hand")
            self.waiting = True
            self.app.push_screen(HandEndScreen(table.hand_end(after.last_hand, before.hand_number, v), pad, footer),
                                 self.hand_closed)
            return
        self.after_move()

    def narrate(self, before: State, move: Move, after: State, seen: dict[str, Any] | None = None) -> None:
        """The log's lines for a move: what every seat did as the human seat saw it, the cards the human
        drew, the pile taken, and a line between hands."""
        seen = seen if seen is not None else view(before, self.seat)
        same_hand = hand_goes_on(before, after)
        for entry in news(before, move, after):
            self.log_line(describe_history(entry, before.rules.players, self.seat, before.turn_seat, symbols=True))
        if same_hand and before.to_move == self.seat:
            gained = sorted((Counter(view(after, self.seat)["hand"]) - Counter(seen["hand"])).elements())
            if move.action == "draw" and gained:
                self.log_line(f"You drew {' '.join(label(c) for c in gained)}")
        if move.action == "take" and seen["pile"]:
            who = "You" if before.to_move == self.seat else self.seat_label(before.to_move)
            self.log_line(f"{who} took the pile: {' '.join(label(c) for c in seen['pile'])}")
        if not same_hand:
            self.hand_line(before.hand_number, after)

    def hand_closed(self, _: None = None) -> None:
        self.waiting = False
        state = self.session.state
        if is_over(state):
            assert state.result is not None
            text = render_result(state.result, state.rules.players, state.rules.side_of(self.seat))
            self.waiting = True
            self.app.push_screen(GameOverScreen(text), self.game_closed)
            return
        self.show()
        self.after_move()

    # --- actions ------------------------------------------------------------------------------
    def action_play(self, text: str) -> None:
        self.attempt(text)

    def action_take(self) -> None:
        picked = self.query_one(HandView).selected and self.query_one(HandView).picked()
        self.attempt(" ".join(["take", *(_rank_token(c) for c in picked or [])]))

    def action_meld(self) -> None:
        picked = self.query_one(HandView).picked()
        if not picked:
            self.say("Select the cards to meld first (space, or click them).", refused=True)
            return
        self.attempt(" ".join(["meld", *(_rank_token(c) for c in picked)]))

    def action_discard(self) -> None:
        picked = self.query_one(HandView).picked()
        if len(picked) != 1:
            self.say("Select one card to discard.", refused=True)
            return
        self.attempt(f"discard {picked[0]}")

    def action_hint(self) -> None:
        if not self.human_to_move():
            self.say("A hint is for your turn.", refused=True)
            return
        move, reason = self.session.hint(self.hint_level)
        self.say(f"Hint ({self.hint_level}): {move} — {reason}")
        moves = self.query_one("#moves", OptionList)
        moves.highlighted = moves.get_option_index(str(move))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session.rules))

    def action_sort(self) -> None:
        """Sort the hand by rank (melds of a kind) or by suit (sequences: Samba, Modern American)."""
        hand = self.query_one(HandView)
        by_suit = hand.order is sort_hand
        hand.order, hand.group = (sort_by_suit, suit_group) if by_suit else (sort_hand, rank_group)
        hand.cards = []  # re-arranged on the next show
        self.show()
        self.call_after_refresh(self.say, f"Your hand is sorted by {'suit' if by_suit else 'rank'}.")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.attempt(event.option.id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None and self.human_to_move():
            state = self.session.state
            move = parse_move(state, event.option.id)
            self.say(f"{move}: {explain_move(move, view(state, self.seat))}")

    def on_hand_view_changed(self, _: HandView.Changed) -> None:
        picked = self.query_one(HandView).selected
        if picked:
            self.say("Selected: " + " ".join(label(c) for c in self.query_one(HandView).picked())
                     + "  (m meld, x discard, t take)")


class CanastaApp(App[None]):
    """``canasta play``: the start screen (without a session), then the table: Canasta's for a ``Session``,
    the rummy family's for a ``RummyGame``."""

    TITLE = "Canasta"
    ENABLE_COMMAND_PALETTE = False  # its footer key would push "? help" and "q quit" off an 80-column footer

    def __init__(self, session: Session | RummyGame | None = None, *, save_path: Path | None = None,
                 seed: int | None = None, hint_level: str = "medium", delay: float = 0.6,
                 saved: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.saved = saved  # the unfinished game in save_path that a new game would replace: ask first
        self.save_path = save_path
        self.seed = seed
        self.hint_level = hint_level
        self.delay = delay

    def on_mount(self) -> None:
        if self.saved is not None and self.save_path is not None:
            self.push_screen(SavedGameScreen(self.save_path, self.saved), self.saved_answer)
        else:
            self.begin()

    def begin(self) -> None:
        if self.session is not None:
            self.open_table(self.session)
        else:
            self.push_screen(StartScreen(), self.start)

    def saved_answer(self, kept: Session | RummyGame | bool | None) -> None:
        """The saved game carried on, a new one (False), or leave with nothing changed (None)."""
        if kept is None:
            self.exit()
        elif kept is False:
            self.begin()
        elif not isinstance(kept, bool):
            self.session = kept
            self.open_table(kept)

    def open_table(self, session: Session | RummyGame) -> None:
        if isinstance(session, RummyGame):
            self.push_screen(RummyTableScreen(session, self.hint_level, self.delay))
        else:
            self.push_screen(TableScreen(session, self.hint_level, self.delay))

    def start(self, chosen: tuple[Rules | RummyRules, list[str]] | None) -> None:
        if chosen is None:
            self.exit()
            return
        rules, seats = chosen
        if isinstance(rules, RummyRules):
            self.session = RummyGame.start(rules, seats, self.seed, self.save_path)
        else:
            self.session = Session.start(rules, seats, self.seed, self.save_path)
        self.open_table(self.session)

    def compose(self) -> ComposeResult:
        yield Vertical()


__all__ = ["CanastaApp", "TableScreen"]
