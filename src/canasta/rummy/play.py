"""Rummy transitions: a legal move applied to a state (no legality check here: ``api.apply`` does that),
the end of a turn (the empty stock's rules) and the end of a hand (scoring, the next deal or the result)."""

from __future__ import annotations

from typing import Any

from ..canasta.cards import JOKER, card_str
from .deal import shuffled_deck, start_hand
from .generate import next_claimant
from .melds import labels, lay_off, meld_kind, new_meld, table_after
from .moves import DEALER_JOKER, RummyMove
from .scoring import game_result, hand_lines, masters_lines
from .stalemate import nobody_can_finish
from .state import CLAIM, DRAW, OVER, PLAY, RummyState


def _without(cards: tuple[int, ...], gone: tuple[int, ...]) -> tuple[int, ...]:
    out = list(cards)
    for c in gone:
        out.remove(c)
    return tuple(out)


def apply_move(s: RummyState, move: RummyMove) -> RummyState:
    seat = s.turn_seat
    entry = f"{seat} {move}"
    history = (*s.history, entry)
    hands = list(s.hands)
    if move.action == "draw":
        k = min(s.rules.draw_count, len(s.stock))
        drawn = s.stock[len(s.stock) - k:]
        hands[seat] = tuple(sorted(hands[seat] + drawn))
        return s.replace(hands=tuple(hands), stock=s.stock[:len(s.stock) - k], phase=PLAY, taken=(), must_use=-1,
                         history=history)
    if move.action == DEALER_JOKER:  # the dealer's joker: into his hand, his turn goes on
        hands[seat] = tuple(sorted((*hands[seat], *move.cards)))
        return s.replace(hands=tuple(hands), aside=(), history=history)
    if move.action == "nominate":  # the jokers' effect for the hand; then the dealer's left plays first
        return s.replace(rules=s.rules.for_hand(move.on), phase=DRAW, turn_seat=(s.dealer + 1) % s.rules.players,
                         history=history)
    if move.action == "block":  # a joker face down over the dealer's: neither is played this hand
        hands[seat] = _without(hands[seat], move.cards)
        return s.replace(hands=tuple(hands), aside=(*s.aside, *move.cards), history=history)
    if move.action == "split":
        return _split(s.replace(history=history), move)
    if move.action == "take":
        card = move.cards[0]
        i = len(s.pile) - 1 - s.pile[::-1].index(card)  # the topmost copy
        taken = s.pile[i:]
        hands[seat] = tuple(sorted(hands[seat] + taken))
        must = card if s.rules.taken_card == "at_once" else -1
        return s.replace(hands=tuple(hands), pile=s.pile[:i], phase=PLAY, taken=taken, must_use=must,
                         history=history)
    if s.phase == CLAIM:
        return _answer_claim(s.replace(history=history), move)
    if move.action == "pass":
        return end_hand(s.replace(history=history), None)
    if move.action == "meld":
        kind = meld_kind(s.rules, move.cards)
        assert kind is not None
        hands[seat] = _without(hands[seat], move.cards)
        melds = (*s.melds, new_meld(s.rules, kind[0], kind[1], kind[2], seat))
        after = s.replace(hands=tuple(hands), melds=melds, turn_melded=True, history=history,
                          must_use=-1 if s.must_use in move.cards else s.must_use)
        return end_hand(after, seat) if not hands[seat] else after
    if move.action == "lay":
        card = move.cards[0]
        index = labels(s.melds).index(move.on)
        laid = list(s.melds)
        laid[index] = lay_off(s.rules, laid[index], card, seat)
        hands[seat] = _without(hands[seat], (card,))
        after = s.replace(hands=tuple(hands), melds=tuple(laid), turn_melded=True, history=history,
                          must_use=-1 if s.must_use == card else s.must_use)
        return end_hand(after, seat) if not hands[seat] else after
    if move.action == "discard":
        card = move.cards[0]
        hands[seat] = _without(hands[seat], (card,))
        after = s.replace(hands=tuple(hands), pile=(*s.pile, card), history=history)
        if not hands[seat]:
            return end_hand(after, seat, masters=bool(s.rules.masters_hand) and straight_just_laid(s))
        return end_turn(after)
    raise ValueError(f"unknown rummy move {move!r}")


def _split(s: RummyState, move: RummyMove) -> RummyState:
    """A joker splits the pile: the chosen card and the cards above the split's end come into the hand, the
    cards between them leave the game with the joker (``generate.split_moves``)."""
    seat = s.turn_seat
    card = move.cards[0]
    i = len(s.pile) - 1 - s.pile[::-1].index(card)  # the topmost copy
    j = len(s.pile) - 1 if len(move.cards) == 1 else len(s.pile) - 1 - s.pile[::-1].index(move.cards[1])
    taken = (card, *s.pile[j + 1:])
    hands = list(s.hands)
    hands[seat] = tuple(sorted((*_without(hands[seat], (JOKER,)), *taken)))
    must = card if s.rules.taken_card == "at_once" else -1
    return s.replace(hands=tuple(hands), pile=s.pile[:i], removed=(*s.removed, JOKER, *s.pile[i + 1:j + 1]),
                     phase=PLAY, taken=taken, must_use=must)


def straight_just_laid(s: RummyState) -> bool:
    """The Rummy Master's Hand: did the player to move just lay down a straight of seven cards (his move before
    this one, in this turn)? "If a player lays down a 7-card straight and then discards his last card" [S2]."""
    seat = s.turn_seat
    if not s.history or not s.history[-1].startswith(f"{seat} meld ") or not s.melds:
        return False
    meld = s.melds[-1]  # a meld is added at the end of the table; nothing was laid off since
    return meld.kind == "run" and len(meld.cards) >= 7 and set(meld.seats) == {seat}


