"""Going out (docs/sources.md §3.7): why the player may not go out now, whether some sequence of melds
from the hand can take him out this turn (``can_go_out``), and the foot picked up instead when a
Hand and Foot player empties his hand.
"""

from __future__ import annotations

from typing import Final

from ..kinds import JOKER_RANK, THREE, TWO
from ..melds import SEQUENCE_LOW, SEQUENCE_MAX, is_sequence_key, key_suit, sequence_key, sequence_span
from ..rules import Rules
from ..state import PLAY_PHASE, Melds, State, log_add
from .core import (
    DISCARD_RANKS,
    PICKED_UP,
    RV,
    after_opening_turn,
    dead_ranks,
    flags,
    has_foot,
    meld_counts,
    minimum_to_meet,
    mixed_canastas,
    natural_canastas,
    opening_problem,
    out_canastas,
    rank_counts,
    turn_counts,
    twos_meld_open,
    unfinished_wild_meld,
)
from .end import end_hand


def out_problem(state: State, canastas: int, points: int, melds: Melds | None = None,
                naturals: int | None = None) -> str | None:
    """Why the player may not go out now, or None (docs/sources.md §3.4 exception, §3.7).

    ``canastas`` and ``points`` (counted towards the minimum) are as they would be after the move, and
    so are ``melds`` where given (else the side's melds now). A side that has not opened has no older
    melds, so its going out is concealed whenever it has a canasta; D2 decides whether that waives the
    minimum. ``naturals`` is the count of natural canastas after the move (else counted in ``melds``)."""
    r = state.rules
    if canastas < r.canastas_to_go_out:
        return "NEED_CANASTA_TO_GO_OUT"
    if r.natural_canastas_to_go_out and (natural_canastas(
            state.melds[state.seat_sides[state.turn_seat]] if melds is None else melds)
            if naturals is None else naturals) < r.natural_canastas_to_go_out:
        return "NEED_NATURAL_CANASTAS"
    if r.mixed_canastas_to_go_out and mixed_canastas(
            state.melds[state.side_of(state.turn_seat)] if melds is None else melds) < r.mixed_canastas_to_go_out:
        return "NEED_MIXED_CANASTAS"  # an extra natural canasta does not stand in (Hand and Foot, read literally)
    if state.turn.permission == "no":
        return "PERMISSION_REFUSED"
    if r.permission == "compulsory" and state.turn.permission != "yes":
        return "PERMISSION_REQUIRED"
    table = state.melds[state.seat_sides[state.turn_seat]] if melds is None else melds
    if unfinished_wild_meld(r, table):
        return "WILD_MELD_UNFINISHED"
    opening = opening_problem(state, table)
    if opening:
        return opening
    if points >= minimum_to_meet(state):
        return None
    source = state.turn.source
    waived = (r.concealed_waives_minimum == "always" and (source == "stock" or r.concealed_allows_pile)) or (
        r.concealed_waives_minimum == "stock_only" and source == "stock")
    return None if waived and canastas >= 1 else "BELOW_MINIMUM"


def pick_up_foot(state: State, seat: int) -> State:
    """The seat's foot becomes its hand (the hand is empty); the pickup is public."""
    hands = list(state.hands)
    feet = list(state.feet)
    hands[seat], feet[seat] = feet[seat], PICKED_UP
    return state.replace(hands=tuple(hands), feet=tuple(feet), log=log_add(state.log, seat, "foot"))


def hand_emptied(state: State, seat: int) -> State:
    """The seat's hand is empty after a meld or a take: he picks up his foot and plays on, or has gone out."""
    if has_foot(state, seat):
        return pick_up_foot(state, seat)
    return end_hand(state, seat)


