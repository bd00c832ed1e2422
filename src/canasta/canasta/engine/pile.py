"""Drawing from the stock and taking the discard pile (docs/sources.md §3.2, §3.5, §3.6, §3.8): what the
pile is, when nobody may take it, which cards come in with it, threes laid out when drawn, and the
transitions ``draw`` and ``take`` (with the pile kept *pending* beside the table while an unopened
side's opening is short of its minimum).
"""

from __future__ import annotations

from typing import Final

from ..kinds import BLACK_THREES, RED_THREES, VALUE, card_str, is_wild
from ..melds import is_sequence_key, key_rank
from ..moves import Move
from ..rules import Rules
from ..state import DRAWN_TURN, NEW_TURN, PLAY_PHASE, Log, State, Turn, log_add, new_stage, turn_with
from .core import (
    COUNT_RANK,
    flags,
    has_cards,
    known_counts,
    laid_out_threes,
    meld_counts,
    minimum_to_meet,
    move_cards,
    rank_counts,
)
from .end import end_hand, form_cutthroat_sides
from .going_out import hand_emptied
from .opening import opening_reachable

_new_tuple: Final = tuple.__new__  # a Turn built directly (NamedTuple's _replace is Python code, slow when compiled)


def take_blocked(state: State) -> str | None:
    """Why nobody may take the pile now, or None."""
    pile = state.pile
    if not pile:
        return "PILE_EMPTY"
    top = pile[-1]
    if is_wild(top):
        return "PILE_TOP_WILD"
    if top in BLACK_THREES:
        return "PILE_TOP_BLACK_THREE"
    if top in RED_THREES:
        return "PILE_TOP_RED_THREE"
    return None


