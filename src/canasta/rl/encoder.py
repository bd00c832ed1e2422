"""The observation tensor written into flat float32 buffers, standard library only, so that mypyc compiles
it with the engine (setup.py; a compiled module may not import numpy): ``canasta.rl.tensor`` exposes the
buffers to numpy without copying them.

``DenseEncoder`` writes the numbers ``canasta.rl.observation.sparse_state`` defines (tests check the two
agree along many games of every preset). The environments ask for an observation every step, and from
one step to the next only a few of its numbers change, so each seat keeps a mirror of its buffer as a
``list[int]`` (every number of the tensor is a whole number) and writes into the buffer only the entries
whose value differs from the mirror. Compiled, the mirror is read and compared natively; a write into the
buffer (a ``memoryview`` of float32 items: mypyc has no native item access for ``array`` or
``memoryview``, so each write is a generic, costly operation) happens only for a changed number. Blocks
built from parts of the state that the engine shares, unchanged, between positions (a hand, the pile, a
side's melds, the hand sizes, the known cards) are skipped while that part is the same object.
``MaskWriter`` keeps a legal-atom mask up to date the same way.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from ..canasta.cards import JOKER, NUM_KINDS, rank_of
from ..canasta.engine import canasta_count, minimum_needed, pile_frozen_for
from ..canasta.melds import is_sequence_key
from ..canasta.state import Melds, State
from .actions import KEYS, MELD_BASE, NUMBER_BASE, RANKS, TAKE_BASE, Atoms
from .observation import MELD_FEATURES, PERMISSIONS, PHASES, PREFIX_FIELDS, SIDE_FEATURES, SOURCES, Layout

# Final: compiled, a module constant is then a C static, not a look-up in the module's dict at every use
_PHASE: Final = {p: i for i, p in enumerate(PHASES)}
_PERMISSION: Final = {p: i for i, p in enumerate(PERMISSIONS)}
_SOURCE: Final = {s: i for i, s in enumerate(SOURCES)}
_MELD_WIDTH: Final = len(MELD_FEATURES)
_SIDE_WIDTH: Final = len(SIDE_FEATURES)
_PREFIX_FIELDS: Final = PREFIX_FIELDS
_NONE: Final[Any] = object()  # "nothing written yet" for a part (None is a real value of some parts)


def state_fields(state: State) -> tuple[Any, ...]:
    """The position's fields an observation is written from, in one tuple, for the Cython encoder
    (``canasta.rl.native``): compiled, this reads them natively, where Cython reads each attribute of a
    compiled class through a generic look-up (some twenty of them, about 150 instructions each).
    In order: seat_sides, hands, pile, pile_hidden, feet, stage, scores, opened, red_threes, black_threes,
    melds, hand_number, pile_frozen, turn, phase, to_move, turn_seat, dealer, the stock's size."""
    return (state.seat_sides, state.hands, state.pile, state.pile_hidden, state.feet, state.stage, state.scores,
            state.opened, state.red_threes, state.black_threes, state.melds, state.hand_number, state.pile_frozen,
            state.turn, state.phase, state.to_move, state.turn_seat, state.dealer, len(state.stock))


class Encoder(Protocol):
    """What writes observation tensors: ``DenseEncoder`` or the Cython ``canasta.rl.native.NativeEncoder``."""

    buffers: list[bytearray]

    def encode(self, state: State, seat: int, prefix: Atoms, known: dict[int, dict[int, int]]) -> bytearray: ...


class Masks(Protocol):
    """What writes legal-atom masks: ``MaskWriter`` or the Cython ``canasta.rl.native.NativeMaskWriter``."""

    mask: bytearray

    def write(self, atoms: list[int]) -> bytearray: ...


