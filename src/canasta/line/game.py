"""The line mode of ``canasta play`` (``--plain``), for every family: the table as text, moves typed at a prompt.

``LineGame(session, seat, ...).run()`` plays the human ``seat`` of a ``Session`` until the game ends,
the player quits or the input ends; the session saves the game after every move, so nothing is lost. What
differs between the families (the table, the moves explained, a hand's end) is the family's ``TableText``
plug-in (``table_text``).
"""

from __future__ import annotations

import difflib
import re
import shutil
import textwrap
from collections import Counter
from typing import Any, TextIO

from .. import is_over, legal_moves, parse_move, view, why_illegal
from ..canasta.view import seat_name
from ..play.family import PlayFamily
from ..play.session import Session, hand_goes_on, news
from ..text.how_to_play import how_to_play
from ..text.names import move_label, side_name
from . import canasta, rummy
from .common import TableText, describe_history, render_help, render_result

COMMANDS = ("help", "hint", "show", "undo", "rules", "quit")
_SYNONYMS = {"?": "help", "h": "help", "table": "show", "": "show", "q": "quit", "exit": "quit", "u": "undo"}
_TEXTS = {"Canasta": canasta.TEXT, "rummy": rummy.TEXT}


def table_text(family: PlayFamily) -> TableText:
    """The plug-in that writes the table of a family's games (``play_family(rules or state)``)."""
    return _TEXTS[family.name]


