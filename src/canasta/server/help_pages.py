"""The browser's help: ``GET /api/rules/{variant}`` (a preset's page as data, the same pieces as
``canasta rules NAME``) and ``POST /api/learn`` (the "How to play" walk-through: a short guided hand of
Classic on a fixed deal, told step by step)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..canasta.cards import card_str, pack
from ..canasta.state import State
from ..canasta.variants import rules as make_rules
from ..dispatch import apply, view
from ..positions import build_position
from ..presets import game_rules
from ..text.variant_docs import variant_parts


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def rules_record(name: str) -> dict[str, Any]:
    """A preset's rules page as JSON (``ValueError`` for an unknown name): title, summary, aliases, the base
    preset and what differs from it, the choices where sources disagree, every parameter."""
    return _record(game_rules(name).name)  # cached by the preset's own name, not by what was asked


@cache
def _record(name: str) -> dict[str, Any]:
    parts = variant_parts(game_rules(name))
    return {
        "name": parts["name"], "family": parts["family"], "title": parts["title"], "summary": parts["summary"],
        "aliases": parts["aliases"], "base": parts["base"], "choices": parts["choices"], "notes": parts["footer"],
        "changed": [{"name": n, "value": _jsonable(v), "source": s} for n, v, s in parts["changed"]],
        "parameters": [{"name": n, "value": _jsonable(v), "allowed": parts["bounds"][n][2].record(), "meaning": m,
                        "source": s} for n, v, m, s in parts["parameters"]],
    }


# ---------------------------------------------------------------------------- the walk-through

# The deal: seat 0 (the learner) holds four kings, a joker and a pair of 7s; the stock's top cards are the
# draws of the script below, with the rest of the pack under them (its threes at the bottom, so that no red
# three turns up). The other seats hold the cards the script has them discard.
HANDS = ("KH KH KS KD JK 7C 7D 4C 9S 6H 8D",
         "9H QD QC 5D 6C 8S TS JH 4S 5C 6D",
         "KS 9D JD TD 4H 5H 8H QS 6S AC AD",
         "7S AH AS JC JS TC TH 4D 8C QH 9C")
UPCARD = "5S"
DRAWS = ("KC", "6S", "8C", "TD")  # the next cards drawn, in order: seat 0, 1, 2, 3

# (seat, move, the catalog key of the tip shown before the learner's move; empty for the others' moves).
# A learner's move is written as what he selects and presses: its first word is the button, the rest the
# ranks of the cards to select.
SCRIPT: tuple[tuple[int, str, str], ...] = (
    (0, "draw", "learn.tip.draw"),
    (0, "meld K K K K K JK", "learn.tip.meld"),
    (0, "discard 4", "learn.tip.discard"),
    (1, "draw", ""), (1, "discard 9H", ""),
    (2, "draw", ""), (2, "discard K", ""),
    (3, "draw", ""), (3, "discard 7", ""),
    (0, "take 7 7", "learn.tip.take"),
    (0, "meld K", "learn.tip.canasta"),
    (0, "discard 4", "learn.tip.last_discard"),
)
MAX_MOVES = sum(1 for seat, _move, _tip in SCRIPT if seat == 0)


class LessonError(ValueError):
    """A move list that does not follow the lesson."""


def _start() -> State:
    """The lesson's first position (the deal above)."""
    rules = make_rules("classic")
    rest = [card_str(c) for c in pack(rules.decks, rules.jokers)]
    for card in " ".join((*HANDS, UPCARD, *DRAWS)).split():
        rest.remove(card)
    stock = sorted(rest, key=lambda c: c[0] != "3") + list(reversed(DRAWS))  # the last card is the top
    return build_position(rules, hands=list(HANDS), pile=UPCARD, stock=" ".join(stock))


def lesson_step(moves: list[str]) -> dict[str, Any]:
    """The lesson after the learner's ``moves`` (each must be the lesson's own): seat 0's view, the other
    seats' moves since his last one, the next tip and what it expects (``None`` at the end). Only seat 0's
    view is ever sent: no card a real table would hide, and no view before the move that reveals it."""
    if len(moves) > MAX_MOVES:
        raise LessonError(f"the lesson has {MAX_MOVES} moves")
    state = _start()
    mine = [move for seat, move, _tip in SCRIPT if seat == 0]
    for i, given in enumerate(moves):
        if given != mine[i]:
            raise LessonError(f"move {i + 1} of the lesson is {mine[i]!r}")
    others: list[dict[str, Any]] = []
    done = 0
    for seat, move, tip in SCRIPT:
        if seat == 0:
            if done == len(moves):
                return {"step": done, "steps": MAX_MOVES, "view": view(state, 0), "others": others, "tip": tip,
                        "expect": {"action": move.split()[0], "ranks": move.split()[1:], "move": move}}
            done += 1
            others = []
        state = apply(state, move)
        if seat != 0:  # what every seat saw: a draw (no card), or the card discarded
            shown = view(state, 0)
            others.append({"seat": seat, "move": move.split()[0],
                           "card": shown["pile_top"] if move.startswith("discard") else None})
    return {"step": done, "steps": MAX_MOVES, "view": view(state, 0), "others": others, "tip": "learn.tip.end",
            "expect": None}