class _Seat:
    """One seat's buffer, the mirror of what it holds, and the state parts its blocks were written from."""

    def __init__(self, size: int, teams: int) -> None:
        self.buffer = bytearray(4 * size)
        self.items: Any = memoryview(self.buffer).cast("f")
        self.mirror = [0] * size
        self.state: Any = _NONE
        self.prefix: Atoms = ()
        self.hand: Any = _NONE
        self.pile: Any = _NONE
        self.pile_hidden = -1
        self.hands: Any = _NONE
        self.feet: Any = _NONE
        self.known: Any = _NONE
        self.pending: Any = _NONE
        self.melds: list[Melds | None] = [None] * teams  # by row: the melds object written there
        self.melds_col = [-1] * teams  # by row: the side whose melds those were
        self.ones: list[int] = []  # one-hot entries set last time


class DenseEncoder:
    """The observation tensors of one layout. Each seat keeps its last tensor in a buffer and rewrites only
    the numbers that changed. Correct for any sequence of positions (nothing assumes the next position
    follows the last one)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.size = size = layout.size
        self.at = at = {name: offset for name, (offset, _) in layout.offsets.items()}
        p, t = layout.players, layout.teams
        self.players, self.teams = p, t
        # seat-relative order: position j holds seat (j + seat) % p (side (j + side) % t)
        self.seat_order = [[(j + s) % p for j in range(p)] for s in range(p)]
        self.side_order = [[(j + s) % t for j in range(t)] for s in range(t)]
        self.meld_width = KEYS * _MELD_WIDTH
        self.seats = [_Seat(size, t) for _ in range(p)]
        self.buffers = [s.buffer for s in self.seats]
        # the hands (feet) last summed, and their sizes: the engine keeps the hands that did not change
        self.hand_parts: list[Any] = [None] * p
        self.hand_counts = [0] * p
        self.foot_parts: list[Any] = [None] * p
        self.foot_counts = [0] * p
        self.at_hand, self.at_pile, self.at_known = at["hand"], at["pile"], at["known"]
        self.at_hand_sizes, self.at_foot_sizes, self.at_pending = at["hand_sizes"], at["foot_sizes"], at["pending_pile"]
        self.at_melds, self.at_scores, self.at_sides = at["melds"], at["scores"], at["sides"]
        self.at_phase, self.at_to_move, self.at_turn_seat, self.at_dealer = (
            at["phase"], at["to_move"], at["turn_seat"], at["dealer"])
        self.at_permission, self.at_source, self.at_pile_top = at["permission"], at["turn_source"], at["pile_top"]
        self.at_prefix_head, self.at_prefix_numbers = at["prefix_head"], at["prefix_numbers"]
        self.fixed = [at[name] for name in ("turn_melded", "pile_size", "pile_hidden", "pile_frozen", "stock_size",
                                            "hand_number", "staged_points")]

    def __reduce__(self) -> tuple[type[DenseEncoder], tuple[Layout]]:
        # a fresh encoder (its buffers are written in full at the first call): a memoryview cannot be
        # pickled, nor a compiled class field by field
        return (DenseEncoder, (self.layout,))

    def hand_sizes(self, hands: tuple[tuple[int, ...], ...]) -> list[int]:
        """The size of each hand (by seat), summing again only the hands that are new objects."""
        return _sizes(hands, self.hand_parts, self.hand_counts)

    def foot_sizes(self, feet: tuple[tuple[int, ...], ...]) -> list[int]:
        return _sizes(feet, self.foot_parts, self.foot_counts)

    def encode(self, state: State, seat: int, prefix: Atoms, known: dict[int, dict[int, int]]) -> bytearray:
        """The seat's buffer, brought up to ``state`` (the same bytearray object every call for that seat)."""
        if not 0 <= seat < self.players:  # (a negative index would read another seat's buffer)
            raise ValueError(f"no seat {seat}: the seats are 0 to {self.players - 1}")
        s = self.seats[seat]
        if s.state is state and s.prefix == prefix:  # asked again (OpenSpiel asks twice)
            return s.buffer
        items, mirror, p = s.items, s.mirror, self.players
        side = state.side_of(seat)
        hand = state.hands[seat]
        if s.hand is not hand:
            _write_tuple(items, mirror, self.at_hand, hand)
            s.hand = hand
        hidden, pile = state.pile_hidden, state.pile
        last_pile = s.pile
        if last_pile is not pile or s.pile_hidden != hidden:
            n = len(last_pile) if last_pile is not _NONE else 0
            if s.pile_hidden == hidden and hidden <= n <= len(pile) and n and pile[:n] == last_pile:
                for j in range(n, len(pile)):  # cards discarded on top of the pile last written
                    c = self.at_pile + pile[j]
                    _put(items, mirror, c, mirror[c] + 1)
            else:
                _write(items, mirror, self.at_pile, _counts(pile, hidden))
            s.pile, s.pile_hidden = pile, hidden
        order = self.seat_order[seat]
        if s.hands is not state.hands:
            _write(items, mirror, self.at_hand_sizes, _seated(self.hand_sizes(state.hands), order))
            s.hands = state.hands
        if s.feet is not state.feet:
            _write(items, mirror, self.at_foot_sizes, _seated(self.foot_sizes(state.feet), order))
            s.feet = state.feet
        last = s.known
        # the table keeps one dict while nothing known changes
        if last is not known and (last is _NONE or last != known):
            _write(items, mirror, self.at_known, _known(known, order))
            s.known = known
        stage = state.stage
        pending = None if stage is None else stage.pending
        if s.pending is not pending:
            _write(items, mirror, self.at_pending, _counts(pending or (), 0))
            s.pending = pending
        width = _SIDE_WIDTH
        for row, col in enumerate(self.side_order[side]):
            melds = state.melds[col]
            if s.melds_col[row] != col or s.melds[row] is not melds:
                _write_melds(items, mirror, self.at_melds + row * self.meld_width, s.melds[row], melds)
                s.melds[row], s.melds_col[row] = melds, col
            _put(items, mirror, self.at_scores + row, state.scores[col])
            _write(items, mirror, self.at_sides + row * width, [
                int(state.opened[col]), minimum_needed(state, col, seat if col == side else None),
                len(state.red_threes[col]), canasta_count(melds), int(pile_frozen_for(state, col)),
                len(state.black_threes[col])])
        turn = state.turn
        ones = [self.at_phase + _PHASE[state.phase], self.at_to_move + (state.to_move - seat) % p,
                self.at_turn_seat + (state.turn_seat - seat) % p, self.at_dealer + (state.dealer - seat) % p,
                self.at_permission + _PERMISSION[turn.permission], self.at_source + _SOURCE[turn.source],
                self.at_pile_top + (pile[-1] if pile else NUM_KINDS)]
        if prefix:
            head = prefix[0]
            ones.append(self.at_prefix_head + (head - MELD_BASE if head < TAKE_BASE else KEYS + head - TAKE_BASE))
        last_ones = s.ones
        for k in range(len(last_ones)):  # the k-th entry names a place in the same block each time
            i = last_ones[k]
            if k >= len(ones) or ones[k] != i:  # (clearing an entry set again would write it twice)
                _put(items, mirror, i, 0)
        for i in ones:
            _put(items, mirror, i, 1)
        s.ones = ones
        f = self.fixed
        _put(items, mirror, f[0], int(turn.melded))
        _put(items, mirror, f[1], len(pile))
        _put(items, mirror, f[2], hidden)
        _put(items, mirror, f[3], int(state.pile_frozen))
        _put(items, mirror, f[4], len(state.stock))
        _put(items, mirror, f[5], state.hand_number)
        _put(items, mirror, f[6], 0 if stage is None else stage.points or 0)
        a = self.at_prefix_numbers
        for i in range(_PREFIX_FIELDS):
            _put(items, mirror, a + i, prefix[i + 1] - NUMBER_BASE + 1 if i + 1 < len(prefix) else 0)
        s.state, s.prefix = state, prefix
        return s.buffer