def can_go_out(state: State) -> bool:
    """Can the player whose turn it is go out this turn from here (after drawing)?

    Exact for Classic: for each choice of final discard (or none), every natural rank must be
    meldable, the wild cards must fit the melds' wild limits, enough canastas must be possible, and
    the opening (if any) must be met or waived. Exact too for Hand and Foot's natural canastas among
    groups (``_out_with``); with sequences they are not counted here (no preset combines the two). A
    player who still has a foot cannot go out: emptying his hand picks the foot up."""
    if state.phase != PLAY_PHASE or state.turn.permission == "no" or state.turn.no_discard:
        return False
    stage = state.stage
    if stage is not None and stage.pending is not None:
        return False
    p = state.turn_seat
    if has_foot(state, p):  # emptying the hand only picks up the foot
        return False
    side = state.seat_sides[p]
    r = state.rules
    hand = state.hands[p]
    rc = list(turn_counts(state))  # a copy: changed below
    if r.natural_opening and not state.opened[side] and rc[TWO] + rc[JOKER_RANK] > 1:
        return False  # the opening holds no wild cards, and only one card can be discarded
    melds = state.melds[side]
    if not state.opened[side] and opening_problem(state, melds) == "OPENING_NEEDS_NATURAL_MELD":
        return False  # Modern American: an estimate on the safe side (going out while opening is rare)
    return _out_from_counts(state, rc, melds, None, stage.points if stage is not None else 0, hand)


def meld_out_from_counts(rules: Rules) -> bool:
    """May ``can_go_out_after_meld`` answer for these rules? Where a group meld changes nothing ``can_go_out`` reads
    but the hand's counts, the meld and the points: no sequences, melds of twos or wild melds (the hand's cards or
    the wild meld), every canasta of one kind (``flags.plain``), and no question asked of the side's melds or of
    the other sides' (natural or mixed canastas to go out, dead ranks, the canasta or natural meld an opening
    needs, an unfinished wild meld, Splash)."""
    return bool(flags(rules).plain and not rules.sequences and not rules.twos_as_rank and not rules.wild_melds
                and not rules.natural_canastas_to_go_out and not rules.mixed_canastas_to_go_out
                and not rules.dead_ranks and not rules.opening_canasta and rules.opening_needs_meld == "none"
                and not rules.wild_meld_blocks_wilds and not rules.splash)


def can_go_out_after_meld(state: State, key: int, k: int, a: int, b: int, points: int) -> bool:
    """``can_go_out(apply_move(state, Move("meld", key, k, a, b)))`` for a group meld of a natural rank (``key``,
    4 to 14) that leaves a card or more in the hand, with no pile pending, answered from counts without making the
    position (where ``meld_out_from_counts`` says so). ``points``: the turn's points towards the minimum after it
    (the stage's points and the meld's)."""
    if state.phase != PLAY_PHASE or state.turn.permission == "no" or state.turn.no_discard:
        return False
    stage = state.stage
    p = state.turn_seat
    if has_foot(state, p):
        return False
    side = state.seat_sides[p]
    r = state.rules
    rc = list(turn_counts(state))  # a copy: changed below
    rc[key] = rc[key] - k
    rc[TWO] = rc[TWO] - a
    rc[JOKER_RANK] = rc[JOKER_RANK] - b
    opened = state.opened[side]
    if r.natural_opening and not opened and rc[TWO] + rc[JOKER_RANK] > 1:
        return False
    melds = state.melds[side]
    old = melds.get(key)
    nat0 = wild0 = size0 = 0
    if old is not None:
        nat0, wild0 = meld_counts(old)
        size0 = len(old)
    # The position after the meld: its stage holds the points where the side has not opened (else it is as now).
    pts0 = points if not opened else stage.points if stage is not None else 0
    return _out_from_counts(state, rc, melds, (key, nat0 + k, wild0 + a + b, size0 + k + a + b), pts0,
                            state.hands[p])


class _MeldTable:
    """A side's melds as ``can_go_out``'s search reads them: (naturals, wild cards, size) by key, and the canastas."""

    __slots__ = ("canastas", "info", "melds")

    melds: Melds
    info: dict[int, tuple[int, int, int]]
    canastas: int

    def __init__(self, melds: Melds) -> None:
        self.melds = melds
        info: dict[int, tuple[int, int, int]] = {}
        canastas = 0
        for x, m in melds.items():  # (not ``(*meld_counts(m), len(m))``: compiled, a *-tuple is built through a list)
            nat, wild = meld_counts(m)
            size = len(m)
            info[x] = (nat, wild, size)
            if size >= 7:
                canastas += 1
        self.info = info
        self.canastas = canastas


