"""The Canasta family's plug-in to the text faces (the line mode of ``canasta play``, ``canasta replay -v``; the
Textual app borrows pieces): its table, its moves explained, its hands' score sheets.

Every function here works from ``canasta.view(state, seat)`` dicts, moves and result dicts: what a
player at the table may see, nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..canasta.cards import BLACK_THREES, JOKER, JOKER_RANK, TWO, parse_card, rank_of, rank_str
from ..canasta.melds import key_label
from ..canasta.moves import Move
from ..canasta.rules import Rules
from ..canasta.view import seat_name
from ..text.names import move_label, plural, side_name
from .common import TableText, render_breakdown

# Hand order: aces down to fours, then black threes; wild cards last.
_RANK_ORDER = [*range(14, 3, -1), 3]


def _card_sort_key(text: str) -> tuple[int, str]:
    return ("SHDC".find(text[-1]) if text != "JK" else 0, text)


def group_hand(cards: Sequence[str]) -> str:
    """``A: AS AH | K: KD | 7: 7C 7C | wild: 2C JK`` (ranks high to low, black threes, then wilds)."""
    by_rank: dict[int, list[str]] = {}
    for text in cards:
        by_rank.setdefault(rank_of(parse_card(text)), []).append(text)
    parts = []
    for r in _RANK_ORDER:
        if r in by_rank:
            parts.append(f"{rank_str(r)}: {' '.join(sorted(by_rank[r], key=_card_sort_key))}")
    wild = sorted(by_rank.get(TWO, []), key=_card_sort_key) + by_rank.get(JOKER_RANK, [])
    if wild:
        parts.append(f"wild: {' '.join(wild)}")
    return " | ".join(parts) if parts else "(empty)"


def _meld_lines(side: dict[str, Any]) -> list[str]:
    out = []
    for m in side["melds"]:
        tag = f" [{m['kind']} canasta]" if m["canasta"] else ""
        cards = sorted(m["cards"], key=lambda c: (c == "JK" or c[0] == "2", c == "JK"))  # naturals first
        name = f"sequence {m['key']}" if m["rank"] == "sequence" else f"{m['key']}s"
        out.append(f"    {name} x{len(m['cards'])}{tag}: {' '.join(cards)}")
    return out


def pile_status(view: dict[str, Any]) -> str:
    me = view["sides"][view["side"]]
    if not view["pile_size"]:
        return "empty"
    top = view["pile_top"]
    card = parse_card(top)
    if view["pile_frozen"]:
        status = "frozen for everyone (take it only with a natural pair)"
    elif me["pile_frozen_for_side"] and not me["opened"]:
        status = "frozen against your side until it opens (take it only with a natural pair)"
    elif me["pile_frozen_for_side"]:
        status = "frozen (take it only with a natural pair)"
    else:
        status = "not frozen"
    if card == JOKER or rank_of(card) == TWO:
        status += "; a wild card is on top: nobody may take it"
    elif card in BLACK_THREES:
        status += "; a black three is on top: it cannot be taken now"
    return f"top {top}, {view['pile_size']} card{'s' if view['pile_size'] != 1 else ''}, {status}"


def render_view(view: dict[str, Any]) -> str:
    """The table as the seat ``view["seat"]`` sees it: several lines, no trailing newline."""
    seat = view["seat"]
    players = view["players"]
    teams = len(view["sides"])
    lines = [f"--- Hand {view['hand_number']}: {turn_text(view)} ---"]
    score_parts = []
    for i, side in enumerate(view["sides"]):
        you = " (you)" if i == view["side"] else ""
        need = (f"needs {side['minimum_needed']} to open" if not side["opened"] else "opened")
        score_parts.append(f"{side_name(players, teams, i)}{you} {side['score']}, {need}")
    lines.append("Scores: " + " | ".join(score_parts))
    for i, side in enumerate(view["sides"]):
        you = " (you)" if i == view["side"] else ""
        reds = " ".join(side["red_threes"]) or "none"
        n = side["canastas"]
        threes = "threes" if any(c[0] == "3" and c[1] in "SC" for c in side["red_threes"]) else "red threes"
        lines.append(f"{side_name(players, teams, i)}{you}: {n} canasta{'s' if n != 1 else ''}; {threes} {reds}; "
                     f"melds{':' if side['melds'] else ' none'}")
        lines += _meld_lines(side)
    lines.append(f"Pile: {pile_status(view)}")
    others = ", ".join(f"{seat_name(players, s)} {n}" for s, n in enumerate(view["hand_sizes"]) if s != seat)
    lines.append(f"Stock: {plural(view['stock_size'], 'card')}. Cards held: {others}")
    feet = view.get("foot_sizes") or []
    if any(feet):  # Hand and Foot: every foot lies face down, its owner's too
        lines.append("Feet (face down): " + ", ".join(
            f"{'you' if s == seat else seat_name(players, s)} {n if n else 'picked up'}" for s, n in enumerate(feet)))
    if view["staged_points"] is not None:
        need = view["sides"][view["side"]]["minimum_needed"]
        lines.append(f"Opening this turn: your melds count {view['staged_points']} of the {need} needed"
                     + (f"; {len(view['pending_pile'])} pile cards wait until you reach it"
                        if view["pending_pile"] is not None else ""))
    lines.append(f"Your hand ({len(view['hand'])}): {group_hand(view['hand'])}")
    return "\n".join(lines)


def turn_text(view: dict[str, Any]) -> str:
    players = view["players"]
    seat = view["seat"]
    name = seat_name(players, view["turn_seat"])
    if view["phase"] == "over":
        return "game over"
    if view["phase"] == "answer" and view["to_move"] == seat:
        return f"your partner {name} asks: may I go out? (yes/no)"
    if view["turn_seat"] == seat:
        what = {"draw": "draw or take the pile", "play": "meld, then discard"}.get(view["phase"], view["phase"])
        if view["permission"] == "yes":
            what = "your partner said yes: you must go out if you can"
        elif view["permission"] == "no":
            what = "your partner said no: you may not go out this turn; meld, then discard"
        return f"your turn ({seat_name(players, seat)}): {what}"
    return f"{name} to move"


def variant_verbs(rules: Rules) -> list[str]:
    """The move words a player of this variant may ever type (the rules object says which exist)."""
    verbs = ["draw", "take", "meld", "discard", "withdraw", "pass"]
    if rules.partnerships and rules.permission in ("optional_binding", "compulsory"):
        verbs += ["ask", "yes", "no"]
    if rules.several_melds_per_rank:
        verbs.append("combine")
    if rules.acaba:
        verbs.append("acaba")
    if rules.keeps_a_three:
        verbs.append("layout")
    if rules.special_hands:
        verbs.append("declare")
    return verbs


def explain_move(move: Move, view: dict[str, Any]) -> str:
    """A short explanation of a legal move, for ``help``."""
    a = move.action
    me = view["sides"][view["side"]]
    melded = {m["key"]: m for m in me["melds"]}
    if a == "draw":
        return "draw the top card of the stock"
    if a == "take":
        rest = view["pile_size"] - 1
        if move.cards == 0:
            how = f"add the top card {view['pile_top']} to your side's {key_label(move.rank)} meld"
        else:
            hand_cards = " ".join([rank_str(move.rank)] * move.naturals + ["2"] * move.twos + ["JK"] * move.jokers)
            how = f"meld the top card {view['pile_top']} with {hand_cards} from your hand"
        return f"take the pile: {how}; the other {rest} card{'s' if rest != 1 else ''} join your hand"
    if a == "combine":
        return f"put your side's {key_label(move.low)} meld into its {key_label(move.rank)} meld"
    if a == "meld":
        r = key_label(move.rank)
        plural = "wild cards" if move.rank == JOKER_RANK else f"{r}s"
        if move.rank == 3:
            return f"meld {move.naturals} black threes (only when going out)"
        old = melded.get(r)
        size = (len(old["cards"]) if old else 0) + move.cards
        canasta = " - makes a canasta!" if size >= 7 and (not old or len(old["cards"]) < 7) else ""
        if old:
            cards = f"{move.cards} card{'s' if move.cards != 1 else ''}"
            return f"add {cards} to your side's {plural} ({size} cards){canasta}"
        return f"start a meld of {plural} ({size} cards){canasta}"
    if a == "discard":
        if len(view["hand"]) == 1:
            return "discard your last card and go out"
        card = "joker" if move.rank == JOKER_RANK else move_label(str(move).split()[-1], symbols=False)
        return f"discard one {card} and end your turn"
    if a == "declare":
        return f"lay down your special hand ({str(move).split()[-1]}): the hand ends and your side scores it"
    return {
        "ask": "ask your partner 'may I go out?' (the answer binds you)",
        "yes": "let your partner go out (he then must)",
        "no": "refuse: your partner may not go out this turn",
        "withdraw": "take back the melds you staged this turn",
        "pass": ("decline the discard: the hand ends" if view["phase"] == "draw"
                 else "end your turn without discarding"),
    }.get(a, a)


def render_hand_end(last_hand: Sequence[dict[str, Any]], hand_number: int, players: int) -> str:
    """The score breakdown of a finished hand: every line per side, the hand total, the cumulative total."""
    teams = len(last_hand)
    names = [side_name(players, teams, i) for i in range(teams)]
    head = f"=== Hand {hand_number} is over"
    for i, res in enumerate(last_hand):
        if res.get("went_out"):
            head += f": {names[i]} went out" + (" concealed" if res.get("concealed") else "")
    return "\n".join([head + " ===", *render_breakdown(last_hand, names, ["cumulative"])])



def _told_back(what: str) -> bool:
    """Your own moves are not repeated to you, but your red threes and your partner's answer are."""
    return what.startswith("red-three") or what in ("yes", "no")


TEXT = TableText(
    title=lambda rules: f"Canasta ({rules.name})",
    render_view=render_view,
    explain_move=explain_move,
    verbs=variant_verbs,
    hand_end=lambda last_hand, hand_number, rules: render_hand_end(last_hand, hand_number, rules.players),
    told_back=_told_back,
    undo_what="a meld of this turn",
)

__all__ = ["TEXT", "explain_move", "group_hand", "pile_status", "render_hand_end", "render_view", "turn_text",
           "variant_verbs"]