def _put(items: Any, mirror: list[int], i: int, value: int) -> None:
    """Entry ``i`` set to ``value``: written into the buffer only when it differs from what is there."""
    if mirror[i] != value:
        mirror[i] = value
        items[i] = float(value)


def _write(items: Any, mirror: list[int], at: int, values: list[int]) -> None:
    """The block starting at ``at`` set to ``values``, writing only the entries that changed."""
    for j in range(len(values)):
        value = values[j]
        i = at + j
        if mirror[i] != value:
            mirror[i] = value
            items[i] = float(value)


def _write_tuple(items: Any, mirror: list[int], at: int, values: tuple[int, ...]) -> None:
    """``_write`` for a tuple (one function per type: compiled, each indexes its type natively)."""
    for j in range(len(values)):
        value = values[j]
        i = at + j
        if mirror[i] != value:
            mirror[i] = value
            items[i] = float(value)


def _counts(cards: tuple[int, ...], start: int) -> list[int]:
    counts = [0] * NUM_KINDS
    for j in range(start, len(cards)):
        counts[cards[j]] += 1
    return counts


def _seated(by_seat: list[int], order: list[int]) -> list[int]:
    return [by_seat[o] for o in order]


def _sizes(hands: tuple[tuple[int, ...], ...], parts: list[Any], counts: list[int]) -> list[int]:
    for i in range(len(hands)):
        hand = hands[i]
        if parts[i] is not hand:
            n = 0
            for j in range(len(hand)):
                n += hand[j]
            parts[i], counts[i] = hand, n
    return counts