# The table made last, found by identity: the one-card checks of a play phase (a meld that leaves one card, each move
# kept after a partner's yes) ask ``can_go_out`` about the same melds one after another. The melds of a State are never
# changed in place (a transition copies the dict before it adds a meld), and the table holds its dict, so that an id
# is not reused while it is kept.
_LAST_TABLE: Final[list[_MeldTable]] = [_MeldTable({})]


def _meld_table(melds: Melds) -> _MeldTable:
    last = _LAST_TABLE[0]
    if last.melds is not melds:
        last = _MeldTable(melds)
        _LAST_TABLE[0] = last
    return last


def _out_from_counts(state: State, rc: list[int], melds: Melds, grown: tuple[int, int, int, int] | None, pts0: int,
                     hand: tuple[int, ...]) -> bool:
    """``can_go_out``'s search from the hand's counts ``rc`` (changed, and restored) and the side's ``melds``, with
    the meld ``grown`` = (key, naturals, wild cards, size) as it is after a meld, where one is given."""
    r = state.rules
    table = _meld_table(melds)
    info = table.info
    base = table.canastas
    if grown is not None:
        gkey, gnat, gwild, gsize = grown
        if gsize >= 7 and len(melds.get(gkey, ())) < 7:
            base += 1
        info = dict(info)  # (shared: copied before the grown meld is set)
        info[gkey] = (gnat, gwild, gsize)
    # A rank that cannot be melded at all (too few naturals and no meld to add them to; one or two black
    # threes) must be the final discard, so two such ranks rule going out out, and one names the discard:
    # ``_out_with`` refuses every other choice for it (most hands a random player holds stop here).
    forced = -1
    if not r.sequences:
        blacks = rc[THREE]
        if blacks and (blacks < 3 or THREE in info or not r.black_threes_meldable):
            forced = THREE
        min_nat = r.min_naturals
        for x in range(4, 15):
            n = rc[x]
            if n and n < min_nat and x not in info:
                if forced >= 0:
                    return False
                forced = x
    sizes = None if flags(r).plain else {x: v[2] for x, v in info.items()}
    if r.twos_as_rank and twos_meld_open(melds):  # the twos can only join the meld of twos
        pts0 += 20 * rc[TWO]
        hand = tuple(0 if k < 4 else n for k, n in enumerate(hand))
        rc[TWO] = 0
    if rc[1] or (rc[THREE] and r.threes_laid_out == "all"):
        # A kept three (Modern American) is never discarded: it must be laid out first. A red three held
        # (Hand and Foot) can only be the final discard, so just one may be left.
        if r.threes_laid_out == "all" or rc[1] > 1:
            return False
        rc[1] = 0
        return forced < 0 and _out_with(state, rc, info, sizes, base, pts0)
    if r.sequences:  # the discard is a card of a suit: try each kind
        all_sizes = {x: v[2] for x, v in info.items()}
        for kind in (None, *(k for k in range(53) if hand[k])):
            rest = list(hand)
            if kind is not None:
                rest[kind] = rest[kind] - 1
            if _out_with_sequences(state, tuple(rest), rank_counts(tuple(rest)), info, all_sizes, pts0):
                return True
        return False
    if forced < 0 and not r.go_out_needs_discard and _out_with(state, rc, info, sizes, base, pts0):
        return True  # every card melded, none discarded
    for d in DISCARD_RANKS:  # or each rank held as the final discard
        if not rc[d] or (forced >= 0 and d != forced):
            continue
        rc[d] = rc[d] - 1
        ok = _out_with(state, rc, info, sizes, base, pts0)
        rc[d] = rc[d] + 1
        if ok:
            return True
    return False


def _out_with_sequences(state: State, hand: tuple[int, ...], rc: list[int],
                        info: dict[int, tuple[int, int, int]], sizes: dict[int, int], pts0: int) -> bool:
    """``_out_with`` where naturals may also go into sequences: try each way of placing the hand's suited
    runs (a new sequence per suit, blocks added to the side's sequences), then place the rest in groups."""
    melds = state.melds[state.seat_sides[state.turn_seat]]
    per_suit = []
    for suit in range(4):
        runs = [(key, *sequence_span(m), len(m)) for key, m in melds.items()
                if is_sequence_key(key) and key_suit(key) == suit]
        per_suit.append(_suit_placements(hand, suit, runs))
    return _place_runs(state, info, per_suit, list(rc), 0, sizes, pts0)


