"""Move generation for the play phase: ``play_moves`` lists the melds, additions, sequences, combines and
discards, in a fixed order, and the rarer moves (ask, withdraw, layout, declare, acaba). It needs no search:
the opening search (``search``) follows its meld moves, and ``legal`` makes the legal moves of every phase
from it, with the takes and the filters that need that search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..kinds import JOKER_RANK, RED_THREES, THREE, TWO, cards_of
from ..melds import SEQUENCE_BASE, SEQUENCE_LOW, SEQUENCE_MAX, SLOTS, sequence_key, sequence_span
from ..moves import ACABA, ASK, ASK_ACABA, LAYOUT, PASS, SPECIAL_HAND_NAMES, WITHDRAW, Move
from ..rules import Rules
from ..special_hands import SPECIAL_HAND_SIZE, special_hand_of
from ..state import GAME_OVER, Melds, State, Turn, log_count_at_least
from .core import (
    DISCARD_RANKS,
    DISCARDS,
    NATURAL_RANKS,
    RV,
    Flags,
    after_opening_turn,
    canasta_count,
    canastas_after,
    count_canastas,
    dead_ranks,
    flags,
    free_key,
    group_keys,
    group_wilds,
    has_foot,
    meld_counts,
    melds_after,
    minimum_to_meet,
    opening_canasta_ok,
    total,
    turn_counts,
    twos_counts,
    twos_meld_open,
    unfinished_wild_meld,
    wild_caps,
)
from .going_out import can_go_out, can_go_out_after_meld, meld_out_from_counts, out_problem
from .meld import apply_meld
from .modern import asked_this_hand, special_hand_possible

_COMPILED: Final = not __file__.endswith(".py")
_new_move: Final = tuple.__new__  # a Move built directly: NamedTuple's __new__ is Python code, slow even compiled
# Group meld and take moves, each made once: compiled, ``tuple.__new__(Move, ...)`` is still a call through the
# interpreter's C API. Moves are values, so sharing them is safe. Found by list indexing, level by level (key,
# naturals, twos, jokers; made as first needed): compiled, a dict keyed by the packed fields boxed and hashed the key.
_ROOM: Final = 32  # naturals, twos and jokers below this are kept (a meld or take of more is made each time)
_MoveRow = list[Move | None]  # by jokers
_MoveBlock = list[_MoveRow | None]  # by twos
_MoveTable = list[list[_MoveBlock | None] | None]  # by key (below SEQUENCE_BASE), then naturals
_GROUP_MOVES: Final[list[_MoveTable]] = [[None] * SEQUENCE_BASE, [None] * SEQUENCE_BASE]  # melds, takes


def meld_move(key: int, k: int, a: int, b: int) -> Move:
    """``Move("meld", key, k, a, b)`` (a group meld: no sequence's low card, no suit), made once per value."""
    return group_move(False, key, k, a, b)


def group_move(take: bool, key: int, k: int, a: int, b: int) -> Move:
    """``Move("take" if take else "meld", key, k, a, b)`` (a group: no sequence's low card, no suit), made once per
    value."""
    if not (0 <= key < SEQUENCE_BASE and 0 <= k < _ROOM and 0 <= a < _ROOM and 0 <= b < _ROOM):
        made: Move = _new_move(Move, ("take" if take else "meld", key, k, a, b, 0, -1))
        return made
    table = _GROUP_MOVES[1 if take else 0]
    by_naturals = table[key]
    if by_naturals is None:
        by_naturals = [None] * _ROOM
        table[key] = by_naturals
    by_twos = by_naturals[k]
    if by_twos is None:
        by_twos = [None] * _ROOM
        by_naturals[k] = by_twos
    row = by_twos[a]
    if row is None:
        row = [None] * _ROOM
        by_twos[a] = row
    move = row[b]
    if move is None:
        move = _new_move(Move, ("take" if take else "meld", key, k, a, b, 0, -1))
        row[b] = move
    return move


class _Play:
    """What ``play_moves`` knows of the position, for its two helpers: a class rather than closures, because
    compiled (mypyc) closures and their shared environment form a reference cycle per call, which holds the
    state until the garbage collector runs."""

    __slots__ = ("cache", "canastas", "caps", "five", "foot", "hsize", "melds", "min_nat", "moves", "need",
                 "no_wild_on_canasta", "opened", "pending", "plain", "pts", "r", "size_cap", "state", "turn")

    state: State
    r: Rules
    pending: tuple[int, ...] | None
    need: int
    turn: Turn
    foot: bool
    opened: bool
    melds: Melds
    canastas: int
    hsize: int
    pts: int
    caps: tuple[int, ...]
    five: int
    size_cap: int
    min_nat: int
    no_wild_on_canasta: bool
    moves: list[Move]
    cache: _RulesCache
    plain: bool

    def __init__(self, state: State, r: Rules, pending: tuple[int, ...] | None, need: int, turn: Turn, foot: bool,
                 opened: bool, melds: Melds, canastas: int, hsize: int, pts: int, caps: tuple[int, ...], five: int,
                 size_cap: int, min_nat: int, no_wild_on_canasta: bool, moves: list[Move],
                 cache: _RulesCache, plain: bool) -> None:
        self.state = state
        self.r = r
        self.pending = pending
        self.need = need
        self.turn = turn
        self.foot = foot
        self.opened = opened
        self.melds = melds
        self.canastas = canastas
        self.hsize = hsize
        self.pts = pts
        self.caps = caps
        self.five = five
        self.size_cap = size_cap
        self.min_nat = min_nat
        self.no_wild_on_canasta = no_wild_on_canasta
        self.moves = moves
        self.cache = cache
        self.plain = plain

    def end_ok(self, after: int, pts2: int, c2: int, move: Move) -> bool:
        """May the turn go on (or end by going out) with ``after`` cards left in hand?"""
        if self.pending is not None:
            if pts2 < self.need:
                return True  # still opening: withdraw rescues any dead end
            after += len(self.pending)
        if after >= 2 or (after == 1 and self.turn.no_discard):
            return True
        if self.foot:  # into the foot, not out: the opening must stand first (a withdraw rescues one card left)
            return self.opened or pts2 >= self.need or (after == 1 and not self.turn.withdrew)
        if after == 0:
            if self.r.go_out_needs_discard:  # going out needs a final discard (Modern American, GC-G07)
                return False
            return out_problem(self.state, c2, pts2, melds_after(self.state, move) if self.r.opening_canasta
                           or self.r.natural_canastas_to_go_out or self.r.mixed_canastas_to_go_out else None) is None
        # One card left: he must go out with it, by discarding it or by melding it (which may finish
        # the canasta he still needs).
        if self.plain and not self.one_card_canastas(c2, move):
            return False
        if self.cache.meld_out and self.pending is None and not move.low and 4 <= move.rank < 15:
            # the position after the meld is not made: its counts answer (``going_out.can_go_out_after_meld``)
            return can_go_out_after_meld(self.state, move.rank, move.naturals, move.twos, move.jokers, pts2)
        return can_go_out(apply_meld(self.state, move))

    def one_card_canastas(self, c2: int, move: Move) -> bool:
        """With one card left after ``move`` (and ``c2`` canastas), could the side still reach the canastas it
        needs to go out? One card finishes at most one canasta, a meld of six: a bound, counted from the melds
        without making the position (``can_go_out`` there would say no). Only where every canasta counts."""
        need = self.r.canastas_to_go_out
        if c2 >= need:
            return True
        if c2 + 1 < need:
            return False
        key = move.rank
        grown = move.naturals + move.twos + move.jokers
        for k, meld in self.melds.items():
            if (len(meld) + grown if k == key else len(meld)) == 6:
                return True
        return key not in self.melds and grown == 6

    def group_moves(self, key: int, rank: int, meld: tuple[int, ...] | None, n: int, twos: int,
                    jokers: int) -> None:
        if meld is None:
            nat0 = wild0 = size0 = 0
            k_lo = self.min_nat
        else:
            nat0, wild0 = meld_counts(meld) if rank != TWO else twos_counts(meld)
            size0 = len(meld)
            k_lo = 0
            if size0 >= 7 and self.no_wild_on_canasta:
                twos = jokers = 0
        if self.pending is None and self.hsize - n - twos - jokers >= 2:
            made = self.cache.group_list(key, nat0, wild0, size0, n, twos, jokers, k_lo, self.five, self.size_cap)
            if made is not None:
                self.moves.extend(made)
                return
        value = RV[rank]
        for k in range(k_lo, n + 1):
            cap = self.caps[nat0 + k] - wild0
            if nat0 + k < self.five or cap < 0:  # the rule of five (Modern American, docs/sources.md §4C)
                cap = 0
            for a in range((twos if twos < cap else cap) + 1):
                room = cap - a
                for b in range((jokers if jokers < room else room) + 1):
                    cnt = k + a + b
                    size = size0 + cnt
                    if cnt == 0 or size < 3 or size > self.size_cap:
                        continue
                    after = self.hsize - cnt
                    if after >= 2 and self.pending is None:
                        self.moves.append(meld_move(key, k, a, b))
                    else:
                        move = meld_move(key, k, a, b)
                        pts2 = self.pts + k * value + 20 * a + 50 * b
                        c2 = canastas_after(self.r, self.melds, self.canastas, key, size0, size)
                        if self.end_ok(after, pts2, c2, move):
                            self.moves.append(move)


def _canastas(r: Rules, f: Flags, melds: Melds) -> int:
    """``count_canastas``, with the flags at hand."""
    return canasta_count(melds) if f.plain else count_canastas(r, melds)


def play_moves(state: State, melds_only: bool = False,
               after_withdraw: Callable[[State, list[Move]], list[Move]] | None = None) -> list[Move]:
    """The play phase's moves. ``melds_only``: only the meld moves, in the same order (the opening search follows
    those alone), with no combines, discards or other moves listed. ``after_withdraw``: after a withdraw by an
    unopened side, the filter of the melds that leave the minimum within reach (``legal.generate_moves`` passes
    the opening search's; None lists every meld, as the search itself wants them)."""
    r = state.rules
    p = state.turn_seat
    side = state.seat_sides[p]
    rc = turn_counts(state)
    hsize = total(rc)
    melds = state.melds[side]
    turn = state.turn
    stage = state.stage
    pending = stage.pending if stage is not None else None
    opened = state.opened[side]
    # The minimum still to meet: none for an opened side, else counted when first needed (most play phases of an
    # unopened side list their melds from the per-ruleset lists, with no stage to check).
    need = 0 if opened else -1
    pts = stage.points if stage is not None else 0
    cache = _rules_cache(r)
    f = cache.flags
    canastas = -1  # the side's canastas: counted when first needed (most play phases list their melds without)
    caps = cache.caps
    min_nat = r.min_naturals
    size_cap = cache.size_cap
    twos, jokers = rc[TWO], rc[JOKER_RANK]
    if f.wilds_limited:
        if r.natural_opening and not opened:  # Italian: the opening holds no wild cards (docs/sources.md §4B)
            twos = jokers = 0
        elif r.twos_as_rank and twos_meld_open(melds):  # twos are a rank of their own while that meld grows
            twos = 0
        if unfinished_wild_meld(r, melds):  # wild cards go only to the wild meld (Modern American)
            twos = jokers = 0
    has_wilds = twos or jokers
    several = r.several_melds_per_rank
    no_wild_on_canasta = not r.wilds_onto_canasta
    five = r.rule_of_five if r.rule_of_five and after_opening_turn(state) else 0
    dead = dead_ranks(state) if r.dead_ranks else _NO_RANKS
    special = f.pure_melds
    foot = has_foot(state, p) if r.foot_size else False
    moves: list[Move] = []

    # What the helpers need (``_Play``) is made only when one is called: most play phases of the rulesets with
    # groups alone find every meld in the per-ruleset lists below.
    play: _Play | None = None
    if cache.not_groups_alone:
        canastas = _canastas(r, f, melds)
        if need < 0:
            need = minimum_to_meet(state)
        play = _Play(state, r, pending, need, turn, foot, opened, melds, canastas, hsize, pts, caps, five, size_cap,
                     min_nat, no_wild_on_canasta, moves, cache, f.plain)

    held = 0  # the natural ranks held, as ``plain_discards``' bits (read here, where each count is read anyway)
    if not several:
        # The side's group melds by rank code, read once (a dict look-up per rank boxes the key: hot). A side with
        # no meld (a quarter of Classic's play phases) reads a shared row: no list made.
        by_rank = _NO_MELDS_BY_RANK
        if melds:
            by_rank = [None] * 15
            for mkey, mcards in melds.items():
                if mkey < 15:
                    by_rank[mkey] = mcards
        # Interpreted, the per-ruleset lists are found here by a tuple key (``_RulesCache.group_list``'s call and
        # its packing cost more than the look-up); compiled, by the packed key in a native table.
        known = cache.known
        for rank in range(4, 15):  # NATURAL_RANKS, written out: compiled, a native loop (not an iterator)
            n = rc[rank]
            if n:
                held |= 1 << (rank - 1)
            meld = by_rank[rank]
            if meld is None:
                if n < min_nat:
                    continue
                nat0 = wild0 = size0 = 0
                k_lo = min_nat
            elif n or has_wilds:
                nat0, wild0 = meld_counts(meld)
                size0 = len(meld)
                k_lo = 0
            else:
                continue
            if dead and rank in dead:
                continue
            tw = twos
            jk = jokers
            if special:
                tw, jk = group_wilds(state, rank, twos, jokers)  # (not *-unpacked: compiled, a generic call)
            if size0 >= 7 and no_wild_on_canasta:
                tw = jk = 0
            # ``_Play.group_moves``' quick case written out (a call saved per rank): every meld leaves two cards
            # or more, so the per-ruleset list for these counts is the answer.
            if pending is None and hsize - n - tw - jk >= 2:
                made = None if _COMPILED else known.get((rank, nat0, wild0, n, tw, jk, five))
                if made is None:
                    made = cache.group_list(rank, nat0, wild0, size0, n, tw, jk, k_lo, five, size_cap)
                if made is not None:
                    moves.extend(made)
                    continue
            if play is None:
                canastas = _canastas(r, f, melds)
                if need < 0:
                    need = minimum_to_meet(state)
                play = _Play(state, r, pending, need, turn, foot, opened, melds, canastas, hsize, pts, caps, five,
                             size_cap, min_nat, no_wild_on_canasta, moves, cache, f.plain)
            play.group_moves(rank, rank, meld, n, tw, jk)
    else:
        assert play is not None  # made above where there are several melds per rank
        for rank in range(4, 15):
            n = rc[rank]
            if not n and not has_wilds:
                continue
            for key in group_keys(melds, rank):
                play.group_moves(key, rank, melds[key], n, twos, jokers)
            new = free_key(melds, rank)
            if n >= min_nat and new is not None:
                play.group_moves(new, rank, None, n, twos, jokers)
    if cache.not_groups_alone:  # (one test where the rules have groups alone)
        if r.twos_as_rank and rc[TWO]:  # Italian: twos melded as a rank, jokers as their wild cards
            assert play is not None
            keys = group_keys(melds, TWO) if several else [TWO] if TWO in melds else []
            new = free_key(melds, TWO) if several or not keys else None
            for key in keys:
                play.group_moves(key, TWO, melds[key], rc[TWO], 0, jokers)
            if new is not None and rc[TWO] >= min_nat:
                play.group_moves(new, TWO, None, rc[TWO], 0, jokers)
        if r.sequences:
            assert play is not None
            _sequence_moves(state, melds, pts, canastas, hsize, play.end_ok, moves.append)
        if several and pending is None and not melds_only:
            moves.extend(_combine_moves(r, melds))
        if r.wild_melds and (rc[TWO] or rc[JOKER_RANK]):
            assert play is not None
            twos, jokers = rc[TWO], rc[JOKER_RANK]
            if r.natural_opening and not opened:
                twos = jokers = 0
            if r.twos_as_rank:
                twos = 0
            keys = group_keys(melds, JOKER_RANK)
            new = free_key(melds, JOKER_RANK) if several or not keys else None
            for key in [*keys, *([new] if new is not None else [])]:
                size0 = len(melds.get(key, ()))
                smallest = 1 if size0 else 3
                for a in range(twos + 1):
                    for b in range(jokers + 1):
                        size = size0 + a + b
                        if a + b < smallest or size > r.wild_meld_max:
                            continue
                        move = _new_move(Move, ("meld", key, 0, a, b, 0, -1))
                        c2 = canastas_after(r, melds, canastas, key, size0, size)
                        if play.end_ok(hsize - a - b, pts + 20 * a + 50 * b, c2, move):
                            moves.append(move)
    if rc[THREE] >= 3 and THREE not in melds and pending is None and r.black_threes_meldable and not foot:
        canastas = _canastas(r, f, melds)
        for k in range(max(3, hsize - 1), rc[THREE] + 1):  # only as part of going out (docs/sources.md §3.3)
            move = meld_move(THREE, k, 0, 0)
            if (hsize - k == 0 and out_problem(state, canastas, pts + 5 * k) is None) or (
                    hsize - k == 1 and can_go_out(apply_meld(state, move))):
                moves.append(move)
    if melds_only:
        return moves
    if turn.withdrew and not opened and after_withdraw is not None:
        moves = after_withdraw(state, moves)
    if pending is None:
        staged_ok = True
        if not opened and stage is not None:
            if need < 0:
                need = minimum_to_meet(state)
            staged_ok = pts >= need and opening_canasta_ok(state, melds)
        if turn.no_discard:
            if staged_ok:
                moves.append(PASS)
        elif hsize >= 2 or foot:  # with a foot the last card's discard picks the foot up
            if staged_ok:
                if cache.plain_discards:  # (``_add_discards`` written out: a call saved in most play phases)
                    moves.extend(plain_discards(rc, -1 if several else held))
                    if rc[1]:
                        moves.extend(_red_three_discards(state, rc))
                else:
                    moves.extend(listed_discards(state, rc, hsize))
        elif out_problem(state, _canastas(r, f, melds), pts) is None:  # the last card: going out, maybe concealed
            _add_discards(moves, state, rc, hsize, cache.plain_discards, -1 if several else held)
        elif not state.stock and not any(m.action == "meld" for m in moves):
            # The last stock card was a red three, not replaced (last_card_red_three=no_replace), and the
            # one card held may not go out: nothing is left to play, so the hand ends (sources silent).
            moves.append(PASS)
    if f.partnerships and turn.permission is None and hsize >= 2 and not foot and (
            (r.permission == "optional_binding" and not turn.melded and stage is None)
            or (r.permission == "compulsory" and pending is None)) and not (
            r.permission_once and asked_this_hand(state.log, p)):  # once a hand (Modern American [P])
        # With one card left a "no" would leave no legal move: he could only go out. Where asking is
        # compulsory (Brazilian) it may come after melding: going out needs the "yes".
        moves.append(ASK)
    if stage is not None and stage.points > stage.base and not turn.withdrew:
        moves.append(WITHDRAW)
    if not cache.rare_moves:  # (one test: no kept three, no special hands, no Acaba)
        return moves
    if f.keeps_a_three and stage is None and (rc[1] or rc[THREE]) and (state.stock or hsize > 1):
        moves.append(LAYOUT)  # the kept three, laid out when the player likes (not amid a staged opening)
    if (r.special_hands and hsize == SPECIAL_HAND_SIZE and not opened and stage is None and turn.source == "stock"
            and special_hand_possible(r, rc)):  # the counts first: the reading of the cards is interpreted code
        name = special_hand_of(r, cards_of(state.hands[p]))  # Modern American (docs/sources.md §4C, GC-S20)
        if name is not None:
            moves.append(Move("declare", SPECIAL_HAND_NAMES.index(name)))
    if r.acaba and pending is None:
        moves.extend(acaba_moves(state))
    return moves


_GROUP_CACHE_SIZE: Final = 20_000  # lists of group melds kept per ruleset (a bound on memory; refilled as needed)
_TABLE_SIZE: Final = 1 << 15  # compiled, the table that keeps them (at most 61 % full)
_TABLE_MASK: Final = _TABLE_SIZE - 1
_NO_MOVES: Final[list[Move]] = []


class _RulesCache:
    """What ``play_moves`` keeps per Rules object: its wild-card limits (``core.wild_caps``) and the lists of
    group melds by their packed counts. (The Rules object is kept, so that its id stays its own.)"""

    __slots__ = ("caps", "flags", "keys", "known", "lists", "meld_out", "not_groups_alone", "plain_discards",
                 "rare_moves", "rules", "size_cap", "used")

    rules: Rules
    caps: tuple[int, ...]
    # Interpreted: the lists by their counts (meld key, naturals and wild cards in the meld, naturals, twos and
    # jokers the hand may add, the rule of five's bound); the meld's size and the least naturals follow from them.
    known: dict[tuple[int, int, int, int, int, int, int], list[Move]]
    keys: list[int]  # compiled: the same as a table of packed counts (-1: a free slot) and their lists
    lists: list[list[Move]]
    used: int
    flags: Flags
    plain_discards: bool  # every card held may be discarded, by rank (no rule bans one; suits do not matter)
    size_cap: int  # the largest meld (max_meld_size, or no limit)
    not_groups_alone: bool  # the rules have several melds per rank, melds of twos, sequences or wild melds
    rare_moves: bool  # the rules have a kept three to lay out, special hands or Acaba
    meld_out: bool  # a group meld's going out is answered from counts (``going_out.meld_out_from_counts``)

    def __init__(self, rules: Rules, caps: tuple[int, ...]) -> None:
        self.rules = rules
        self.caps = caps
        self.known = {}
        self.keys = [-1] * _TABLE_SIZE if _COMPILED else []
        self.lists = [_NO_MOVES] * _TABLE_SIZE if _COMPILED else []
        self.used = 0
        self.flags = flags(rules)
        # Exactly the "or" of the questions ``listed_discards`` asks before it lists the ranks held.
        self.plain_discards = (rules.jokers_discardable and not rules.swad and rules.threes_laid_out != "all"
                               and rules.black_three_first_round_discard and not rules.sequences)
        self.size_cap = rules.max_meld_size or 10**9
        self.not_groups_alone = bool(rules.several_melds_per_rank or rules.twos_as_rank or rules.sequences
                                     or rules.wild_melds)
        self.rare_moves = bool(self.flags.keeps_a_three or rules.special_hands or rules.acaba)
        self.meld_out = meld_out_from_counts(rules)

    def group_list(self, key: int, nat0: int, wild0: int, size0: int, n: int, twos: int, jokers: int, k_lo: int,
                   five: int, size_cap: int) -> list[Move] | None:
        """The group melds of one key when every one leaves two cards or more in the hand (the caller checks):
        each is then legal whatever else holds, so the list depends on these counts alone and is made once (the
        same Move objects every time). None where the counts are too large to pack (never in the presets)."""
        if not _COMPILED:
            counts = (key, nat0, wild0, n, twos, jokers, five)
            made = self.known.get(counts)
            if made is None:
                if len(self.known) >= _GROUP_CACHE_SIZE:
                    self.known.clear()
                made = _group_melds(key, nat0, wild0, size0, n, twos, jokers, k_lo, five, self.caps, size_cap)
                self.known[counts] = made
            return made
        if not (key < 128 and nat0 < 32 and wild0 < 32 and size0 < 64 and n < 32 and twos < 32 and jokers < 32
                and k_lo < 8 and five < 16):
            return None
        # The counts packed into one int (45 bits: no tuple to box) name the list.
        group = ((((((((key << 5 | nat0) << 5 | wild0) << 6 | size0) << 5 | n) << 5 | twos) << 5 | jokers)
                  << 3 | k_lo) << 4 | five)
        made = self.melds_of(group)
        if made is None:
            made = _group_melds(key, nat0, wild0, size0, n, twos, jokers, k_lo, five, self.caps, size_cap)
            self.keep(group, made)
        return made

    def melds_of(self, group: int) -> list[Move] | None:
        """The group melds kept for these packed counts, or None (compiled only)."""
        # Compiled, a dict look-up boxes the 45-bit key (an allocation) and hashes it: an open-addressing table
        # of native ints finds it without either.
        keys = self.keys
        i = (group ^ group >> 15 ^ group >> 30) & _TABLE_MASK
        while True:
            k = keys[i]
            if k == group:
                return self.lists[i]
            if k < 0:
                return None
            i = (i + 1) & _TABLE_MASK

    def keep(self, group: int, made: list[Move]) -> None:
        if self.used >= _GROUP_CACHE_SIZE:  # a bound on memory, and the table stays sparse: refilled as needed
            self.keys = [-1] * _TABLE_SIZE
            self.lists = [_NO_MOVES] * _TABLE_SIZE
            self.used = 0
        keys = self.keys
        i = (group ^ group >> 15 ^ group >> 30) & _TABLE_MASK
        while keys[i] >= 0:
            i = (i + 1) & _TABLE_MASK
        keys[i] = group
        self.lists[i] = made
        self.used += 1


_RULES_CACHES: Final[dict[int, _RulesCache]] = {}
_LAST_RULES: Final[list[_RulesCache]] = []  # the entry used last: a game asks for the same one at every move


def _rules_cache(r: Rules) -> _RulesCache:
    if _LAST_RULES:
        last = _LAST_RULES[0]
        if last.rules is r:
            return last
    entry = _RULES_CACHES.get(id(r))
    if entry is None or entry.rules is not r:
        if len(_RULES_CACHES) >= 256:  # a server makes Rules objects as tables come and go: keep the newest
            _RULES_CACHES.clear()
        entry = _RulesCache(r, wild_caps(r))
        _RULES_CACHES[id(r)] = entry
    if _LAST_RULES:
        _LAST_RULES[0] = entry
    else:
        _LAST_RULES.append(entry)
    return entry


def _group_melds(key: int, nat0: int, wild0: int, size0: int, n: int, twos: int, jokers: int, k_lo: int, five: int,
                 caps: tuple[int, ...], size_cap: int) -> list[Move]:
    """The melds ``play_moves`` lists for one group key when each leaves two cards or more (its loop, alone)."""
    made: list[Move] = []
    for k in range(k_lo, n + 1):
        cap = caps[nat0 + k] - wild0
        if nat0 + k < five or cap < 0:  # the rule of five (Modern American, docs/sources.md §4C)
            cap = 0
        for a in range((twos if twos < cap else cap) + 1):
            room = cap - a
            for b in range((jokers if jokers < room else room) + 1):
                cnt = k + a + b
                size = size0 + cnt
                if cnt == 0 or size < 3 or size > size_cap:
                    continue
                made.append(meld_move(key, k, a, b))
    return made


_NO_MELDS_BY_RANK: Final[list[tuple[int, ...] | None]] = [None] * 15  # shared, never changed
_NO_RANKS: Final[frozenset[int]] = frozenset()  # no dead ranks (typed as ``dead_ranks``' answer: compiled, no union)
_COMBINE_RANKS: Final[tuple[int, ...]] = (JOKER_RANK, TWO, *NATURAL_RANKS)  # the order combines are listed in


def _combine_moves(r: Rules, melds: Melds) -> list[Move]:
    """Two melds of one rank may be combined (docs/sources.md §4B Samba [H]): a later one into an earlier one,
    when the result keeps the wild-card limits (and, where wild cards may not join a canasta, no wild
    card meets a finished canasta)."""
    moves: list[Move] = []
    per_rank = [0] * 15  # group melds by rank code, counted in one pass: only a rank with two can combine
    several = False
    for key in melds:
        if key < SEQUENCE_BASE:
            rank = key % SLOTS
            per_rank[rank] = per_rank[rank] + 1
            several = several or per_rank[rank] > 1
    if not several:
        return moves
    for rank in _COMBINE_RANKS:
        if per_rank[rank] < 2:
            continue
        keys = group_keys(melds, rank)
        for i, target in enumerate(keys):
            for source in keys[i + 1:]:
                a, b = melds[target], melds[source]
                (n1, w1), (n2, w2) = (twos_counts(a), twos_counts(b)) if rank == TWO else (
                    meld_counts(a), meld_counts(b))
                size = len(a) + len(b)
                if rank == JOKER_RANK:
                    ok = size <= r.wild_meld_max
                else:
                    ok = r.meld_ok(n1 + n2, w1 + w2) and not (r.max_meld_size and size > r.max_meld_size)
                if not r.wilds_onto_canasta and ((len(a) >= 7 and w2) or (len(b) >= 7 and w1)):
                    ok = False
                if ok:
                    moves.append(_new_move(Move, ("combine", target, 0, 0, 0, source, -1)))
    return moves


def _sequence_moves(state: State, melds: Melds, pts: int, canastas: int, hsize: int,
                    end_ok: Callable[[int, int, int, Move], bool], add: Callable[[Move], None]) -> None:
    """Sequence melds (docs/sources.md §4B Samba): a new sequence of 3 to 7 consecutive cards of one suit from 4
    to the ace, or a block of consecutive cards added at one end of a sequence shorter than 7."""
    r = state.rules
    hand = state.hands[state.turn_seat]
    for suit in range(4):
        have = [False] * 16
        held = False  # (not any(have): compiled, a call of the builtin per suit)
        for rank in range(SEQUENCE_LOW, 15):
            if hand[(rank - 2) * 4 + suit] > 0:
                have[rank] = held = True
        if not held:
            continue
        first = sequence_key(suit)
        for key in range(first, first + SLOTS):
            if key not in melds:
                break
            meld = melds[key]
            size0 = len(meld)
            past = size0 >= SEQUENCE_MAX  # only when going out (Brazilian), else nothing more
            if past and not r.sequence_extends_going_out:
                continue
            room = 14 if past else SEQUENCE_MAX - size0
            lo, hi = sequence_span(meld)
            blocks = []
            for k in range(1, room + 1):
                if lo - k < SEQUENCE_LOW or not have[lo - k]:
                    break
                blocks.append((lo - k, k))
            for k in range(1, room + 1):
                if hi + k > 14 or not have[hi + k]:
                    break
                blocks.append((hi + 1, k))
            for low, k in blocks:
                if past:
                    move = _new_move(Move, ("meld", key, k, 0, 0, low, -1))
                    after = apply_meld(state, move)
                    if after.hand_number != state.hand_number or after.phase == GAME_OVER or can_go_out(after):
                        add(move)
                else:
                    _sequence_move(r, melds, key, low, k, size0, pts, canastas, hsize, end_ok, add)
        new = free_key(melds, first)
        if new is None:
            continue
        for low in range(SEQUENCE_LOW, 13):
            for k in range(1, SEQUENCE_MAX + 1):
                if low + k - 1 > 14 or not have[low + k - 1]:
                    break
                if k >= 3:
                    _sequence_move(r, melds, new, low, k, 0, pts, canastas, hsize, end_ok, add)


def _sequence_move(r: Rules, melds: Melds, key: int, low: int, k: int, size0: int, pts: int, canastas: int,
                   hsize: int, end_ok: Callable[[int, int, int, Move], bool], add: Callable[[Move], None]) -> None:
    move = _new_move(Move, ("meld", key, k, 0, 0, low, -1))
    pts2 = pts
    for x in range(low, low + k):  # a loop, not sum() over a generator: compiled, native
        pts2 += RV[x]
    if end_ok(hsize - k, pts2, canastas_after(r, melds, canastas, key, size0, size0 + k), move):
        add(move)


_DISCARD_MOVES: Final[list[Move]] = [m for _, m in DISCARDS]  # the moves of DISCARDS, in its order (DISCARD_RANKS)
# The discards of each set of ranks (a bit per entry of DISCARD_RANKS), made when first asked for.
_DISCARD_LISTS: Final[list[list[Move] | None]] = [None] * (1 << len(DISCARD_RANKS))

# The discard of a natural of each rank and suit (games with sequences), made once: [rank][suit].
_SUITED_DISCARDS: Final[list[list[Move]]] = [
    [_new_move(Move, ("discard", x, 0, 0, 0, 0, suit)) for suit in range(4)] for x in range(15)]


def discards_are_plain(rules: Rules) -> bool:
    """Do these rules let every card held be discarded, by rank (so that ``plain_discards`` lists them)?"""
    return _rules_cache(rules).plain_discards


def plain_discards(rc: list[int], naturals: int) -> list[Move]:
    """``listed_discards`` where no rule bans a card and suits do not matter: one discard per rank held (the red
    threes' are added by the caller). The list is shared: callers only read it.

    The ranks held make a bit mask in the order of DISCARD_RANKS (jokers, twos, black threes, 4 ... aces: bit
    ``x - 1`` for rank code x from 2), and each list is made once per mask. ``naturals``: the bits of the natural
    ranks held where the caller has them (else -1)."""
    held = naturals
    if held < 0:
        held = 0
        for x in range(4, 15):  # (a native loop, compiled)
            if rc[x]:
                held |= 1 << (x - 1)
    if rc[JOKER_RANK]:
        held |= 1
    if rc[TWO]:
        held |= 2
    if rc[THREE]:
        held |= 4
    made = _DISCARD_LISTS[held]
    if made is None:
        made = [_DISCARD_MOVES[i] for i in range(len(_DISCARD_MOVES)) if held >> i & 1]
        _DISCARD_LISTS[held] = made
    return made


def _add_discards(moves: list[Move], state: State, rc: list[int], hsize: int, plain: bool, naturals: int) -> None:
    """Add the discards allowed (``plain``: the rules' ``plain_discards``; ``naturals``: see ``plain_discards``)
    to ``moves``."""
    if plain:
        moves.extend(plain_discards(rc, naturals))
        if rc[1]:
            moves.extend(_red_three_discards(state, rc))
    else:
        moves.extend(listed_discards(state, rc, hsize))


def listed_discards(state: State, rc: list[int], hsize: int) -> list[Move]:
    """The discards allowed from these counts: a card a rule forbids may still go when nothing else can."""
    r = state.rules
    banned = [False] * 15  # by rank code (a list, not a set: compiled, no boxing and no hashing)
    if not r.jokers_discardable:
        banned[JOKER_RANK] = True
    if r.swad and not state.pile:  # CLA: no seven, wild card, ace or dead card onto an empty pile
        for x in (7, 14, TWO, JOKER_RANK, *dead_ranks(state)):
            banned[x] = True
    if r.threes_laid_out == "all":  # threes are never discarded (Modern American): a kept one is laid out
        moves = [m for x, m in DISCARDS if rc[x] and x != THREE and not banned[x]]
        return moves or [m for x, m in DISCARDS if rc[x] and x != THREE]
    if not r.black_three_first_round_discard and not log_count_at_least(state.log, " discard ", r.players):
        banned[THREE] = True
    if r.sequences:  # suits matter: a natural is discarded as a card of one suit
        hand = state.hands[state.turn_seat]
        allowed: list[Move] = []
        for i in range(len(_DISCARD_MOVES)):  # native loops (compiled), in the order of DISCARDS, suit by suit
            x = DISCARD_RANKS[i]
            if not rc[x] or banned[x]:
                continue
            if x < 4:
                allowed.append(_DISCARD_MOVES[i])
                continue
            row = _SUITED_DISCARDS[x]
            for suit in range(4):
                if hand[(x - 2) * 4 + suit]:
                    allowed.append(row[suit])
        return (allowed or [m for x, m in DISCARDS if rc[x]]) + _red_three_discards(state, rc)
    if _COMPILED:
        # A native loop over typed lists (the comprehension below unpacks a tuple and boxes per rank) makes the
        # ranks allowed a bit mask, and each list of discards is made once per mask (shared: callers only read it).
        free = held = 0
        for i in range(len(_DISCARD_MOVES)):
            x = DISCARD_RANKS[i]
            if rc[x]:
                held |= 1 << i
                if not banned[x]:
                    free |= 1 << i
        mask = free or held
        made = _DISCARD_LISTS[mask]
        if made is None:
            made = [_DISCARD_MOVES[i] for i in range(len(_DISCARD_MOVES)) if mask >> i & 1]
            _DISCARD_LISTS[mask] = made
        return made + _red_three_discards(state, rc) if rc[1] else made
    moves = [m for x, m in DISCARDS if rc[x] and not banned[x]]
    if not moves:
        moves = [m for x, m in DISCARDS if rc[x]]
    if rc[1]:
        moves.extend(_red_three_discards(state, rc))
    return moves


def _red_three_discards(state: State, rc: list[int]) -> list[Move]:
    """Red threes held (threes_laid_out="none") are discarded as the card itself: ``discard 3H``."""
    if not rc[1]:
        return []
    hand = state.hands[state.turn_seat]
    moves = []
    for i in range(len(_RED_THREE_KINDS)):  # the moves made once: compiled, Move(...) is a call into Python code
        if hand[_RED_THREE_KINDS[i]]:
            moves.append(_RED_THREE_DISCARDS[i])
    return moves


_RED_THREE_KINDS: Final[tuple[int, ...]] = tuple(RED_THREES)
_RED_THREE_DISCARDS: Final[list[Move]] = [Move("discard", 1, suit=k & 3) for k in RED_THREES]


def acaba_moves(state: State) -> list[Move]:
    """Acaba (docs/sources.md §4A): call it in one's own turn, asking the partner first if one likes."""
    r = state.rules
    if not r.acaba:
        return []
    answer = state.turn.permission
    if answer == "acaba-yes":
        return [ACABA]
    moves = [] if answer == "acaba-no" else [ACABA]
    if answer is None and r.partnerships:
        moves.append(ASK_ACABA)
    return moves


def way_out_moves(state: State, moves: list[Move]) -> list[Move]:
    """After the partner said yes the player must go out (docs/sources.md §3.7). If he cannot (the
    sources are silent on this), the obligation lapses and he plays on."""
    if not can_go_out(state):
        return moves
    hsize = sum(state.hands[state.turn_seat])
    stage = state.stage
    quick = _rules_cache(state.rules).meld_out and (stage is None or stage.pending is None)
    pts = stage.points if stage is not None else 0
    keep = []
    for m in moves:
        if m.action == "discard":
            if hsize == 1:
                keep.append(m)
        elif m.action == "meld":
            if quick and not m.low and 4 <= m.rank < 15 and hsize - m.naturals - m.twos - m.jokers >= 1:
                # a card stays in hand and no pile is pending: the counts answer, the position is not made
                if can_go_out_after_meld(state, m.rank, m.naturals, m.twos, m.jokers,
                                         pts + RV[m.rank] * m.naturals + 20 * m.twos + 50 * m.jokers):
                    keep.append(m)
                continue
            after = apply_meld(state, m)
            if after.hand_number != state.hand_number or after.phase == GAME_OVER or can_go_out(after):
                keep.append(m)
    # can_go_out is exact for groups; where sequences or twos melds make it an estimate and no move
    # keeps the way out open, the obligation lapses as above rather than leave no move at all.
    return keep or moves
