"""Why a move is illegal: a stable code and a message a player understands.

Only called for moves that ``legal_moves`` does not list; the checks follow RULES.md §3 in the order
a player would think of them. Every code is documented in docs/reason-codes.md.
"""

from __future__ import annotations

from .cards import JOKER_RANK, THREE, TWO, a_rank, rank_str
from .engine import RV, _out_ok, _take_blocked, canasta_count, meld_counts, minimum_needed, pile_frozen_for, rank_counts
from .engine import can_go_out as _can_go_out
from .moves import ACTIONS, Move
from .state import ANSWER_PHASE, DRAW_PHASE, GAME_OVER, State


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _held(rc: list[int], m: Move) -> tuple[str, str] | None:
    for rank, want in ((m.rank, m.naturals), (TWO, m.twos), (JOKER_RANK, m.jokers)):
        if want and rank >= 0 and rc[rank] < want:
            name = "joker" if rank == JOKER_RANK else f"{rank_str(rank)}"
            return "CARDS_NOT_IN_HAND", f"you hold {_plural(rc[rank], name)}, the move needs {want}"
    return None


def diagnose(state: State, m: Move) -> tuple[str, str]:
    r = state.rules
    if state.phase == GAME_OVER:
        return "GAME_OVER", "the game is over"
    if m.action not in ACTIONS:
        return "UNKNOWN_MOVE", f"{m.action!r} is not a move"
    shape = _shape_problem(m)
    if shape:
        return "MALFORMED_MOVE", shape
    if state.phase == ANSWER_PHASE:
        return "MUST_ANSWER", "your partner asked 'may I go out?': answer yes or no"
    if m.action in ("yes", "no"):
        return "NO_QUESTION", "nobody has asked permission to go out"
    p = state.turn_seat
    side = state.side_of(p)
    rc = rank_counts(state.hands[p])
    hsize = sum(rc)
    melds = state.melds[side]
    acaba = _diagnose_acaba(state, m)
    if acaba:
        return acaba
    if state.phase == DRAW_PHASE:
        if m.action in ("meld", "discard", "withdraw", "ask"):
            return "MUST_DRAW_FIRST", "draw from the stock or take the pile first"
        if m.action == "draw":
            return "STOCK_EMPTY", "the stock is empty: take the discard if you can, or pass"
        if m.action == "pass":
            if state.stock:
                return "CANNOT_PASS", "you may pass only when the stock is empty"
            return "MUST_TAKE_PILE", ("the stock is empty and the discard fits your side's meld in an "
                                      "unfrozen pile: you must take it")
        return _diagnose_take(state, m, rc, hsize)
    # play phase
    stage = state.stage
    pending = stage is not None and stage.pending is not None
    need = minimum_needed(state, side, state.turn_seat)
    pts = stage.points if stage is not None else 0
    if m.action in ("draw", "take"):
        return "ALREADY_DREW", "you have already drawn this turn: meld or discard"
    if state.turn.permission == "yes" and m.action in ("withdraw", "discard") and hsize > 1 and _can_go_out(state):
        return "MUST_GO_OUT", "your partner said yes: you must go out this turn, and this move would not"
    if m.action == "withdraw":
        if state.turn.withdrew and stage is not None:
            return "ALREADY_WITHDREW", "you may withdraw staged melds once a turn: complete the opening or discard"
        return "NOTHING_TO_WITHDRAW", "only melds staged this turn by a side that has not opened can be withdrawn"
    if m.action == "ask":
        if r.permission == "none" or not r.partnerships:
            return "NO_PERMISSION_RULE", "these rules have no asking permission to go out"
        if state.turn.permission is not None:
            return "ALREADY_ASKED", "you have already asked this turn"
        if hsize < 2:
            return "ASK_WITH_ONE_CARD", "with one card left you can only go out: there is nothing to ask"
        return "ASK_BEFORE_MELDING", "ask permission after drawing and before melding anything"
    if pending and m.action in ("discard", "pass"):
        return "MUST_COMPLETE_OPENING", (f"you took the pile before opening: meld from your hand until your "
                                         f"melds count {need} (now {pts}), or withdraw them and try again")
    if m.action == "pass":
        return "CANNOT_PASS", "you cannot pass now: discard to end your turn"
    if m.action == "discard":
        if m.rank < 0 or m.rank > 14 or m.rank == 1 or rc[m.rank] == 0:
            return "CARDS_NOT_IN_HAND", f"you hold no {rank_str(m.rank) if 0 <= m.rank <= 14 else '?'}"
        if state.turn.no_discard:
            return "NO_DISCARD_NOW", "the last stock card was a red three: meld if you like, then pass"
        if stage is not None and pts < need and hsize > 1:
            return "BELOW_MINIMUM", (f"your melds this turn count {pts}; your side needs {need} to open: "
                                     f"meld more or withdraw")
        if hsize == 1:
            why = _out_ok(state, canasta_count(melds), pts)
            return _going_out_message(why or "NOT_ALLOWED_NOW", r.canastas_to_go_out, need, pts)
        if m.rank == JOKER_RANK and not r.jokers_discardable:
            return "JOKER_DISCARD_NOT_ALLOWED", "jokers may not be discarded while you hold another card"
        if m.rank == THREE and not r.black_three_first_round_discard:
            return "BLACK_THREE_FIRST_ROUND", "black threes may not be discarded in the first round"
        if state.turn.permission == "yes":
            return "MUST_GO_OUT", "your partner said yes: you must go out this turn"
        return "NOT_ALLOWED_NOW", f"{m} is not allowed now"
    return _diagnose_meld(state, m, rc, hsize, need, pts)


