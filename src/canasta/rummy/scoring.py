"""Scoring a rummy hand and the end of the game (docs/sources.md §8.1, §8.2; GOLDEN GC-R01..R05, GC-B02..B03).

500 Rum: each player scores the points of the cards credited to him on the table less his cards in hand;
partners' scores add up. Basic Rummy: the player who goes out scores every other hand, doubled for going
rummy; a stalemate scores nothing. Each side's ``lines`` sum to its ``total``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..canasta.cards import parse_cards
from .melds import ACE, card_points, hand_points, meld_kind, new_meld
from .rules import RummyRules


def hand_lines(r: RummyRules, table: Sequence[int], hands: Sequence[tuple[int, ...] | list[int]], went_out: int | None,
               rummy: bool, stalemate: bool) -> list[dict[str, int]]:
    """Per side, the named parts of the hand's score. ``table[seat]`` = points credited to the seat."""
    return lines_from_points(r, table, [hand_points(r, h) for h in hands], went_out, rummy, stalemate)


def lines_from_points(r: RummyRules, table: Sequence[int], held: Sequence[int], went_out: int | None, rummy: bool,
                      stalemate: bool) -> list[dict[str, int]]:
    """``hand_lines`` with each seat's cards in hand given as their points (``held[seat]``)."""
    teams = r.teams
    lines: list[dict[str, int]] = [{} for _ in range(teams)]
    out_side = None if went_out is None else r.side_of(went_out)
    if r.scoring == "winner_takes_all":
        for side in range(teams):
            lines[side]["hands_won"] = 0
        if out_side is not None and not stalemate:
            won = sum(held[s] for s in range(r.players) if r.side_of(s) != out_side)
            lines[out_side]["hands_won"] = won
            if rummy and r.going_rummy_double:
                lines[out_side]["going_rummy"] = won
    else:
        side_held = [0] * teams
        for seat in range(r.players):
            side = r.side_of(seat)
            lines[side]["table"] = lines[side].get("table", 0) + table[seat]
            side_held[side] += held[seat]
        for side in range(teams):
            lines[side]["hand"] = -_deducted(r, side, side_held[side], out_side, stalemate)
        if r.deadwood_to_winner:
            # "add the values in their hands to the total of the player who went out"; with the stock finished
            # and nobody out, "With two players, or two partnerships: add opponent's remainder to your score"
            # (with more sides: "do not add any totals") [S2]
            for side in range(teams):
                if side == out_side or (out_side is None and teams == 2):
                    lines[side]["deadwood"] = sum(side_held) - side_held[side]
        if out_side is not None and r.going_out_bonus:
            lines[out_side]["going_out"] = r.going_out_bonus
    if r.divide_by_five:
        for side_lines in lines:
            total = sum(side_lines.values())
            side_lines["divided_by_5"] = int(total / 5) - total  # towards zero: -3 becomes 0, 87 becomes 17
    return lines


def masters_lines(r: RummyRules, side: int) -> list[dict[str, int]]:
    """The Rummy Master's Hand (docs/sources.md §8.1): the side that showed it scores ``masters_hand`` (divided
    by 5 where scores are), the others nothing; the hand ends at once."""
    points = r.masters_hand // 5 if r.divide_by_five else r.masters_hand
    return [{"masters_hand": points if s == side else 0} for s in range(r.teams)]


def _deducted(r: RummyRules, side: int, held: int, out_side: int | None, stalemate: bool) -> int:
    """What a side's cards in hand cost it at the end of a 500 Rum hand (``held``: their points)."""
    if r.deadwood_to_winner and side != out_side:
        return 0  # they go to the player who went out instead (or, nobody out, to the opponent or to nobody)
    if out_side is None and not stalemate and not r.stock_out_deducts:
        return 0  # D31: "nobody deducts the score from their hand" when the stock runs out [S2]
    return held


def game_result(r: RummyRules, scores: Sequence[int], hand_number: int, went_out: int | None) -> dict[str, Any] | None:
    """The game's result after a hand ends with these cumulative ``scores`` (one per side), else None."""
    if r.hands_per_game:
        if hand_number < r.hands_per_game:
            return None
        final = list(scores)
        best = max(final)
        leaders = [i for i, v in enumerate(final) if v == best]
        if r.game_bonus and len(leaders) == 1:
            final[leaders[0]] += r.game_bonus
        return {"scores": final, "winner": leaders[0] if len(leaders) == 1 else None, "hands": hand_number,
                "by": f"{r.hands_per_game} hands"}
    target = r.game_target()
    reached = [i for i, v in enumerate(scores) if v >= target]
    if not reached:
        return None
    out_side = None if went_out is None else r.side_of(went_out)
    if r.tie == "went_out" and out_side in reached:
        winner = out_side
    else:
        best = max(scores[i] for i in reached)
        leaders = [i for i in reached if scores[i] == best]
        if len(leaders) > 1:
            return None  # equal highest: another hand (D19)
        winner = leaders[0]
    return {"scores": list(scores), "winner": winner, "hands": hand_number}


RUMMY_FIELDS = ("melds", "hand", "went_out", "rummy", "low_aces", "table_points", "hand_points", "masters_hand")


