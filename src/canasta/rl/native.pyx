# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""``canasta.rl.encoder``'s ``DenseEncoder`` and ``MaskWriter`` written in Cython (built by setup.py when
Cython and a C compiler are there; ``canasta.rl.tensor`` falls back to the mypyc/pure classes otherwise).

Why: the environments write an observation and a mask every step, and mypyc has no native item access for
a float32 buffer (each write through a ``memoryview`` is a generic call, so the mypyc encoder keeps an
integer mirror to write only what changed). Here the buffers are C arrays: a block is simply written again
whole, and the only Python-level work left is reading the state's fields. The same blocks as the mypyc
encoder are skipped while the part of the state they come from is the same object. Tests check both
write the same bytes along many games of every preset.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING
from libc.string cimport memset

cdef extern from "Python.h":
    # a tuple's items as borrowed pointers, so that the loops over a hand's 53 counts (most of them the one
    # object 0) compare pointers and convert the others without Cython's reference counting per item
    ctypedef struct PyObject
    PyObject* _item "PyTuple_GET_ITEM" (object, Py_ssize_t)
    long _as_long "PyLong_AsLong" (PyObject*) except? -1

from canasta.canasta.cards import JOKER, NUM_KINDS, rank_of
from canasta.canasta.engine import minimum_needed, pile_frozen_for
from canasta.canasta.melds import SEQUENCE_BASE
from canasta.canasta.state import Stage, Turn
from canasta.rl.actions import KEYS, MELD_BASE, NUMBER_BASE, RANKS, TAKE_BASE
from canasta.rl.encoder import state_fields
from canasta.rl.observation import MELD_FEATURES, PERMISSIONS, PHASES, PREFIX_FIELDS, SIDE_FEATURES, SOURCES

cdef dict _PHASE = {p: i for i, p in enumerate(PHASES)}
cdef dict _PERMISSION = {p: i for i, p in enumerate(PERMISSIONS)}
cdef dict _SOURCE = {s: i for i, s in enumerate(SOURCES)}
cdef Py_ssize_t _MELD_WIDTH = len(MELD_FEATURES)
cdef Py_ssize_t _SIDE_WIDTH = len(SIDE_FEATURES)
cdef Py_ssize_t _PREFIX_FIELDS = PREFIX_FIELDS
cdef Py_ssize_t _KINDS = NUM_KINDS
cdef Py_ssize_t _RANKS = RANKS
cdef Py_ssize_t _KEYS = KEYS
cdef long _JOKER = JOKER
cdef long _SEQUENCE_BASE = SEQUENCE_BASE
cdef long _MELD_BASE = MELD_BASE
cdef long _TAKE_BASE = TAKE_BASE
cdef long _NUMBER_BASE = NUMBER_BASE
cdef object _NONE = object()  # "nothing written yet" for a part (None is a real value of some parts)
cdef object _ZERO = 0  # (CPython keeps one object for each small int: a count of 0 is this object)
cdef PyObject* _ZERO_AT = <PyObject*>_ZERO
# Turn and Stage are named tuples: their fields read by position (an attribute look-up costs some 120
# instructions from here, an item of a tuple a few)
cdef Py_ssize_t _TURN_SOURCE = Turn._fields.index("source")
cdef Py_ssize_t _TURN_PERMISSION = Turn._fields.index("permission")
cdef Py_ssize_t _TURN_MELDED = Turn._fields.index("melded")
cdef Py_ssize_t _STAGE_PENDING = Stage._fields.index("pending")
cdef Py_ssize_t _STAGE_POINTS = Stage._fields.index("points")
cdef enum:
    MAX_SEATS = 8  # (of players and of teams)
    MAX_ONES = 8  # the one-hot entries: 7 blocks and the prefix's head


cdef class _Seat:
    """One seat's buffer and the state parts its blocks were last written from."""

    cdef bytearray buffer
    cdef object state, prefix, hand, pile, hands, feet, known, pending, turn, phase, permission, source
    cdef Py_ssize_t pile_hidden
    cdef list melds  # by row: the melds object written there (None: nothing known of the block)
    cdef list melds_col  # by row: the side whose melds those were
    cdef Py_ssize_t canastas[MAX_SEATS]  # by row: the canastas among those melds
    # The engine's answers for each row's side, kept while what they are found from is the same:
    # ``minimum_needed`` of a side not yet opened (from the scores, the seats' sides and the hand number) and
    # ``pile_frozen_for`` (from whether the pile is frozen and whether the side has opened; -1: not asked yet).
    cdef object need_scores, need_sides
    cdef Py_ssize_t need_hand
    cdef long need[MAX_SEATS]
    cdef bint need_known[MAX_SEATS]
    cdef long frozen_key[MAX_SEATS]
    cdef bint frozen[MAX_SEATS]
    # the index of the phase and of the turn's permission and source, the turn's ``melded`` (same turn object)
    cdef Py_ssize_t phase_at, permission_at, source_at
    cdef bint melded
    cdef Py_ssize_t ones[MAX_ONES]  # one-hot entries set last time
    cdef Py_ssize_t n_ones

    def __cinit__(self, Py_ssize_t size, Py_ssize_t teams):
        cdef int row
        self.buffer = bytearray(4 * size)
        self.state = self.hand = self.pile = self.hands = self.feet = self.known = self.pending = _NONE
        self.turn = self.phase = self.permission = self.source = self.need_scores = self.need_sides = _NONE
        self.prefix = ()
        self.pile_hidden = -1
        self.need_hand = -1
        self.melds = [None] * teams
        self.melds_col = [-1] * teams
        self.n_ones = 0
        for row in range(MAX_SEATS):
            self.need_known[row] = False
            self.frozen_key[row] = -1


