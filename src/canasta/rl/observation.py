"""The observation tensor of one seat (docs/rl.md "Observation").

``encode_view`` is the definition: it reads nothing but ``canasta.view(state, seat)`` (and the partial
move being built, which is the environment's, not the engine's). ``encode_state`` computes the same
numbers from the state's public fields and that seat's own hand, several times faster than building the
whole view; tests check the two agree on many positions of every preset, so the fast path can show no
more than the view does.

Seats and sides are relative: index 0 is the observing seat (its side), then the next seats (sides) in
playing order, so one network can play any seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..canasta.cards import JOKER, NUM_KINDS, parse_card, rank_of
from ..canasta.engine import canasta_count, minimum_needed, pile_frozen_for
from ..canasta.melds import is_sequence_key, parse_key
from ..canasta.rules import Rules
from ..canasta.sampling import known_in_hands
from ..canasta.state import State
from .actions import KEYS, MELD_BASE, NUMBER_BASE, RANKS, TAKE_BASE, Atoms
from .known import advance, known_ranks, start

PHASES = ("draw", "play", "answer", "over")
PERMISSIONS = (None, "asked", "yes", "no", "acaba-asked", "acaba-yes", "acaba-no")
SOURCES = (None, "stock", "pile")
SIDE_FEATURES = ("opened", "minimum_needed", "red_threes", "canastas", "pile_frozen_for_side", "black_threes")
MELD_FEATURES = ("naturals", "twos", "jokers", "low")
PREFIX_FIELDS = 3


@dataclass(frozen=True)
class Layout:
    """Where each named block lies in the flat tensor, for ``players`` seats and ``teams`` score columns."""

    players: int
    teams: int

    @classmethod
    def for_rules(cls, rules: Rules) -> Layout:
        return cls(rules.players, rules.teams)

    @property
    def blocks(self) -> list[tuple[str, tuple[int, ...]]]:
        p, t = self.players, self.teams
        return [
            ("hand", (NUM_KINDS,)), ("phase", (len(PHASES),)), ("to_move", (p,)), ("turn_seat", (p,)),
            ("dealer", (p,)), ("permission", (len(PERMISSIONS),)), ("turn_source", (len(SOURCES),)),
            ("turn_melded", (1,)), ("pile_top", (NUM_KINDS + 1,)), ("pile", (NUM_KINDS,)),
            ("pile_size", (1,)), ("pile_hidden", (1,)), ("pile_frozen", (1,)), ("stock_size", (1,)),
            ("hand_number", (1,)), ("hand_sizes", (p,)), ("foot_sizes", (p,)), ("known", (p, RANKS)),
            ("scores", (t,)), ("sides", (t, len(SIDE_FEATURES))), ("melds", (t, KEYS, len(MELD_FEATURES))),
            ("staged_points", (1,)), ("pending_pile", (NUM_KINDS,)), ("prefix_head", (2, KEYS)),
            ("prefix_numbers", (PREFIX_FIELDS,)),
        ]

    @property
    def offsets(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Block name -> (first index, shape)."""
        cached = _OFFSETS.get(self)
        if cached is None:
            cached, at = {}, 0
            for name, shape in self.blocks:
                cached[name] = (at, shape)
                size = 1
                for d in shape:
                    size *= d
                at += size
            _OFFSETS[self] = cached
        return cached

    @property
    def size(self) -> int:
        name, shape = self.blocks[-1]
        return self.offsets[name][0] + shape[0]


_OFFSETS: dict[Layout, dict[str, tuple[int, tuple[int, ...]]]] = {}
_SHAPES: dict[Layout, tuple[int, dict[str, int]]] = {}


class Entries:
    """The tensor's non-zero entries (most of it is zero), by flat index."""

    def __init__(self, layout: Layout) -> None:
        shape = _SHAPES.get(layout)
        if shape is None:
            shape = _SHAPES[layout] = (layout.size, {name: offset for name, (offset, _) in layout.offsets.items()})
        self.size, self.at = shape
        self.values: dict[int, float] = {}

    def set(self, block: str, index: int, value: float) -> None:
        if value:
            self.values[self.at[block] + index] = float(value)

    def add(self, block: str, index: int, value: float = 1.0) -> None:
        i = self.at[block] + index
        self.values[i] = self.values.get(i, 0.0) + value

    def dense(self) -> list[float]:
        out = [0.0] * self.size
        for i, v in self.values.items():
            out[i] = v
        return out