def score_hand(r: RummyRules, sides: Any) -> list[dict[str, Any]]:
    """``canasta score`` for the rummy family: each side's ``melds`` (card groups it laid on the table: a
    meld of 3 or more, or 1-2 cards laid off), ``hand`` (every card its players still hold), ``went_out``,
    ``rummy`` (Basic Rummy: went out in one turn) and ``low_aces`` (aces laid off low, 1 each). A score pad
    may give ``table_points`` instead of ``melds`` and ``hand_points`` instead of ``hand``, and mark the side
    that showed the Rummy Master's Hand with ``masters_hand`` (it alone scores, that hand's value)."""
    if not isinstance(sides, list) or len(sides) != r.teams:
        raise ValueError(f"{r.name} with {r.players} players has {r.teams} sides; give a list of {r.teams}")
    table: list[int] = [0] * r.teams
    held: list[int] = []
    went_out = None
    rummy = False
    masters = None
    seen: dict[int, int] = {}
    for i, side in enumerate(sides):
        where = f"side {i + 1}"
        if not isinstance(side, dict):
            raise ValueError(f"{where}: want an object with melds and hand")
        unknown = set(side) - set(RUMMY_FIELDS)
        if unknown:
            raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                             f"valid: {', '.join(RUMMY_FIELDS)}")
        for cards, count in (("melds", "table_points"), ("hand", "hand_points")):
            if cards in side and count in side:
                raise ValueError(f"{where}: give {cards} as cards or {count} as a count, not both")
        table[i] = _points(side["table_points"], f"{where} table_points") if "table_points" in side \
            else _table(r, seen, side.get("melds", []), where)
        low = side.get("low_aces", 0)
        if isinstance(low, bool) or not isinstance(low, int) or low < 0:
            raise ValueError(f"{where}: low_aces must be a whole number 0 or more")
        table[i] -= low * (r.ace_high_value - r.ace_low_value)
        if "hand_points" in side:
            held.append(_points(side["hand_points"], f"{where} hand_points"))
            hand: list[int] = []
        else:
            hand_text = side.get("hand", "")
            if not isinstance(hand_text, str):
                raise ValueError(f"{where}: hand must be card text such as \"KH 7C\"")
            try:
                hand = [int(c) for c in parse_cards(hand_text)] if hand_text.strip() else []
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
            _count(r, seen, tuple(hand), where)
            held.append(hand_points(r, hand))
        for flag in ("went_out", "rummy", "masters_hand"):
            if not isinstance(side.get(flag, False), bool):
                raise ValueError(f"{where}: {flag} must be true or false")
        if side.get("masters_hand"):
            if not r.masters_hand:
                raise ValueError(f"{where}: the Rummy Master's Hand is not played in {r.name} (masters_hand=0)")
            if masters is not None or side.get("went_out"):
                raise ValueError(f"{where}: a Master's Hand ends the hand: one side shows it, and nobody goes out")
            masters = i
        if side.get("went_out"):
            if went_out is not None:
                raise ValueError(f"{where}: only one side goes out")
            if (hand or held[i]) and not r.partnerships:
                raise ValueError(f"{where}: a side that went out holds no cards of the player who went out; "
                                 "give his partner's cards only when partners play")
            went_out = r.seats_of(i)[0]
            rummy = bool(side.get("rummy"))
        elif side.get("rummy"):
            raise ValueError(f"{where}: rummy needs went_out")
    if masters is not None:
        if went_out is not None:
            raise ValueError("a Master's Hand ends the hand: nobody also goes out")
        return [{"lines": ln, "total": sum(ln.values())} for ln in masters_lines(r, masters)]
    # One "seat" per side: a side's cards and credits together (partners' scores add up anyway).
    firsts = [s == r.seats_of(r.side_of(s))[0] for s in range(r.players)]
    per_seat_table = [table[r.side_of(s)] if firsts[s] else 0 for s in range(r.players)]
    per_seat_held = [held[r.side_of(s)] if firsts[s] else 0 for s in range(r.players)]
    lines = lines_from_points(r, per_seat_table, per_seat_held, went_out, rummy, False)
    return [{"lines": ln, "total": sum(ln.values())} for ln in lines]


POINTS_LIMIT = 10_000  # no side's cards on the table or in hand come near this in one hand


def _points(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where} must be a whole number, got {value!r}")
    if not 0 <= value <= POINTS_LIMIT:
        raise ValueError(f"{where} must be 0 to {POINTS_LIMIT}, got {value}")
    return value


def _table(r: RummyRules, seen: dict[int, int], groups: Any, where: str) -> int:
    """The points credited to a side for the card groups it laid on the table."""
    if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
        raise ValueError(f"{where}: melds must be a list of card texts such as \"5H 6H 7H\"")
    points = 0
    for text in groups:
        try:
            cards = tuple(int(c) for c in parse_cards(text))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        _count(r, seen, cards, where)
        if len(cards) >= 3:
            kind = meld_kind(r, cards)
            if kind is None:
                raise ValueError(f"{where}: {text!r} is not a meld (a set of 3-4 or a run of 3 or more)")
            points += sum(new_meld(r, kind[0], kind[1], kind[2], 0).points)
        else:
            points += sum(card_points(r, c) for c in cards)
    return points


def _count(r: RummyRules, seen: dict[int, int], cards: tuple[int, ...], where: str) -> None:
    from ..canasta.cards import JOKER, card_str

    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        allowed = r.jokers if c == JOKER else r.packs
        if seen[c] > allowed:
            raise ValueError(f"{where}: {card_str(c)} appears more often than the pack holds it ({allowed})")


__all__ = ["ACE", "game_result", "hand_lines", "lines_from_points", "masters_lines", "score_hand"]
