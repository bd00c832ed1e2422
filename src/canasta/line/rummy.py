"""The rummy family's plug-in to the text faces (the line mode of ``canasta play --variant 500-rum`` and every
rummy preset, ``canasta replay -v``): its table (the melds every seat shares, the pile spread bottom to top),
its moves explained, its hands' ends (docs/rummy.md)."""

from __future__ import annotations

from typing import Any

from ..canasta.view import seat_name
from ..rummy.melds import card_points
from ..rummy.moves import DEALER_JOKER, RummyMove
from ..rummy.presets import rules_of_view
from ..rummy.rules import RummyRules
from ..text.names import plural, side_name, variant_title
from .common import TableText


def render_view(v: dict[str, Any]) -> str:
    """The table as the seat ``v["seat"]`` sees it: several lines, no trailing newline."""
    players = len(v["hand_sizes"])
    teams = len(v["scores"])
    scores = " | ".join(f"{side_name(players, teams, i)} {s}" for i, s in enumerate(v["scores"]))
    lines = [f"--- Hand {v['hand_number']}: "
             + ("your turn" if v["to_move"] == v["seat"] else f"{seat_name(players, v['to_move'])} to move")
             + f" ({v['phase']}) ---",
             f"Scores: {scores} (target {v['target']})",
             f"Stock: {plural(v['stock'], 'card')}. Pile (bottom to top): {' '.join(v['pile']) or 'empty'}",
             f"Melds{':' if v['melds'] else ': none'}"]
    for m in v["melds"]:
        by = ", ".join(seat_name(players, s) for s in m["seats"])
        lines.append(f"    {m['label']:<8} {' '.join(m['cards'])}  (by {by})")
    lines.append("Cards held: " + ", ".join(f"{seat_name(players, s)} {n}" for s, n in enumerate(v["hand_sizes"])
                                           if s != v["seat"]))
    if v["must_use"]:
        lines.append(f"You must meld or lay off {v['must_use']} now")
    if v.get("joker_effect"):
        lines.append(f"The jokers are {v['joker_effect']} this hand (nominated by the dealer, "
                     f"{seat_name(players, v['dealer'])})")
    elif v.get("phase") == "nominate":
        lines.append(f"The dealer ({seat_name(players, v['dealer'])}) nominates the jokers' effect: wild, double or "
                     "split")
    if v.get("dealers_joker_blocked"):
        lines.append("The dealer's joker is blocked (a joker lies face down over it)")
    elif v.get("dealers_joker"):
        lines.append(f"The dealer's joker lies beside the stock (only {seat_name(players, v['dealer'])} may take it)")
    if v.get("claim_from") is not None and v["pile"]:
        lines.append(f"{seat_name(players, v['claim_from'])} discarded {v['pile'][-1]}: "
                     f"{seat_name(players, v['to_move'])} may call 'rum' or play between turns where the rules "
                     "allow it, or 'pass'")
    if v.get("hand") is not None:
        lines.append(f"Your hand ({len(v['hand'])}): {' '.join(v['hand'])}")
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


def variant_verbs(rules: RummyRules) -> list[str]:
    """The move words a player of this variant may ever type (the rules object says which exist)."""
    verbs = ["draw", "take", "meld", "lay", "discard", "pass"]
    if rules.call_rum:
        verbs.append("rum")
    if rules.dealers_joker:
        verbs += ["nominate", "block", "split"]
    return verbs


def explain_move(move: RummyMove, view: dict[str, Any]) -> str:
    """A short explanation of a legal move, for ``help``."""
    a = move.action
    cards = " ".join(str(move).split()[1:])
    points = sum(card_points(rules_of_view(view), c) for c in move.cards) if move.cards else 0
    if a == "draw":
        return "draw the top card of the stock"
    if a == "take":
        return f"take {cards} from the pile, and every card above it"
    if a == DEALER_JOKER:
        return "take the dealer's joker from beside the stock"
    if a == "meld":
        return f"meld these cards ({points} points on the table)"
    if a == "lay":
        return f"lay off on a meld on the table ({points} points)"
    if a == "rum":
        return "call 'rum': claim the discard that fits a meld"
    if a == "discard":
        return ("discard your last card and go out" if len(view.get("hand") or ()) == 1
                else f"discard {cards} and end your turn")
    if a == "pass":
        return "decline (the 'rum' call, or the hand when the stock is empty)"
    return {"nominate": f"make the jokers {move.on} this hand", "block": "lay a joker face down over the dealer's",
            "split": "split the pile here (Dealer's Gambit)"}.get(a, a)


TEXT = TableText(
    title=lambda rules: variant_title(rules.name),
    render_view=render_view,
    explain_move=explain_move,
    verbs=variant_verbs,
    hand_end=lambda summary, hand_number, rules: render_hand_end(summary, rules.players, rules.teams),
    told_back=lambda what: False,
    undo_what="this turn's last meld or lay-off",
)

__all__ = ["TEXT", "explain_move", "render_hand_end", "render_view", "variant_verbs"]