cdef inline Py_ssize_t _sum(tuple counts) except? -1:
    cdef Py_ssize_t n = 0, j
    cdef PyObject* count
    for j in range(len(counts)):
        count = _item(counts, j)
        if count != _ZERO_AT:  # most kinds are not in a hand: no conversion for them
            n += _as_long(count)
    return n


cdef class _Sizes:
    """The size of each hand (or foot) by seat, summing again only the hands that are new objects (the
    engine keeps the hands that did not change)."""

    cdef list parts
    cdef Py_ssize_t counts[MAX_SEATS]

    def __cinit__(self, Py_ssize_t players):
        self.parts = [None] * players

    cdef inline void know(self, Py_ssize_t seat, tuple hand, Py_ssize_t size):
        """The size of a hand summed by the caller (the seat's own, written into its buffer item by item)."""
        self.parts[seat] = hand
        self.counts[seat] = size

    cdef void update(self, tuple hands) except *:
        cdef Py_ssize_t i
        for i in range(len(hands)):
            hand = hands[i]
            if self.parts[i] is not hand:
                self.counts[i] = _sum(<tuple>hand)
                self.parts[i] = hand


cdef class NativeEncoder:
    """``canasta.rl.encoder.DenseEncoder`` (same interface, same bytes)."""

    cdef readonly object layout
    cdef readonly Py_ssize_t size
    cdef readonly list buffers
    cdef list seats
    cdef _Sizes hand_sizes, foot_sizes
    cdef Py_ssize_t players, teams
    cdef Py_ssize_t at_hand, at_pile, at_known, at_hand_sizes, at_foot_sizes, at_pending, at_melds, at_scores
    cdef Py_ssize_t at_sides, at_phase, at_to_move, at_turn_seat, at_dealer, at_permission, at_source
    cdef Py_ssize_t at_pile_top, at_prefix_head, at_prefix_numbers
    cdef Py_ssize_t at_turn_melded, at_pile_size, at_pile_hidden, at_pile_frozen, at_stock_size
    cdef Py_ssize_t at_hand_number, at_staged_points

    def __init__(self, layout):
        self.layout = layout
        self.size = layout.size
        at = {name: offset for name, (offset, _) in layout.offsets.items()}
        self.players, self.teams = layout.players, layout.teams
        if self.players > MAX_SEATS or self.teams > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seats")
        self.hand_sizes, self.foot_sizes = _Sizes(self.players), _Sizes(self.players)
        self.seats = [_Seat(self.size, self.teams) for _ in range(self.players)]
        self.buffers = [(<_Seat>s).buffer for s in self.seats]
        self.at_hand, self.at_pile, self.at_known = at["hand"], at["pile"], at["known"]
        self.at_hand_sizes, self.at_foot_sizes, self.at_pending = at["hand_sizes"], at["foot_sizes"], at["pending_pile"]
        self.at_melds, self.at_scores, self.at_sides = at["melds"], at["scores"], at["sides"]
        self.at_phase, self.at_to_move, self.at_turn_seat, self.at_dealer = (
            at["phase"], at["to_move"], at["turn_seat"], at["dealer"])
        self.at_permission, self.at_source, self.at_pile_top = at["permission"], at["turn_source"], at["pile_top"]
        self.at_prefix_head, self.at_prefix_numbers = at["prefix_head"], at["prefix_numbers"]
        self.at_turn_melded, self.at_pile_size, self.at_pile_hidden = at["turn_melded"], at["pile_size"], at["pile_hidden"]
        self.at_pile_frozen, self.at_stock_size, self.at_hand_number = (
            at["pile_frozen"], at["stock_size"], at["hand_number"])
        self.at_staged_points = at["staged_points"]

    def __reduce__(self):
        return (NativeEncoder, (self.layout,))  # a fresh encoder: its buffers are written in full at first use

    def encode(self, state, Py_ssize_t seat, tuple prefix, dict known):
        """The seat's buffer, brought up to ``state`` (the same bytearray object every call for that seat)."""
        if not 0 <= seat < self.players:  # (the list is read unchecked below)
            raise ValueError(f"no seat {seat}: the seats are 0 to {self.players - 1}")
        cdef _Seat s = <_Seat>self.seats[seat]
        if s.state is state and s.prefix == prefix:  # asked again (OpenSpiel asks twice)
            return s.buffer
        cdef float* items = <float*>PyByteArray_AS_STRING(s.buffer)
        cdef Py_ssize_t p = self.players, t = self.teams, j, k, n, row, col, i, side, hidden
        cdef Py_ssize_t hand_number
        cdef long pile_frozen, is_open
        cdef tuple hand, pile, hands, feet, counts, cards, seat_sides, scores, opened, red_threes, black_threes
        cdef tuple all_melds
        cdef PyObject* held
        # the state's fields in one call (compiled: read natively), not an attribute look-up each
        cdef tuple f = state_fields(state)
        seat_sides = f[0]
        side = seat_sides[seat]
        hands = f[1]
        hand = <tuple>hands[seat]
        if s.hand is not hand:
            n = 0
            for j in range(len(hand)):
                held = _item(hand, j)
                if held == _ZERO_AT:
                    items[self.at_hand + j] = 0
                else:
                    k = _as_long(held)
                    items[self.at_hand + j] = k
                    n += k
            s.hand = hand
            self.hand_sizes.know(seat, hand, n)  # (its size, so that the sizes below need not sum it again)
        pile = f[2]
        hidden = f[3]
        if s.pile is not pile or s.pile_hidden != hidden:
            memset(&items[self.at_pile], 0, _KINDS * sizeof(float))
            for j in range(hidden, len(pile)):
                items[self.at_pile + <long>pile[j]] += 1
            s.pile, s.pile_hidden = pile, hidden
        if s.hands is not hands:
            self.hand_sizes.update(hands)
            for j in range(p):
                items[self.at_hand_sizes + j] = self.hand_sizes.counts[(j + seat) % p]
            s.hands = hands
        feet = f[4]
        if s.feet is not feet:
            self.foot_sizes.update(feet)
            for j in range(p):
                items[self.at_foot_sizes + j] = self.foot_sizes.counts[(j + seat) % p]
            s.feet = feet
        last = s.known
        # the table keeps one dict while nothing known changes
        if last is not known and (last is _NONE or last != known):
            memset(&items[self.at_known], 0, p * _RANKS * sizeof(float))
            for j in range(p):
                ranks = known.get((j + seat) % p)
                if ranks is not None:
                    for rank, count in (<dict>ranks).items():
                        items[self.at_known + j * _RANKS + <long>rank] = <long>count
            s.known = known
        stage = f[5]
        pending = None if stage is None else (<tuple>stage)[_STAGE_PENDING]
        if s.pending is not pending:
            memset(&items[self.at_pending], 0, _KINDS * sizeof(float))
            if pending is not None:
                for c in pending:
                    items[self.at_pending + <long>c] += 1
            s.pending = pending
        scores, opened, red_threes, black_threes, all_melds = f[6], f[7], f[8], f[9], f[10]
        hand_number = f[11]
        pile_frozen = 1 if f[12] else 0
        if s.need_scores is not scores or s.need_sides is not seat_sides or s.need_hand != hand_number:
            for row in range(t):
                s.need_known[row] = False
            s.need_scores, s.need_sides, s.need_hand = scores, seat_sides, hand_number
        for row in range(t):
            col = (row + side) % t
            melds = all_melds[col]
            if s.melds_col[row] != col or s.melds[row] is not melds:
                s.canastas[row] = _write_melds(items, self.at_melds + row * _KEYS * _MELD_WIDTH, s.melds[row], melds)
                s.melds[row] = melds
                s.melds_col[row] = col
            items[self.at_scores + row] = <long>scores[col]
            i = self.at_sides + row * _SIDE_WIDTH
            is_open = 1 if opened[col] else 0
            items[i] = is_open
            # (minimum_needed is 0 once the side has opened: no call then; the row's side is the same while
            # the seats' sides are)
            if is_open:
                items[i + 1] = 0
            else:
                if not s.need_known[row]:
                    s.need[row] = <long>minimum_needed(state, col, seat if col == side else None)
                    s.need_known[row] = True
                items[i + 1] = s.need[row]
            items[i + 2] = len(<tuple>red_threes[col])
            items[i + 3] = s.canastas[row]
            k = col * 4 + pile_frozen * 2 + is_open
            if s.frozen_key[row] != k:
                s.frozen[row] = True if pile_frozen_for(state, col) else False
                s.frozen_key[row] = k
            items[i + 4] = 1 if s.frozen[row] else 0
            items[i + 5] = len(<tuple>black_threes[col])
        turn = f[13]
        if s.turn is not turn:  # the engine shares the turn objects of turns not begun and of plain draws
            # (each field's index found again only when it is another object: most turns share the engine's strings)
            permission = (<tuple>turn)[_TURN_PERMISSION]
            if s.permission is not permission:
                s.permission_at = <long>_PERMISSION[permission]
                s.permission = permission
            source = (<tuple>turn)[_TURN_SOURCE]
            if s.source is not source:
                s.source_at = <long>_SOURCE[source]
                s.source = source
            s.melded = True if (<tuple>turn)[_TURN_MELDED] else False
            s.turn = turn
        phase = f[14]
        if s.phase is not phase:
            s.phase_at = <long>_PHASE[phase]
            s.phase = phase
        for k in range(s.n_ones):
            items[s.ones[k]] = 0
        n = 0
        s.ones[n] = self.at_phase + s.phase_at; n += 1
        s.ones[n] = self.at_to_move + (<long>f[15] - seat + p) % p; n += 1
        s.ones[n] = self.at_turn_seat + (<long>f[16] - seat + p) % p; n += 1
        s.ones[n] = self.at_dealer + (<long>f[17] - seat + p) % p; n += 1
        s.ones[n] = self.at_permission + s.permission_at; n += 1
        s.ones[n] = self.at_source + s.source_at; n += 1
        s.ones[n] = self.at_pile_top + (<long>pile[len(pile) - 1] if len(pile) else _KINDS); n += 1
        if prefix:
            head = <long>prefix[0]
            s.ones[n] = self.at_prefix_head + (head - _MELD_BASE if head < _TAKE_BASE else _KEYS + head - _TAKE_BASE)
            n += 1
        s.n_ones = n
        for k in range(n):
            items[s.ones[k]] = 1
        items[self.at_turn_melded] = 1 if s.melded else 0
        items[self.at_pile_size] = len(pile)
        items[self.at_pile_hidden] = hidden
        items[self.at_pile_frozen] = pile_frozen
        items[self.at_stock_size] = <long>f[18]
        items[self.at_hand_number] = <long>hand_number
        items[self.at_staged_points] = 0 if stage is None else <long>((<tuple>stage)[_STAGE_POINTS] or 0)
        for k in range(_PREFIX_FIELDS):
            items[self.at_prefix_numbers + k] = <long>prefix[k + 1] - _NUMBER_BASE + 1 if k + 1 < len(prefix) else 0
        s.state, s.prefix = state, prefix
        return s.buffer


