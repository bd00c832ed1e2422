"""Laying melds down: ``play_meld``, the transition of a meld move (the stage of an unopened side's opening, a
pending pile picked up once the minimum is met, the hand emptied), and ``unstaged``, the opening's melds taken
back. The move generator (``generate``) and the opening search (``search``) make the position after a meld
with ``apply_meld``, as ``turn.apply_move`` does, without the moves that end a turn.
"""

from __future__ import annotations

from typing import Final

from ..kinds import VALUE
from ..melds import SEQUENCE_MAX, is_sequence_key
from ..moves import Move
from ..state import Log, Stage, State, Turn, log_add
from .core import counts_after, counts_kept, has_cards, known_counts, move_cards
from .going_out import hand_emptied
from .opening import confirm_opening
from .pile import maybe_pick_up


def apply_meld(state: State, m: Move) -> State:
    """``turn.apply_move(state, m)`` for a meld move ``m``: the position after it, with its history entry."""
    return play_meld(state, m, log_add(state.log, state.to_move, m))


# Turns and stages made in the hot paths are built as tuples directly (NamedTuple's ``_replace`` and ``__new__``
# are Python code, slow even when this module is compiled); the fields in their declared order.
_new_tuple: Final = tuple.__new__


def unstaged(state: State) -> State:
    """The turn's staged melds taken back: the hand and the side's melds as they were before them (the
    stage itself is left for the caller to set)."""
    stage = state.stage
    assert stage is not None
    p = state.turn_seat
    side = state.side_of(p)
    melds = list(state.melds)
    melds[side] = stage.melds
    hands = list(state.hands)
    hands[p] = stage.hand
    whole = list(state.concealed_canastas)
    whole[side] = tuple(x for x in whole[side] if x in stage.melds)
    return state.replace(hands=tuple(hands), melds=tuple(melds), concealed_canastas=tuple(whole))


def play_meld(state: State, m: Move, history: Log) -> State:
    p = state.turn_seat
    side = state.seat_sides[p]
    hand = list(state.hands[p])
    cards = move_cards(hand, m)
    melds = dict(state.melds[side])
    old = melds.get(m.rank)
    melds[m.rank] = tuple(sorted((*old, *cards))) if old else tuple(sorted(cards))
    t = state.turn
    touched_old = t.touched_old or (old is not None and m.rank not in t.new_ranks)
    # a sequence past seven is allowed only in the turn its player goes out (Brazilian)
    must_go_out = t.must_go_out or (old is not None and is_sequence_key(m.rank) and len(old) >= SEQUENCE_MAX)
    if old and t.melded and touched_old == t.touched_old and must_go_out == t.must_go_out:
        turn = t  # nothing to change (compiled, making a NamedTuple is a call through the C API: ~900 instructions)
    else:
        turn = _new_tuple(Turn, (t.source, t.permission, True, t.new_ranks if old else (*t.new_ranks, m.rank),
                                 touched_old, t.no_discard, must_go_out, t.withdrew, t.opened_now))
    stage = state.stage
    kept = state.seat_counts
    if not state.opened[side]:
        points = 0
        for c in cards:  # a plain loop: compiled, ``sum`` over a generator is a call into the interpreter
            points = points + VALUE[c]
        if stage is None:
            stage = _new_tuple(Stage, (state.hands[p], state.melds[side], t, 0, points, None))
            # The hand before the stage, with its rank counts: a ``withdraw`` gives that very tuple back
            # (``unstaged``), and the turn goes on with its counts known (``core.known_counts``).
            kept = counts_kept(state, p, state.hands[p], known_counts(state))
        else:
            stage = _new_tuple(Stage, (stage.hand, stage.melds, stage.turn, stage.base, stage.points + points,
                                       stage.pending))
    all_melds = list(state.melds)
    all_melds[side] = melds
    hands = list(state.hands)
    hands[p] = tuple(hand)
    counts = counts_after(state, cards)  # the melder's rank counts, passed on without the cards melded
    new = state.moved(tuple(hands), state.stock, state.pile, state.pile_frozen, tuple(all_melds), state.has_melded, p,
                      state.to_move, state.phase, turn, stage, history, counts, kept)
    if old is None and len(cards) >= 7:  # laid down whole from the hand (concealed_canasta_bonus)
        whole = list(state.concealed_canastas)
        whole[side] = (*whole[side], m.rank)
        new = new.replace(concealed_canastas=tuple(whole))
        if counts is not None:
            new.cache_counts(counts)
    if stage is not None and stage.pending is not None:
        return maybe_pick_up(new)
    if not has_cards(hand):
        return hand_emptied(confirm_opening(new), p)
    return new