def pile_split(rules: Rules, pile: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the cards a taker gets, top card last; the cards left as the pile) under pile_take_limit."""
    limit = rules.pile_take_limit
    if limit and len(pile) > limit:
        return pile[-limit:], pile[:-limit]
    return pile, ()


def pile_incoming(rules: Rules, pile: tuple[int, ...]) -> int:
    """How many cards taking the pile puts into the hand (the top card is melded; red threes, and
    black threes under pile_black_threes="bonus", are laid out instead)."""
    taken = pile_split(rules, pile)[0][:-1]
    reds = laid_out_threes(rules)
    aside = reds if rules.pile_black_threes == "hand" else (*reds, *BLACK_THREES)
    return sum(1 for c in taken if c not in aside)


def freezes(rules: Rules, card: int) -> bool:
    return is_wild(card) or card in RED_THREES or (rules.black_three_freezes and card in BLACK_THREES)


def draw_from_stock(state: State, history: Log) -> State:
    r = state.rules
    p = state.turn_seat
    f = flags(r)
    laid = f.laid
    deck = state.stock
    n = r.draw_count
    top = len(deck) - n
    if not f.keeps_a_three and top >= 0 and not _laid_out_in(deck, top, laid):
        # The common draw (one card, or Hand and Foot's two) with no three to lay out: the loop below, without
        # its copies of the whole stock and of the red threes.
        hand = list(state.hands[p])
        counts = known_counts(state)
        if counts is not None:  # the drawer's rank counts, passed on (the same seat's turn)
            counts = list(counts)
        for i in range(top, len(deck)):
            c = deck[i]
            hand[c] = hand[c] + 1
            if counts is not None:
                x = COUNT_RANK[c]
                counts[x] = counts[x] + 1
        hands = list(state.hands)
        hands[p] = tuple(hand)
        t = state.turn
        if t is NEW_TURN:
            turn = DRAWN_TURN
        else:  # Turn._replace(source="stock", no_discard=False)
            turn = _new_tuple(Turn, ("stock", t.permission, t.melded, t.new_ranks, t.touched_old, False,
                                     t.must_go_out, t.withdrew, t.opened_now))
        return state.moved(tuple(hands), deck[:top], state.pile, state.pile_frozen, state.melds,
                           state.has_melded, p, state.to_move, PLAY_PHASE, turn, state.stage, history, counts,
                           state.seat_counts)
    stock = list(state.stock)
    hand = list(state.hands[p])
    owner = red_three_slot(state, p)
    reds = list(state.red_threes[owner])
    no_discard = False
    ended = False
    keeping = r.keeps_a_three and not state.opened[state.seat_sides[p]]
    if r.keeps_a_three and not keeping and any(hand[k] for k in laid):  # the side has opened: out it goes
        stock, hand, reds, history = lay_out_kept_three(p, stock, hand, reds, history, laid)
    # The drawer's rank counts are passed on with the cards that join the hand (Hand and Foot draws two), except
    # where a three may be kept or laid out from the hand (Modern American): there they are counted when asked.
    known = None if r.keeps_a_three else known_counts(state)
    added: list[int] = []
    for _ in range(r.draw_count):
        if not stock:
            break
        c = stock.pop()
        # A three is laid out and replaced, unless kept for a Straight: then it is simply the card drawn.
        while c in laid and not (keeping and stock and not any(hand[k] for k in laid)):
            if not stock and r.last_card_red_three == "end_in_hand":
                hand[c] = hand[c] + 1  # the last card is a three: play stops, it stays in hand (GC-E04)
                ended = True
                break
            reds.append(c)
            history = log_add(history, p, f"{'red-three' if c in RED_THREES else 'three'} {card_str(c)}")
            if not stock:
                # The last stock card was a red three (docs/sources.md §3.8, D8).
                if r.last_card_red_three == "end_no_meld":
                    ended = True
                elif r.last_card_red_three == "meld_no_discard":
                    no_discard = True
                break
            c = stock.pop()
        else:
            hand[c] = hand[c] + 1
            added.append(c)
            continue
        break
    red_threes = list(state.red_threes)
    red_threes[owner] = tuple(reds)
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.replace(stock=tuple(stock), hands=tuple(hands), red_threes=tuple(red_threes), phase=PLAY_PHASE,
                        turn=turn_with(state.turn, source="stock", no_discard=no_discard), log=history)
    if ended:
        return end_hand(new, None)
    if known is not None:
        counts = list(known)
        for c in added:
            x = COUNT_RANK[c]
            counts[x] = counts[x] + 1
        new.cache_counts(counts)
    return new


def _laid_out(card: int, laid: tuple[int, ...]) -> bool:
    """Is ``card`` one of the threes ``laid`` out when drawn? (A native loop when compiled: ``in`` on a tuple
    is a generic call.)"""
    for k in laid:  # noqa: SIM110
        if k == card:
            return True
    return False


def _laid_out_in(deck: tuple[int, ...], top: int, laid: tuple[int, ...]) -> bool:
    """Is one of the cards from ``deck[top]`` up one of the threes ``laid`` out when drawn?"""
    for i in range(top, len(deck)):  # noqa: SIM110
        if _laid_out(deck[i], laid):
            return True
    return False


def lay_out_kept_three(p: int, stock: list[int], hand: list[int], reds: list[int], history: Log,
                       laid: tuple[int, ...]) -> tuple[list[int], list[int], list[int], Log]:
    """The three a player kept for a Straight is laid out and replaced (by ``layout``, or at his draw once
    his side has opened); a three drawn as the replacement is laid out too (Modern American, pagat)."""
    k = next(k for k in laid if hand[k])
    while True:
        hand[k] = hand[k] - 1
        reds.append(k)
        history = log_add(history, p, f"{'red-three' if k in RED_THREES else 'three'} {card_str(k)}")
        if not stock:
            return stock, hand, reds, history
        c = stock.pop()
        hand[c] = hand[c] + 1
        if c not in laid:
            return stock, hand, reds, history
        k = c


def concealed_take_waived(rules: Rules) -> bool:
    """D2 (b): a concealed going-out needs no minimum even when the player took the pile."""
    return rules.concealed_waives_minimum == "always" and rules.concealed_allows_pile


def red_three_slot(state: State, seat: int) -> int:
    """Where a seat's red threes are kept: with its side, but with the player himself in Cutthroat."""
    return seat if state.rules.cutthroat else state.seat_sides[seat]


