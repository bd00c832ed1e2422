"""Why a rummy move is illegal: a stable upper-case code and a message a player understands
(docs/reason-codes.md, "The rummy family"). Called only for moves that ``legal_moves`` does not list."""

from __future__ import annotations

from ..canasta.cards import JOKER, card_str
from .generate import dealers_joker_blocked, meld_value, opened, rum_moves, strands, take_uses
from .melds import labels, lay_off_end, meld_kind
from .moves import DEALER_JOKER, RummyMove
from .state import CLAIM, DRAW, NOMINATE, OVER, RummyState


def diagnose(s: RummyState, move: RummyMove) -> tuple[str, str]:
    r = s.rules
    seat = s.turn_seat
    hand = s.hands[seat]
    a = move.action
    if s.phase == OVER:
        return "GAME_OVER", "the game is over"
    if s.phase == NOMINATE and a != "nominate":
        return "NOMINATE_FIRST", (f"the dealer (seat {s.dealer}) first nominates the jokers' effect for the hand: "
                                  "nominate wild, nominate double or nominate split")
    if a == "nominate":
        return "NO_NOMINATION", ("the dealer nominates the jokers' effect once, right after the deal" if
                                 r.dealers_joker else "only Dealer's Gambit nominates the jokers' effect")
    if a in (DEALER_JOKER, "block"):
        problem = _dealers_joker_problem(s, move)
        if problem is not None:
            return problem
    if a == "split":
        problem = _split_problem(s, move)
        if problem is not None:
            return problem
    if s.phase == CLAIM and not ((a == "meld" and r.melds_between_turns) or (a == "lay" and r.lay_offs_between_turns)):
        if a != "rum":
            return "CLAIM_PENDING", claim_message(s)
        if move.cards and move.cards[0] != s.pile[-1]:
            return "RUM_ON_DISCARD_ONLY", f"'Rum' claims the discard, {card_str(s.pile[-1])}"
        return _lay_problem(s, move, s.turn_seat) or ("NOT_ALLOWED_NOW", f"{move} is not allowed now")
    if a == "rum":
        return "NO_RUM_CALL", ("'Rum' is called only right after a discard that fits a meld on the table"
                               + ("" if r.call_rum else " (and only with call_rum)"))
    if s.phase == DRAW:
        if a == "draw" and not s.stock:
            return "STOCK_EMPTY", "the stock is empty: take from the pile" + (
                " or pass" if r.empty_stock == "play_from_pile" else "")
        if a == "take":
            card = move.cards[0] if move.cards else -1
            if card not in s.pile:
                return "NOT_IN_PILE", f"{card_str(card) if card >= 0 else 'that card'} is not in the discard pile"
            if r.pile_take == "top" and s.pile[-1] != card:
                return "TOP_CARD_ONLY", f"only the top card of the pile ({card_str(s.pile[-1])}) may be taken"
            i = len(s.pile) - 1 - s.pile[::-1].index(card)
            with_pile = tuple(sorted(hand + s.pile[i:]))
            if not take_uses(s, with_pile, card):
                if r.take_only_for_new_meld and not s.rules.first_meld and any(
                        lay_off_end(r, m, card) for m in s.melds):
                    return "NEW_MELD_ONLY", (f"{card_str(card)} could only be laid off: a card from the pile must "
                                             "go into a new meld here (no picking up to hit)")
                return "TAKEN_CARD_UNUSABLE", (f"{card_str(card)} must be melded or laid off at once, and it fits no "
                                               "meld with your cards and the cards above it")
        if a == "pass":
            return "PASS_NOT_ALLOWED", ("'pass' ends the hand only when the stock is empty and the rules play on "
                                        "from the pile")
        if a in ("meld", "lay", "discard"):
            return "MUST_DRAW_FIRST", "draw from the stock or take from the pile first"
        return "NOT_ALLOWED_NOW", f"{move} is not allowed now"
    # the play phase
    if a in ("draw", "take"):
        return "ALREADY_DREW", "you have drawn this turn: meld, lay off or discard"
    if a == "pass":
        return "PASS_NOT_ALLOWED", "'pass' is only for the draw when the stock is empty"
    missing = [c for c in set(move.cards) if move.cards.count(c) > hand.count(c)]
    if missing:
        return "NOT_IN_HAND", f"you do not hold {' '.join(card_str(c) for c in sorted(missing))}"
    if s.must_use >= 0 and s.must_use not in move.cards:
        return "MUST_USE_TAKEN_CARD", f"meld or lay off {card_str(s.must_use)}, the card you chose from the pile, first"
    if a == "meld":
        if meld_kind(r, move.cards) is None:
            return "NOT_A_MELD", (f"{' '.join(card_str(c) for c in move.cards)} is neither a set of 3-4 of a rank "
                                  f"nor a run of 3 or more of one suit (aces: {r.ace})"
                                  + ("; a meld with jokers holds at least two natural cards, which make it a set "
                                     "or a run" if r.wild_jokers and JOKER in move.cards else ""))
        if not opened(s, seat) and meld_value(r, move.cards, seat) < r.first_meld:
            return "FIRST_MELD_TOO_LOW", (f"your first meld must be worth at least {r.first_meld}; this one is "
                                          f"worth {meld_value(r, move.cards, seat)}")
    if a == "lay":
        if not opened(s, seat):
            return "NOT_OPENED", f"lay off only after your first meld (worth {r.first_meld} or more)"
        problem = _lay_problem(s, move, seat)
        if problem is not None:
            return problem
        if s.must_use >= 0 and r.take_only_for_new_meld:
            return "NEW_MELD_ONLY", "the card from the pile must go into a new meld (no picking up to hit)"
    if a in ("meld", "lay") and r.go_out_needs_discard and len(move.cards) >= len(hand):
        return "MUST_KEEP_DISCARD", "you go out only by discarding: keep a card to discard"
    if a in ("meld", "lay") and s.taken and not r.discard_taken_same_turn and strands(s, move):
        return "TAKEN_CARD_LEFT", ("that would leave you only the card you took from the pile, which you may not "
                                   "discard in the same turn and could not meld or lay off")
    if a == "discard":
        if s.must_use >= 0:
            return "MUST_USE_TAKEN_CARD", f"meld or lay off {card_str(s.must_use)} first"
        if move.cards[0] in s.taken and not r.discard_taken_same_turn:
            return "CANNOT_DISCARD_TAKEN", "a card taken from the pile may not be discarded in the same turn"
    return "NOT_ALLOWED_NOW", f"{move} is not allowed now"