def _melds(w: Entries, row: int, melds: dict[int, list[int]] | dict[int, tuple[int, ...]]) -> None:
    width = len(MELD_FEATURES)
    values = w.values
    first = w.at["melds"] + row * KEYS * width
    for key, cards in melds.items():
        base = first + key * width
        jokers = cards.count(JOKER)
        twos = sum(1 for c in cards if c < 4)  # kinds 0..3 are the twos (cards.py)
        for i, n in enumerate((len(cards) - jokers - twos, twos, jokers)):
            if n:
                values[base + i] = float(n)
        if is_sequence_key(key):
            values[base + 3] = float(min(rank_of(c) for c in cards))


def _prefix(w: Entries, prefix: Atoms) -> None:
    if not prefix:
        return
    head = prefix[0]
    w.set("prefix_head", head - MELD_BASE if head < TAKE_BASE else KEYS + head - TAKE_BASE, 1)
    for i, atom in enumerate(prefix[1:]):
        w.set("prefix_numbers", i, atom - NUMBER_BASE + 1)


def _known(w: Entries, seat: int, players: int, known: dict[int, Any]) -> None:
    for s, ranks in known.items():
        for rank, n in ranks.items():
            w.set("known", ((s - seat) % players) * RANKS + rank, n)


def encode_view(layout: Layout, v: dict[str, Any], prefix: Atoms = ()) -> list[float]:
    """The observation tensor (flat) built from ``view(state, seat)`` only."""
    w = Entries(layout)
    seat, side, p, t = v["seat"], v["side"], layout.players, layout.teams
    for c in v["hand"]:
        w.add("hand", parse_card(c))
    w.set("phase", PHASES.index(v["phase"]), 1)
    w.set("to_move", (v["to_move"] - seat) % p, 1)
    w.set("turn_seat", (v["turn_seat"] - seat) % p, 1)
    w.set("dealer", (v["dealer"] - seat) % p, 1)
    w.set("permission", PERMISSIONS.index(v["permission"]), 1)
    turn = v["public_state"]["turn"]
    w.set("turn_source", SOURCES.index(turn["source"]), 1)
    w.set("turn_melded", 0, turn["melded"])
    w.set("pile_top", NUM_KINDS if v["pile_top"] is None else parse_card(v["pile_top"]), 1)
    for c in v["pile"]:
        w.add("pile", parse_card(c))
    w.set("pile_size", 0, v["pile_size"])
    w.set("pile_hidden", 0, v["pile_hidden"])
    w.set("pile_frozen", 0, v["pile_frozen"])
    w.set("stock_size", 0, v["stock_size"])
    w.set("hand_number", 0, v["hand_number"])
    for s in range(p):
        w.set("hand_sizes", (s - seat) % p, v["hand_sizes"][s])
        w.set("foot_sizes", (s - seat) % p, v["foot_sizes"][s])
    _known(w, seat, p, known_in_hands(v))
    black = v["public_state"]["black_threes"]
    for col in range(t):
        row = (col - side) % t
        w.set("scores", row, v["scores"][col])
        entry = v["sides"][col]
        features = (entry["opened"], entry["minimum_needed"], len(entry["red_threes"]), entry["canastas"],
                    entry["pile_frozen_for_side"], len(black[col]))
        for i, value in enumerate(features):
            w.set("sides", row * len(SIDE_FEATURES) + i, value)
        _melds(w, row, {parse_key(m["key"]): [parse_card(c) for c in m["cards"]] for m in entry["melds"]})
    w.set("staged_points", 0, v["staged_points"] or 0)
    for c in v["pending_pile"] or ():
        w.add("pending_pile", parse_card(c))
    _prefix(w, prefix)
    return w.dense()


