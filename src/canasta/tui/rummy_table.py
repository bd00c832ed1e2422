"""The rummy table as Rich text, built from one seat's view (``canasta.rummy.view``): the players, the
melds on the table grouped by owner with their points, the pile, the end-of-hand breakdown and the score
pad. No Textual here: ``rummy_screen`` places these pieces on the screen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from ..canasta.view import seat_name
from ..text.names import plural, seat_mark, side_name, variant_title
from .cards import card_text, label
from .table import backs

# the breakdown's lines (canasta.rummy.scoring) as a player reads them
LINE_NAMES = {
    "table": "shown (melds and lay-offs)",
    "hand": "left in hand",
    "hands_won": "the others' hands (winner takes all)",
    "going_rummy": "going rummy (doubled)",
    "deadwood": "the others' deadwood",
    "going_out": "going out",
    "divided_by_5": "divided by 5",
}


def seat_label(v: dict[str, Any], seat: int) -> str:
    return seat_name(v["players"], seat) + (" (you)" if seat == v.get("seat") else "")


def side_label(v: dict[str, Any], side: int) -> str:
    """A side by its player where every player is a side (500 Rum for three), else ``N-S`` / ``side 1``."""
    if v["teams"] == v["players"]:
        return seat_name(v["players"], side)
    return side_name(v["players"], v["teams"], side)


def status(v: dict[str, Any]) -> Text:
    """``500-rum · hand 2 · your turn: draw, or take from the pile``."""
    me, to_move = v.get("seat"), v["to_move"]
    if v["result"] is not None:
        doing = "the game is over"
    elif to_move != me:
        doing = f"{seat_name(v['players'], to_move)} to move"
    elif v["phase"] == "nominate":
        doing = "your deal: nominate the jokers' effect (wild, double or split) in the list of moves"
    elif v["phase"] == "draw":
        doing = "your turn: draw from the stock, or take from the pile"
    elif v["must_use"]:
        doing = f"your turn: meld or lay off {label(v['must_use'])} (taken from the pile) now"
    else:
        doing = "your turn: meld, lay off, then discard"
    effect = f" · jokers {v['joker_effect']}" if v.get("joker_effect") else ""
    return Text.assemble((variant_title(v["variant"]), "bold"),
                         f" to {v['target']} · hand {v['hand_number']}{effect} · ", doing)


def players(v: dict[str, Any], names: Sequence[str] = ()) -> Text:
    """Every seat: who plays it (``names``: the seat names, such as levels), its cards (backs for the
    others) and its side's score; the seat to move in reverse; the target."""
    out = Text()
    for seat in range(v["players"]):
        if seat:
            out.append("  ")
        style = "reverse" if seat == v["to_move"] else ""
        side = seat % v["teams"]
        me = seat == v.get("seat")
        level = f" ({names[seat]})" if seat < len(names) and not me else ""
        out.append(("You" if me else seat_name(v["players"], seat)) + level + " ", style=style or "bold")
        count = v["hand_sizes"][seat]
        out.append(plural(count, "card") if me else backs(count), style=style or ("" if me else "blue"))
        if v["teams"] == v["players"]:
            out.append(f" · {v['scores'][side]}", style=style)
    if v["teams"] != v["players"]:
        out.append("   " + "  ".join(f"{side_label(v, s)} {score}" for s, score in enumerate(v["scores"])))
    return out


def owner(meld: dict[str, Any]) -> int:
    """The seat that laid most of a meld's cards (the earliest among equals): whose meld it is on the table."""
    seats: list[int] = meld["seats"]
    counts = Counter(seats)
    most = max(counts.values())
    return next(s for s in seats if counts[s] == most)