def _dealers_joker_problem(s: RummyState, move: RummyMove) -> tuple[str, str] | None:
    """Why the dealer may not take his joker, or another player may not block it, now."""
    r, seat = s.rules, s.turn_seat
    if not s.aside:
        return "NO_DEALERS_JOKER", ("there is no dealer's joker (" + (
            "it has been taken)" if r.dealers_joker else "only Dealer's Gambit lays one aside)"))
    if dealers_joker_blocked(s):
        return "DEALERS_JOKER_BLOCKED", ("the dealer's joker is blocked (a joker lies face down over it): nobody "
                                         "uses it this hand")
    if move.action == DEALER_JOKER and seat != s.dealer:
        return "NOT_THE_DEALER", f"only the dealer (seat {s.dealer}) may take the dealer's joker"
    if move.action == "block":
        if seat == s.dealer:
            return "DEALER_CANNOT_BLOCK", "the dealer's joker is yours: take it ('take dealer JK') instead"
        if JOKER not in s.hands[seat]:
            return "NO_JOKER_TO_BLOCK", "the dealer's joker is blocked with a joker from your hand: you hold none"
        if len(s.hands[seat]) < 2:
            return "MUST_KEEP_A_CARD", "blocking would leave you no card: keep one to play"
    return None


def _split_problem(s: RummyState, move: RummyMove) -> tuple[str, str] | None:
    """Why this split of the pile (Dealer's Gambit, "Split") is not allowed."""
    r = s.rules
    if not r.splitting_jokers:
        return "NOT_A_SPLIT_HAND", ("a joker splits the pile only in Dealer's Gambit when the dealer nominated "
                                    "'split'" + (f" (this hand: {r.joker_effect})" if r.joker_effect else ""))
    if s.phase != DRAW:
        return "ALREADY_DREW", "a split takes the place of your draw: you have drawn this turn"
    if JOKER not in s.hands[s.turn_seat]:
        return "NO_JOKER_TO_SPLIT", "a split needs a joker from your hand"
    card = move.cards[0]
    if card not in s.pile:
        return "NOT_IN_PILE", f"{card_str(card)} is not in the discard pile"
    i = len(s.pile) - 1 - s.pile[::-1].index(card)
    if len(move.cards) > 1 and move.cards[1] not in s.pile[i + 1:]:
        return "SPLIT_END_NOT_ABOVE", (f"the split runs from above {card_str(card)} to a card higher in the pile; "
                                       f"{card_str(move.cards[1])} is not above it")
    if i == len(s.pile) - 1:
        return "NOTHING_TO_SPLIT", f"{card_str(card)} is the top card: take it, there is nothing above it to split off"
    return "TAKEN_CARD_UNUSABLE", (f"{card_str(card)} must be melded or laid off at once, and it fits no meld with "
                                   "your cards and the cards that come with it")


def claim_message(s: RummyState) -> str:
    """What the player asked in a claim window may do, and why he is asked."""
    r = s.rules
    top = s.pile[-1]
    fits = any(lay_off_end(r, m, top) for m in s.melds)
    choices = (["call 'rum'"] * bool(rum_moves(s, s.turn_seat)) + ["meld"] * r.melds_between_turns
               + ["lay off"] * r.lay_offs_between_turns + ["'pass'"])
    return (f"seat {s.claim_from} discarded {card_str(top)}" + (", which fits a meld" if fits else "")
            + f": {', '.join(choices[:-1])} or {choices[-1]} first")


def _lay_problem(s: RummyState, move: RummyMove, seat: int) -> tuple[str, str] | None:
    """Why ``move``'s card cannot go on the meld it names (a lay-off or a "Rum" call), None if it can."""
    r = s.rules
    if not opened(s, seat) and move.action == "rum":
        return "NOT_OPENED", f"call 'Rum' only after your first meld (worth {r.first_meld} or more)"
    target = next((m for m, n in zip(s.melds, labels(s.melds), strict=True) if n == move.on), None)
    if target is None:
        return "NO_SUCH_MELD", f"there is no meld {move.on!r} on the table"
    if r.lay_off_on == "own_side" and r.side_of(target.seats[0]) != r.side_of(seat):
        return "NOT_YOUR_SIDES_MELD", "lay off only on your side's melds"
    if not lay_off_end(r, target, move.cards[0]):
        return "DOES_NOT_FIT", f"{card_str(move.cards[0])} does not fit {move.on}"
    return None
