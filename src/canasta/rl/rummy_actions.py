"""The fixed integer action space of a rummy preset (docs/rl-encoding.md, "The rummy family's atoms").

A rummy move names physical cards (``meld 5H JK 7H``, ``lay 8H on 5H-7H``, ``split 7C to KD``): every move
the engine makes (``canasta.rummy.moves``) is written as one atom or a fixed-shape sequence of atoms:

* one atom: ``draw``, ``pass``, ``take dealer JK``, ``block JK``, ``nominate wild|double|split``,
  ``take C`` and ``discard C`` for each card kind C;
* ``lay C`` then the meld's slot (its place on the table, oldest first); ``rum`` then the meld's slot;
* ``split C`` then the last card inside the split (a card atom), or ``end`` when it reaches the top;
* ``meld`` then its cards as card atoms, in the order the engine writes them, then ``end``.

The card atoms and meld slots are bounded by the rules (53 card kinds; at most ``pack_size // 3`` melds), so
the space is fixed per preset. The environments cut each sequence at the first atom after which only one
legal move remains (``canasta.rl.prefix``), as Canasta's do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..canasta.cards import NUM_KINDS, card_str
from ..rummy import RummyMove, RummyRules
from ..rummy.moves import DEALER_JOKER, EFFECTS
from .prefix import Atoms

SIMPLE: Final = ("draw", "pass", DEALER_JOKER, "block", *(f"nominate {e}" for e in EFFECTS))
SIMPLE_NAMES: Final = ("draw", "pass", "take dealer JK", "block JK", *SIMPLE[4:])
TAKE_BASE: Final = len(SIMPLE)
DISCARD_BASE: Final = TAKE_BASE + NUM_KINDS
LAY_BASE: Final = DISCARD_BASE + NUM_KINDS
SPLIT_BASE: Final = LAY_BASE + NUM_KINDS
RUM: Final = SPLIT_BASE + NUM_KINDS
MELD: Final = RUM + 1
CARD_BASE: Final = MELD + 1
END: Final = CARD_BASE + NUM_KINDS
SLOT_BASE: Final = END + 1


@dataclass(frozen=True)
class RummyActionSpace:
    """The atoms of one rummy preset: ``size`` integers, ``0 .. size - 1``."""

    slots: int  # meld slots: the most melds the table can hold

    @classmethod
    def for_rules(cls, rules: RummyRules) -> RummyActionSpace:
        return cls(rules.pack_size // 3)  # every meld holds three cards or more

    @property
    def size(self) -> int:
        return SLOT_BASE + self.slots

    def _slot(self, move: RummyMove, labels: list[str]) -> int:
        try:
            slot = labels.index(move.on)
        except ValueError:
            raise ValueError(f"cannot encode {move}: no meld {move.on!r} on the table") from None
        if slot >= self.slots:
            raise ValueError(f"cannot encode {move}: meld slot {slot} is outside this preset's action space")
        return SLOT_BASE + slot

    def atoms(self, move: RummyMove, labels: list[str]) -> Atoms:
        """The full atom sequence of ``move``; ``labels``: the melds on the table, in order (the view's
        ``melds``), which a lay-off or a "Rum" call names. ``ValueError`` for a move no preset makes."""
        a, cards = move.action, move.cards
        if a in ("draw", "pass", DEALER_JOKER, "block"):
            return (SIMPLE.index(a),)
        if a == "nominate":
            return (SIMPLE.index(f"nominate {move.on}"),)
        if a == "take":
            return (TAKE_BASE + cards[0],)
        if a == "discard":
            return (DISCARD_BASE + cards[0],)
        if a == "lay":
            return (LAY_BASE + cards[0], self._slot(move, labels))
        if a == "rum":
            return (RUM, self._slot(move, labels))
        if a == "split":
            return (SPLIT_BASE + cards[0], CARD_BASE + cards[1] if len(cards) == 2 else END)
        if a == "meld":
            return (MELD, *(CARD_BASE + c for c in cards), END)
        raise ValueError(f"cannot encode {move}: unknown action {a!r}")

    def name(self, atom: int) -> str:
        """A readable name for an atom (``draw``, ``discard 9H``, ``lay 8H``, ``meld``, ``7C``, ``slot 2``)."""
        if not 0 <= atom < self.size:
            return f"?{atom}"
        if atom < TAKE_BASE:
            return SIMPLE_NAMES[atom]
        for base, action in ((TAKE_BASE, "take"), (DISCARD_BASE, "discard"), (LAY_BASE, "lay"),
                             (SPLIT_BASE, "split")):
            if atom < base + NUM_KINDS:
                return f"{action} {card_str(atom - base)}"
        if atom == RUM:
            return "rum"
        if atom == MELD:
            return "meld"
        if atom < END:
            return card_str(atom - CARD_BASE)
        if atom == END:
            return "end"
        return f"slot {atom - SLOT_BASE}"