def _place_runs(state: State, info: dict[int, tuple[int, int, int]],
                per_suit: list[list[tuple[list[int], dict[int, int], int]]], rest: list[int], suit: int,
                sizes: dict[int, int], pts: int) -> bool:
    """One suit's placement after another (``rest``, the counts left for groups, changes and is restored);
    a function, not a recursive closure: that would be a reference cycle per call."""
    if suit == 4:
        return all(x >= 0 for x in rest) and _out_with(state, rest, info, sizes, 0, pts)
    for used, grown, points in per_suit[suit]:
        for rank in used:
            rest[rank] = rest[rank] - 1
        ok = _place_runs(state, info, per_suit, rest, suit + 1, {**sizes, **grown} if grown else sizes,
                         pts + points)
        for rank in used:
            rest[rank] = rest[rank] + 1
        if ok:
            return True
    return False


def _suit_placements(hand: tuple[int, ...], suit: int, runs: list[tuple[int, int, int, int]]
                     ) -> list[tuple[list[int], dict[int, int], int]]:
    """Ways to place one suit's cards in sequences: (ranks used, meld sizes by key, points). Each of the
    side's sequences may grow at either end, and one new sequence may be started."""
    have = [0] * 16
    for rank in range(SEQUENCE_LOW, 15):
        have[rank] = hand[(rank - 2) * 4 + suit]
    options: list[tuple[list[int], dict[int, int], int]] = [([], {}, 0)]
    for key, lo, hi, size in runs:
        grown = []
        for down in range(SEQUENCE_MAX - size + 1):
            if down and (lo - down < SEQUENCE_LOW or not have[lo - down]):
                break
            for up in range(SEQUENCE_MAX - size - down + 1):
                if up and (hi + up > 14 or not have[hi + up]):
                    break
                if down or up:
                    used = [*range(lo - down, lo), *range(hi + 1, hi + up + 1)]
                    grown.append((used, {key: size + down + up}, sum(RV[x] for x in used)))
        options += [(u1 + u2, {**g1, **g2}, p1 + p2) for u1, g1, p1 in options for u2, g2, p2 in grown]
    new_key = sequence_key(suit, len(runs))
    starts = []
    for low in range(SEQUENCE_LOW, 13):
        for k in range(1, SEQUENCE_MAX + 1):
            if low + k - 1 > 14 or not have[low + k - 1]:
                break
            if k >= 3:
                used = list(range(low, low + k))
                starts.append((used, {new_key: k}, sum(RV[x] for x in used)))
    options += [(u1 + u2, {**g1, **g2}, p1 + p2) for u1, g1, p1 in options for u2, g2, p2 in starts]
    return options


_NO_CAPS: Final[list[int]] = []  # shared: appended to only where natural canastas are asked for
_NO_WILD_MELD: Final[list[int]] = [0]  # the wild cards put in a meld of wild cards: none (shared, never changed)


