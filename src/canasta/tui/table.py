"""The table as Rich text, built from one seat's view (``canasta.view``): seats, melds, pile, scores,
the score pad. No Textual here: the app places these pieces on the screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from ..names import move_label, plural, side_name
from ..textui import pile_status, render_breakdown, turn_text
from ..view import seat_name
from .cards import card_text, cards_line, sort_hand


def _names(v: dict[str, Any]) -> list[str]:
    return [side_name(v["players"], len(v["sides"]), i) for i in range(len(v["sides"]))]


def status(v: dict[str, Any]) -> Text:
    """``Hand 2 · your turn (North): draw or take the pile``."""
    return Text.assemble((f"Hand {v['hand_number']}", "bold"), " · ", turn_text(v))


def seats(v: dict[str, Any]) -> Text:
    """Every other seat: where it sits for you, its cards (and foot), whose turn it is."""
    players, me = v["players"], v["seat"]
    out = Text()
    foot = v.get("foot_sizes") or []
    if foot and foot[me]:
        out.append(f"Your foot {foot[me]}  ")
    for step in range(1, players):
        s = (me + step) % players
        where = "partner" if v["seat_sides"][s] == v["side"] else (
            "left" if step == 1 else "right" if step == players - 1 else "opponent")
        if out:
            out.append("  ")
        style = "reverse" if s == v["turn_seat"] else ""
        out.append(f"{seat_name(players, s)} ({where}) {plural(v['hand_sizes'][s], 'card')}", style=style)
        if foot and foot[s]:
            out.append(f" + foot {foot[s]}", style=style)
    return out


def side(v: dict[str, Any], index: int) -> Text:
    """One side's score, what it needs, its canastas, threes and melds (canastas marked by kind)."""
    s = v["sides"][index]
    name = _names(v)[index] + (" (you)" if index == v["side"] else "")
    need = "opened" if s["opened"] else f"needs {s['minimum_needed']} to open"
    out = Text.assemble((name, "bold"), f"  {s['score']} · {need}\n  {s['canastas']} canasta"
                        + ("s" if s["canastas"] != 1 else ""))
    if s["red_threes"]:
        out.append(" · threes ")
        out.append_text(cards_line(s["red_threes"]))
    for m in s["melds"]:
        key = m["key"]
        title = f"seq {key[3:]}" if m["rank"] == "sequence" else "10" + key[1:] if key.startswith("T") else key
        out.append(f"\n  {title:>5} ×{len(m['cards'])} ")
        if m["canasta"]:
            out.append(f"[{m['kind']}] ", style="bold green" if m["kind"] == "natural" else "green")
        naturals = [c for c in m["cards"] if c != "JK" and c[0] != "2"] or m["cards"]
        wild = [c for c in m["cards"] if c not in naturals]
        out.append_text(cards_line([*sort_hand(naturals), *sort_hand(wild)]))
    if not s["melds"]:
        out.append("\n  no melds")
    return out


def pile(v: dict[str, Any]) -> Text:
    """The pile's top card, size and frozen state with the reason; the stock's size; the opening count."""
    out = Text(f"Stock {v['stock_size']} · Pile ")
    if v["pile_top"]:
        out.append_text(card_text(v["pile_top"]))
        out.append(" ")
    out.append(pile_status(v).split(", ", 1)[-1] if v["pile_top"] else "empty")
    if v["staged_points"] is not None:
        need = v["sides"][v["side"]]["minimum_needed"]
        out.append(f"\nThis turn's melds count {v['staged_points']} of the {need} needed", style="yellow")
    return out


def hand_end(last_hand: Sequence[dict[str, Any]], hand_number: int, v: dict[str, Any]) -> str:
    """The breakdown of a finished hand, line by line."""
    names = _names(v)
    head = f"Hand {hand_number} is over"
    for i, res in enumerate(last_hand):
        if res.get("went_out"):
            head += f": {names[i]} went out" + (" concealed" if res.get("concealed") else "")
    return "\n".join([head, "", *render_breakdown(last_hand, names, ["cumulative"])])


def score_pad(hands: Sequence[Sequence[dict[str, Any]]], v: dict[str, Any]) -> Table:
    """Every hand so far: each side's hand total and running total."""
    table = Table(title="Score pad", expand=False)
    table.add_column("hand", justify="right")
    for name in _names(v):
        table.add_column(name, justify="right")
        table.add_column("total", justify="right")
    for number, results in enumerate(hands, start=1):
        cells = [str(number)]
        for res in results:
            cells += [str(res["total"]), str(res["cumulative"])]
        table.add_row(*cells)
    return table


__all__ = ["hand_end", "move_label", "pile", "score_pad", "seats", "side", "status"]