def _write_melds(items: Any, mirror: list[int], at: int, old: Melds | None, melds: Melds) -> None:
    """A side's melds block (``MELD_FEATURES`` for each meld key) brought from the melds ``old`` (the
    ones last written there, or None) to ``melds``: only the keys of either are touched."""
    width = _MELD_WIDTH
    if old is None:  # nothing known of the block: write all of it
        _write(items, mirror, at, [0] * (KEYS * width))
    else:
        for key in old:
            if key not in melds:
                base = at + key * width
                for f in range(width):
                    _put(items, mirror, base + f, 0)
    for key, cards in melds.items():
        if old is not None and old.get(key) is cards:  # the engine keeps the melds that did not change
            continue
        jokers = cards.count(JOKER)
        twos = 0
        for c in cards:
            if c < 4:  # kinds 0..3 are the twos (cards.py)
                twos += 1
        base = at + key * width
        _put(items, mirror, base, len(cards) - jokers - twos)
        _put(items, mirror, base + 1, twos)
        _put(items, mirror, base + 2, jokers)
        _put(items, mirror, base + 3, min([rank_of(c) for c in cards]) if is_sequence_key(key) else 0)


def _known(known: dict[int, dict[int, int]], order: list[int]) -> list[int]:
    block = [0] * (len(order) * RANKS)
    for j, s in enumerate(order):
        ranks = known.get(s)
        if ranks is not None:
            for rank, n in ranks.items():
                block[j * RANKS + rank] = n
    return block


class MaskWriter:
    """A legal-atom mask (one byte per atom, 1 = legal) kept in one ``bytearray``: each update clears the
    atoms set last time and sets the new ones, instead of building a fresh mask of every atom."""

    def __init__(self, size: int) -> None:
        self.mask = bytearray(size)
        self.set: list[int] = []

    def __reduce__(self) -> tuple[type[MaskWriter], tuple[int]]:
        return (MaskWriter, (len(self.mask),))  # a fresh (empty) mask: the next write sets what is legal

    def write(self, atoms: list[int]) -> bytearray:
        mask = self.mask
        if atoms == self.set:
            return mask
        for a in self.set:
            mask[a] = 0
        for a in atoms:
            mask[a] = 1
        self.set = atoms
        return mask
