"""Moves and the move notation.

Moves name ranks and counts, not physical cards: in Classic two 7s of different suits are
interchangeable for play (DESIGN.md A, "moves over card kinds"), so ``meld 7 7 2`` is one move
whatever the suits in hand. The engine takes the cards of a rank in a fixed suit order.

Notation (canonical form first; the parser also accepts full cards such as ``7H`` or ``10♥``):

====================  =====================================================================
``draw``              draw from the stock
``take 9 9``          take the pile, melding its top card with these cards from the hand
``take``              take the pile by adding its top card to the side's meld of that rank
``meld 9 9 9 2``      meld (or add to the side's meld of that rank) naturals, then 2s and JKs
``meld 2 on 9``       add wild cards only to the side's meld of 9s
``meld 2 2 JK``       a meld of wild cards (variants that allow them), or add to it
``discard 9``         discard one card of that rank (``discard 2``, ``discard JK``, ``discard 3``)
``ask``               ask the partner "may I go out?"; the partner answers ``yes`` or ``no``
``withdraw``          take back melds staged this turn by a side that has not yet opened
``acaba``             call "Acaba" (where the rules have it): the hand ends, the opponents score
``ask acaba``         ask the partner first whether to call Acaba; the answer binds
``pass``              decline the discard when the stock is empty (the hand ends), or end a turn
                      that may not discard (last stock card a red three, meld_no_discard)
====================  =====================================================================
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import JOKER_RANK, TWO, parse_card, parse_rank, rank_of, rank_str

ACTIONS = ("draw", "take", "meld", "discard", "ask", "yes", "no", "withdraw", "pass", "acaba", "ask-acaba")
_SYNONYMS = {
    "d": "draw", "stock": "draw", "pick": "take", "pickup": "take", "pile": "take",
    "m": "meld", "add": "meld", "lay": "meld", "x": "discard", "throw": "discard",
    "y": "yes", "n": "no", "end": "pass", "undo": "withdraw",
}


class Move(NamedTuple):
    """One atomic move. ``rank`` is the meld, take or discard rank (0 = joker), else -1."""

    action: str
    rank: int = -1
    naturals: int = 0
    twos: int = 0
    jokers: int = 0

    def __str__(self) -> str:
        a = self.action
        if a == "discard":
            return f"discard {rank_str(self.rank)}"
        if a == "ask-acaba":
            return "ask acaba"
        if a in ("take", "meld"):
            cards = [rank_str(self.rank)] * self.naturals + ["2"] * self.twos + ["JK"] * self.jokers
            text = " ".join([a, *cards])
            if a == "meld" and self.naturals == 0 and self.rank != JOKER_RANK:
                text += f" on {rank_str(self.rank)}"
            return text
        return a

    @property
    def cards(self) -> int:
        """How many cards the move takes from the hand."""
        if self.action == "discard":
            return 1
        return self.naturals + self.twos + self.jokers


DRAW = Move("draw")
ASK = Move("ask")
YES = Move("yes")
NO = Move("no")
WITHDRAW = Move("withdraw")
PASS = Move("pass")
ACABA = Move("acaba")
ASK_ACABA = Move("ask-acaba")


def _rank_token(token: str) -> int:
    try:
        return parse_rank(token)
    except ValueError:
        pass
    try:
        return rank_of(parse_card(token))
    except ValueError:
        raise ValueError(f"{token!r} is not a card or rank (e.g. 9, 9H, 10♥, 2, JK)") from None


def parse_move_text(text: str, top_rank: int | None) -> Move:
    """Parse move notation. ``top_rank`` is the rank of the pile's top card (for ``take``)."""
    words = text.strip().split()
    if not words:
        raise ValueError("empty move; type a move such as 'draw', 'meld 9 9 9' or 'discard 5'")
    action = _SYNONYMS.get(words[0].lower(), words[0].lower())
    rest = words[1:]
    if action not in ACTIONS:
        raise ValueError(f"unknown move {words[0]!r}; moves are: {', '.join(ACTIONS)}")
    if action == "ask" and [w.lower() for w in rest] == ["acaba"]:
        return Move("ask-acaba")
    if action in ("draw", "ask", "yes", "no", "withdraw", "pass", "acaba", "ask-acaba"):
        if rest:
            raise ValueError(f"{action!r} takes no cards, got {' '.join(rest)!r}")
        return Move(action)
    if action == "discard":
        if len(rest) != 1:
            raise ValueError(f"discard one card, e.g. 'discard 9'; got {text.strip()!r}")
        return Move("discard", _rank_token(rest[0]))
    target: int | None = None
    if len(rest) >= 2 and rest[-2].lower() in ("on", "to"):
        target = _rank_token(rest[-1])
        rest = rest[:-2]
    ranks = [_rank_token(t) for t in rest]
    naturals = [r for r in ranks if r not in (TWO, JOKER_RANK)]
    if len(set(naturals)) > 1:
        raise ValueError(f"a meld holds one rank; {text.strip()!r} mixes "
                         f"{', '.join(sorted({rank_str(r) for r in naturals}))}")
    twos, jokers = ranks.count(TWO), ranks.count(JOKER_RANK)
    if action == "take":
        if target is not None:
            raise ValueError("'take' names only the cards from your hand, e.g. 'take 9 9'")
        # A take names the rank of the cards it shows; legality (matching the top card) is apply's job.
        if naturals:
            return Move("take", naturals[0], len(naturals), twos, jokers)
        if top_rank is None:
            raise ValueError("there is no pile to take")
        return Move("take", top_rank, 0, twos, jokers)
    if not ranks:
        raise ValueError("meld which cards? e.g. 'meld 9 9 9' or 'meld 2 on 9'")
    if naturals:
        rank = naturals[0]
        if target is not None and target != rank:
            raise ValueError(f"cannot meld {rank_str(rank)}s on the {rank_str(target)}s")
    else:  # wild cards only: onto a named meld, or else a meld of wild cards (where the rules allow it)
        rank = JOKER_RANK if target is None else target
    return Move("meld", rank, len(naturals), twos, jokers)