cdef Py_ssize_t _write_melds(float* items, Py_ssize_t at, object old, dict melds) except -1:
    """A side's melds block brought from the melds ``old`` (those last written there, or None) to ``melds``:
    only the keys of either are touched. Returns the side's canastas (``canasta.canasta.engine.canasta_count``: the
    melds of seven cards or more, counted here rather than called; tests check these bytes against the mypyc
    encoder's, which calls the engine)."""
    cdef Py_ssize_t base, twos, jokers, low, n, j, canastas = 0
    cdef long c
    if old is None:  # nothing known of the block: write all of it
        memset(&items[at], 0, _KEYS * _MELD_WIDTH * sizeof(float))
    else:
        for key in <dict>old:
            if key not in melds:
                memset(&items[at + <long>key * _MELD_WIDTH], 0, _MELD_WIDTH * sizeof(float))
    for key, cards in melds.items():
        n = len(<tuple>cards)
        if n >= 7:
            canastas += 1
        if old is not None and (<dict>old).get(key) is cards:  # the engine keeps the melds that did not change
            continue
        jokers = twos = 0
        for j in range(n):
            c = <long>(<tuple>cards)[j]
            if c == _JOKER:
                jokers += 1
            if c < 4:  # kinds 0..3 are the twos (cards.py)
                twos += 1
        base = at + <long>key * _MELD_WIDTH
        items[base] = n - jokers - twos
        items[base + 1] = twos
        items[base + 2] = jokers
        items[base + 3] = min([rank_of(c) for c in cards]) if <long>key >= _SEQUENCE_BASE else 0
    return canastas


cdef class NativeMaskWriter:
    """``canasta.rl.encoder.MaskWriter`` (same interface, same bytes)."""

    cdef readonly bytearray mask
    cdef list set

    def __init__(self, Py_ssize_t size):
        self.mask = bytearray(size)
        self.set = []

    def __reduce__(self):
        return (NativeMaskWriter, (len(self.mask),))  # a fresh (empty) mask: the next write sets what is legal

    def write(self, list atoms):
        cdef char* mask = PyByteArray_AS_STRING(self.mask)
        if atoms == self.set:
            return self.mask
        for a in self.set:
            mask[<long>a] = 0
        for a in atoms:
            mask[<long>a] = 1
        self.set = atoms
        return self.mask
