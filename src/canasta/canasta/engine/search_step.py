"""One step of the opening search (``search.opening_path``), made from the parent position's parts: the cards a
meld move shows (read from the hand, not taken from a copy of it), the child's key changed from the parent's by
those cards (not rebuilt from 53 counts), and the child position itself for the common meld (no pending pile, a
card left in the hand), made as ``turn.play_meld`` makes it but from what the search has already counted.

Compiled, ``bytes()`` of a 53-count tuple converts every count through the C API (several thousand
instructions), and a changed ``bytearray`` copy still goes through two generic calls; subtracting a few ints
from a 15-digit int is a few hundred.
"""

from __future__ import annotations

from typing import Final

from ..kinds import JOKER_RANK, TWO
from ..melds import SEQUENCE_MAX, is_sequence_key, key_rank, key_suit
from ..moves import Move
from ..state import Melds, Stage, State, Turn, log_add
from .core import COUNT_RANK, RANK_KINDS, pass_counts_on, take_cards

_new_tuple: Final = tuple.__new__  # Turn and Stage built as tuples directly (as turn.py does: hot)


def meld_sizes(melds: Melds) -> bytes:
    """The side's melds as the search's key holds them: key and size per meld, by key, as bytes (hashed once, where
    a tuple of ints is hashed item by item at every look-up; every key and size is below 256)."""
    sizes: list[int] = []
    for k in sorted(melds):
        sizes.append(k)
        sizes.append(len(melds[k]))
    return bytes(sizes)


# Every one-byte bytes object, made once: compiled, ``bytes((key, size))`` is a call through the C API (~700
# instructions), a look-up here a few.
_BYTE: Final[list[bytes]] = [bytes((i,)) for i in range(256)]


def grown_sizes(sizes: bytes, grown_key: int, grown: int) -> bytes:
    """``sizes`` (``meld_sizes``) once the meld at ``grown_key`` (new or not) has ``grown`` cards: the bytes before
    and after its pair kept as slices (compiled, a list built item by item and turned into bytes cost about twice
    as much)."""
    n = len(sizes)
    i = 0
    while i < n and sizes[i] < grown_key:
        i += 2
    end = i + 2 if i < n and sizes[i] == grown_key else i
    return sizes[:i] + _BYTE[grown_key] + _BYTE[grown] + sizes[end:]


def meld_cards(hand: tuple[int, ...], m: Move) -> list[int]:
    """The cards the meld ``m`` takes from ``hand`` (53 counts), in the order ``core.move_cards`` takes them, read
    without changing or copying the hand."""
    cards: list[int] = []
    key = m.rank
    if is_sequence_key(key):
        suit = key_suit(key)
        for rank in range(m.low, m.low + m.naturals):
            cards.append((rank - 2) * 4 + suit)
        return cards
    rank = key_rank(key)
    if m.naturals and ((rank == TWO and m.twos) or (rank == JOKER_RANK and m.jokers)):
        # One rank taken twice (no move of the generator does so: a meld of twos takes no twos as wild cards):
        # the second take must see the counts the first left, so take from a copy.
        counts = list(hand)
        take_cards(counts, rank, m.naturals, cards)
        take_cards(counts, TWO, m.twos, cards)
        take_cards(counts, JOKER_RANK, m.jokers, cards)
        return cards
    _take(hand, rank, m.naturals, cards)
    twos = m.twos
    if twos:  # (most melds take no wild card: the call and the look-up of the rank's kinds skipped)
        _take(hand, TWO, twos, cards)
    jokers = m.jokers
    if jokers:
        _take(hand, JOKER_RANK, jokers, cards)
    return cards


def _take(hand: tuple[int, ...], rank: int, count: int, out: list[int]) -> None:
    """``core.take_cards`` without changing the hand: each kind of the rank in turn, as many as it holds."""
    for kind in RANK_KINDS[rank]:
        if not count:
            return
        n = hand[kind]
        if n > count:
            n = count
        for _ in range(n):
            out.append(kind)
        count -= n
    if count:
        raise AssertionError("engine took cards the hand does not hold")


# A hand as one int: its 53 counts as the bytes of the int, lowest kind lowest (every count is below 256).
_KIND_UNIT: Final[list[int]] = [1 << (8 * kind) for kind in range(53)]


def hand_int(hand: tuple[int, ...]) -> int:
    """The hand's 53 counts as one int (the search's key for a hand): equal exactly when the hands are equal."""
    return int.from_bytes(bytes(hand), "little")


