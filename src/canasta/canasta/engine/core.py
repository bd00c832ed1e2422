"""The position's primitives, shared by the move generator, the transitions and ``explain``.

Plain questions about a position or a hand, with no move generation and no state change: card and
rank counts, canasta counts (the going-out kind, by the ruleset), meld keys, the minimum a side must
meet, dead ranks, the wild-card limits of a meld's rank, what an opening still lacks, Italian's melds
of twos, the foot (Hand and Foot), and the cards a meld move takes from a hand.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Final

from ..kinds import BLACK_THREES, JOKER, JOKER_RANK, NUM_KINDS, RANK_VALUE, RED_THREES, THREE, TWO, is_wild
from ..melds import SEQUENCE_BASE, SLOTS, is_sequence_key, key_rank, key_suit
from ..moves import Move
from ..rules import Rules
from ..state import GAME_OVER, Hand, Melds, SeatCounts, State, log_text

# Compiled by mypyc, a few helpers take a native loop where the interpreter is quicker with a builtin. (And
# counts change as ``h[k] = h[k] + 1``, never ``h[k] += 1``: mypyc makes the augmented form a generic call.)
COMPILED: Final = not __file__.endswith(".py")  # the engine's modules are compiled together or not at all

RV: Final = [RANK_VALUE.get(r, 0) for r in range(15)]  # value of one card of each rank code


# Hot loops write range(4, 15) instead: compiled, a Final range object is iterated generically.
NATURAL_RANKS: Final[range] = range(4, 15)


# The kinds of each rank code, in the order the engine takes them from a hand.

RANK_KINDS: Final[list[tuple[int, ...]]] = [
    (JOKER,), RED_THREES, (0, 1, 2, 3), BLACK_THREES,
    *(tuple((r - 2) * 4 + s for s in range(4)) for r in NATURAL_RANKS),
]


# The rank code of each card kind as ``rank_counts`` counts it (red threes 1, black threes 3: ``rank_of`` says 3).
COUNT_RANK: Final[list[int]] = [next(code for code, kinds in enumerate(RANK_KINDS) if kind in kinds)
                                for kind in range(53)]


DISCARD_RANKS: Final[tuple[int, ...]] = (JOKER_RANK, TWO, THREE, *NATURAL_RANKS)  # typed: compiled, its items are ints


DISCARDS: Final[list[tuple[int, Move]]] = [(x, Move("discard", x)) for x in DISCARD_RANKS]


# Rules -> its ``wild_caps``, by the object's id (the Rules object is kept, so that its id stays its own). Compiled
# with mypyc, ``Rules`` has no ``__dict__`` for ``cached_property`` to keep its value in, and the table of 251
# limits would be made again at every call.
_WILD_CAPS: Final[dict[int, tuple[Rules, tuple[int, ...]]]] = {}


def wild_caps(rules: Rules) -> tuple[int, ...]:
    """``rules.wild_caps`` (the most wild cards for 0..250 naturals), made once per Rules object."""
    entry = _WILD_CAPS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_WILD_CAPS) >= 256:  # a server makes Rules objects as tables come and go: keep the newest
            _WILD_CAPS.clear()
        entry = (rules, rules.wild_caps)
        _WILD_CAPS[id(rules)] = entry
    return entry[1]


class Flags:
    """A Rules object's derived flags, read as plain attributes. Compiled, ``Rules``' cached properties are
    recomputed at every access (a generic attribute look-up and a call: a native class has no ``__dict__`` to
    keep them in, about 1.1 k instructions for ``greedy_opening_inexact``), and the engine asks some of them at
    every move, the opening search and the check after a withdraw at every meld they look at."""

    __slots__ = ("bound_prunes", "caps", "compact_keys", "counts_decide", "keeps_a_three", "laid", "may_search",
                 "partnerships", "plain", "pure_melds", "restricted", "rules", "wilds_limited")

    rules: Rules
    plain: bool
    wilds_limited: bool
    pure_melds: bool
    keeps_a_three: bool
    partnerships: bool
    laid: tuple[int, ...]
    caps: tuple[int, ...]  # ``rules.max_wilds`` for 0..250 naturals (compiled, the method is a call and string tests)
    restricted: bool  # Modern American's limits: the greedy count is only a bound (``greedy_opening_inexact``)
    may_search: bool  # some way to meet the minimum the greedy count does not see (sequences, twos, the limits)
    counts_decide: bool  # after a withdraw, a group meld's check is the greedy count alone (``search``)
    compact_keys: bool  # the opening search may remember a hand by its rank counts (``search_step.counts_key``)
    bound_prunes: bool  # the opening search may answer "no" from ``opening.points_bound`` (``search.opening_path``)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules  # kept, so that its id stays its own
        self.plain = rules.plain_canasta_count
        self.wilds_limited = rules.wilds_limited
        self.pure_melds = rules.pure_melds
        self.keeps_a_three = rules.keeps_a_three
        self.partnerships = rules.partnerships
        self.laid = laid_out_threes(rules)
        self.caps = wild_caps(rules)
        self.restricted = rules.greedy_opening_inexact
        self.may_search = rules.sequences or rules.twos_as_rank or self.restricted
        self.counts_decide = not (rules.sequences or rules.twos_as_rank or rules.natural_opening or self.restricted
                                  or rules.splash or rules.opening_canasta or rules.opening_needs_meld != "none")
        # Without sequences a meld takes the first cards of each rank it melds in a fixed order of kinds
        # (``take_cards``), so the hands of one search, all taken from one hand, are equal exactly when their
        # rank counts are; the counts fit four bits each while no rank has more than 15 cards (three packs).
        self.compact_keys = not rules.sequences and 4 * rules.decks <= 15 and rules.jokers <= 15
        # Points alone decide whether an opening search can still succeed where no meld may empty the hand (going
        # out needs a discard: no concealed going out under the minimum, no foot) and melds are groups, which
        # ``opening.points_bound`` bounds.
        self.bound_prunes = rules.go_out_needs_discard and not (
            rules.foot_size or rules.sequences or rules.twos_as_rank or rules.several_melds_per_rank)


_FLAGS: Final[dict[int, Flags]] = {}
_LAST_FLAGS: Final[list[Flags]] = []  # the entry used last: a game asks for the same one at every move


def flags(rules: Rules) -> Flags:
    """The flags of ``rules``, made once per Rules object (found by identity: the last one used first)."""
    if _LAST_FLAGS:
        last = _LAST_FLAGS[0]
        if last.rules is rules:
            return last
    entry = _FLAGS.get(id(rules))
    if entry is None or entry.rules is not rules:
        if len(_FLAGS) >= 256:  # a server makes Rules objects as tables come and go: keep the newest
            _FLAGS.clear()
        entry = Flags(rules)
        _FLAGS[id(rules)] = entry
    if _LAST_FLAGS:
        _LAST_FLAGS[0] = entry
    else:
        _LAST_FLAGS.append(entry)
    return entry


def rank_counts(h: tuple[int, ...]) -> list[int]:
    """Counts per rank code: [jokers, red threes, twos, black threes, 4s, ..., aces] (unrolled: hot)."""
    return [h[52], h[5] + h[6], h[0] + h[1] + h[2] + h[3], h[4] + h[7],
            h[8] + h[9] + h[10] + h[11], h[12] + h[13] + h[14] + h[15], h[16] + h[17] + h[18] + h[19],
            h[20] + h[21] + h[22] + h[23], h[24] + h[25] + h[26] + h[27], h[28] + h[29] + h[30] + h[31],
            h[32] + h[33] + h[34] + h[35], h[36] + h[37] + h[38] + h[39], h[40] + h[41] + h[42] + h[43],
            h[44] + h[45] + h[46] + h[47], h[48] + h[49] + h[50] + h[51]]


def turn_counts(state: State) -> list[int]:
    """``rank_counts`` of the hand of the seat whose turn it is, kept on the state (a transition that knows them
    passes them on: ``draw_from_stock``, ``play_meld``; a discard leaves the discarder's in ``state.seat_counts``
    for his next turn). Shared: copy the list before changing it."""
    counts = state.counts
    if counts is None:
        counts = known_counts(state)
        if counts is None:
            counts = rank_counts(state.hands[state.turn_seat])
        state.cache_counts(counts)
    return counts


def counts_after(state: State, cards: list[int]) -> list[int] | None:
    """The turn's rank counts once ``cards`` have left its hand, if the state knows them (``known_counts``; no
    recount of the hand), else None. A new list."""
    counts = known_counts(state)
    if counts is None:
        return None
    moved = list(counts)
    for c in cards:
        x = COUNT_RANK[c]
        moved[x] = moved[x] - 1
    return moved


def pass_counts_on(state: State, new: State, cards: list[int]) -> None:
    """After a meld of ``cards`` from the turn's hand: the melder's rank counts, if ``state`` knew them, passed on
    to ``new`` without those cards (no recount of the hand)."""
    moved = counts_after(state, cards)
    if moved is not None:
        new.cache_counts(moved)


def known_counts(state: State) -> list[int] | None:
    """The turn's rank counts if the state holds them, without counting: ``state.counts``, else the seat's entry in
    ``state.seat_counts`` if it was made from the hand the seat holds now (the same tuple: a changed hand is a new
    one). Shared: copy the list before changing it."""
    counts = state.counts
    if counts is None:
        kept = state.seat_counts
        if kept is not None:
            p = state.turn_seat
            entry = kept[p]
            if entry is not None and entry[0] is state.hands[p]:
                counts = entry[1]
    return counts


def counts_kept(state: State, seat: int, hand: Hand, counts: list[int] | None) -> SeatCounts | None:
    """``state.seat_counts`` with ``seat``'s entry set to ``counts``, the rank counts of ``hand`` (None: not known,
    the entry is dropped). The list is changed in place (see ``State.seat_counts``), or made if there is none."""
    kept = state.seat_counts
    if kept is None:
        if counts is None:
            return None
        kept = [None] * len(state.hands)
    kept[seat] = None if counts is None else (hand, counts)
    return kept


def total(counts: list[int]) -> int:
    """The sum of counts (a hand's size from its counts): compiled, a native loop, where the builtin ``sum``
    is a call through the interpreter's C API that adds boxed ints."""
    if not COMPILED:
        return sum(counts)
    n = 0
    for x in counts:
        n += x
    return n


def has_cards(hand: list[int]) -> bool:
    """Does the hand (53 counts) hold a card? (``any`` on the list, as a native loop when compiled.)"""
    if not COMPILED:
        return any(hand)
    for x in hand:  # noqa: SIM110 (a plain loop: native code when compiled)
        if x:
            return True
    return False


def meld_counts(meld: tuple[int, ...]) -> tuple[int, int]:
    """(naturals, wilds) of a meld. (A plain loop: compiled, it is native code, where ``bisect`` was two calls
    into the interpreter's C API with boxed arguments; interpreted, ``bisect`` is quicker: melds are sorted, so
    twos (kinds 0-3) lead and jokers trail.)"""
    if not COMPILED:
        wilds = bisect_left(meld, 4) + len(meld) - bisect_left(meld, JOKER)
        return len(meld) - wilds, wilds
    wilds = 0
    for c in meld:
        if c < 4 or c == JOKER:
            wilds += 1
    return len(meld) - wilds, wilds


def canasta_count(melds: Melds) -> int:
    n = 0
    for m in melds.values():  # a plain loop: compiled, no generator object
        if len(m) >= 7:
            n += 1
    return n


def wild_key(rules: Rules, key: int) -> bool:
    """Is this meld a wild-card meld (for Italian: a meld of twos too, docs/sources.md §4B)?"""
    rank = key_rank(key)
    return rank == JOKER_RANK or (rank == TWO and rules.twos_as_rank)


def out_canastas(rules: Rules, sizes: dict[int, int]) -> int:
    """Canastas that count towards going out, from meld sizes by key (docs/sources.md §3.7, §4B): wild canastas
    do not count where wild_canastas_count_to_go_out is off (Italian), and where a sequence is required
    (Bolivia) the count stops one short of the target until there is one."""
    n = 0
    sequence = False
    for key, size in sizes.items():
        if size >= 7:
            if not rules.wild_canastas_count_to_go_out and wild_key(rules, key):
                continue
            n += 1
            sequence = sequence or is_sequence_key(key)
    if rules.go_out_needs_sequence and not sequence:
        n = min(n, rules.canastas_to_go_out - 1)
    return n


def count_canastas(rules: Rules, melds: Melds) -> int:
    if flags(rules).plain:
        return canasta_count(melds)
    return out_canastas(rules, {k: len(m) for k, m in melds.items()})


def canastas_after(rules: Rules, melds: Melds, canastas: int, key: int, size0: int, size: int) -> int:
    """The going-out canasta count once the meld at ``key`` grows from ``size0`` to ``size`` cards."""
    if flags(rules).plain:
        return canastas + (size >= 7 > size0)
    sizes = {k: len(m) for k, m in melds.items()}
    sizes[key] = size
    return out_canastas(rules, sizes)


def group_keys(melds: Melds, rank: int) -> list[int]:
    """The keys of a side's melds of one rank, first slot first."""
    return [k for k in range(rank, SEQUENCE_BASE, SLOTS) if k in melds]


def free_key(melds: Melds, first: int) -> int | None:
    """The first unused key of a kind (``first`` is its slot-0 key); None when every slot is used."""
    key = first
    while key in melds:
        key += 1 if is_sequence_key(first) else SLOTS
    if is_sequence_key(first) != is_sequence_key(key) or (is_sequence_key(first) and key_suit(key) != key_suit(first)):
        return None
    return key


_LAID_OUT: Final = {"red": RED_THREES, "all": (*RED_THREES, *BLACK_THREES), "none": ()}


def laid_out_threes(rules: Rules) -> tuple[int, ...]:
    """The threes a player lays out and replaces when dealt or drawn (docs/sources.md §3.6; §4C: all threes in
    Modern American, none in Hand and Foot)."""
    return _LAID_OUT[rules.threes_laid_out]


def is_over(state: State) -> bool:
    return state.phase == GAME_OVER


def outcome(state: State) -> dict[str, Any] | None:
    """Final scores per side and the winning side (None for a draw); None while play goes on."""
    return state.result


def minimum_needed(state: State, side: int, seat: int | None = None) -> int:
    """The minimum count the side still has to meet this hand (0 once it has opened). In Cutthroat each
    player's own score sets his minimum (docs/sources.md §4A), so name the ``seat`` there."""
    if state.opened[side] or side not in state.seat_sides:  # (a Cutthroat side left empty when its player
        return 0                                               # joined a partner has no seat)
    r = state.rules
    if r.cutthroat:  # the side's first seat, unless named
        need = r.minimum_count(state.scores[state.seat_sides.index(side) if seat is None else seat], state.hand_number)
    else:
        need = r.minimum_count(state.scores[side], state.hand_number)
    if r.withdrawn_opening_raise:
        need += r.withdrawn_opening_raise * withdrawals(state, side)
    return need


def withdrawals(state: State, side: int) -> int:
    """How many times the side's players took back a staged opening this hand (``withdrawn_opening_raise``,
    docs/sources.md §7 X5: each raises the side's minimum for the rest of the hand)."""
    mine = {f"{seat} withdraw" for seat in range(state.rules.players) if state.seat_sides[seat] == side}
    return sum(1 for entry in log_text(state.log) if entry in mine)


def minimum_to_meet(state: State) -> int:
    """The minimum the player whose turn it is must still meet (none after a Splash, docs/sources.md §4C [P]:
    a complete natural or wild canasta laid down from the hand in a turn begun from the stock)."""
    if state.rules.splash and state.stage is not None and state.turn.source == "stock" and any(
            len(m) >= 7 and (not any(is_wild(c) for c in m) or all(is_wild(c) for c in m))
            for m in state.melds[state.seat_sides[state.turn_seat]].values()):
        return 0
    return minimum_needed(state, state.seat_sides[state.turn_seat], state.turn_seat)


def dead_ranks(state: State) -> frozenset[int]:
    """Ranks nobody may meld any more: a canasta of them is finished (docs/sources.md §4C Modern American)."""
    if not state.rules.dead_ranks:
        return frozenset()
    return frozenset(key_rank(k) for melds in state.melds for k, m in melds.items()
                     if len(m) >= 7 and key_rank(k) >= 4 and not is_sequence_key(k))


def after_opening_turn(state: State) -> bool:
    """Has the side of the player to move opened in an earlier turn? (Modern American's rule of five and
    aces: wild cards join melds freely only in the side's opening turn, docs/sources.md §4C.)"""
    return state.opened[state.seat_sides[state.turn_seat]] and state.stage is None and not state.turn.opened_now


def unfinished_wild_meld(rules: Rules, melds: Melds) -> bool:
    """Modern American: the side has a meld of wild cards short of a canasta, so its wild cards may go
    nowhere else (docs/sources.md §4C [CLA,P]) and it may not go out."""
    return rules.wild_meld_blocks_wilds and any(len(melds[k]) < 7 for k in group_keys(melds, JOKER_RANK))


def group_wilds(state: State, rank: int, twos: int, jokers: int) -> tuple[int, int]:
    """The twos and jokers a meld of ``rank`` may take this turn (sevens never, aces only in the opening
    turn, nothing while a wild meld is unfinished: docs/sources.md §4C)."""
    r = state.rules
    if rank in r.pure_ranks or (rank in r.pure_after_opening_ranks and after_opening_turn(state)):
        return 0, 0
    return twos, jokers


def pile_frozen_for(state: State, side: int) -> bool:
    r = state.rules
    return state.pile_frozen or r.pile_always_frozen or not state.opened[side]


def opening_canasta_ok(state: State, melds: Melds) -> bool:
    """Does an opening with these melds include what the rules ask of it? (See ``opening_problem``.)"""
    return opening_problem(state, melds) is None


def opening_problem(state: State, melds: Melds) -> str | None:
    """What an opening with these melds lacks, or None: the canasta Brazilian asks for at this score
    (docs/sources.md §4B, GC-I14; a sequence canasta is natural), or the natural meld of three or more (or a meld
    of wild cards) Modern American asks for (docs/sources.md §4C, GC-I11)."""
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    if state.opened[side]:
        return None
    if r.opening_canasta:
        kind = r.opening_canasta_needed(state.scores[state.turn_seat if r.cutthroat else side])
        if kind is not None and not any(len(m) >= 7 and (kind == "canasta" or not any(is_wild(c) for c in m))
                                        for m in melds.values()):
            return "OPENING_NEEDS_CANASTA"
    if r.opening_needs_meld != "none" and not any(
            (len(m) >= 3 and not any(is_wild(c) for c in m))
            or (r.opening_needs_meld == "natural_or_wild" and all(is_wild(c) for c in m))
            for m in melds.values()):
        return "OPENING_NEEDS_NATURAL_MELD"
    return None


def twos_counts(meld: tuple[int, ...]) -> tuple[int, int]:
    """(naturals, wilds) of a meld of twos as a rank: the twos, and the jokers (Italian)."""
    jokers = meld.count(JOKER)
    return len(meld) - jokers, jokers


def twos_meld_open(melds: Melds) -> bool:
    """Italian: the side has a meld of twos that is not yet a canasta (docs/sources.md §4B, GC-M19)."""
    return any(len(melds[k]) < 7 for k in group_keys(melds, TWO))


# What a foot becomes once picked up: one shared tuple, so that ``has_foot`` answers for a picked-up foot by
# identity instead of reading 53 zeros (in Hand and Foot it is asked in every play phase).
PICKED_UP: Final[Hand] = (0,) * NUM_KINDS


def has_foot(state: State, seat: int) -> bool:
    """Has the seat a foot still to pick up? Emptying the hand then is not going out: the foot is picked up."""
    if not state.rules.foot_size:
        return False
    foot = state.feet[seat]
    if foot is PICKED_UP:
        return False
    # A foot not picked up holds cards, found in the first few kinds; this still answers for an all-zero foot
    # that is not the shared tuple (a position read from a file). Compiled, ``any`` over a generator is a native
    # loop (``any(foot)`` would be a generic call with an iterator allocated).
    return any(n for n in foot)


def natural_canastas(melds: Melds) -> int:
    """Canastas with no wild card (natural_canastas_to_go_out; a sequence is natural)."""
    return sum(1 for m in melds.values() if len(m) >= 7 and meld_counts(m)[1] == 0)


def mixed_canastas(melds: Melds) -> int:
    """Canastas of natural cards with wild cards (mixed_canastas_to_go_out)."""
    return sum(1 for m in melds.values() if len(m) >= 7 and all(meld_counts(m)))


def move_cards(hand: list[int], m: Move) -> list[int]:
    """Take from ``hand`` (changed in place) the cards a meld or take move shows; returned in order."""
    cards: list[int] = []
    key = m.rank
    if is_sequence_key(key):
        if m.action == "meld":
            suit = key_suit(key)
            for rank in range(m.low, m.low + m.naturals):
                kind = (rank - 2) * 4 + suit
                if not hand[kind]:
                    raise AssertionError("engine took cards the hand does not hold")
                hand[kind] = hand[kind] - 1
                cards.append(kind)
        return cards
    take_cards(hand, key_rank(key), m.naturals, cards)
    take_cards(hand, TWO, m.twos, cards)
    take_cards(hand, JOKER_RANK, m.jokers, cards)
    return cards


def melds_after(state: State, m: Move) -> Melds:
    """The side's melds after a meld move (without applying the rest of it)."""
    melds = dict(state.melds[state.seat_sides[state.turn_seat]])
    cards = move_cards(list(state.hands[state.turn_seat]), m)
    if m.action == "take":
        cards.append(state.pile[-1])
    melds[m.rank] = tuple(sorted((*melds.get(m.rank, ()), *cards)))
    return melds


def take_cards(hand: list[int], rank: int, count: int, out: list[int]) -> None:
    for kind in RANK_KINDS[rank]:
        while count and hand[kind]:
            hand[kind] = hand[kind] - 1
            out.append(kind)
            count -= 1
    if count:
        raise AssertionError("engine took cards the hand does not hold")
