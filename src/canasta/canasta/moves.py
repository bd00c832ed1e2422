"""Moves and the move notation.

Moves name ranks and counts, not physical cards: in Classic two 7s of different suits are
interchangeable for play, so ``meld 7 7 2`` is one move
whatever the suits in hand. The engine takes the cards of a rank in a fixed suit order.

Notation (canonical form first; the parser also accepts full cards such as ``7H`` or ``10♥``):

====================  =====================================================================
``draw``              draw from the stock
``take 9 9``          take the pile, melding its top card with these cards from the hand
``take``              take the pile by adding its top card to the side's meld of that rank
``meld 9 9 9 2``      meld (or add to the side's meld of that rank) naturals, then 2s and JKs
``meld 2 on 9``       add wild cards only to the side's meld of 9s
``meld 2 2 JK``       a meld of wild cards (variants that allow them), or add to it
``meld 9 9 9 on 9/2`` a second meld of nines, or add to it (variants with several melds of a rank)
``meld 4H 5H 6H``     a sequence of one suit (Samba family); ``meld 7H on seqH`` adds to the side's
                      heart sequence (``seqH/2`` a second one); ``take on seqH`` adds the pile's top
``combine 9/2 on 9``  put the side's second meld of nines into its first (several melds of a rank)
``discard 9``         discard one card of that rank (``discard 2``, ``discard JK``, ``discard 3``);
                      in games with sequences a natural is named with its suit: ``discard 9H``;
                      a red three held (Hand and Foot) is named as the card: ``discard 3H``
``ask``               ask the partner "may I go out?"; the partner answers ``yes`` or ``no``
``withdraw``          take back melds staged this turn by a side that has not yet opened
``acaba``             call "Acaba" (where the rules have it): the hand ends, the opponents score
``ask acaba``         ask the partner first whether to call Acaba; the answer binds
``pass``              decline the discard when the stock is empty (the hand ends), or end a turn
                      that may not discard (last stock card a red three, meld_no_discard)
``declare garbage``   lay down a special hand (Modern American: ``garbage``, ``pairs``,
                      ``pairs_twos_sevens_aces``, ``straight``), ending the hand
``layout``            lay out the three kept in the hand for a Straight and draw a replacement
====================  =====================================================================
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .kinds import JOKER, JOKER_RANK, RED_THREES, SUITS, TWO, parse_card, parse_rank, rank_of, rank_str
from .melds import is_sequence_key, key_label, key_rank, key_slot, key_suit, parse_key, sequence_key

ACTIONS: Final = ("draw", "take", "meld", "discard", "ask", "yes", "no", "withdraw", "pass", "acaba", "ask-acaba",
                  "combine", "declare", "layout")
# The special hands a ``declare`` move names, by its ``rank`` (special_hands.py defines them).
SPECIAL_HAND_NAMES: Final = ("garbage", "pairs", "pairs_twos_sevens_aces", "straight")
_SYNONYMS: Final = {
    "d": "draw", "stock": "draw", "pick": "take", "pickup": "take", "pile": "take",
    "m": "meld", "add": "meld", "lay": "meld", "x": "discard", "throw": "discard",
    "y": "yes", "n": "no", "end": "pass", "undo": "withdraw",
}


class Move(NamedTuple):
    """One atomic move. For a meld or take ``rank`` is the meld's key (melds.py: the rank for a side's
    first meld of a rank, 0 for wild cards; larger keys for second melds and sequences); for a discard
    the rank (0 = joker); else -1. ``low`` is the lowest rank a sequence move adds (one block of
    consecutive cards at one end of the sequence, or a new sequence), and for ``combine`` the key of the
    meld put into the meld ``rank``. ``suit`` names the suit of a
    discarded natural where suits matter (games with sequences), else -1."""

    action: str
    rank: int = -1
    naturals: int = 0
    twos: int = 0
    jokers: int = 0
    low: int = 0
    suit: int = -1

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            text = self._text()
            if len(_TEXTS) < 100_000:  # every move's notation is computed once (moves are values)
                _TEXTS[self] = text
        return text

    def _text(self) -> str:
        a = self.action
        if a == "discard":
            shown = "3" if self.rank == 1 else rank_str(self.rank)  # rank 1: a red three held (Hand and Foot)
            return f"discard {shown}{SUITS[self.suit] if self.suit >= 0 else ''}"
        if a == "ask-acaba":
            return "ask acaba"
        if a == "combine":
            return f"combine {key_label(self.low)} on {key_label(self.rank)}"
        if a == "declare":
            name = SPECIAL_HAND_NAMES[self.rank] if 0 <= self.rank < len(SPECIAL_HAND_NAMES) else "?"
            return f"declare {name}"
        if a in ("take", "meld"):
            key = self.rank
            if is_sequence_key(key):
                suit = SUITS[key_suit(key)]
                cards = [f"{rank_str(r)}{suit}" for r in range(self.low, self.low + self.naturals)]
                if a == "take":
                    return f"take on {key_label(key)}"
                return " ".join(["meld", *cards, "on", key_label(key)])
            rank = key_rank(key)
            cards = [rank_str(rank)] * self.naturals + ["2"] * self.twos + ["JK"] * self.jokers
            text = " ".join([a, *cards])
            if key_slot(key):
                text += f" on {key_label(key)}"
            elif a == "meld" and self.naturals == 0 and rank != JOKER_RANK:
                text += f" on {rank_str(rank)}"
            return text
        return a

    @property
    def cards(self) -> int:
        """How many cards the move takes from the hand."""
        if self.action == "discard":
            return 1
        return self.naturals + self.twos + self.jokers


_TEXTS: Final[dict[Move, str]] = {}  # notation by move, filled by Move.__str__
DRAW: Final = Move("draw")
ASK: Final = Move("ask")
YES: Final = Move("yes")
NO: Final = Move("no")
WITHDRAW: Final = Move("withdraw")
PASS: Final = Move("pass")
ACABA: Final = Move("acaba")
LAYOUT: Final = Move("layout")
ASK_ACABA: Final = Move("ask-acaba")


def token_rank(token: str) -> int | None:
    """The rank of a card token in a move (``9``, ``9H``, ``10♥``, ``JK``); None for anything else (a meld
    label such as ``seqH`` or a keyword such as ``on``)."""
    try:
        return parse_rank(token)
    except ValueError:
        pass
    try:
        return rank_of(parse_card(token))
    except ValueError:
        return None


def _rank_token(token: str) -> int:
    rank = token_rank(token)
    if rank is None:
        raise ValueError(f"{token!r} is not a card or rank (e.g. 9, 9H, 10♥, 2, JK)")
    return rank


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
    if action == "combine":
        if len(rest) != 3 or rest[1].lower() not in ("on", "to", "into"):
            raise ValueError(f"combine names two melds of one rank, e.g. 'combine K/2 on K'; got {text.strip()!r}")
        return Move("combine", _key_token(rest[2]), low=_key_token(rest[0]))
    if action == "declare":
        name = "_".join(rest).lower().replace("-", "_")
        if name not in SPECIAL_HAND_NAMES:
            raise ValueError(f"declare names a special hand: {', '.join(SPECIAL_HAND_NAMES)}; got {text.strip()!r}")
        return Move("declare", SPECIAL_HAND_NAMES.index(name))
    if action in ("draw", "ask", "yes", "no", "withdraw", "pass", "acaba", "ask-acaba", "layout"):
        if rest:
            raise ValueError(f"{action!r} takes no cards, got {' '.join(rest)!r}")
        return Move(action)
    if action == "discard":
        if len(rest) != 1:
            raise ValueError(f"discard one card, e.g. 'discard 9'; got {text.strip()!r}")
        rank = _rank_token(rest[0])
        try:
            if parse_card(rest[0]) in RED_THREES:  # "discard 3H": a red three held (threes_laid_out="none")
                return Move("discard", 1, suit=parse_card(rest[0]) & 3)
        except ValueError:
            pass
        try:
            suit = parse_card(rest[0]) & 3 if rank >= 4 else -1
        except ValueError:
            suit = -1
        return Move("discard", rank, suit=suit)
    target: int | None = None
    if len(rest) >= 2 and rest[-2].lower() in ("on", "to"):
        target = _key_token(rest[-1])
        rest = rest[:-2]
    if (target is not None and is_sequence_key(target)) or _looks_like_sequence(rest):
        return _sequence_move(action, rest, target, top_rank, text)
    ranks = [_rank_token(t) for t in rest]
    naturals = [r for r in ranks if r not in (TWO, JOKER_RANK)]
    if len(set(naturals)) > 1:
        raise ValueError(f"a meld holds one rank; {text.strip()!r} mixes "
                         f"{', '.join(sorted({rank_str(r) for r in naturals}))} "
                         f"(a sequence names cards of one suit, e.g. 'meld 4H 5H 6H')")
    twos, jokers = ranks.count(TWO), ranks.count(JOKER_RANK)
    if action == "take":
        # A take names the rank of the cards it shows; legality (matching the top card) is apply's job.
        shown = naturals[0] if naturals else top_rank
        if shown is None:
            raise ValueError("there is no pile to take")
        if target is not None and key_rank(target) != shown:
            raise ValueError(f"the pile's {rank_str(shown)} cannot go on the {key_label(target)} meld")
        return Move("take", shown if target is None else target, len(naturals), twos, jokers)
    if not ranks:
        raise ValueError("meld which cards? e.g. 'meld 9 9 9' or 'meld 2 on 9'")
    if naturals:
        rank = naturals[0]
        if target is not None and key_rank(target) != rank:
            raise ValueError(f"cannot meld {rank_str(rank)}s on the {key_label(target)} meld")
    else:  # wild cards only: onto a named meld, or else a meld of wild cards (where the rules allow it)
        rank = JOKER_RANK
    return Move("meld", rank if target is None else target, len(naturals), twos, jokers)


def _key_token(token: str) -> int:
    try:
        return parse_key(token)
    except ValueError:
        return _rank_token(token)


def _looks_like_sequence(tokens: list[str]) -> bool:
    """Cards of one suit, more than one rank and no wild cards: a sequence (a group names one rank)."""
    try:
        cards = [parse_card(t) for t in tokens]
    except ValueError:
        return False
    return len({rank_of(c) for c in cards}) > 1 and len({c & 3 for c in cards}) == 1 and not any(
        c == JOKER or rank_of(c) == TWO for c in cards)


def _sequence_move(action: str, tokens: list[str], target: int | None, top_rank: int | None, text: str) -> Move:
    if action == "take":
        if tokens:
            raise ValueError("a take onto a sequence names only the sequence, e.g. 'take on seqH'")
        if top_rank is None or target is None:
            raise ValueError("there is no pile to take")
        return Move("take", target, 0, 0, 0, top_rank)
    try:
        cards = [parse_card(t) for t in tokens]
    except ValueError:
        raise ValueError(f"a sequence names whole cards with their suit, e.g. 'meld 4H 5H 6H'; got {text.strip()!r}") \
            from None
    if not cards:
        raise ValueError("meld which cards? e.g. 'meld 7H on seqH'")
    suits = {c & 3 for c in cards if c != JOKER}
    ranks = sorted(rank_of(c) for c in cards)
    if JOKER in cards or len(suits) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        raise ValueError(f"a sequence is consecutive cards of one suit with no wild cards; {text.strip()!r} is not")
    suit = suits.pop()
    if target is None:
        target = sequence_key(suit)
    elif key_suit(target) != suit:
        raise ValueError(f"{SUITS[suit]} cards cannot go on {key_label(target)}")
    return Move("meld", target, len(cards), 0, 0, ranks[0])