def end_turn(s: RummyState) -> RummyState:
    """After a discard: the claim window when someone may call "Rum" on it, else the next player's turn."""
    if s.rules.call_rum:
        melded = list(s.melded)
        melded[s.turn_seat] = melded[s.turn_seat] or s.turn_melded
        closed = s.replace(melded=tuple(melded), turn_melded=False, taken=(), must_use=-1)
        claimant = next_claimant(closed, s.turn_seat, s.turn_seat)
        if claimant is not None:
            return closed.replace(phase=CLAIM, claim_from=s.turn_seat, turn_seat=claimant)
    return next_turn(s)


def _answer_claim(s: RummyState, move: RummyMove) -> RummyState:
    """'rum': the claimant lays the discard off (credited to him); 'pass': the next who could is asked."""
    seat, discarder = s.turn_seat, s.claim_from
    if move.action in ("meld", "lay"):  # out of turn (melds/lay_offs_between_turns): he may play again, call or pass
        hands = list(s.hands)
        hands[seat] = _without(hands[seat], move.cards)
        melded = list(s.melded)
        melded[seat] = True
        melds = table_after(s.rules, s.melds, seat, move.cards, move.on if move.action == "lay" else "")
        s = s.replace(hands=tuple(hands), melds=melds, melded=tuple(melded))
        return end_hand(s, seat) if not hands[seat] else s
    if move.action == "rum":
        index = labels(s.melds).index(move.on)
        laid = list(s.melds)
        laid[index] = lay_off(s.rules, laid[index], move.cards[0], seat)
        melded = list(s.melded)
        melded[seat] = True
        s = s.replace(melds=tuple(laid), pile=s.pile[:-1], melded=tuple(melded))
    else:
        claimant = next_claimant(s, seat, discarder)
        if claimant is not None:
            return s.replace(turn_seat=claimant)
    return next_turn(s.replace(turn_seat=discarder, phase=PLAY, claim_from=-1))


def next_turn(s: RummyState) -> RummyState:
    """The next player's turn, with the empty stock's rules applied before he draws."""
    melded = list(s.melded)
    melded[s.turn_seat] = melded[s.turn_seat] or s.turn_melded
    s = s.replace(turn_seat=(s.turn_seat + 1) % s.rules.players, phase=DRAW, taken=(), must_use=-1,
                  turn_melded=False, melded=tuple(melded))
    if s.rules.stalemate_when_stuck and nobody_can_finish(s):
        return end_hand(s.replace(history=(*s.history, f"{s.turn_seat} stuck")), None, stalemate="stuck")
    if s.stock:
        return s
    mode = s.rules.empty_stock
    if mode == "end":
        return end_hand(s.replace(history=(*s.history, f"{s.turn_seat} stock-empty")), None)
    if mode == "reshuffle_once":
        if s.reshuffles or not s.pile:
            return end_hand(s.replace(history=(*s.history, f"{s.turn_seat} stalemate")), None, stalemate="stock")
        # The discard pile is turned face down as the new stock: its first discard comes up first.
        return s.replace(stock=s.pile[::-1], pile=(), reshuffles=1,
                         history=(*s.history, f"{s.turn_seat} reshuffle"))
    return s  # play_from_pile: he may take from the pile or pass


def end_hand(s: RummyState, went_out: int | None, stalemate: str = "", masters: bool = False) -> RummyState:
    """Score the hand and deal the next one or end the game. ``stalemate``: why the hand is one ("stock": the
    stock ran out a second time; "stuck": nobody can finish), "" if it is not."""
    r = s.rules
    rummy = went_out is not None and not s.melded[went_out] and not masters
    table = [0] * r.players
    for m in s.melds:
        for seat, pts in zip(m.seats, m.points, strict=True):
            table[seat] += pts
    if masters and went_out is not None:
        lines = masters_lines(r, r.side_of(went_out))
    else:
        lines = hand_lines(r, table, s.hands, went_out, rummy, bool(stalemate))
    totals = [sum(ln.values()) for ln in lines]
    scores = tuple(a + b for a, b in zip(s.scores, totals, strict=True))
    summary: dict[str, Any] = {"hand": s.hand_number, "went_out": went_out, "rummy": rummy and r.going_rummy_double,
               "stalemate": bool(stalemate),
               "sides": [{"lines": ln, "total": t} for ln, t in zip(lines, totals, strict=True)],
               "hands": [[card_str(c) for c in h] for h in s.hands], "scores": list(scores)}
    if masters:
        summary["masters_hand"] = True
    if stalemate:
        summary["stalemate_reason"] = stalemate
    result = game_result(r, scores, s.hand_number, went_out)
    if stalemate and r.stalemate_ends_game:  # "the game is considered a loss for all of them" [S1-rummy]
        result = {"scores": list(scores), "winner": None, "hands": s.hand_number, "by": "stalemate",
                  "stalemate": True}
    if result is not None:
        return s.replace(scores=scores, phase=OVER, last_hand=summary, result=result, must_use=-1)
    dealer = (s.dealer + 1) % r.players
    nxt = start_hand(r, s.seed, s.hand_number + 1, dealer, scores, summary,
                     shuffled_deck(r, s.seed, s.hand_number + 1))
    return nxt


__all__ = ["DRAW", "PLAY", "apply_move", "end_hand", "next_turn"]
