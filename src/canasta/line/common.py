"""What the line mode and the other text faces say alike for every family: history entries as lines, the
legal moves with what they do, score lines side by side, the game's result. Each family's own text (its table,
its melds, its moves explained) is a plug-in beside this module (``canasta.line.canasta``,
``canasta.line.rummy``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..canasta.view import seat_name
from ..text.names import move_label, plural, side_name


@dataclass(frozen=True)
class TableText:
    """A family's plug-in to the text faces: how its table, its moves and its hands' ends are written."""

    title: Callable[[Any], str]  # rules -> the game's name in the welcome line: "Canasta (classic)"
    render_view: Callable[[dict[str, Any]], str]  # a seat's view -> the table, several lines
    explain_move: Callable[[Any, dict[str, Any]], str]  # (a legal move, the view) -> what it does, for 'help'
    verbs: Callable[[Any], list[str]]  # rules -> every move word a player may type in this variant
    hand_end: Callable[[Any, int, Any], str]  # (the state's last_hand, the hand's number, rules) -> the scores
    told_back: Callable[[str], bool]  # is one's own history entry (the text after the seat) told to the mover?
    undo_what: str  # what 'undo' takes back, for the welcome line


def describe_history(entry: str, players: int, me: int, asker: int | None = None, symbols: bool = False) -> str:
    """One ``view["history"]`` entry (``"1 meld 9 9 9"``) as a line for the table, cards written as players
    read them (``10`` for ``T``; suit symbols with ``symbols``).

    The engine files a ``yes``/``no`` answer under the seat that answered; pass ``asker`` (the seat
    whose turn it is, ``view["turn_seat"]``) to name who asked too."""
    who, _, what = entry.partition(" ")
    what = move_label(what, symbols)
    seat = int(who)
    name = "You" if seat == me else seat_name(players, seat)
    if what == "upcard":
        return f"{name} dealt; no upcard, the pile starts empty"
    if what.startswith("upcard "):
        return f"{name} dealt; turned up {what.split(' ', 1)[1]} to start the pile"
    if what.startswith("red-three "):
        return f"{name}: drew a red three ({what.split()[1]}), laid out and replaced"
    if what.startswith("three "):
        return f"{name}: drew a three ({what.split()[1]}), laid out and replaced"
    if what.startswith("bonus-cards "):
        return f"{name}: opened from the hand and took {what.split()[1]} bonus cards (to use from the next turn)"
    if what == "foot":
        return f"{name}: picked up {'your' if seat == me else 'the'} foot"
    if what in ("yes", "no"):
        if asker is None:
            return f"{name} {'say' if seat == me else 'says'} {what}"
        return f"{name} (asked by {'you' if asker == me else seat_name(players, asker)}): {what}"
    return f"{name}: {what}"


def render_help(legal: Sequence[Any], view: dict[str, Any], explain: Callable[[Any, dict[str, Any]], str]) -> str:
    """The legal moves, one a line, each with what it does (``explain(move, view)``: the family's words)."""
    texts = [move_label(str(m), symbols=False) for m in legal]
    width = max((len(t) for t in texts), default=0) + 2
    lines = ["Legal moves:"]
    lines += [f"  {t:<{width}}{explain(m, view)}" for t, m in zip(texts, legal, strict=True)]
    lines.append("Type a move as shown (full cards such as 9H work too), 'show' for the table, 'quit' to leave.")
    return "\n".join(lines)


_LINE_LABELS = {
    "melded_cards": "melded cards", "cards_in_hand": "cards in hand", "natural_canastas": "natural canastas",
    "mixed_canastas": "mixed canastas", "red_threes": "red threes", "going_out": "going out",
    "undeclared_red_threes": "red threes not laid out", "sequence_canastas": "sequence canastas",
    "wild_canastas": "wild canastas", "twos_canastas": "canastas of twos", "canasta_sets": "sets of canastas",
    "short_sequences": "short sequences", "black_threes_in_hand": "black threes in hand",
    "rank_canastas": "canastas of 7s and aces", "black_threes_laid_out": "black threes laid out",
    "unfinished_melds": "unfinished melds", "hand_penalties": "3 aces or 7s in a hand",
    "special_hand": "special hand",
}


def render_breakdown(results: Sequence[dict[str, Any]], names: Sequence[str], extra: Sequence[str] = ()) -> list[str]:
    """Score lines side by side: a header of ``names``, every line of every side, ``hand total``, then
    the keys named in ``extra`` (such as ``cumulative``) where the results have them."""
    lines = [f"{'':<24}" + "".join(f"{n:>10}" for n in names)]
    keys: list[str] = []
    for res in results:
        keys += [k for k in res["lines"] if k not in keys]
    for k in keys:
        label = _LINE_LABELS.get(k, k.replace("_", " "))
        lines.append(f"{label:<24}" + "".join(f"{res['lines'].get(k, 0):>10}" for res in results))
    lines.append(f"{'hand total':<24}" + "".join(f"{res['total']:>10}" for res in results))
    for k in extra:
        lines.append(f"{k:<24}" + "".join(f"{res[k]:>10}" for res in results))
    return lines


def render_result(result: dict[str, Any], players: int, my_side: int | None = None) -> str:
    scores = result["scores"]
    teams = len(scores)
    totals = ", ".join(f"{side_name(players, teams, i)} {s}" for i, s in enumerate(scores))
    winner = result["winner"]
    if result.get("stalemate"):  # the rummy family's game given up as lost by every side
        return f"Game over after {plural(result['hands'], 'hand')}: a stalemate, lost by everyone ({totals})."
    if winner is None:
        return f"Game over after {plural(result['hands'], 'hand')}: a draw ({totals})."
    who = side_name(players, teams, winner)
    if my_side is not None:
        who += " (your side)" if winner == my_side else ""
    return f"Game over after {plural(result['hands'], 'hand')}: {who} won ({totals})."


__all__ = ["TableText", "describe_history", "render_breakdown", "render_help", "render_result"]
