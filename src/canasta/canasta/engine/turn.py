"""Applying a legal move (the transition, with no legality check): ``apply_move`` dispatches on the
move's action; discards and the passing of the turn live here; melds in ``meld.py``, drawing and taking the
pile in ``pile.py``, the end of a hand in ``end.py``.
"""

from __future__ import annotations

from ..kinds import BLACK_THREES, is_wild
from ..moves import SPECIAL_HAND_NAMES, Move
from ..state import (
    ANSWER_PHASE,
    DRAW_PHASE,
    NEW_TURN,
    PLAY_PHASE,
    Log,
    State,
    log_add,
    new_stage,
    turn_with,
)
from .core import (
    COUNT_RANK,
    RANK_KINDS,
    counts_kept,
    has_cards,
    has_foot,
    known_counts,
    laid_out_threes,
)
from .deal import deal_bonus_cards
from .end import end_hand
from .going_out import pick_up_foot
from .legal import take_moves
from .meld import play_meld, unstaged
from .opening import confirm_opening
from .pile import draw_from_stock, freezes, lay_out_kept_three, red_three_slot, take_pile


def apply_move(state: State, m: Move) -> State:
    a = m.action
    p = state.turn_seat
    side = state.seat_sides[p]
    history: Log = log_add(state.log, state.to_move, m)
    if a == "draw":
        return draw_from_stock(state, history)
    if a == "take":
        return take_pile(state, m, history)
    if a == "meld":
        return play_meld(state, m, history)
    if a == "combine":
        melds = list(state.melds)
        table = dict(melds[side])
        table[m.rank] = tuple(sorted((*table[m.rank], *table.pop(m.low))))
        melds[side] = table
        turn = turn_with(state.turn, melded=True, touched_old=True)
        return state.replace(melds=tuple(melds), turn=turn, log=history)
    if a == "discard":
        return play_discard(state, m, history)
    if a in ("ask", "ask-acaba"):
        seats = state.seats_of(side)
        partner = seats[(seats.index(p) + 1) % len(seats)]
        asked = "asked" if a == "ask" else "acaba-asked"
        return state.moved(state.hands, state.stock, state.pile, state.pile_frozen, state.melds, state.has_melded, p,
                           partner, ANSWER_PHASE, turn_with(state.turn, permission=asked), state.stage, history,
                           state.counts, state.seat_counts)
    if a in ("yes", "no"):
        answer = a if state.turn.permission == "asked" else f"acaba-{a}"
        phase = PLAY_PHASE if state.turn.source else DRAW_PHASE
        return state.moved(state.hands, state.stock, state.pile, state.pile_frozen, state.melds, state.has_melded, p, p,
                           phase, turn_with(state.turn, permission=answer), state.stage, history, state.counts,
                           state.seat_counts)
    if a == "acaba":
        # The hand ends at once (docs/sources.md §4A): a staged opening never stood, so its melds go back to the
        # hand first; left staged, a game ended here would keep a stage no position may have.
        if state.stage is not None:
            state = unstaged(state).replace(stage=None)
        return end_hand(state.replace(log=history), None, acaba_by=p)
    if a == "declare":
        return end_hand(state.replace(log=history), None, special=(side, SPECIAL_HAND_NAMES[m.rank]))
    if a == "layout":
        owner = red_three_slot(state, p)
        laid = laid_out_threes(state.rules)
        stock, hand, reds, history = lay_out_kept_three(p, list(state.stock), list(state.hands[p]),
                                                         list(state.red_threes[owner]), history, laid)
        hands = list(state.hands)
        hands[p] = tuple(hand)
        threes = list(state.red_threes)
        threes[owner] = tuple(reds)
        return state.replace(stock=tuple(stock), hands=tuple(hands), red_threes=tuple(threes), log=history)
    if a == "withdraw":
        stage = state.stage
        assert stage is not None
        staged = None if stage.pending is None else new_stage(stage.hand, stage.melds, stage.turn, stage.base,
                                                             stage.base, stage.pending)
        return unstaged(state).replace(turn=turn_with(stage.turn, withdrew=True), stage=staged, log=history)
    if a == "pass":
        if state.phase == DRAW_PHASE:
            return end_hand(state.replace(log=history), None)
        return end_hand(confirm_opening(state.replace(log=history)), None)
    raise AssertionError(a)


def play_discard(state: State, m: Move, history: Log) -> State:
    r = state.rules
    p = state.turn_seat
    hand = list(state.hands[p])
    c = -1
    if m.suit >= 0:
        c = 4 + m.suit if m.rank == 1 else (m.rank - 2) * 4 + m.suit  # rank 1: a red three
    else:
        for kind in RANK_KINDS[m.rank]:  # the first card of the rank held, as take_cards takes it
            if hand[kind]:
                c = kind
                break
    if c < 0 or not hand[c]:
        raise AssertionError("engine took cards the hand does not hold")
    hand[c] = hand[c] - 1
    frozen = state.pile_frozen or is_wild(c) or (c in BLACK_THREES and r.black_three_freezes)
    hands = list(state.hands)
    held = tuple(hand)
    hands[p] = held
    # The discarder's rank counts are kept for his next turn, with the hand they count (``core.known_counts``).
    counts = known_counts(state)
    if counts is not None:
        counts = list(counts)
        x = COUNT_RANK[c]
        counts[x] = counts[x] - 1
    kept = counts_kept(state, p, held, counts)
    if state.stage is None and state.stock and has_cards(hand):
        # The common discard, in one new state: no opening to confirm, no hand emptied, no bonus cards (they
        # follow an opening), and a stock left, so the turn simply passes (``next_turn``).
        has_melded = state.has_melded
        if (state.turn.melded or state.turn.source == "pile") and not has_melded[p]:
            flags = list(has_melded)
            flags[p] = True
            has_melded = tuple(flags)
        seat = (p + 1) % r.players
        # (``pile + (c,)``: one new tuple, where ``(*pile, c)`` builds a list first when compiled)
        return state.moved(tuple(hands), state.stock, state.pile + (c,), frozen, state.melds, has_melded,  # noqa: RUF005
                           seat, seat, DRAW_PHASE, NEW_TURN, None, history, None, kept)
    new = confirm_opening(state.replace(hands=tuple(hands), pile=state.pile + (c,), pile_frozen=frozen,  # noqa: RUF005
                                         log=history, seat_counts=kept))
    if not has_cards(hand):
        if not has_foot(new, p):
            return end_hand(new, p)
        new = pick_up_foot(new, p)  # playable from his next turn
    if r.bonus_cards and state.stage is not None and state.turn.source == "stock":
        new = deal_bonus_cards(new, p)
    if state.turn.melded or state.turn.source == "pile":
        has = list(new.has_melded)
        has[p] = True
        new = new.replace(has_melded=tuple(has))
    return next_turn(new)


def next_turn(state: State) -> State:
    r = state.rules
    seat = (state.turn_seat + 1) % r.players
    new = state.replace(turn_seat=seat, to_move=seat, phase=DRAW_PHASE, turn=NEW_TURN, stage=None)
    if not new.stock and r.recycle_pile and not new.recycled and len(new.pile) > 1:
        # The pile under its top card is turned over as a new stock (docs/sources.md §3.8 variant, §5).
        top = new.pile[-1]
        new = new.replace(stock=tuple(reversed(new.pile[:-1])), pile=(top,), pile_frozen=freezes(r, top),
                          pile_hidden=0, recycled=True)
    # The stock is gone (docs/sources.md §3.8): play on only while discards can be taken.
    if not new.stock and (r.end_of_stock == "end_at_once" or not take_moves(new)):
        return end_hand(new, None)
    return new