def take_pile(state: State, m: Move, history: Log, concealed_out: bool = False) -> State:
    """Take the pile. An unopened side's pile stays pending (see the module docstring), unless the
    minimum is out of reach and the player takes it to go out concealed at once (``concealed_out``)."""
    state = form_cutthroat_sides(state, state.turn_seat)
    r = state.rules
    p = state.turn_seat
    side = state.seat_sides[p]
    hand = list(state.hands[p])
    cards = [state.pile[-1], *move_cards(hand, m)]
    melds = dict(state.melds[side])
    old = melds.get(m.rank)
    melds[m.rank] = tuple(sorted((*old, *cards))) if old else tuple(sorted(cards))
    taken, left = pile_split(r, state.pile)
    laid = laid_out_threes(r)
    bonus_blacks = r.pile_black_threes == "bonus"
    # The cards under the top, sorted out in one pass (native loops when compiled: ``in`` on a tuple is generic):
    # threes laid out, black threes laid aside as a bonus, and the rest, which joins the hand.
    reds: list[int] = []
    blacks: list[int] = []
    kept: list[int] = []
    for i in range(len(taken) - 1):
        c = taken[i]
        if _laid_out(c, laid):
            reds.append(c)
        elif bonus_blacks and _laid_out(c, BLACK_THREES):
            blacks.append(c)
        else:
            kept.append(c)
    rest = tuple(kept)
    red_threes = list(state.red_threes)
    owner = red_three_slot(state, p)
    if reds:
        red_threes[owner] = (*red_threes[owner], *reds)
    black_threes = list(state.black_threes)
    if blacks:
        black_threes[side] = (*black_threes[side], *blacks)
    turn = turn_with(state.turn, source="pile", new_ranks=() if old else (m.rank,), touched_old=old is not None)
    all_melds = list(state.melds)
    all_melds[side] = melds
    opened = state.opened[side]
    if opened:  # the rest joins the hand at once (``pick_up``, without a second state)
        for c in rest:
            hand[c] = hand[c] + 1
    hands = list(state.hands)
    hands[p] = tuple(hand)
    frozen = False
    for c in left:
        if freezes(r, c):
            frozen = True
            break
    new = state.replace(hands=tuple(hands), melds=tuple(all_melds), red_threes=tuple(red_threes),
                        black_threes=tuple(black_threes), pile=left, pile_hidden=min(state.pile_hidden, len(left)),
                        pile_frozen=frozen, phase=PLAY_PHASE, turn=turn, log=history)
    if opened:
        if not rest and not has_cards(hand):
            return hand_emptied(new, p)
        counts = known_counts(state)
        if counts is not None:  # the taker's rank counts, passed on: less the cards melded, plus the rest
            counts = list(counts)
            for i in range(1, len(cards)):  # cards[0] is the top card, not from the hand
                x = COUNT_RANK[cards[i]]
                counts[x] = counts[x] - 1
            for c in rest:
                x = COUNT_RANK[c]
                counts[x] = counts[x] + 1
            new.cache_counts(counts)
        return new
    base = 0
    for c in cards[0 if r.top_card_counts else 1:]:  # cards[0] is the top card (a loop: see ``turn.play_meld``)
        base = base + VALUE[c]
    if not concealed_out and concealed_take_waived(r):
        need = minimum_to_meet(state)
        rc = rank_counts(tuple(hand))
        nw = {} if is_sequence_key(m.rank) else {key_rank(m.rank): meld_counts(melds[m.rank])}
        concealed_out = not opening_reachable(r, rc, nw, need - base,
                                               max(0, 2 - len(rest)))
    if concealed_out:
        picked = pick_up(new, rest)
        turn = turn_with(turn, must_go_out=True)
        stage = new_stage(picked.hands[p], melds, turn, base, base, None)
        return picked.replace(stage=stage, turn=turn)
    stage = new_stage(tuple(hand), melds, turn, base, base, rest)
    return maybe_pick_up(new.replace(stage=stage))


def pick_up(state: State, cards: tuple[int, ...]) -> State:
    """The rest of the pile joins the hand; a hand left empty has gone out."""
    p = state.turn_seat
    hand = list(state.hands[p])
    for c in cards:
        hand[c] = hand[c] + 1
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.replace(hands=tuple(hands))
    if not cards and not has_cards(hand):
        return hand_emptied(new, p)
    return new


def maybe_pick_up(state: State) -> State:
    stage = state.stage
    assert stage is not None and stage.pending is not None
    side = state.seat_sides[state.turn_seat]
    if stage.points < minimum_to_meet(state):
        return state
    opened = list(state.opened)
    opened[side] = True
    turn = turn_with(state.turn, opened_now=True)
    return pick_up(state.replace(stage=None, opened=tuple(opened), turn=turn), stage.pending)