def _shape_problem(m: Move) -> str | None:
    """A Move object no notation could produce (moves built in code)."""
    counts = (m.naturals, m.twos, m.jokers)
    if any(c < 0 for c in counts):
        return "card counts cannot be negative"
    if m.action == "discard":
        return None if counts == (0, 0, 0) else "a discard names one rank and no card counts"
    if m.action in ("take", "meld"):
        return None if 0 <= m.rank <= 14 else f"no rank code {m.rank}"
    return None if (m.rank, *counts) == (-1, 0, 0, 0) else f"{m.action!r} takes no rank or cards"


def _diagnose_acaba(state: State, m: Move) -> tuple[str, str] | None:
    r = state.rules
    answer = state.turn.permission
    if answer == "acaba-yes" and m.action != "acaba":
        return "MUST_CALL_ACABA", "your partner agreed: you must call Acaba now"
    if m.action not in ("acaba", "ask-acaba"):
        return None
    if not r.acaba:
        return "NO_ACABA_RULE", "these rules have no Acaba (try the british variant or the acaba option)"
    if state.stage is not None and state.stage.pending is not None:
        return "MUST_COMPLETE_OPENING", "finish the opening you started by taking the pile first"
    if m.action == "ask-acaba":
        if not r.partnerships:
            return "NO_PERMISSION_RULE", "there is no partner to ask"
        return "ALREADY_ASKED", "you have already asked this turn"
    return "ACABA_REFUSED", "your partner said no: you may not call Acaba this turn"


def _going_out_message(code: str, canastas: int, need: int, pts: int) -> tuple[str, str]:
    messages = {
        "NEED_CANASTA_TO_GO_OUT": f"your side needs {_plural(canastas, 'canasta')} before you may go out; "
                                  f"keep at least one card",
        "PERMISSION_REFUSED": "your partner said no: you may not go out this turn",
        "BELOW_MINIMUM": f"your melds count {pts}; your side needs {need} to open",
    }
    return code, messages.get(code, "you may not go out now")


