"""The legal moves of every phase (``generate_moves``, the single source of truth behind ``legal_moves``): the
draw, the ways to take the pile (``take_moves``, an unopened side's only where the opening search says the
minimum stays within reach), the play phase's moves (``generate.play_moves``, after a withdraw only the melds
that keep the minimum within reach) and, after a partner's yes (or a concealed take that must go out), only the
moves that keep the way out open.
"""

from __future__ import annotations

from typing import Any, Final

from ..kinds import JOKER_RANK, TWO, rank_of
from ..melds import SEQUENCE_LOW, SEQUENCE_MAX, SLOTS, sequence_key, sequence_span
from ..moves import ACABA, DRAW, NO, PASS, YES, Move
from ..state import ANSWER_PHASE, DRAW_PHASE, GAME_OVER, State
from .core import (
    RV,
    canastas_after,
    count_canastas,
    dead_ranks,
    free_key,
    group_keys,
    has_foot,
    meld_counts,
    melds_after,
    minimum_to_meet,
    pile_frozen_for,
    total,
    turn_counts,
    twos_meld_open,
)
from .generate import acaba_moves, group_move, play_moves, way_out_moves
from .going_out import can_go_out, out_problem
from .opening import opening_reachable
from .pile import concealed_take_waived, pile_incoming, take_blocked, take_pile
from .search import SEARCH_LIMIT, MeldCounts, opening_path, reachable, still_reachable

_new_move: Final = tuple.__new__  # a Move built directly: NamedTuple's __new__ is Python code, slow even compiled


def generate_moves(state: State) -> list[Move]:
    phase = state.phase
    if phase == GAME_OVER:
        return []
    if phase == ANSWER_PHASE:
        return [YES, NO]
    if phase == DRAW_PHASE:
        if state.turn.permission == "acaba-yes":
            return [ACABA]
        moves = take_moves(state)
        acaba = acaba_moves(state) if state.rules.acaba else []
        if state.stock:
            if not moves and not acaba:
                return [DRAW]  # most draw phases (no list to unpack: compiled, each is an extend)
            return [DRAW, *moves, *acaba]
        if _take_forced(state, moves):
            return moves
        return [*moves, PASS, *acaba]
    moves = play_moves(state, False, _reachable_after_withdraw)
    if state.turn.permission == "acaba-yes":
        return [ACABA]
    if state.turn.permission == "yes" or state.turn.must_go_out:
        moves = way_out_moves(state, moves)
    return moves


def _take_forced(state: State, takes: list[Move]) -> bool:
    """Stock empty: must the player take the discard (docs/sources.md §3.8, D26)?"""
    if not takes:
        return False
    rule = state.rules.forced_take_after_stock
    if rule == "whenever_able":
        return True
    if rule == "never":
        return False
    side = state.seat_sides[state.turn_seat]
    return not pile_frozen_for(state, side) and any(m.naturals == 0 and m.twos == 0 and m.jokers == 0
                                                     for m in takes)


