"""The observation tensor written into flat float32 buffers, standard library only, so that mypyc compiles
it with the engine (setup.py; a compiled module may not import numpy): ``canasta.rl.tensor`` exposes the
buffers to numpy without copying them.

``DenseEncoder`` writes the numbers ``canasta.rl.observation.sparse_state`` defines (tests check the two
agree along many games of every preset), block by block. The environments ask for an observation every
step, so the blocks built from parts of the state that the engine shares, unchanged, between a position
and the next (a hand, the pile, a side's melds, the hand sizes, the known cards) are kept and reused while
that part is the same object. ``MaskWriter`` keeps a legal-atom mask up to date the same way.
"""

from __future__ import annotations

from array import array
from typing import Any

from ..cards import JOKER, NUM_KINDS, rank_of
from ..engine import canasta_count, minimum_needed, pile_frozen_for
from ..melds import is_sequence_key
from ..state import Melds, State
from .actions import KEYS, MELD_BASE, NUMBER_BASE, RANKS, TAKE_BASE, Atoms
from .observation import MELD_FEATURES, PERMISSIONS, PHASES, PREFIX_FIELDS, SIDE_FEATURES, SOURCES, Layout

_PHASE = {p: i for i, p in enumerate(PHASES)}
_PERMISSION = {p: i for i, p in enumerate(PERMISSIONS)}
_SOURCE = {s: i for i, s in enumerate(SOURCES)}
_LIMIT = 4096  # entries kept per cache before it is emptied (a long game makes new parts every move)


class DenseEncoder:
    """The observation tensors of one layout. Each seat keeps its last tensor in a buffer and rewrites only
    what changed: a block whose state part is still the same object is left as it is, the one-hot entries
    written last time are cleared, and the few numbers that change every move are written again. Correct
    for any sequence of positions (nothing assumes the next position follows the last one)."""

    def __init__(self, layout: Layout) -> None:
        self.size = size = layout.size
        self.at = at = {name: offset for name, (offset, _) in layout.offsets.items()}
        p, t = layout.players, layout.teams
        self.players, self.teams = p, t
        # seat-relative order: position j holds seat (j + seat) % p (side (j + side) % t)
        self.seat_order = [[(j + s) % p for j in range(p)] for s in range(p)]
        self.side_order = [[(j + s) % t for j in range(t)] for s in range(t)]
        self.meld_width = KEYS * len(MELD_FEATURES)
        self.buffers = [array("f", bytes(4 * size)) for _ in range(p)]
        self.sources: list[dict[Any, Any]] = [{} for _ in range(p)]  # block -> the part its numbers came from
        self.ones: list[list[int]] = [[] for _ in range(p)]  # one-hot entries set last time
        self.blocks: dict[Any, tuple[Any, array[float]]] = {}  # part -> (its source, its numbers)
        self.fixed = [at[name] for name in ("turn_melded", "pile_size", "pile_hidden", "pile_frozen", "stock_size",
                                            "hand_number", "staged_points")]

    def _block(self, key: Any, source: Any, build: Any) -> array[float]:
        """The numbers of one part, built once per part object (shared by the seats that see it alike)."""
        hit = self.blocks.get(key)
        if hit is None or hit[0] is not source:
            if len(self.blocks) > _LIMIT:  # a long game makes new parts every move
                self.blocks.clear()
            hit = self.blocks[key] = (source, array("f", build(source)))
        return hit[1]

    def encode(self, state: State, seat: int, prefix: Atoms, known: dict[int, dict[int, int]]) -> array[float]:
        """The seat's buffer, brought up to ``state`` (the same array object every call for that seat)."""
        buf, src = self.buffers[seat], self.sources[seat]
        if src.get("state") is state and src.get("prefix") == prefix:  # asked again (OpenSpiel asks twice)
            return buf
        at, p = self.at, self.players
        side = state.side_of(seat)
        hand = state.hands[seat]
        if src.get("hand") is not hand:
            a = at["hand"]
            buf[a:a + NUM_KINDS] = array("f", hand)
            src["hand"] = hand
        hidden, pile = state.pile_hidden, state.pile
        if src.get("pile") is not pile or src.get("pile_hidden") != hidden:
            a = at["pile"]
            buf[a:a + NUM_KINDS] = self._block(("pile", hidden), pile, lambda cards: _counts(cards[hidden:]))
            src["pile"], src["pile_hidden"] = pile, hidden
        for name in ("hand_sizes", "foot_sizes"):
            hands = state.hands if name == "hand_sizes" else state.feet
            if src.get(name) is not hands:
                sizes = self._block(name, hands, _sizes)  # by seat; this seat's view starts at itself
                a = at[name]
                for j, s in enumerate(self.seat_order[seat]):  # element by element: numpy holds the buffer,
                    buf[a + j] = sizes[s]  # and an empty slice assignment counts as a resize
                src[name] = hands
        last = src.get("known")
        if last is not known and last != known:  # the table keeps one dict while nothing known changes
            a = at["known"]
            buf[a:a + p * RANKS] = array("f", _known(known, self.seat_order[seat]))
            src["known"] = known
        stage = state.stage
        pending = None if stage is None else stage.pending
        if src.get("pending_pile") is not pending:
            a = at["pending_pile"]
            buf[a:a + NUM_KINDS] = array("f", _counts(pending or ()))
            src["pending_pile"] = pending
        width = len(SIDE_FEATURES)
        for row, col in enumerate(self.side_order[side]):
            melds = state.melds[col]
            last = src.get(("melds", row))
            if last is None or last[0] != col or last[1] is not melds:
                a = at["melds"] + row * self.meld_width
                buf[a:a + self.meld_width] = self._block(("melds", col), melds, _melds)
                src[("melds", row)] = (col, melds)
            buf[at["scores"] + row] = state.scores[col]
            a = at["sides"] + row * width
            buf[a:a + width] = array("f", (state.opened[col], minimum_needed(state, col, seat if col == side else None),
                                           len(state.red_threes[col]), canasta_count(melds),
                                           pile_frozen_for(state, col), len(state.black_threes[col])))
        ones = self.ones[seat]
        for i in ones:
            buf[i] = 0.0
        turn = state.turn
        ones[:] = (at["phase"] + _PHASE[state.phase], at["to_move"] + (state.to_move - seat) % p,
                   at["turn_seat"] + (state.turn_seat - seat) % p, at["dealer"] + (state.dealer - seat) % p,
                   at["permission"] + _PERMISSION[turn.permission], at["turn_source"] + _SOURCE[turn.source],
                   at["pile_top"] + (pile[-1] if pile else NUM_KINDS))
        if prefix:
            head = prefix[0]
            ones.append(at["prefix_head"] + (head - MELD_BASE if head < TAKE_BASE else KEYS + head - TAKE_BASE))
        for i in ones:
            buf[i] = 1.0
        f = self.fixed
        buf[f[0]], buf[f[1]], buf[f[2]], buf[f[3]], buf[f[4]], buf[f[5]], buf[f[6]] = (
            turn.melded, len(pile), hidden, state.pile_frozen, len(state.stock), state.hand_number,
            0 if stage is None else stage.points or 0)
        a = at["prefix_numbers"]
        numbers = [atom - NUMBER_BASE + 1 for atom in prefix[1:]]
        buf[a:a + PREFIX_FIELDS] = array("f", numbers + [0] * (PREFIX_FIELDS - len(numbers)))
        src["state"], src["prefix"] = state, prefix
        return buf