def _diagnose_take(state: State, m: Move, rc: list[int], hsize: int) -> tuple[str, str]:
    r = state.rules
    side = state.side_of(state.turn_seat)
    blocked = _take_blocked(state)
    if blocked == "PILE_EMPTY":
        return blocked, "the discard pile is empty"
    if blocked == "PILE_TOP_WILD":
        return blocked, "a wild card is on top of the pile: nobody may take it until a natural card covers it"
    if blocked == "PILE_TOP_BLACK_THREE":
        return blocked, "a black three is on top of the pile: it stops the next player taking it"
    if blocked:
        return blocked, "the pile cannot be taken now"
    top = state.pile[-1]
    rank = m.rank
    if r.pile_needs_opened_side and not state.opened[side]:
        return "MUST_OPEN_BEFORE_PILE", "your side must open from its hand before it may take the pile"
    if rank != (top >> 2) + 2:
        return "TAKE_WRONG_RANK", f"the pile's top card is {a_rank((top >> 2) + 2)}"
    if r.one_card_pile_rule and len(state.pile) == 1 and hsize == 1:
        return "ONE_CARD_PILE", "a one-card pile may not be taken by a player holding one card"
    held = _held(rc, m)
    if held:
        return held
    melds = state.melds[side]
    if r.pile_blocked_for_canastas and len(melds.get(rank, ())) >= 7:
        return "PILE_BLOCKED_BY_CANASTA", f"your side's {rank_str(rank)}s are a canasta: the pile is blocked"
    frozen = pile_frozen_for(state, side)
    pair = (m.naturals, m.twos, m.jokers) == (2, 0, 0)
    if m.naturals + m.twos + m.jokers > 2 or m.twos + m.jokers > 1:
        return "TAKE_WITH_TWO_CARDS", ("take the pile with a natural pair, or (unfrozen) one natural and one "
                                       "wild, or by adding the top card to your meld; meld more cards afterwards")
    if frozen and not pair:
        if not state.opened[side] and not state.pile_frozen and not r.pile_always_frozen:
            return "UNOPENED_NEEDS_NATURAL_PAIR", (f"the pile is frozen against a side that has not opened: "
                                                   f"take it with two natural {rank_str(rank)}s from your hand")
        return "FROZEN_NEEDS_NATURAL_PAIR", (f"the pile is frozen: take it with two natural {rank_str(rank)}s "
                                             f"from your hand")
    if m.naturals + m.twos + m.jokers == 0:
        if rank not in melds:
            return "NO_MELD_TO_ADD_TO", f"your side has no meld of {rank_str(rank)}s for the top card"
        if not r.unfrozen_take_by_adding:
            return "TAKE_NEEDS_PAIR", "these rules need cards from your hand to take the pile"
    if m.naturals == 1 and not r.unfrozen_take_with_natural_plus_wild:
        return "TAKE_NEEDS_PAIR", "these rules need a natural pair to take the pile"
    if m.naturals == 0 and m.twos + m.jokers:
        return "TOO_FEW_NATURALS", "the top card needs at least one natural partner from your hand"
    nat0, wild0 = meld_counts(melds[rank]) if rank in melds else (0, 0)
    nat, wild = nat0 + 1 + m.naturals, wild0 + m.twos + m.jokers
    if not r.meld_ok(nat, wild):
        return "TOO_MANY_WILDS", (f"the {rank_str(rank)} meld would have {wild} wild cards to {nat} naturals "
                                  f"(limit: {r.wild_rule})")
    if r.max_meld_size and (len(melds.get(rank, ())) + 1 + m.naturals + m.twos + m.jokers) > r.max_meld_size:
        return "MELD_TOO_LARGE", f"the {rank_str(rank)} meld would pass {r.max_meld_size} cards"
    need = minimum_needed(state, side, state.turn_seat)
    base = RV[rank] * (1 + m.naturals) + 20 * m.twos + 50 * m.jokers
    if need and base < need:
        return "OPENING_NOT_REACHABLE", (f"your side has not opened: the top card and your hand cannot make "
                                         f"melds counting {need} (cards from the pile do not count)")
    return _going_out_message("NEED_CANASTA_TO_GO_OUT", r.canastas_to_go_out, need, base)


