"""Rummy moves and their notation (docs/notation.md, "The rummy family").

``draw`` (the stock), ``take 7C`` (that pile card and every card above it; ``take`` alone is the top card),
``meld 5H 6H 7H``, ``lay 8H on 5H-7H`` (a meld is named by its label: ``5H-7H``, ``7-set``, ``JK-set``, or by
any card in it), ``discard 9S`` and ``pass`` (the stock is empty and the player takes nothing: the hand ends;
or, asked whether he calls "Rum", he does not), ``rum 8H on 5H-7H`` (the discard claimed and laid off) and
and Dealer's Gambit's ``nominate wild`` / ``nominate double`` / ``nominate split`` (the dealer, before play),
``take dealer JK``, ``block JK`` (a joker laid face down over the dealer's) and ``split 7C`` / ``split 7C to KD``
(a joker splitting the pile around 7C: the cards above it, up to KD, leave the game; those above KD come
along with 7C).
"""

from __future__ import annotations

from typing import NamedTuple

from ..canasta.cards import card_str, parse_card

# ``take dealer JK`` (Dealer's Gambit): its own action, so that code reading "take" meets pile takes only
DEALER_JOKER = "dealer_joker"
ACTIONS = ("draw", "take", "meld", "lay", "discard", "pass", "rum", "nominate", "block", "split")
EFFECTS = ("wild", "double", "split")


class RummyMove(NamedTuple):
    action: str
    cards: tuple[int, ...] = ()
    on: str = ""  # the label of the meld a card is laid off on; the effect a dealer nominates

    def __str__(self) -> str:
        if self.action == DEALER_JOKER:
            return "take dealer JK"
        if self.action == "nominate":
            return f"nominate {self.on}"
        if self.action == "split" and len(self.cards) == 2:
            return f"split {card_str(self.cards[0])} to {card_str(self.cards[1])}"
        parts = [self.action, *(card_str(c) for c in self.cards)]
        if self.on:
            parts += ["on", self.on]
        return " ".join(parts)


def parse_cards_text(words: list[str], text: str) -> tuple[int, ...]:
    out = []
    for w in words:
        try:
            out.append(int(parse_card(w)))
        except ValueError:
            raise ValueError(f"{text!r}: {w!r} is not a card (cards look like 7C, TH, AS, JK)") from None
    return tuple(out)


def parse_words(text: str) -> tuple[str, list[str], str | None]:
    """(action, card words, meld named after 'on' or None); ``ValueError`` quoting the input."""
    if not isinstance(text, str):
        raise TypeError(f"a move is text such as 'draw' or 'meld 5H 6H 7H', got {type(text).__name__}")
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("empty move; moves are: " + ", ".join(ACTIONS))
    action = words[0].lower()
    if action not in ACTIONS:
        raise ValueError(f"{text!r}: unknown move {words[0]!r}; moves are: {', '.join(ACTIONS)}")
    rest = words[1:]
    target = None
    if action == "nominate":
        if len(rest) != 1 or rest[0].lower() not in EFFECTS:
            raise ValueError(f"{text!r}: the dealer nominates one of: {', '.join(f'nominate {e}' for e in EFFECTS)}")
        return action, [], rest[0].lower()
    if action == "block":
        if len(rest) > 1 or (rest and rest[0].upper() != "JK"):
            raise ValueError(f"{text!r}: the dealer's joker is blocked with 'block JK' (a joker of yours)")
        return action, ["JK"], None
    if action == "split":
        if len(rest) == 3 and rest[1].lower() == "to":
            rest = [rest[0], rest[2]]
        elif len(rest) != 1:
            raise ValueError(f"{text!r}: 'split 7C' or 'split 7C to KD' (the pile card chosen, and the last card "
                             "that leaves the game)")
        return action, rest, None
    if action == "take" and rest and rest[0].lower() in ("dealer", "dealer's", "dealers"):
        if len(rest) > 2 or (len(rest) == 2 and rest[1].upper() != "JK"):
            raise ValueError(f"{text!r}: the dealer's joker is taken with 'take dealer JK'")
        return DEALER_JOKER, ["JK"], None
    lowered = [w.lower() for w in rest]
    if "on" in lowered:
        i = lowered.index("on")
        target = " ".join(rest[i + 1:])
        rest = rest[:i]
        if action not in ("lay", "rum") or not target:
            raise ValueError(f"{text!r}: 'on MELD' belongs to 'lay CARD on MELD' and 'rum CARD on MELD'")
    if action in ("draw", "pass") and rest:
        raise ValueError(f"{text!r}: '{action}' takes no cards")
    if action in ("discard", "lay") and len(rest) != 1:
        raise ValueError(f"{text!r}: '{action}' names exactly one card, e.g. '{action} 9S'")
    if action == "rum" and len(rest) > 1:
        raise ValueError(f"{text!r}: 'rum' names at most the discard, e.g. 'rum 8H on 5H-7H'")
    if action == "take" and len(rest) > 1:
        raise ValueError(f"{text!r}: 'take' names one card of the pile (it brings every card above it)")
    if action == "meld" and len(rest) < 3:
        raise ValueError(f"{text!r}: a meld has at least three cards, e.g. 'meld 5H 6H 7H'")
    return action, rest, target