def take_moves(state: State) -> list[Move]:
    pile = state.pile
    top = pile[-1] if pile else -1
    # A natural of 4 to ace on top (kinds 8 to 51; most draw phases) is never blocked: ``take_blocked`` is asked
    # about the others only (a call saved).
    if not 8 <= top < 52 and take_blocked(state) is not None:
        return []
    r = state.rules
    p = state.turn_seat
    side = state.seat_sides[p]
    hand = state.hands[p]
    rank = rank_of(top)
    # The quick tests of most draw phases. Fewer than two of the top's rank in hand and a pile frozen for the
    # side: no pair, and nothing else takes a frozen pile.
    first = (rank - 2) * 4
    held = hand[first] + hand[first + 1] + hand[first + 2] + hand[first + 3]
    if held < 2 and pile_frozen_for(state, side):
        return []
    if not held and not r.sequences and not r.several_melds_per_rank and rank not in state.melds[side]:
        # No card of the top's rank in hand and no meld of it, so no pair, no natural with a wild card and
        # nothing to add to.
        return []
    rc = turn_counts(state)
    hsize = total(rc)
    if r.one_card_pile_rule and len(pile) == 1 and hsize == 1:
        return []
    if r.dead_ranks and rank in dead_ranks(state):
        return []
    n = rc[rank]
    melds = state.melds[side]
    opened = state.opened[side]
    if r.pile_needs_opened_side and not opened:
        return []
    if r.several_melds_per_rank:
        keys = group_keys(melds, rank)
    else:
        keys = [rank] if rank in melds else []
        if r.pile_blocked_for_canastas and keys and len(melds[rank]) >= 7:
            return []
    frozen = pile_frozen_for(state, side)
    pair: list[tuple[int, int, int]] = []
    if n >= 2:
        pair.append((2, 0, 0))
    if not frozen and n >= 1 and r.unfrozen_take_with_natural_plus_wild and not (r.natural_opening and not opened):
        if rc[TWO] and not (r.twos_as_rank and twos_meld_open(melds)):
            pair.append((1, 1, 0))
        if rc[JOKER_RANK]:
            pair.append((1, 0, 1))
    adding = not frozen and r.unfrozen_take_by_adding
    # (meld key, the meld or None, naturals, twos, jokers from the hand)
    options: list[tuple[int, tuple[int, ...] | None, int, int, int]] = []
    # (Tuples written out, not ``(key, cards, *o)``: compiled, a *-tuple is built through a list.)
    for key in keys:
        cards = melds[key]
        for k0, a0, b0 in pair:
            options.append((key, cards, k0, a0, b0))
        if adding and (r.take_onto_canasta or len(cards) < 7):
            options.append((key, cards, 0, 0, 0))
    if not keys or r.several_melds_per_rank:
        new = free_key(melds, rank)
        if new is not None:
            for k0, a0, b0 in pair:
                options.append((new, None, k0, a0, b0))
    sequences: list[tuple[int, tuple[int, ...]]] = []
    if adding and r.sequences and rank >= SEQUENCE_LOW:
        first = sequence_key(top & 3)
        for key in range(first, first + SLOTS):
            run = melds.get(key)
            if run is None:
                break
            lo, hi = sequence_span(run)
            if len(run) < SEQUENCE_MAX and rank in (lo - 1, hi + 1):
                sequences.append((key, run))
    if not options and not sequences:
        return []
    canastas = -1  # the side's canastas: counted when first needed (a take that may leave a card or none)
    need = 0 if opened else minimum_to_meet(state)  # (an opened side has no minimum: the call saved)
    incoming = -1  # the cards the take brings into the hand: counted when first needed
    # Emptying the hand picks up the foot: no going out, no card to keep.
    foot = has_foot(state, p) if r.foot_size else False
    moves = []
    candidates: list[tuple[Move, tuple[int, ...] | None, int, int]] = []
    for key, old, k, a, b in options:
        nat0 = wild0 = 0
        if old:
            nat0, wild0 = meld_counts(old)
        candidates.append((group_move(True, key, k, a, b), old, nat0, wild0))
    for key, run in sequences:
        candidates.append((_new_move(Move, ("take", key, 0, 0, 0, rank, -1)), run, len(run), 0))
    for move, meld, nat0, wild0 in candidates:
        k, a, b = move.naturals, move.twos, move.jokers
        nat, wild = nat0 + 1 + k, wild0 + a + b
        size0 = len(meld) if meld is not None else 0
        size = size0 + 1 + k + a + b
        if not move.low and (not r.meld_ok(nat, wild) or size < 3 or (r.max_meld_size and size > r.max_meld_size)):
            continue
        base = RV[rank] * (k + r.top_card_counts) + 20 * a + 50 * b
        if incoming < 0 and ((not opened and base < need) or hsize - k - a - b <= 1):
            incoming = pile_incoming(r, pile)
        # (Not counted, ``incoming`` stands for 0: the hand keeps two cards or more whatever the take brings.)
        after = hsize - k - a - b + (incoming if incoming > 0 else 0)
        if not opened and base < need:
            rc2 = list(rc)
            rc2[rank] = rc2[rank] - k
            rc2[TWO] = rc2[TWO] - a
            rc2[JOKER_RANK] = rc2[JOKER_RANK] - b
            keep = 0 if foot else max(0, 2 - incoming)
            melds_nw = {} if move.low else {rank: (nat, wild)}
            if not reachable(state, move, rc2, melds_nw, need - base, keep) and not (
                    # ... or the opening goes out at once (rare: a pile of one or two cards)
                    keep and opening_reachable(r, rc2, melds_nw, need - base, 0)
                    and opening_path(take_pile(state, move, None), state.hand_number, {})) and not (
                    concealed_take_waived(r) and can_go_out(take_pile(state, move, None, True))):
                continue
        elif not foot and after <= 1:
            if canastas < 0:
                canastas = count_canastas(r, melds)
            if not _take_goes_out(state, move, after, canastas_after(r, melds, canastas, move.rank, size0, size),
                                  base):
                continue
        moves.append(move)
    return moves


def _take_goes_out(state: State, move: Move, after: int, canastas: int, points: int) -> bool:
    """A take that leaves ``after`` (0 or 1) cards in the hand must let the player go out: with none left
    (not where going out needs a discard), or by melding or discarding the one left."""
    r = state.rules
    if after == 1:
        return can_go_out(take_pile(state, move, None))
    melds = melds_after(state, move) if r.natural_canastas_to_go_out or r.mixed_canastas_to_go_out else None
    return not r.go_out_needs_discard and out_problem(state, canastas, points, melds) is None


def _reachable_after_withdraw(state: State, moves: list[Move]) -> list[Move]:
    """The moves after a withdraw, less the melds that leave the minimum out of reach (``still_reachable``). The
    melds' searches share a memo, as they meet the same positions: its answers are exact until it holds
    ``SEARCH_LIMIT`` positions, when a search gives up and says "no" for the budget's sake. A meld refused by a
    memo that full is searched again (``_admitted``), so that no meld is refused for a budget that the melds
    before it spent."""
    counts = MeldCounts(state)
    memos: list[dict[Any, bool]] = [{}, {}]
    kept = []
    for m in moves:
        if m.action != "meld" or _admitted(state, m, counts, memos):
            kept.append(m)
    return kept


def _admitted(state: State, m: Move, counts: MeldCounts, memos: list[dict[Any, bool]]) -> bool:
    """``still_reachable`` for one meld after a withdraw: from the memo every meld shares (``memos[0]``), and where
    that is full and says "no", from the memo of the melds it refused so (``memos[1]``); where that too is full
    and says "no", from a new one, its own budget's answer (which the melds after it then share)."""
    if still_reachable(state, m, memos[0], counts):
        return True
    if len(memos[0]) < SEARCH_LIMIT:
        return False  # an exact "no"
    again = memos[1]
    fresh = not again
    if still_reachable(state, m, again, counts):
        return True
    if len(again) < SEARCH_LIMIT or fresh:
        return False  # exact, or its own budget's
    memos[1] = again = {}
    return still_reachable(state, m, again, counts)