# A hand as its rank counts (``core.rank_counts``) in one native int, four bits per rank code: the search's key for a
# hand where ``Flags.compact_keys`` says the counts tell the hands of one search apart. 15 codes of 4 bits fit
# a native int compiled, so a child's key is a few native subtractions, where ``hand_int``'s 424-bit int allocates a
# new long for every card taken off and is hashed digit by digit at every look-up.
_COUNT_UNIT: Final[list[int]] = [1 << (4 * COUNT_RANK[kind]) for kind in range(53)]


def counts_key(rc: list[int]) -> int:
    """The rank counts ``rc`` (each below 16) as one int: equal exactly when the counts are equal."""
    key = 0
    for code in range(15):
        key += rc[code] << (4 * code)
    return key


def hand_after(hand_key: int, cards: list[int], compact: bool = False) -> int:
    """The key of the hand once ``cards`` have left it, from the key of the hand before: ``hand_int``'s, or
    ``counts_key``'s where ``compact`` (each card taken from a count of at least one, so no count borrows from the
    next)."""
    units = _COUNT_UNIT if compact else _KIND_UNIT
    for c in cards:
        hand_key -= units[c]
    return hand_key


def grown_meld(old: tuple[int, ...] | None, cards: list[int]) -> tuple[int, ...]:
    """``tuple(sorted((*old, *cards)))``: the meld ``old`` (sorted, or None for a new meld) with ``cards`` added.
    Most melds the search makes are new melds of naturals, whose cards ``meld_cards`` lists in order: those are
    made without ``sorted`` (compiled, a call through the C API that compares boxed ints; a native loop that puts
    each card in its place boxes every int it moves and costs as much)."""
    n = len(cards)
    i = 1
    while i < n and cards[i - 1] <= cards[i]:
        i += 1
    if i >= n:  # the cards in order
        if old is None:
            return tuple(cards)
        if not old or not cards or old[-1] <= cards[0]:
            return old + tuple(cards)
    if old is None:
        return tuple(sorted(cards))
    return tuple(sorted((*old, *cards)))


def meld_child(state: State, m: Move, cards: list[int], points: int, grown: tuple[int, ...] | None = None) -> State:
    """``apply_move(state, m)`` for a meld by an unopened side (a stage or none yet) with no pending pile that
    leaves a card in the hand: the position ``turn.play_meld`` makes (the same fields, history entry and rank
    counts), from the ``cards`` (``meld_cards``) and the staged ``points`` after it the search has counted (and the
    meld ``grown_meld`` makes, if the caller has made it)."""
    p = state.turn_seat
    side = state.seat_sides[p]
    hand = list(state.hands[p])
    for c in cards:
        hand[c] = hand[c] - 1
    melds = dict(state.melds[side])
    old = melds.get(m.rank)
    melds[m.rank] = grown if grown is not None else grown_meld(old, cards)
    t = state.turn
    touched_old = t.touched_old or (old is not None and m.rank not in t.new_ranks)
    must_go_out = t.must_go_out or (old is not None and is_sequence_key(m.rank) and len(old) >= SEQUENCE_MAX)
    if old and t.melded and touched_old == t.touched_old and must_go_out == t.must_go_out:
        turn = t  # nothing to change (as ``play_meld``: making a Turn is a call through the C API)
    else:
        turn = _new_tuple(Turn, (t.source, t.permission, True, t.new_ranks if old else (*t.new_ranks, m.rank),
                                 touched_old, t.no_discard, must_go_out, t.withdrew, t.opened_now))
    stage = state.stage
    if stage is None:
        stage = _new_tuple(Stage, (state.hands[p], state.melds[side], t, 0, points, None))
    else:
        stage = _new_tuple(Stage, (stage.hand, stage.melds, stage.turn, stage.base, points, stage.pending))
    all_melds = list(state.melds)
    all_melds[side] = melds
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.moved(tuple(hands), state.stock, state.pile, state.pile_frozen, tuple(all_melds), state.has_melded, p,
                      state.to_move, state.phase, turn, stage, log_add(state.log, state.to_move, m))
    if old is None and len(cards) >= 7:  # laid down whole from the hand (concealed_canasta_bonus)
        whole = list(state.concealed_canastas)
        whole[side] = (*whole[side], m.rank)
        new = new.replace(concealed_canastas=tuple(whole))
    pass_counts_on(state, new, cards)
    return new
