"""Scoring a rummy hand and the end of the game (docs/sources.md §8.1, §8.2; GOLDEN GC-R01..R05, GC-B02..B03).

500 Rum: each player scores the points of the cards credited to him on the table less his cards in hand;
partners' scores add up. Basic Rummy: the player who goes out scores every other hand, doubled for going
rummy; a stalemate scores nothing. Each side's ``lines`` sum to its ``total``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import parse_cards
from .melds import ACE, card_points, hand_points, meld_kind, new_meld
from .rules import RummyRules


def hand_lines(r: RummyRules, table: Sequence[int], hands: Sequence[tuple[int, ...] | list[int]], went_out: int | None,
               rummy: bool, stalemate: bool) -> list[dict[str, int]]:
    """Per side, the named parts of the hand's score. ``table[seat]`` = points credited to the seat."""
    teams = r.teams
    lines: list[dict[str, int]] = [{} for _ in range(teams)]
    out_side = None if went_out is None else r.side_of(went_out)
    if r.scoring == "winner_takes_all":
        for side in range(teams):
            lines[side]["hands_won"] = 0
        if out_side is not None and not stalemate:
            won = sum(hand_points(r, hands[s]) for s in range(r.players) if r.side_of(s) != out_side)
            lines[out_side]["hands_won"] = won
            if rummy and r.going_rummy_double:
                lines[out_side]["going_rummy"] = won
    else:
        held = [0] * teams
        for seat in range(r.players):
            side = r.side_of(seat)
            lines[side]["table"] = lines[side].get("table", 0) + table[seat]
            held[side] += hand_points(r, hands[seat])
        for side in range(teams):
            lines[side]["hand"] = -_deducted(r, side, held[side], out_side, stalemate)
        if r.deadwood_to_winner:
            # "add the values in their hands to the total of the player who went out"; with the stock finished
            # and nobody out, "With two players, or two partnerships: add opponent's remainder to your score"
            # (with more sides: "do not add any totals") [S2]
            for side in range(teams):
                if side == out_side or (out_side is None and teams == 2):
                    lines[side]["deadwood"] = sum(held) - held[side]
        if out_side is not None and r.going_out_bonus:
            lines[out_side]["going_out"] = r.going_out_bonus
    if r.divide_by_five:
        for side_lines in lines:
            total = sum(side_lines.values())
            side_lines["divided_by_5"] = int(total / 5) - total  # towards zero: -3 becomes 0, 87 becomes 17
    return lines


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


def score_hand(r: RummyRules, sides: Any) -> list[dict[str, Any]]:
    """``canasta score`` for the rummy family: each side's ``melds`` (card groups it laid on the table: a
    meld of 3 or more, or 1-2 cards laid off), ``hand`` (every card its players still hold), ``went_out``,
    ``rummy`` (Basic Rummy: went out in one turn) and ``low_aces`` (aces laid off low, 1 each)."""
    if not isinstance(sides, list) or len(sides) != r.teams:
        raise ValueError(f"{r.name} with {r.players} players has {r.teams} sides; give a list of {r.teams}")
    table: list[int] = [0] * r.teams
    hands: list[list[int]] = []
    went_out = None
    rummy = False
    seen: dict[int, int] = {}
    for i, side in enumerate(sides):
        where = f"side {i + 1}"
        if not isinstance(side, dict):
            raise ValueError(f"{where}: want an object with melds and hand")
        unknown = set(side) - {"melds", "hand", "went_out", "rummy", "low_aces"}
        if unknown:
            raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        groups = side.get("melds", [])
        if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
            raise ValueError(f"{where}: melds must be a list of card texts such as \"5H 6H 7H\"")
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
                table[i] += sum(new_meld(r, kind[0], kind[1], kind[2], i).points)
            else:
                table[i] += sum(card_points(r, c) for c in cards)
        low = side.get("low_aces", 0)
        if isinstance(low, bool) or not isinstance(low, int) or low < 0:
            raise ValueError(f"{where}: low_aces must be a whole number 0 or more")
        table[i] -= low * (r.ace_high_value - r.ace_low_value)
        hand_text = side.get("hand", "")
        if not isinstance(hand_text, str):
            raise ValueError(f"{where}: hand must be card text such as \"KH 7C\"")
        try:
            hand = [int(c) for c in parse_cards(hand_text)] if hand_text.strip() else []
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        _count(r, seen, tuple(hand), where)
        hands.append(hand)
        for flag in ("went_out", "rummy"):
            if not isinstance(side.get(flag, False), bool):
                raise ValueError(f"{where}: {flag} must be true or false")
        if side.get("went_out"):
            if went_out is not None:
                raise ValueError(f"{where}: only one side goes out")
            if hand and not r.partnerships:
                raise ValueError(f"{where}: a side that went out holds no cards of the player who went out; "
                                 "give his partner's cards only when partners play")
            went_out = r.seats_of(i)[0]
            rummy = bool(side.get("rummy"))
        elif side.get("rummy"):
            raise ValueError(f"{where}: rummy needs went_out")
    # One "seat" per side: a side's cards and credits together (partners' scores add up anyway).
    per_seat_table = [table[r.side_of(s)] if s == r.seats_of(r.side_of(s))[0] else 0 for s in range(r.players)]
    per_seat_hand = [hands[r.side_of(s)] if s == r.seats_of(r.side_of(s))[0] else [] for s in range(r.players)]
    lines = hand_lines(r, per_seat_table, per_seat_hand, went_out, rummy, False)
    return [{"lines": ln, "total": sum(ln.values())} for ln in lines]


def _count(r: RummyRules, seen: dict[int, int], cards: tuple[int, ...], where: str) -> None:
    from ..cards import JOKER, card_str

    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        allowed = r.jokers if c == JOKER else r.packs
        if seen[c] > allowed:
            raise ValueError(f"{where}: {card_str(c)} appears more often than the pack holds it ({allowed})")


__all__ = ["ACE", "game_result", "hand_lines", "score_hand"]