def melds(v: dict[str, Any]) -> Text:
    """The melds on the table under each owner, with the points each seat has on the table (a card laid
    off counts for whoever laid it: its seat's initial marks it in another's meld)."""
    table_points = [0] * v["players"]
    for m in v["melds"]:
        for seat, points in zip(m["seats"], m["points"], strict=True):
            table_points[seat] += points
    out = Text()
    for seat in range(v["players"]):
        mine = [m for m in v["melds"] if owner(m) == seat]
        if out:
            out.append("\n")
        out.append(f"{seat_label(v, seat)}", style="bold")
        out.append(f": {table_points[seat]} on the table")
        if not mine:
            out.append(" · no melds", style="dim")
        for m in mine:
            out.append(f"\n  {m['kind']:<4} ")
            for card, by in zip(m["cards"], m["seats"], strict=True):
                out.append_text(card_text(card))
                if by != seat:
                    out.append(f"({seat_mark(v['players'], by)})", style="dim")
                out.append(" ")
            out.append(f" {sum(m['points'])}", style="dim")
    return out


def pile_title(v: dict[str, Any], spread: bool) -> str:
    if not v["pile"]:
        return f"Stock {v['stock']} · pile empty"
    if spread:
        return f"Stock {v['stock']} · pile of {len(v['pile'])}, bottom to top (t takes the chosen card and those above)"
    return f"Stock {v['stock']} · pile of {len(v['pile'])}, top card (t takes it)"


def hand_end(summary: dict[str, Any], v: dict[str, Any]) -> str:
    """A finished hand: who went out (or the stalemate), each side's lines and net, the cards left."""
    if summary["stalemate"]:
        why = "nobody can finish" if summary.get("stalemate_reason") == "stuck" else "the stock ran out a second time"
        head = f"Hand {summary['hand']}: stalemate ({why}): nobody scores"
    elif summary["went_out"] is None:
        head = f"Hand {summary['hand']} is over: nobody went out"
    else:
        head = f"Hand {summary['hand']} is over: {seat_label(v, summary['went_out'])} went out"
        if summary["rummy"]:
            head += " in one turn: rummy!"
    lines = [head, ""]
    for side, result in enumerate(summary["sides"]):
        lines.append(f"{side_label(v, side)}:")
        for name, value in result["lines"].items():
            lines.append(f"  {LINE_NAMES.get(name, name.replace('_', ' ')):<38} {value:>6}")
        lines.append(f"  {'net':<38} {result['total']:>6}   (total {summary['scores'][side]})")
    left = [f"{seat_label(v, s)}: {' '.join(label(c) for c in cards)}"
            for s, cards in enumerate(summary["hands"]) if cards]
    if left:
        lines += ["", "Left in hand:", *(f"  {line}" for line in left)]
    return "\n".join(lines)


def score_pad(hands: Sequence[dict[str, Any]], v: dict[str, Any]) -> Table:
    """Every hand so far: each side's net and running total."""
    pad = Table(title="Score pad", expand=False)
    pad.add_column("hand", justify="right")
    for side in range(v["teams"]):
        pad.add_column(side_label(v, side), justify="right")
        pad.add_column("total", justify="right")
    for summary in hands:
        cells = [str(summary["hand"])]
        for side, result in enumerate(summary["sides"]):
            cells += [str(result["total"]), str(summary["scores"][side])]
        pad.add_row(*cells)
    return pad


def result_text(result: dict[str, Any], v: dict[str, Any]) -> str:
    scores = ", ".join(f"{side_label(v, s)} {score}" for s, score in enumerate(result["scores"]))
    winner = result["winner"]
    if result.get("stalemate"):
        return f"The game is over after {result['hands']} hands: a stalemate, lost by everyone ({scores})."
    if winner is None:
        return f"The game is over after {plural(result['hands'], 'hand')}: a draw ({scores})."
    tag = "" if winner != v["side"] else " (you)" if v["teams"] == v["players"] else " (your side)"
    return f"The game is over after {plural(result['hands'], 'hand')}: {side_label(v, winner)}{tag} wins ({scores})."


__all__ = ["LINE_NAMES", "hand_end", "melds", "owner", "pile_title", "players", "result_text", "score_pad",
           "seat_label", "side_label", "status"]
