"""``canasta play --variant basic-rummy`` (and every rummy preset) in the line mode: one person against
computer players, typing moves in notation (docs/rummy.md). ``help`` lists the legal moves, ``hint`` shows
the hint level's choice (``--hint-level``), ``undo`` takes back this turn's last meld or lay-off, ``quit`` leaves (the
game, a ``RummyGame``, is saved after every move)."""

from __future__ import annotations

from typing import Any, TextIO

from ..canasta.view import seat_name
from ..errors import IllegalMove
from ..text.how_to_play import how_to_play
from ..text.names import move_label, side_name
from .api import is_over, legal_moves, parse_move, why_illegal
from .moves import RummyMove
from .session import RummyGame
from .view import view

HELP = ("moves: draw | take CARD (that pile card and all above it) | meld 5H 6H 7H | lay 8H on 5H-7H | "
        "discard 9S | pass (stock empty: end the hand; or decline a 'Rum' call) | rum 8H on 5H-7H (claim a "
        "discard that fits a meld) | take dealer JK | nominate wild/double/split | block JK | "
        "split 7C [to KD] (Dealer's Gambit); "
        "also help, hint, show, undo (this turn's last meld or lay-off), rules (how to play), quit")


def render(v: dict[str, Any]) -> str:
    lines = [f"{v['variant']} - hand {v['hand_number']} - scores {v['scores']} (target {v['target']})",
             f"stock {v['stock']}  pile (bottom to top): {' '.join(v['pile']) or '-'}"]
    for m in v["melds"]:
        lines.append(f"  meld {m['label']:<8} {' '.join(m['cards'])}  (by seats {m['seats']})")
    lines.append("hand sizes: " + ", ".join(f"seat {i}: {n}" for i, n in enumerate(v["hand_sizes"])))
    if v.get("hand") is not None:
        lines.append(f"your hand (seat {v['seat']}): {' '.join(v['hand'])}")
    if v["must_use"]:
        lines.append(f"you must meld or lay off {v['must_use']} now")
    if v.get("joker_effect"):
        lines.append(f"the jokers are {v['joker_effect']} this hand (nominated by the dealer, seat {v['dealer']})")
    elif v.get("phase") == "nominate":
        lines.append(f"the dealer (seat {v['dealer']}) nominates the jokers' effect: wild, double or split")
    if v.get("dealers_joker_blocked"):
        lines.append("the dealer's joker is blocked (a joker lies face down over it)")
    elif v.get("dealers_joker"):
        lines.append(f"the dealer's joker lies beside the stock (only seat {v['dealer']} may take it)")
    if v.get("claim_from") is not None and v["pile"]:
        lines.append(f"seat {v['claim_from']} discarded {v['pile'][-1]}: seat {v['to_move']} may call 'rum' or "
                     "play between turns where the rules allow it, or 'pass'")
    return "\n".join(lines)


def render_hand_end(summary: dict[str, Any], players: int, teams: int) -> str:
    """A finished rummy hand as text: who went out, each side's lines and net, the scores."""
    who = "nobody went out" if summary["went_out"] is None else f"{seat_name(players, summary['went_out'])} went out"
    if summary["stalemate"]:
        who = "stalemate (" + ("nobody can finish" if summary.get("stalemate_reason") == "stuck"
                               else "the stock ran out twice") + "): no score"
    parts = [f"=== Hand {summary['hand']} is over: {who}" + (" (rummy!)" if summary["rummy"] else "") + " ==="]
    for i, side in enumerate(summary["sides"]):
        lines = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in side["lines"].items())
        parts.append(f"  {side_name(players, teams, i)}: {lines} = {side['total']} (total {summary['scores'][i]})")
    return "\n".join(parts)


class RummyLineGame:
    """The human seat of ``game``, line by line on a pair of text streams."""

    def __init__(self, game: RummyGame, stdin: TextIO, stdout: TextIO, hint_level: str = "hard") -> None:
        self.game = game
        self.seat = game.humans[0]
        self.stdin = stdin
        self.stdout = stdout
        self.hint_level = hint_level

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def leave(self, why: str) -> int:
        """Say where the game is saved and why the player leaves; the exit status (0: leaving is no error)."""
        if self.game.save_path and self.game.in_progress():
            self.say(f"The game is saved; carry on with: canasta play --resume {self.game.save_path}")
        self.say(f"{why}.")
        return 0

    def run(self) -> int:
        rules = self.game.rules
        others = ", ".join(f"seat {s} {self.game.seats[s]}" for s in sorted(self.game.computers))
        self.say(f"{rules.name}: you are seat {self.seat}; computer players: {others}. {HELP}")
        shown = False
        while not is_over(self.game.state):
            state = self.game.state
            if self.game.computer_to_move():
                move = self.game.computer_move()
                self.advance(move, f"seat {state.to_move}: {move}")
                continue
            if not shown:
                self.say(render(view(state, self.seat)))
                shown = True
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.stdout.write("\n")
                return self.leave("End of input")
            text = line.strip()
            if text in ("quit", "exit"):
                return self.leave("You leave the game")
            if text in ("show", ""):
                shown = False
                continue
            if text == "rules":
                self.say(how_to_play(rules).rstrip("\n"))
                continue
            if text == "help":
                self.say("legal: " + " | ".join(str(m) for m in legal_moves(state)))
                continue
            if text == "hint":
                move, reason = self.game.hint(self.hint_level)
                self.say(f"hint: {move_label(str(move), symbols=False)} - {reason}")
                continue
            if text == "undo":
                try:
                    self.say(f"taken back: {self.game.undo()}")
                    shown = False
                except ValueError as exc:
                    self.say(str(exc))
                continue
            try:
                mine = parse_move(state, text)
                problem = why_illegal(state, mine)
            except ValueError as exc:
                self.say(f"not understood: {exc}")
                continue
            if problem is not None:
                self.say(f"illegal {problem.code}: {problem.message}")
                continue
            self.advance(mine, f"you: {mine}")
            shown = False
        result = self.game.state.result
        assert result is not None
        winner = result["winner"]
        self.say(f"Game over after {result['hands']} hands: scores {result['scores']}; "
                 + ("a stalemate, lost by everyone" if result.get("stalemate") else "a draw" if winner is None
                    else f"side {winner + 1} wins"
                    + (" (yours)" if winner == rules.side_of(self.seat) else "")))
        return 0

    def advance(self, move: RummyMove, text: str) -> None:
        before = self.game.state
        try:
            after = self.game.play(move)
        except IllegalMove as exc:  # a computer player's bug must not end the game silently
            raise RuntimeError(f"{text}: {exc}") from None
        self.say(text)
        if after.hand_number != before.hand_number or is_over(after):
            summary = after.last_hand
            if summary is not None:
                self.say(render_hand_end(summary, self.game.rules.players, self.game.rules.teams))