def wrap(text: str, width: int) -> str:
    """Each line of ``text`` wrapped at word boundaries; a continuation is indented under its line's text."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        # A help line "  meld 9 9 9    explanation" continues under its explanation, others a little in.
        columns = re.match(r" *\S.*?\s{2,}(?=\S)", line)
        column = columns.end() if columns else len(line) - len(line.lstrip(" ")) + 4
        indent = " " * min(column, width // 2)
        out += textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent, drop_whitespace=True,
                             break_on_hyphens=False, break_long_words=False) or [""]
    return "\n".join(out)


class LineGame:
    """One human seat at the table, line by line on a pair of text streams."""

    def __init__(self, session: Session, seat: int, stdin: TextIO, stdout: TextIO, *, pause: bool = False,
                 offer_again: bool = False, hint_level: str = "medium", width: int | None = None) -> None:
        self.session = session
        self.seat = seat
        self.stdin, self.stdout = stdin, stdout
        self.pause_on = pause
        self.offer_again = offer_again
        self.hint_level = hint_level
        # Wrapped to the terminal's width; a pipe or a file gets whole lines (width 0: no wrapping).
        self.width = width if width is not None else (
            shutil.get_terminal_size((80, 24)).columns if stdout.isatty() else 0)
        self.echo = not stdin.isatty()
        self.others_moved = False
        self.text = table_text(session.family)

    # --- output and input -----------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.stdout.write((wrap(text, self.width) if self.width else text) + "\n")

    def ask(self, prompt: str) -> str | None:
        """A line of input (``None`` at the end of the input)."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        text = line.strip()
        if self.echo:
            self.stdout.write(text + "\n")
        return text

    def pause(self) -> bool:
        """Wait for Enter so that what was printed can be read; False at the end of the input."""
        return not self.pause_on or self.ask("[Enter] ") is not None

    def name(self, seat: int) -> str:
        return seat_name(self.session.rules.players, seat)

    # --- the game -------------------------------------------------------------------------
    def run(self) -> int:
        while True:
            if not self.play_one():
                return 0
            if not self.offer_again:
                return 0
            answer = self.ask("Play again? (yes/no) ")
            if answer is None or answer.lower() not in ("y", "yes"):
                return 0
            self.session = self.session.again()

    def welcome(self) -> None:
        r = self.session.rules
        side = r.side_of(self.seat)
        partners = [self.name(s) for s in r.seats_of(side) if s != self.seat]
        computers = ", ".join(f"{self.name(s)} {self.session.seats[s]}" for s in sorted(self.session.computers))
        self.say(f"{self.text.title(r)}. You are {self.name(self.seat)} (seat {self.seat}, "
                 f"{side_name(r.players, r.teams, side)})"
                 + (f", partnered with {', '.join(partners)}" if partners else "")
                 + f"; computer players: {computers}.")
        self.say(f"Moves: {', '.join(self.text.verbs(r))}. Type 'help' for the legal moves with what they do, "
                 f"'hint' for a suggestion, 'undo' to take back {self.text.undo_what}, 'rules' for how to play, "
                 f"'quit' to leave (the game is saved).")

    def play_one(self) -> bool:
        """Play until the game ends (True) or the player leaves (False)."""
        self.welcome()
        render = True
        while not is_over(self.session.state):
            state = self.session.state
            if self.session.computer_to_move():
                self.advance(self.session.computer_move())
                self.others_moved = True
                render = True
                continue
            if self.others_moved:
                self.others_moved = False
                if not self.pause():
                    return self.leave("End of input")
            if render:
                self.say()
                self.say(self.text.render_view(view(state, self.seat)))
                render = False
            text = self.ask("Your answer (yes/no)> " if state.phase == "answer" else "Your move> ")
            if text is None:
                self.stdout.write("\n")
                return self.leave("End of input")
            command = _SYNONYMS.get(text.lower(), text.lower())
            if command == "quit":
                return self.leave("You leave the game")
            if command == "help":
                self.say(render_help(legal_moves(state), view(state, self.seat), self.text.explain_move))
            elif command == "hint":
                move, reason = self.session.hint(self.hint_level)
                self.say(f"Hint ({self.hint_level}): {move_label(str(move), symbols=False)} - {reason}")
            elif command == "show":
                render = True
            elif command == "rules":
                self.say(how_to_play(state.rules).rstrip("\n"))
            elif command == "undo":
                render = self.undo()
            else:
                render = self.try_move(text)
        return True

    def leave(self, why: str) -> bool:
        path = self.session.save_path
        if path and self.session.in_progress():
            self.say(f"The game is saved; carry on with: canasta play --resume {path}")
        self.say(f"{why}.")
        return False

    def try_move(self, text: str) -> bool:
        """Play a typed move; True if it was played. A mistake is explained and costs nothing."""
        state = self.session.state
        legal = legal_moves(state)
        verbs = self.text.verbs(state.rules)
        try:
            move = parse_move(state, text)
        except ValueError as exc:
            word = text.split()[0]
            message = str(exc)
            if message.startswith("unknown move"):
                message = f"unknown move {word!r}; in {state.rules.name} the moves are: {', '.join(verbs)}"
            self.say(f"bad move: {message}{self.did_you_mean(text, legal)} (type 'help' for the legal moves)")
            return False
        problem = why_illegal(state, move)
        if problem is not None:
            self.say(f"illegal {problem.code}: {problem.message}{self.did_you_mean(text, legal)}")
            return False
        self.advance(move)
        return True

    def undo(self) -> bool:
        """Take back this turn's last move that is not final; True if one was (the table is shown again)."""
        try:
            taken = self.session.undo()
        except ValueError as exc:
            self.say(str(exc))
            return False
        self.say(f"Taken back: {taken}")
        return True

    @staticmethod
    def did_you_mean(text: str, legal: list[Any]) -> str:
        words = {w.lower(): move_label(w, symbols=False) for w in [*(str(m) for m in legal), *COMMANDS]}
        close = difflib.get_close_matches(text.strip().lower(), list(words), n=3, cutoff=0.6)
        return f"; did you mean {' or '.join(repr(words[c]) for c in close)}?" if close else ""

    def advance(self, move: Any) -> None:
        """Play ``move`` and tell what happened: others' moves, your cards, the end of a hand."""
        before = self.session.state
        mover = before.to_move
        mine = view(before, self.seat)
        after = self.session.play(move)
        players = self.session.rules.players
        same_hand = hand_goes_on(before, after)
        for entry in news(before, move, after):
            seat, _, what = entry.partition(" ")
            if int(seat) != self.seat or self.text.told_back(what):
                self.say(describe_history(entry, players, self.seat, before.turn_seat))
        if same_hand and mover == self.seat:
            gained = Counter(view(after, self.seat)["hand"]) - Counter(mine["hand"])
            if gained:
                verb = "You drew" if move.action == "draw" else "Into your hand"
                self.say(f"{verb}: {' '.join(sorted(gained.elements()))}")
        if not same_hand:
            assert after.last_hand is not None
            self.say()
            self.say(self.text.hand_end(after.last_hand, before.hand_number, self.session.rules))
            if is_over(after):
                assert after.result is not None
                self.say(render_result(after.result, players, self.session.rules.side_of(self.seat)))
            else:
                self.say(f"Hand {after.hand_number}: {self.name(after.dealer)} deals.")
                self.others_moved = False
                self.pause()


__all__ = ["LineGame", "table_text", "wrap"]