def encode_state(layout: Layout, state: State, seat: int, prefix: Atoms = (),
                 known: dict[int, dict[int, int]] | None = None) -> list[float]:
    """``encode_view(layout, view(state, seat), prefix)``, computed from the public fields of ``state`` and
    the seat's own hand only. ``known``: the cards known in the hands (``canasta.rl.known``), when the
    caller follows them; else they are read from the whole history."""
    return sparse_state(layout, state, seat, prefix, known).dense()


def sparse_state(layout: Layout, state: State, seat: int, prefix: Atoms = (),
                 known: dict[int, dict[int, int]] | None = None, cache: dict[Any, Any] | None = None) -> Entries:
    """``encode_state`` as its non-zero entries (``.values``: flat index -> value). ``cache``: a dict the
    caller keeps between positions of one game, so that a side's melds, unchanged since the last call
    (the engine shares unchanged parts between positions), are not encoded again."""
    w = Entries(layout)
    side, p, t = state.side_of(seat), layout.players, layout.teams
    values = w.values
    memo: dict[Any, Any] = {} if cache is None else cache

    def part(key: Any, source: Any, build: Any) -> None:
        """Entries built from ``source`` alone, reused while the engine shares that object."""
        hit = memo.get(key)
        if hit is None or hit[0] is not source:
            sub = Entries(layout)
            build(sub)
            hit = memo[key] = (source, sub.values)
        values.update(hit[1])

    def hand(sub: Entries) -> None:
        off = sub.at["hand"]
        sub.values.update({off + c: float(n) for c, n in enumerate(state.hands[seat]) if n})

    def pile(sub: Entries) -> None:
        off = sub.at["pile"]
        for c in state.pile[state.pile_hidden:]:
            sub.values[off + c] = sub.values.get(off + c, 0.0) + 1.0

    def hand_sizes(sub: Entries) -> None:
        for s in range(p):
            sub.set("hand_sizes", (s - seat) % p, sum(state.hands[s]))

    def foot_sizes(sub: Entries) -> None:
        for s in range(p):
            sub.set("foot_sizes", (s - seat) % p, sum(state.feet[s]))

    part(("hand", seat), state.hands[seat], hand)
    part(("pile", state.pile_hidden), state.pile, pile)
    part(("hand_sizes", seat), state.hands, hand_sizes)
    part(("foot_sizes", seat), state.feet, foot_sizes)
    at, turn = w.at, state.turn
    for block, index, value in (
            ("phase", PHASES.index(state.phase), 1), ("to_move", (state.to_move - seat) % p, 1),
            ("turn_seat", (state.turn_seat - seat) % p, 1), ("dealer", (state.dealer - seat) % p, 1),
            ("permission", PERMISSIONS.index(turn.permission), 1), ("turn_source", SOURCES.index(turn.source), 1),
            ("turn_melded", 0, turn.melded), ("pile_top", state.pile[-1] if state.pile else NUM_KINDS, 1),
            ("pile_size", 0, len(state.pile)), ("pile_hidden", 0, state.pile_hidden),
            ("pile_frozen", 0, state.pile_frozen), ("stock_size", 0, len(state.stock)),
            ("hand_number", 0, state.hand_number)):
        if value:
            values[at[block] + index] = float(value)
    if known is None:
        known = known_ranks(advance(start(state), state), state)
    _known(w, seat, p, known)
    for col in range(t):
        row = (col - side) % t
        w.set("scores", row, state.scores[col])
        melds = state.melds[col]
        features = (state.opened[col], minimum_needed(state, col, seat if col == side else None),
                    len(state.red_threes[col]), canasta_count(melds),
                    pile_frozen_for(state, col), len(state.black_threes[col]))
        first = at["sides"] + row * len(SIDE_FEATURES)
        for i, value in enumerate(features):
            if value:
                values[first + i] = float(value)
        part(("melds", col, row), melds, lambda sub, row=row, melds=melds: _melds(sub, row, melds))
    stage = state.stage
    if stage is not None:
        w.set("staged_points", 0, stage.points)
        for c in stage.pending or ():
            w.add("pending_pile", c)
    _prefix(w, prefix)
    return w
