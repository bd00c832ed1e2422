"""Scoring a hand, line by line (RULES.md §3.6, §3.9; DESIGN.md B "Scoring a hand")."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import (
    JOKER,
    JOKER_RANK,
    RED_THREES,
    THREE,
    VALUE,
    card_str,
    counts_of,
    is_wild,
    pack,
    parse_cards,
    rank_of,
    rank_str,
)
from .rules import Rules

LINE_NAMES = (
    "melded_cards", "cards_in_hand", "natural_canastas", "mixed_canastas", "red_threes",
    "going_out", "undeclared_red_threes", "wild_canastas", "black_threes", "concealed_canastas", "acaba",
)


def meld_problem(rules: Rules, cards: Sequence[int]) -> str | None:
    """Why these cards are not a legal meld on the table, or None (RULES.md §3.3)."""
    if any(c in RED_THREES for c in cards):
        return "red threes are never melded; they are laid out as bonus cards"
    naturals = [rank_of(c) for c in cards if not is_wild(c)]
    wilds = len(cards) - len(naturals)
    if len(cards) < 3:
        return f"a meld needs at least 3 cards, this has {len(cards)}"
    if rules.max_meld_size and len(cards) > rules.max_meld_size:
        return f"a meld may hold at most {rules.max_meld_size} cards, this has {len(cards)}"
    if not naturals:
        if not rules.wild_melds:
            return "a meld of wild cards only is not allowed"
        if len(cards) > rules.wild_meld_max:
            return f"a meld of wild cards holds at most {rules.wild_meld_max}, this has {len(cards)}"
        return None
    if len(set(naturals)) > 1:
        return f"a meld holds one rank, this mixes {', '.join(sorted({rank_str(r) for r in naturals}))}"
    if naturals[0] == THREE:
        return "black threes may not be melded with wild cards" if wilds else None
    if len(naturals) < rules.min_naturals:
        return f"only {len(naturals)} natural card; a meld needs at least {rules.min_naturals}"
    if wilds > rules.max_wilds(len(naturals)):
        return (f"{wilds} wild cards with {len(naturals)} naturals breaks the wild-card limit "
                f"({rules.wild_rule})")
    return None


def is_canasta(meld: Sequence[int]) -> bool:
    return len(meld) >= 7


def is_natural(meld: Sequence[int]) -> bool:
    return not any(is_wild(c) for c in meld)


def is_wild_meld(meld: Sequence[int]) -> bool:
    return all(is_wild(c) for c in meld)


def red_threes_positive(rules: Rules, melds: Sequence[Sequence[int]]) -> bool:
    canastas = sum(1 for m in melds if is_canasta(m))
    if rules.red_three_positive_if == "meld":
        return bool(melds)
    if rules.red_three_positive_if == "canasta":
        return canastas >= 1
    return canastas >= 2


def acaba_score(rules: Rules, opponent: bool) -> dict[str, Any]:
    """A hand ended by Acaba: the caller's side scores nothing, each opposing side acaba_bonus."""
    lines = {name: 0 for name in LINE_NAMES[:7]}
    lines["acaba"] = rules.acaba_bonus if opponent else 0
    return {"lines": lines, "total": lines["acaba"]}


def score_side(rules: Rules, melds: Sequence[Sequence[int]], hand: Iterable[int],
               red_threes: Sequence[int], went_out: bool = False, concealed: bool = False,
               black_threes: Sequence[int] = (), concealed_canastas: int = 0) -> dict[str, Any]:
    """One side's score for a hand: ``{"lines": {...}, "total": N}`` with lines summing to total.

    Lines that only some rules have (wild canastas, black threes laid aside, concealed canastas) appear
    only under those rules."""
    hand = list(hand)
    undeclared = sum(1 for c in hand if c in RED_THREES)
    canastas = [m for m in melds if is_canasta(m)]
    naturals = sum(1 for m in canastas if is_natural(m))
    wild = [m for m in canastas if is_wild_meld(m)]
    mixed = len(canastas) - naturals - len(wild)
    n3 = len(red_threes)
    threes = rules.red_three_scale[min(n3, len(rules.red_three_scale) - 1)]
    if n3 and not red_threes_positive(rules, melds):
        threes = -threes
    going_out = 0
    if went_out:
        going_out = rules.concealed_going_out_bonus if concealed else rules.going_out_bonus
    lines = {
        "melded_cards": sum(VALUE[c] for m in melds for c in m),
        "cards_in_hand": -sum(VALUE[c] for c in hand),
        "natural_canastas": naturals * rules.natural_canasta_bonus,
        "mixed_canastas": mixed * rules.mixed_canasta_bonus,
        "red_threes": threes,
        "going_out": going_out,
        "undeclared_red_threes": -undeclared * rules.undeclared_red_three_penalty,
    }
    if rules.pile_black_threes == "bonus":
        scale = rules.black_three_bonus_scale
        lines["black_threes"] = scale[min(len(black_threes), len(scale) - 1)]
    if rules.concealed_canasta_bonus:
        lines["concealed_canastas"] = concealed_canastas * rules.concealed_canasta_bonus
    if rules.wild_melds:  # a line only where the rules have wild canastas
        lines["wild_canastas"] = sum(rules.wild_canasta_value(sum(1 for c in m if c == JOKER)) for m in wild)
    return {"lines": lines, "total": sum(lines.values())}


