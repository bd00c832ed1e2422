"""Build a rummy position by hand (for rulebook examples, tests, puzzles and ``canasta explain``): cards as
text; the cards not placed form the stock (shuffled by ``seed``) unless the stock is given, and then they go
to the bottom of the pile, so that the pack stays whole."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..canasta.cards import JOKER, card_str, parse_cards
from .deal import pack_of
from .melds import Meld, meld_kind, new_meld
from .rules import RummyRules
from .state import DRAW, NOMINATE, RummyState


def build_position(r: RummyRules, *, hands: Sequence[str], pile: str = "", melds: Sequence[tuple[str, int]] = (),
                   stock: str | None = None, turn_seat: int = 0, phase: str = DRAW, scores: Sequence[int] | None = None,
                   melded: Sequence[bool] | None = None, must_use: str | None = None, taken: str = "",
                   seed: int = 0, joker_effect: str = "wild") -> RummyState:
    """``joker_effect``: Dealer's Gambit's effect for the hand (ignored by other games; empty in the phase
    ``nominate``)."""
    if r.dealers_joker:
        r = r.for_hand("" if phase == NOMINATE else joker_effect)
    left = pack_of(r)
    if r.dealers_joker:
        left.remove(JOKER)  # face up beside the stock until the dealer takes it

    def take(text: str, what: str) -> list[int]:
        cards = [int(c) for c in parse_cards(text)] if text.strip() else []
        for c in cards:
            if c not in left:
                raise ValueError(f"{what}: no {card_str(c)} left in the pack")
            left.remove(c)
        return cards

    table: list[Meld] = []
    for text, seat in melds:
        cards = tuple(take(text, f"meld {text!r}"))
        kind = meld_kind(r, cards)
        if kind is None:
            raise ValueError(f"{text!r} is not a meld")
        table.append(new_meld(r, kind[0], kind[1], kind[2], seat))
    if len(hands) != r.players:
        raise ValueError(f"give {r.players} hands")
    hand_cards = [tuple(sorted(take(h, f"hand {i}"))) for i, h in enumerate(hands)]
    pile_cards = take(pile, "pile")
    stock_cards = take(stock, "stock") if stock is not None else None
    random.Random(seed).shuffle(left)
    if stock_cards is None:
        stock_cards, left = left, []
    must = -1 if must_use is None else int(parse_cards(must_use)[0])
    return RummyState(
        rules=r, seed=seed, hand_number=1, dealer=(turn_seat - 1) % r.players,
        scores=tuple(scores) if scores is not None else (0,) * r.teams, hands=tuple(hand_cards),
        stock=tuple(stock_cards), pile=tuple(left + pile_cards), melds=tuple(table), turn_seat=turn_seat,
        phase=phase, must_use=must, taken=tuple(int(c) for c in parse_cards(taken)) if taken.strip() else (),
        melded=tuple(melded) if melded is not None else tuple(any(s in m.seats for m in table)
                                                               for s in range(r.players)),
        turn_melded=False, reshuffles=0, deal=(), history=(), last_hand=None, result=None,
        aside=(JOKER,) if r.dealers_joker else ())


__all__ = ["JOKER", "build_position"]