def _counts(cards: Any) -> list[int]:
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def _melds(melds: Melds) -> list[float]:
    block = [0.0] * (KEYS * len(MELD_FEATURES))
    width = len(MELD_FEATURES)
    for key, cards in melds.items():
        jokers = cards.count(JOKER)
        twos = sum(1 for c in cards if c < 4)  # kinds 0..3 are the twos (cards.py)
        base = key * width
        block[base:base + 3] = (len(cards) - jokers - twos, twos, jokers)
        if is_sequence_key(key):
            block[base + 3] = min(rank_of(c) for c in cards)
    return block


def _sizes(hands: tuple[tuple[int, ...], ...]) -> list[int]:
    return [sum(h) for h in hands]


def _known(known: dict[int, dict[int, int]], order: list[int]) -> list[float]:
    block = [0.0] * (len(order) * RANKS)
    for j, s in enumerate(order):
        for rank, n in known.get(s, {}).items():
            block[j * RANKS + rank] = n
    return block


class MaskWriter:
    """A legal-atom mask (one byte per atom, 1 = legal) kept in one ``bytearray``: each update clears the
    atoms set last time and sets the new ones, instead of building a fresh mask of every atom."""

    def __init__(self, size: int) -> None:
        self.mask = bytearray(size)
        self.set: list[int] = []

    def write(self, atoms: list[int]) -> bytearray:
        mask = self.mask
        for a in self.set:
            mask[a] = 0
        for a in atoms:
            mask[a] = 1
        self.set = atoms
        return mask
