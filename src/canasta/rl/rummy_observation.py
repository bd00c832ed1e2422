"""The observation of a rummy seat (docs/rl-encoding.md, "The rummy family's blocks"): a flat list of floats of a fixed
size per preset, read from ``canasta.view(state, seat)`` alone (and the partial move the seat is building, which
belongs to the environment), so it holds nothing of the other hands, the stock's order or the deal.

Seats and sides are relative, as in Canasta's observation: index 0 is the observing seat (its side), then the
following seats (sides) in playing order. Card blocks count card kinds (``canasta.canasta.cards``: ``(rank - 2) * 4 +
suit``, 52 the joker).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..canasta.cards import NUM_KINDS, parse_card
from ..rummy import RummyRules
from ..rummy.rules import JOKER_EFFECTS
from ..rummy.sampling import knowledge
from ..rummy.state import PHASES
from .rummy_actions import RummyActionSpace

MELD_KINDS: Final = ("set", "run", "jokers")
EFFECTS: Final = ("", *JOKER_EFFECTS)  # Dealer's Gambit: none nominated yet, then each effect
_KINDS: Final[dict[str, int]] = {}  # card text -> kind


def _kind(text: str) -> int:
    k = _KINDS.get(text)
    if k is None:
        k = _KINDS[text] = int(parse_card(text))
    return k


@dataclass(frozen=True)
class RummyLayout:
    """Where each block of the observation lies: ``offsets[name] = (start, shape)``; ``size`` floats."""

    players: int
    teams: int
    slots: int
    actions: int
    sides: tuple[int, ...]  # each seat's side (score column), as the rules say
    rules: RummyRules = field(compare=False, repr=False)  # for replaying the public history (``known``)
    offsets: dict[str, tuple[int, tuple[int, ...]]] = field(default_factory=dict, compare=False, repr=False)
    size: int = field(default=0, compare=False)

    @classmethod
    def for_rules(cls, rules: RummyRules) -> RummyLayout:
        space = RummyActionSpace.for_rules(rules)
        p, t, k = rules.players, rules.teams, NUM_KINDS
        blocks: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (k,)), ("phase", (len(PHASES),)),
            ("to_move", (p,)), ("dealer", (p,)), ("claim_from", (p,)),
            ("hand_sizes", (p,)), ("melded", (p,)), ("known", (p, k)), ("stock_known", (k,)),
            ("stock_size", (1,)), ("hand_number", (1,)), ("reshuffles", (1,)),
            ("pile", (k,)), ("pile_depth", (k,)), ("pile_top", (k + 1,)), ("pile_size", (1,)),
            ("must_use", (k + 1,)), ("taken", (k,)), ("removed", (k,)),
            ("dealers_joker", (3,)), ("joker_effect", (len(EFFECTS),)),
            ("scores", (t,)), ("table_points", (t,)),
            ("melds", (space.slots, len(MELD_KINDS) + k + p)),
            ("prefix", (space.size,)), ("prefix_length", (1,)),
        ]
        offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        at = 0
        for name, shape in blocks:
            offsets[name] = (at, shape)
            n = 1
            for d in shape:
                n *= d
            at += n
        return cls(p, t, space.slots, space.size, tuple(rules.side_of(s) for s in range(p)), rules, offsets, at)


def encode_view(layout: RummyLayout, view: dict[str, Any], prefix: Sequence[int] = ()) -> list[float]:
    """The observation of ``view["seat"]`` (a seat's ``canasta.view``); ``prefix``: the atoms of the move it
    is building (empty when it is not to act)."""
    out = [0.0] * layout.size
    at = {name: start for name, (start, _) in layout.offsets.items()}
    p, t = layout.players, layout.teams
    seat: int = view["seat"]
    side: int = view["side"]

    def seat_of(s: int) -> int:
        return (s - seat) % p

    def side_of(team: int) -> int:
        return (team - side) % t

    def count(block: str, cards: Sequence[str]) -> None:
        for c in cards:
            out[at[block] + _kind(c)] += 1.0

    count("hand", view["hand"])
    out[at["phase"] + PHASES.index(view["phase"])] = 1.0
    for block in ("to_move", "dealer", "claim_from"):
        if view[block] is not None:
            out[at[block] + seat_of(view[block])] = 1.0
    for s in range(p):
        out[at["hand_sizes"] + seat_of(s)] = float(view["hand_sizes"][s])
        out[at["melded"] + seat_of(s)] = float(view["melded"][s])
    # the cards each other seat was seen taking (from the pile, the dealer's joker) and still holds, and the
    # known cards of a stock made of the pile turned over (``canasta.rummy.sampling.knowledge``)
    known = knowledge(layout.rules, view["history"])
    for s in range(p):
        if s != seat:
            for c in known.held[s]:
                out[at["known"] + seat_of(s) * NUM_KINDS + c] += 1.0
    for c in known.stock_top[-view["stock"]:] if view["stock"] else ():
        out[at["stock_known"] + c] += 1.0
    out[at["stock_size"]] = float(view["stock"])
    out[at["hand_number"]] = float(view["hand_number"])
    out[at["reshuffles"]] = float(view["reshuffles"])
    pile = view["pile"]  # spread: every card and its place is public
    count("pile", pile)
    for depth, c in enumerate(reversed(pile), 1):  # how deep the topmost copy of each kind lies (1: the top)
        i = at["pile_depth"] + _kind(c)
        if out[i] == 0.0:
            out[i] = float(depth)
    out[at["pile_top"] + (_kind(pile[-1]) if pile else NUM_KINDS)] = 1.0
    out[at["pile_size"]] = float(len(pile))
    must_use = view["must_use"]
    out[at["must_use"] + (_kind(must_use) if must_use else NUM_KINDS)] = 1.0
    count("taken", view["taken"])
    count("removed", view["removed"])
    out[at["dealers_joker"] + min(len(view["dealers_joker"]), 2)] = 1.0  # none, face up, blocked
    out[at["joker_effect"] + EFFECTS.index(view["joker_effect"])] = 1.0
    for team, score in enumerate(view["scores"]):
        out[at["scores"] + side_of(team)] = float(score)
    width = len(MELD_KINDS) + NUM_KINDS + p
    for slot, meld in enumerate(view["melds"][: layout.slots]):
        base = at["melds"] + slot * width
        out[base + MELD_KINDS.index(meld["kind"])] = 1.0
        for c in meld["cards"]:
            out[base + len(MELD_KINDS) + _kind(c)] += 1.0
        out[base + len(MELD_KINDS) + NUM_KINDS + seat_of(meld["seats"][0])] = 1.0
        for s, points in zip(meld["seats"], meld["points"], strict=True):
            out[at["table_points"] + side_of(layout.sides[s])] += float(points)
    for atom in prefix:
        out[at["prefix"] + atom] += 1.0
    out[at["prefix_length"]] = float(len(prefix))
    return out


__all__ = ["EFFECTS", "MELD_KINDS", "RummyLayout", "encode_view"]