def _out_with(state: State, rc: list[int], info: dict[int, tuple[int, int, int]], sizes: dict[int, int] | None,
              base_canastas: int, pts0: int) -> bool:
    """Can these hand counts all be melded in groups onto the side's melds ``info``, leaving enough
    canastas and the minimum met? ``sizes`` (meld sizes by key) is given where the kind of canasta
    matters for going out (``out_canastas``); else ``base_canastas`` counts the side's canastas."""
    r = state.rules
    blacks = rc[THREE]
    if blacks and (blacks < 3 or THREE in info or not r.black_threes_meldable):
        return False
    if r.dead_ranks and any(rc[x] for x in dead_ranks(state)):
        return False
    five = r.rule_of_five if r.rule_of_five and after_opening_turn(state) else 0
    size_cap = r.max_meld_size or 10**9
    need_w = cap_w = 0
    # The melds that wild cards could finish as canastas, counted by the cards each is short (1 to 6: a meld holds a
    # card or more), six bits a count: no list of pairs to make and sort (see the greedy count below).
    shorts = 0
    canastas = base_canastas
    if sizes is not None:
        sizes = dict(sizes)
    want_nat = r.natural_canastas_to_go_out
    nat_caps: list[int] = [] if want_nat else _NO_CAPS  # wild room of the melds that end as natural canastas if
    # no wild joins them (only where natural canastas are asked for)
    points = pts0 + 5 * blacks + 20 * rc[TWO] + 50 * rc[JOKER_RANK]
    pure, pure_after = r.pure_ranks, r.pure_after_opening_ranks  # (empty but in Modern American)
    for x in range(4, 15):  # NATURAL_RANKS, written out: compiled, a native loop (not an iterator)
        n = rc[x]
        known = info.get(x)  # (one look-up, not ``in`` and then the item)
        if known is not None:
            nat, wild, size = known
            need, cap = 0, r.max_wilds(nat + n) - wild
            was_canasta = size >= 7
            if was_canasta and not r.wilds_onto_canasta:
                cap = 0
        elif not n:
            continue
        elif n < r.min_naturals:
            return False
        else:
            nat, wild, size = 0, 0, 0
            need, cap = max(0, 3 - n), r.max_wilds(n)
            was_canasta = False
        if (nat + n < five or (pure and x in pure)
                or (pure_after and x in pure_after and after_opening_turn(state))):
            cap = 0  # Modern American: no wild cards here (docs/sources.md §4C)
        size += n
        if size + need > size_cap or cap < need:
            return False
        cap = min(cap, size_cap - size)
        points += n * RV[x]
        need_w += need
        if want_nat and wild == 0 and need == 0 and size >= 7:
            nat_caps.append(cap)  # room counted below, only in the natural canastas the side can spare
        else:
            cap_w += cap
        if sizes is not None:
            sizes[x] = size + need  # the meld of that rank (a new one takes the first slot, x)
        if was_canasta:
            continue
        short = 7 - size - need
        if short <= 0:
            canastas += 1
        elif short <= cap - need:  # (one that lacks room for its wild cards never finishes)
            shorts += 1 << (6 * short)
    spare = rc[TWO] + rc[JOKER_RANK] - need_w
    if spare < 0:
        return False
    if want_nat:  # exact: the spared natural canastas (most room first) take wild cards and stay canastas
        # a finished sequence (a samba) holds no wild card: it is a natural canasta with no room to spare
        runs = sum(1 for k, v in sizes.items() if v >= 7 and is_sequence_key(k)) if sizes is not None else 0
        if len(nat_caps) + runs < want_nat:
            return False
        cap_w += sum(sorted(nat_caps, reverse=True)[max(0, want_nat - runs):])
    if sizes is not None:
        canastas = out_canastas(r, sizes)
    # Wild cards the natural melds cannot hold may form (or join) a meld of wild cards.
    options = _NO_WILD_MELD  # (shared: never changed)
    if r.wild_melds:
        wild_size = info[JOKER_RANK][2] if JOKER_RANK in info else 0
        lo = 1 if wild_size else 3
        options = [0, *(x for x in range(lo, r.wild_meld_max - wild_size + 1) if x <= spare)]
        if r.wild_meld_blocks_wilds:  # a wild meld must be finished to go out, before wilds go elsewhere
            options = [x for x in options if wild_size + x in (0, 7)]
    else:
        wild_size = 0
    best = -1
    for x in options:
        rest = spare - x
        if rest > cap_w:
            continue
        count = canastas
        if wild_size < 7 <= wild_size + x:
            count = out_canastas(r, {**sizes, JOKER_RANK: wild_size + x}) if sizes is not None else count + 1
        # The shortest first, as many as the wild cards left finish (the same as one at a time, shortest first).
        left = shorts >> 6
        short = 1
        while left and short <= rest:
            waiting = left & 63
            if waiting:
                done = rest // short
                if done > waiting:
                    done = waiting
                rest -= done * short
                count += done
            left >>= 6
            short += 1
        if sizes is not None and r.go_out_needs_sequence and not any(
                v >= 7 and is_sequence_key(k) for k, v in sizes.items()):
            count = min(count, r.canastas_to_go_out - 1)  # groups growing are no sequence
        best = max(best, count)
    if best < r.canastas_to_go_out:
        return False
    return out_problem(state, best, points, naturals=want_nat) is None
