"""Rules of thumb for penalised melds and hands (Modern American, docs/sources.md §4C), shared by the greedy and
heuristic players.

A meld of aces, of sevens or of wild cards that is not a canasta at the end of the hand costs 2,000 to
2,500, and three or more aces or sevens left in one player's hand cost 1,500. So a player does not start
such a meld unless it is a canasta at once or the cards for one are in sight, and he sheds such cards
rather than hold three of them.
"""

from __future__ import annotations

from typing import Any

from ..canasta.cards import parse_card, rank_of
from ..canasta.melds import key_rank, parse_key
from ..canasta.moves import Move
from ..canasta.rules import Rules

CANASTA = 7


def safe_moves(r: Rules, view: dict[str, Any], legal: list[Move]) -> list[Move]:
    """``legal`` without the melds and takes that start a penalised meld with too few cards in sight to
    finish it (the cards moved now plus those of its rank still in the hand); all of ``legal`` if that
    would leave nothing."""
    if not r.unfinished_penalties:
        return legal
    penalised = {rank for rank, _ in r.unfinished_penalties}
    mine = {parse_key(m["key"]) for m in view["sides"][view["side"]]["melds"]}
    held: dict[int, int] = {}
    for text in view["hand"]:
        rank = rank_of(parse_card(text))
        held[rank] = held.get(rank, 0) + 1

    def risky(m: Move) -> bool:
        if m.action not in ("meld", "take") or m.rank in mine or key_rank(m.rank) not in penalised:
            return False
        rank = key_rank(m.rank)
        in_sight = m.cards + (m.action == "take") + held.get(rank, 0) - m.naturals
        return in_sight < CANASTA if rank else m.cards < CANASTA  # a wild meld: only as a whole canasta

    safe = [m for m in legal if not risky(m)]
    return safe or legal


def shed_bonus(r: Rules, rank: int, held: int) -> float:
    """How much more a player wants to discard a card of ``rank`` when he holds ``held`` of them and
    ``hand_penalties`` charges for keeping that many (0 where nothing is charged)."""
    for penalised, count, _ in r.hand_penalties:
        if rank == penalised and held >= count:
            return 1.0
    return 0.0