def _card_list(value: Any, where: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        try:
            return [int(c) for c in parse_cards(value)]
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if isinstance(value, list):
        return [c for item in value for c in _card_list(item, where)]
    raise ValueError(f"{where}: want cards as text such as '4C 5D', got {value!r}")


def score_hand(rules: Rules, sides: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Score a hand given each side's melds, cards in hand and red threes (DESIGN.md B).

    Each side is a dict with ``melds`` (a list of card texts), ``hand``, ``red_threes`` and the
    flags ``went_out`` and ``concealed``. Raises ``ValueError`` naming the side and the problem.
    """
    if len(sides) != rules.teams:
        raise ValueError(f"{rules.name} has {rules.teams} sides, the input has {len(sides)}")
    known = {"melds", "hand", "red_threes", "went_out", "concealed"}
    total_counts = [0] * 53
    out = []
    outs = 0
    for i, side in enumerate(sides):
        name = f"side {i + 1}"
        if not isinstance(side, dict):
            raise ValueError(f"{name}: want an object with melds, hand and red_threes")
        extra = set(side) - known
        if extra:
            raise ValueError(f"{name}: unknown field(s) {', '.join(sorted(extra))}; valid: {', '.join(sorted(known))}")
        raw_melds = side.get("melds") or []
        if not isinstance(raw_melds, list):
            raise ValueError(f"{name}: melds must be a list of card texts")
        melds = [_card_list(m, f"{name} meld {j + 1}") for j, m in enumerate(raw_melds)]
        hand = _card_list(side.get("hand"), f"{name} hand")
        threes = _card_list(side.get("red_threes"), f"{name} red threes")
        went_out, concealed = side.get("went_out", False), side.get("concealed", False)
        if not isinstance(went_out, bool) or not isinstance(concealed, bool):
            raise ValueError(f"{name}: went_out and concealed must be true or false")
        if concealed and not went_out:
            raise ValueError(f"{name}: concealed is set but went_out is not")
        outs += went_out
        ranks: set[int] = set()
        for j, m in enumerate(melds):
            problem = meld_problem(rules, m)
            if problem:
                raise ValueError(f"{name} meld {j + 1} ({' '.join(card_str(c) for c in m)}): {problem}")
            r = next((rank_of(c) for c in m if not is_wild(c)), JOKER_RANK)
            if r in ranks:
                raise ValueError(f"{name}: two melds of {rank_str(r)}s; a side has one meld per rank (they merge)")
            ranks.add(r)
            if r == THREE and not went_out:
                raise ValueError(f"{name}: black threes may be melded only by a side going out")
        if went_out and sum(1 for m in melds if is_canasta(m)) < rules.canastas_to_go_out:
            raise ValueError(f"{name}: went out without the {rules.canastas_to_go_out} canasta(s) needed")
        for c in threes:
            if c not in RED_THREES:
                raise ValueError(f"{name}: {card_str(c)} is not a red three")
        for c in [*hand, *threes, *(c for m in melds for c in m)]:
            total_counts[c] += 1
        out.append(score_side(rules, melds, hand, threes, went_out, concealed))
    if outs > 1:
        raise ValueError("more than one side went out")
    limit = counts_of(pack(rules.decks, rules.jokers))
    for c in range(53):
        if total_counts[c] > limit[c]:
            raise ValueError(f"{total_counts[c]} × {card_str(c)} but the pack of {rules.pack_size} "
                             f"holds only {limit[c]}")
    return out

