"""The table as Rich text, built from one seat's view (``canasta.view``): seats, melds, pile, scores,
the score pad. No Textual here: the app places these pieces on the screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from ..canasta.view import seat_name
from ..text.names import move_label, side_name
from ..textui import pile_status, render_breakdown, turn_text
from .cards import cards_line, sort_hand, tiles


def _names(v: dict[str, Any]) -> list[str]:
    return [side_name(v["players"], len(v["sides"]), i) for i in range(len(v["sides"]))]


def status(v: dict[str, Any]) -> Text:
    """``Hand 2 · your turn (North): draw or take the pile``."""
    return Text.assemble((f"Hand {v['hand_number']}", "bold"), " · ", turn_text(v))


def backs(count: int, most: int = 3) -> str:
    """A hand held face down, as small card backs (at most ``most``) and its count."""
    return "▒" * min(count, most) + ("…" if count > most else "") + f" {count}"


def seats(v: dict[str, Any], names: Sequence[str] = ()) -> Text:
    """Every other seat: who plays it (``names``: the seat names, such as levels), your partner marked, its
    cards as backs with their count (and its foot), whose turn it is (reversed)."""
    players, me = v["players"], v["seat"]
    out = Text()
    foot = v.get("foot_sizes") or []
    for step in range(1, players):
        s = (me + step) % players
        if out:
            out.append("  ")
        style = "reverse" if s == v["turn_seat"] else ""
        who = ", ".join(w for w in ("partner" if v["seat_sides"][s] == v["side"] and s != me else "",
                                    names[s] if s < len(names) else "") if w)
        out.append(seat_name(players, s) + (f" ({who})" if who else "") + " ", style=style or "bold")
        out.append(backs(v["hand_sizes"][s]), style=style or "blue")
        if foot and foot[s]:
            out.append(f"+foot {foot[s]}", style=style)
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
    """The pile's size and frozen state with the reason; the stock's size; the opening count."""
    foot = v.get("foot_sizes") or []
    out = Text(f"Stock {v['stock_size']}" + (f" · your foot {foot[v['seat']]}" if foot and foot[v["seat"]] else "")
               + f"\nPile {v['pile_size']}: ")
    out.append(pile_status(v).split(", ", 2)[-1] if v["pile_top"] else "empty")
    if v["staged_points"] is not None:
        need = v["sides"][v["side"]]["minimum_needed"]
        out.append(f"\nThis turn's melds count {v['staged_points']} of the {need} needed", style="yellow")
    return out


def pile_cards(v: dict[str, Any], shown: int = 5) -> Text:
    """The stock face down and the pile's top cards fanned, the top one whole."""
    top = v["pile"][-shown:] if v.get("pile") else ([v["pile_top"]] if v["pile_top"] else [])
    stock = tiles(["XX"], back=True) if v["stock_size"] else [Text("    "), Text("    "), Text("    ")]
    faces = tiles(top) if top else [Text("╭ ─ ╮"), Text("     "), Text("╰ ─ ╯")]
    return Text("\n").join(Text.assemble(a, "  ", b) for a, b in zip(stock, faces, strict=True))


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


__all__ = ["backs", "hand_end", "move_label", "pile", "pile_cards", "score_pad", "seats", "side", "status"]
