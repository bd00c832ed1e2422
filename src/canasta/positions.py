"""Build a position by hand: for rulebook examples, tests, puzzles and the ``explain`` command.

``build_position`` takes cards as text and completes the pack: seats without a given hand are dealt
from what is left, the rest forms the stock (shuffled by ``seed``). When the stock is given too, the
cards still left go to the bottom of the pile so that the pack stays whole.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .canasta.cards import RED_THREES, TWO, card_str, counts_of, is_wild, pack, parse_cards, rank_of
from .canasta.engine import free_key, laid_out_threes
from .canasta.melds import is_run, sequence_key
from .canasta.rules import Rules
from .canasta.state import ANSWER_PHASE, DRAW_PHASE, Melds, State, Turn
from .canasta.variants import rules as make_rules
from .rummy.rules import RummyRules
from .rummy.state import RummyState


def _cards(text: str | Sequence[str]) -> list[int]:
    if not isinstance(text, str):
        text = " ".join(text)
    return [int(c) for c in parse_cards(text)]


def _meld_key(r: Rules, table: Melds, cards: list[int], text: str) -> int:
    """The key a meld of these cards gets on a side's table: a sequence of its suit, a meld of twos
    (Italian), a group of its rank (the next free slot where a side may hold several of a rank)."""
    if r.sequences and len({rank_of(c) for c in cards}) > 1 and is_run(cards):
        key = free_key(table, sequence_key(cards[0] & 3))
    else:
        ranks = {rank_of(c) for c in cards if not is_wild(c)} or {0}  # 0: a meld of wild cards
        if r.twos_as_rank and ranks == {0} and sum(1 for c in cards if rank_of(c) == TWO) >= 2:
            ranks = {TWO}
        if len(ranks) != 1:
            raise ValueError(f"meld {text!r} must hold exactly one natural rank (or be a sequence)")
        rank = ranks.pop()
        key = free_key(table, rank) if r.several_melds_per_rank else (None if rank in table else rank)
    if key is None:
        raise ValueError(f"meld {text!r}: the side already has a meld of that kind")
    return key


def build_position(
    rules: Rules | None = None,
    *,
    hands: Mapping[int, str] | Sequence[str | None] = (),
    pile: str = "",
    melds: Sequence[Sequence[str]] = (),
    red_threes: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    opened: Sequence[bool] | None = None,
    has_melded: Sequence[bool] | None = None,
    turn_seat: int = 0,
    phase: str = DRAW_PHASE,
    turn: Turn | None = None,
    stock: str | None = None,
    pile_frozen: bool | None = None,
    hand_number: int = 1,
    seed: int = 0,
    feet: Mapping[int, str] | Sequence[str | None] = (),
) -> State:
    """A position from card texts. ``melds[side]`` is a list of meld texts; ``pile`` lists the pile
    bottom first. ``opened`` defaults to "the side has melds"; ``pile_frozen`` to "the pile holds a
    wild card or a red three". Where the rules deal a foot (Hand and Foot), ``feet`` gives some seats'
    feet ("" = already picked up); the other seats get ``foot_size`` cards from what is left."""
    if isinstance(rules, RummyRules):
        raise TypeError("a rummy position has its own builder: canasta.rummy.build.build_position(rules, hands=[...], "
                        "pile=..., melds=[(TEXT, SEAT), ...])")
    r = rules or make_rules()
    hand_map: dict[int, str] = dict(hands) if isinstance(hands, Mapping) else {
        i: h for i, h in enumerate(hands) if h is not None}
    left = counts_of(pack(r.decks, r.jokers))

    def take(cards: list[int], what: str) -> list[int]:
        for c in cards:
            if left[c] <= 0:
                raise ValueError(f"{what}: no {card_str(c)} left in the pack")
            left[c] -= 1
        return cards

    side_melds: list[Melds] = []
    for side in range(r.teams):
        table: Melds = {}
        for text in (melds[side] if side < len(melds) else ()):
            cards = take(_cards(text), f"side {side} meld")
            table[_meld_key(r, table, cards, text)] = tuple(sorted(cards))
        side_melds.append(table)
    reds = [tuple(take(_cards(red_threes[s]) if s < len(red_threes) else [], "red threes"))
            for s in range(r.teams)]
    pile_cards = take(_cards(pile), "pile")
    given = {seat: take(_cards(text), f"hand {seat}") for seat, text in hand_map.items()}
    foot_map: dict[int, str] = dict(feet) if isinstance(feet, Mapping) else {
        i: f for i, f in enumerate(feet) if f is not None}
    given_feet = {seat: take(_cards(text), f"foot {seat}") for seat, text in foot_map.items()}
    stock_cards = take(_cards(stock), "stock") if stock is not None else None
    rest = [c for c in range(53) for _ in range(left[c])]
    random.Random(seed).shuffle(rest)
    hands_out = []
    for seat in range(r.players):
        if seat in given:
            cards = given[seat]
        else:  # threes that are laid out are never left in a hand: they stay in the stock
            laid = laid_out_threes(r)
            picks = [i for i, c in enumerate(rest) if c not in laid][: r.hand_size]
            cards = [rest[i] for i in picks]
            chosen = set(picks)
            rest = [c for i, c in enumerate(rest) if i not in chosen]
        hands_out.append(tuple(counts_of(cards)))
    feet_out = []
    for seat in range(r.players):
        if seat in given_feet:
            cards = given_feet[seat]
        else:
            cards, rest = rest[: r.foot_size], rest[r.foot_size:]
        feet_out.append(tuple(counts_of(cards)))
    if stock_cards is None:
        stock_cards, rest = rest, []
    pile_cards = rest + pile_cards
    if pile_frozen is None:
        pile_frozen = any(is_wild(c) or c in RED_THREES for c in pile_cards)
    if opened is None:
        opened = [bool(m) for m in side_melds]
    if has_melded is None:
        has_melded = [bool(side_melds[r.side_of(s)]) for s in range(r.players)]
    to_move = turn_seat
    if phase == ANSWER_PHASE:
        seats = r.seats_of(r.side_of(turn_seat))
        to_move = seats[(seats.index(turn_seat) + 1) % len(seats)]
    return State(
        rules=r, seed=seed, hand_number=hand_number, dealer=(turn_seat - 1) % r.players,
        scores=tuple(scores) if scores is not None else (0,) * r.teams, hands=tuple(hands_out),
        stock=tuple(stock_cards), pile=tuple(pile_cards), pile_frozen=pile_frozen, melds=tuple(side_melds),
        red_threes=tuple(reds), opened=tuple(opened), has_melded=tuple(has_melded), turn_seat=turn_seat,
        to_move=to_move, phase=phase, turn=turn or Turn(), stage=None, last_hand=None,
        deal=tuple(stock_cards), history=(" ".join((str((turn_seat - 1) % r.players), "upcard",
                                                     *(card_str(c) for c in pile_cards))),),
        result=None, black_threes=((),) * r.teams,
        concealed_canastas=((),) * r.teams, recycled=False, seat_sides=tuple(r.side_of(s) for s in range(r.players)),
        pile_hidden=0, feet=tuple(feet_out),
    )


def load_state(data: str | bytes | dict[str, Any]) -> State | RummyState:
    """A position of either family from its JSON (text or the parsed object): ``State.from_json``'s
    counterpart that reads a rummy position too, routed by its ``"family"`` field (docs/position-schema.md).
    ``ValueError`` names what is wrong."""
    import json

    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"position is not valid JSON: {exc}") from None
    if isinstance(data, dict) and data.get("family") == "rummy":
        return RummyState.from_dict(data)
    return State.from_dict(data)
