"""The rummy family's table in the Textual app (500 Rum, Basic Rummy ...): your hand (sorted by suit or
by rank, selectable), the melds on the table under each owner with their points, the pile (500 Rum's
spread pile: any card may be chosen, and taking it takes every card above it; Basic Rummy's top card),
the stock, the scores and the target, the legal moves, a log; the end-of-hand breakdown and the score pad.

The computer players think in a worker (``turns.PlayScreen``), as at the Canasta table."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, OptionList, RichLog, Static

from ..rummy import RummyMove, is_over, legal_moves, view
from ..rummy.session import RummyGame
from ..text.names import move_label, plural, variant_title
from . import rummy_table
from .cards import label, sort_by_suit, sort_hand
from .hand import HandView
from .screens import GameOverScreen, HandEndScreen, HelpScreen
from .turns import PlayScreen

RUMMY_KEYS = """\
## Keys

| key | what it does |
|---|---|
| left / right, space, click | move along your hand (or the pile), select cards |
| tab | move between your hand, the pile and the list of legal moves |
| d | draw from the stock |
| t | take the card chosen in the pile (500 Rum: with every card above it, to be used at once) |
| m | meld the selected cards (a set, or a run of one suit) |
| l | lay off the selected card on a meld on the table (several melds: choose in the list) |
| x | discard the selected card (or the one under the cursor) |
| s | sort your hand by suit or by rank |
| enter | play the move highlighted in the list of legal moves (from your hand too) |
| c | four suit colours (♦ blue, ♣ green) or the usual two |
| h | hint: the move the hint level would play, and why |
| u | undo: take back this turn's last meld or lay-off, one at a time (a draw, a take, a call are final) |
| ? | this page; escape closes it |
| q | quit (the game is saved after every move) |
"""


def _no_groups(_: str) -> str:
    return ""


def _suit_group(card: str) -> str:
    return card[-1]


class RummyTableScreen(PlayScreen):
    """The table for the human seat of a ``RummyGame``."""

    session: RummyGame

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "draw"),
        Binding("t", "take", "take"),
        Binding("m", "meld", "meld"),
        Binding("l", "lay", "lay off"),
        Binding("x", "discard", "discard"),
        Binding("s", "sort", "sort", show=False),
        Binding("c", "colours", "four colours", show=False),
        Binding("enter", "play_highlighted", "play the highlighted move", show=False),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_game", "quit"),
    ]
    DEFAULT_CSS = """
    #status { background: $boost; height: 1; }
    #players { height: auto; }
    #table { height: auto; max-height: 30%; border-top: solid $primary; }
    #pile-title { height: auto; border-top: solid $primary; }
    #middle { height: 1fr; min-height: 3; }
    #log { width: 1fr; border-top: solid $primary; }
    #moves { width: 30; border-top: solid $primary; }
    #hand { border-top: solid $primary; }
    #message { height: auto; min-height: 1; }
    .refused { color: $error; }
    """

    def __init__(self, session: RummyGame, hint_level: str, delay: float) -> None:
        super().__init__(session, hint_level, delay)
        self.by_suit = True

    @property
    def spread(self) -> bool:
        """Is the pile spread (any card may be taken), or is only its top card in play?"""
        return self.session.rules.pile_take != "top"

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="players")
        with VerticalScroll(id="table"):
            yield Static(id="melds")
        yield Static(id="pile-title")
        yield HandView(id="pile", order=list, group=_no_groups, single=True, cursor_at_end=True)
        with Horizontal(id="middle"):
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
            yield OptionList(id="moves")
        yield HandView(id="hand", order=self._hand_order, group=_suit_group)
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hand", HandView).focus()
        self.show()
        rules = self.session.rules
        self.log_line(f"{variant_title(rules.name)}, {rules.players} players, game {rules.game_target()}; you are "
                      f"{rummy_table.seat_label(self.my_view(), self.seat)}. Press ? for how to play.")
        self.catch_up()
        self.after_move()

    def _hand_order(self, cards: Any) -> list[str]:
        if self.by_suit:
            return sort_by_suit(cards, ace_low=self.session.rules.ace == "low")
        return sort_hand(cards)

    # --- showing ------------------------------------------------------------------------------
    def my_view(self) -> dict[str, Any]:
        return view(self.session.state, self.seat)

    def status_text(self) -> Text:
        return rummy_table.status(self.my_view())

    def show(self) -> None:
        v = self.my_view()
        self.show_status()
        self.query_one("#players", Static).update(rummy_table.players(v, self.session.seats))
        self.query_one("#melds", Static).update(rummy_table.melds(v))
        self.query_one("#pile-title", Static).update(rummy_table.pile_title(v, self.spread))
        self.query_one("#pile", HandView).show(v["pile"] if self.spread else v["pile"][-1:])
        self.query_one("#hand", HandView).show(v["hand"])
        self.list_moves()

    # --- playing ------------------------------------------------------------------------------
    def advance(self, move: RummyMove) -> None:
        before = self.session.state
        seen = view(before, self.seat)
        after = self.session.play(move)
        self.narrate(before, move, after, seen)
        self.show()
        if after.hand_number != before.hand_number or is_over(after):
            summary = after.last_hand
            assert summary is not None
            v = self.my_view()
            footer = rummy_table.result_text(after.result, v) if after.result else "Enter: the next hand"
            self.waiting = True
            self.app.push_screen(HandEndScreen(rummy_table.hand_end(summary, v),
                                               rummy_table.score_pad(self.session.hands, v), footer), self.hand_closed)
            return
        self.after_move()

    def narrate(self, before: Any, move: Any, after: Any, seen: Any = None) -> None:
        seen = seen if seen is not None else view(before, self.seat)
        who = before.to_move
        name = "You" if who == self.seat else rummy_table.seat_label(seen, who)
        self.log_line(f"{name}: {move_label(str(move))}")
        words = str(move).split()
        if move.action == "take" and len(words) > 1 and words[1] in seen["pile"]:
            taken = len(seen["pile"]) - seen["pile"].index(words[1])
            if taken > 1:
                self.log_line(f"  … with the {plural(taken - 1, 'card')} above it")
        same_hand = after.hand_number == before.hand_number and not is_over(after)
        if same_hand and who == self.seat and move.action == "draw":
            gained = sorted((Counter(view(after, self.seat)["hand"]) - Counter(seen["hand"])).elements())
            if gained:
                self.log_line(f"You drew {' '.join(label(c) for c in gained)}")
        if not same_hand:
            self.hand_line(before.hand_number, after)

    def hand_closed(self, _: None = None) -> None:
        self.waiting = False
        state = self.session.state
        if is_over(state):
            assert state.result is not None
            self.waiting = True
            self.app.push_screen(GameOverScreen(rummy_table.result_text(state.result, self.my_view())),
                                 self.game_closed)
            return
        self.show()
        self.after_move()

    # --- actions ------------------------------------------------------------------------------
    def picked(self) -> list[str]:
        return self.query_one("#hand", HandView).picked()

    def action_draw(self) -> None:
        self.attempt("draw")

    def action_take(self) -> None:
        pile = self.query_one("#pile", HandView)
        chosen = pile.picked()
        if not chosen:
            self.say("The pile is empty.", refused=True)
            return
        self.attempt(f"take {chosen[0]}")

    def action_meld(self) -> None:
        picked = self.picked()
        if len(picked) < 3:
            self.say("Select three or more cards to meld first (space, or click them).", refused=True)
            return
        self.attempt(" ".join(["meld", *picked]))

    def action_lay(self) -> None:
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

    def action_sort(self) -> None:
        self.by_suit = not self.by_suit
        hand = self.query_one("#hand", HandView)
        hand.group = _suit_group if self.by_suit else _rank_group_rummy
        hand.cards = []  # re-arranged on the next show
        self.show()
        self.call_after_refresh(self.say, f"Your hand is sorted by {'suit' if self.by_suit else 'rank'}.")

    def action_hint(self) -> None:
        if not self.human_to_move():
            self.say("A hint is for your turn.", refused=True)
            return
        move, reason = self.session.hint(self.hint_level)
        self.say(f"Hint ({self.hint_level}): {move_label(str(move))} — {reason}")
        moves = self.query_one("#moves", OptionList)
        moves.highlighted = moves.get_option_index(str(move))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session.rules, RUMMY_KEYS))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.attempt(event.option.id)

    def on_hand_view_changed(self, event: HandView.Changed) -> None:
        widget = event.control
        if isinstance(widget, HandView) and widget.id == "pile" and widget.selected:
            self.say(f"Chosen in the pile: {label(widget.picked()[0])}  (t takes it"
                     + (" with every card above it)" if self.spread else ")"))
        elif isinstance(widget, HandView) and widget.selected:
            self.say("Selected: " + " ".join(label(c) for c in widget.picked()) + "  (m meld, l lay off, x discard)")


def _rank_group_rummy(card: str) -> str:
    return card[:-1]


__all__ = ["RUMMY_KEYS", "RummyTableScreen"]