def _diagnose_meld(state: State, m: Move, rc: list[int], hsize: int, need: int, pts: int) -> tuple[str, str]:
    r = state.rules
    side = state.side_of(state.turn_seat)
    melds = state.melds[side]
    if m.rank == TWO or (m.rank == JOKER_RANK and not r.wild_melds):
        return "WILD_MELD_NOT_ALLOWED", "a meld of wild cards only is not allowed; name a rank: 'meld 2 on 9'"
    if m.rank == 1:
        return "RED_THREE_NOT_MELDABLE", "red threes are never melded"
    if not (3 <= m.rank <= 14 or m.rank == JOKER_RANK):
        return "UNKNOWN_MOVE", "no such rank"
    if m.naturals + m.twos + m.jokers == 0:
        return "EMPTY_MELD", "meld which cards?"
    held = _held(rc, m)
    if held:
        return held
    if state.stage is not None and state.stage.pending is not None and m.rank == THREE:
        return "BLACK_THREES_ONLY_GOING_OUT", "black threes may be melded only when going out"
    if m.rank == THREE:
        if m.twos or m.jokers:
            return "BLACK_THREES_NO_WILDS", "black threes may not be melded with wild cards"
        if THREE in melds or m.naturals < 3:
            return "MELD_TOO_SMALL", "black threes are melded as a set of 3 or 4"
        if hsize - m.naturals > 1:
            return "BLACK_THREES_ONLY_GOING_OUT", ("black threes may be melded only in the turn you go out, "
                                                   "as your last meld")
        why = _out_ok(state, canasta_count(melds), pts + 5 * m.naturals)
        return _going_out_message(why or "NOT_ALLOWED_NOW", r.canastas_to_go_out, need, pts)
    meld = melds.get(m.rank)
    size = (len(meld) if meld else 0) + m.naturals + m.twos + m.jokers
    if m.rank == JOKER_RANK:
        if m.naturals:
            return "UNKNOWN_MOVE", "a meld of wild cards holds no natural cards"
        if size < 3:
            return "MELD_TOO_SMALL", "a meld of wild cards needs at least 3 cards"
        if size > r.wild_meld_max:
            return "MELD_TOO_LARGE", f"a meld of wild cards holds at most {r.wild_meld_max} cards"
    elif r.max_meld_size and size > r.max_meld_size:
        return "MELD_TOO_LARGE", f"a meld may hold at most {r.max_meld_size} cards"
    nat0, wild0 = meld_counts(meld) if meld else (0, 0)
    nat, wild = nat0 + m.naturals, wild0 + m.twos + m.jokers
    if m.rank != JOKER_RANK and nat < r.min_naturals:
        return "TOO_FEW_NATURALS", f"a meld needs at least {r.min_naturals} natural cards; this has {nat}"
    if size < 3:
        return "MELD_TOO_SMALL", "a new meld needs at least 3 cards"
    if m.rank != JOKER_RANK and not r.meld_ok(nat, wild):
        return "TOO_MANY_WILDS", (f"the {rank_str(m.rank)} meld would have {wild} wild cards to {nat} naturals "
                                  f"(limit: {r.wild_rule})")
    after = hsize - m.naturals - m.twos - m.jokers
    c2 = canasta_count(melds) + (1 if size >= 7 and (not meld or len(meld) < 7) else 0)
    pts2 = pts + RV[m.rank] * m.naturals + 20 * m.twos + 50 * m.jokers
    if after <= 1:
        why = _out_ok(state, c2, pts2)
        if why:
            if why == "NEED_CANASTA_TO_GO_OUT":
                return why, (f"you would be left with {after} card{'s' if after != 1 else ''} but your side has no "
                             f"{'canasta' if r.canastas_to_go_out == 1 else f'{r.canastas_to_go_out} canastas'}: "
                             f"keep at least one card after your discard")
            return _going_out_message(why, r.canastas_to_go_out, need, pts2)
    if state.turn.permission == "yes":
        return "MUST_GO_OUT", "your partner said yes: this meld would leave you unable to go out this turn"
    if state.turn.withdrew and not state.opened[side]:
        return "OPENING_NOT_REACHABLE", ("you have withdrawn once this turn: stage only melds that can still "
                                         f"reach {need}, keeping a card to discard, or discard")
    return "NOT_ALLOWED_NOW", f"{m} is not allowed now"
