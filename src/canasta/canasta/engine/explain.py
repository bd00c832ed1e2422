"""Why a move is illegal: a stable code and a message a player understands.

Only called for moves that ``legal_moves`` does not list; the checks follow docs/sources.md §3 in the order
a player would think of them. Every code is documented in docs/reason-codes.md.
"""

from __future__ import annotations

from ..kinds import JOKER_RANK, THREE, TWO, a_rank, card_str, cards_of, rank_of, rank_str
from ..melds import (
    SEQUENCE_BASE,
    SEQUENCE_LOW,
    SEQUENCE_MAX,
    is_sequence_key,
    key_label,
    key_rank,
    key_slot,
    key_suit,
    sequence_key,
    sequence_span,
)
from ..moves import ACTIONS, SPECIAL_HAND_NAMES, Move
from ..rules import Rules
from ..special_hands import SPECIAL_HAND_SIZE, forms
from ..state import ANSWER_PHASE, DRAW_PHASE, GAME_OVER, Melds, State, log_contains
from .core import (
    RV,
    after_opening_turn,
    canastas_after,
    count_canastas,
    dead_ranks,
    free_key,
    has_foot,
    meld_counts,
    melds_after,
    minimum_needed,
    opening_problem,
    pile_frozen_for,
    rank_counts,
    twos_counts,
    twos_meld_open,
    unfinished_wild_meld,
)
from .going_out import can_go_out, out_problem
from .pile import take_blocked


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _held(rc: list[int], m: Move) -> tuple[str, str] | None:
    for rank, want in ((key_rank(m.rank), m.naturals), (TWO, m.twos), (JOKER_RANK, m.jokers)):
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
    side = state.seat_sides[p]
    rc = rank_counts(state.hands[p])
    hsize = sum(rc)
    melds = state.melds[side]
    acaba = _diagnose_acaba(state, m)
    if acaba:
        return acaba
    if state.phase == DRAW_PHASE:
        if m.action in ("meld", "discard", "withdraw", "ask", "combine", "declare", "layout"):
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
    if state.turn.permission == "yes" and m.action in ("withdraw", "discard") and hsize > 1 and can_go_out(state):
        return "MUST_GO_OUT", "your partner said yes: you must go out this turn, and this move would not"
    if m.action == "declare":
        return _diagnose_declare(state, m, hsize)
    if m.action == "layout":
        if stage is not None and r.keeps_a_three:
            return "LAYOUT_BEFORE_MELDING", ("lay out a kept three before staging an opening (a withdraw would "
                                             "take it back): finish or withdraw the opening first")
        if not r.keeps_a_three:
            return "NO_KEPT_THREE", "every three is laid out as soon as it comes here: there is none to lay out"
        return "NO_KEPT_THREE", "you hold no three to lay out"
    if m.action == "withdraw":
        if state.turn.withdrew and stage is not None:
            return "ALREADY_WITHDREW", "you may withdraw staged melds once a turn: complete the opening or discard"
        return "NOTHING_TO_WITHDRAW", "only melds staged this turn by a side that has not opened can be withdrawn"
    foot = has_foot(state, p)
    if m.action == "ask":
        if r.permission == "none" or not r.partnerships:
            return "NO_PERMISSION_RULE", "these rules have no asking permission to go out"
        if state.turn.permission is not None:
            return "ALREADY_ASKED", "you have already asked this turn"
        if r.permission_once and log_contains(state.log, f"{p} ask"):
            return "ASKED_ONCE", "you may ask permission to go out only once a hand"
        if foot:
            return "ASK_BEFORE_FOOT", ("you have not picked up your foot yet, so you cannot go out this turn: "
                                       "there is nothing to ask")
        if hsize < 2:
            return "ASK_WITH_ONE_CARD", "with one card left you can only go out: there is nothing to ask"
        return "ASK_BEFORE_MELDING", "ask permission after drawing and before melding anything"
    if pending and m.action in ("discard", "pass"):
        return "MUST_COMPLETE_OPENING", (f"you took the pile before opening: meld from your hand until your "
                                         f"melds count {need} (now {pts}), or withdraw them and try again")
    if m.action == "pass":
        return "CANNOT_PASS", "you cannot pass now: discard to end your turn"
    if m.action == "discard":
        if m.rank == 1:  # a red three, named as the card (held only where threes_laid_out is "none")
            if m.suit not in (1, 2) or not state.hands[p][4 + m.suit]:
                return "CARDS_NOT_IN_HAND", f"you hold no {str(m).split()[-1] if m.suit in (1, 2) else 'red three'}"
        elif m.rank < 0 or m.rank > 14 or rc[m.rank] == 0:
            return "CARDS_NOT_IN_HAND", f"you hold no {rank_str(m.rank) if 0 <= m.rank <= 14 else '?'}"
        if m.rank != 1 and m.suit >= 0 and (m.rank < 4 or not state.hands[p][(m.rank - 2) * 4 + m.suit]):
            return "CARDS_NOT_IN_HAND", f"you hold no {str(m).split()[-1]}"
        if m.rank in (1, THREE) and r.threes_laid_out == "all":
            return "THREES_NOT_DISCARDED", "threes are never discarded: lay out the three you kept ('layout')"
        if r.sequences and m.rank >= 4 and m.suit < 0:
            return "NAME_THE_SUIT", f"suits matter in this game: name the card, e.g. 'discard {rank_str(m.rank)}H'"
        if not r.sequences and m.suit >= 0 and m.rank != 1:
            return "MALFORMED_MOVE", f"suits do not matter in this game: 'discard {rank_str(m.rank)}'"
        if state.turn.no_discard:
            return "NO_DISCARD_NOW", "the last stock card was a red three: meld if you like, then pass"
        if stage is not None and pts < need and (hsize > 1 or foot):
            return "BELOW_MINIMUM", (f"your melds this turn count {pts}; your side needs {need} to open: "
                                     f"meld more or withdraw")
        opening = opening_problem(state, melds) if stage is not None and hsize > 1 else None
        if opening:
            return _going_out_message(opening, r, need, pts)
        if hsize == 1 and not foot:
            why = out_problem(state, count_canastas(r, melds), pts)
            return _going_out_message(why or "NOT_ALLOWED_NOW", r, need, pts)
        if m.rank == JOKER_RANK and not r.jokers_discardable:
            return "JOKER_DISCARD_NOT_ALLOWED", "jokers may not be discarded while you hold another card"
        if m.rank == THREE and not r.black_three_first_round_discard:
            return "BLACK_THREE_FIRST_ROUND", "black threes may not be discarded in the first round"
        if state.turn.permission == "yes":
            return "MUST_GO_OUT", "your partner said yes: you must go out this turn"
        if r.swad and not state.pile:
            return "EMPTY_PILE_DISCARD", ("no seven, wild card, ace or dead card may be discarded onto an empty "
                                          "pile while you hold another card")
        return "NOT_ALLOWED_NOW", f"{m} is not allowed now"
    if m.action == "combine":
        return _diagnose_combine(state, m)
    return _diagnose_meld(state, m, rc, hsize, need, pts)


def _shape_problem(m: Move) -> str | None:
    """A Move object no notation could produce (moves built in code)."""
    counts = (m.naturals, m.twos, m.jokers)
    if any(c < 0 for c in counts):
        return "card counts cannot be negative"
    if m.action == "discard":
        if not -1 <= m.suit <= 3 or m.low:
            return "a discard names one card"
        return None if counts == (0, 0, 0) else "a discard names one rank and no card counts"
    if m.suit != -1:
        return f"{m.action!r} names no suit"
    if m.action == "declare":
        ok = 0 <= m.rank < len(SPECIAL_HAND_NAMES) and counts == (0, 0, 0) and not m.low
        return None if ok else "declare names one special hand"
    if m.action == "combine":
        if (m.naturals, m.twos, m.jokers) != (0, 0, 0) or not all(
                0 <= k < SEQUENCE_BASE and key_rank(k) in range(15) for k in (m.rank, m.low)):
            return "combine names two meld keys of groups"
        return None
    if m.action in ("take", "meld"):
        if is_sequence_key(m.rank):
            if m.rank >= SEQUENCE_BASE + 64:
                return f"no meld key {m.rank}"
            if m.twos or m.jokers:
                return "a sequence holds no wild cards"
            low = 0 if m.action == "take" else SEQUENCE_LOW  # a take names the top card's rank, whatever it is
            return None if low <= m.low <= 14 else "a sequence move names its lowest rank (4 to A)"
        if m.low:
            return "only a sequence move names a lowest rank"
        return None if 0 <= m.rank < SEQUENCE_BASE and key_rank(m.rank) in range(15) else f"no meld key {m.rank}"
    return None if (m.rank, *counts, m.low) == (-1, 0, 0, 0, 0) else f"{m.action!r} takes no rank or cards"


def _diagnose_declare(state: State, m: Move, hsize: int) -> tuple[str, str]:
    """A special hand (Modern American, docs/sources.md §4C, GC-S20) that may not be laid down now."""
    r = state.rules
    name = SPECIAL_HAND_NAMES[m.rank]
    have = dict(r.special_hands)
    if name not in have:
        others = ", ".join(have) or "none"
        return "NO_SPECIAL_HAND", f"these rules have no special hand {name!r} (they have: {others})"
    side = state.seat_sides[state.turn_seat]
    if state.opened[side] or state.stage is not None or state.turn.source != "stock":
        return "SPECIAL_HAND_NOT_NOW", ("a special hand is laid down by a player whose side has not opened, "
                                        "after drawing from the stock and before melding")
    if hsize != SPECIAL_HAND_SIZE or not forms(name, cards_of(state.hands[state.turn_seat])):
        return "SPECIAL_HAND_NOT_FORMED", f"your {hsize} cards do not form {name} (docs/variants/{r.name}.md)"
    return "NOT_ALLOWED_NOW", f"{m} is not allowed now"


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


def _going_out_message(code: str, r: Rules, need: int, pts: int) -> tuple[str, str]:
    messages = {
        "NEED_CANASTA_TO_GO_OUT": f"your side needs {_canastas_needed(r)} before you may go out; "
                                  f"keep at least one card",
        "PERMISSION_REFUSED": "your partner said no: you may not go out this turn",
        "PERMISSION_REQUIRED": "ask your partner 'may I go out?' first: here going out needs a yes",
        "OPENING_NEEDS_CANASTA": "at your side's score the opening must include a canasta"
                                 + (" (a natural one)" if r.opening_canasta and r.opening_canasta[-1][1] == "natural"
                                    else ""),
        "BELOW_MINIMUM": f"your melds count {pts}; your side needs {need} to open",
        "OPENING_NEEDS_NATURAL_MELD": "the opening must include a meld of three or more natural cards"
                                      + (" or a meld of wild cards" * (r.opening_needs_meld == "natural_or_wild")),
        "WILD_MELD_UNFINISHED": "your side's meld of wild cards must be a canasta before you may go out",
        "GO_OUT_NEEDS_DISCARD": "going out needs a final discard: keep a card (not a three) to discard",
        "NEED_NATURAL_CANASTAS": f"your side needs {_canastas_needed(r)} before you may go out",
        "NEED_MIXED_CANASTAS": f"your side needs {_canastas_needed(r)} before you may go out",
    }
    return code, messages.get(code, "you may not go out now")


def _diagnose_take(state: State, m: Move, rc: list[int], hsize: int) -> tuple[str, str]:
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    blocked = take_blocked(state)
    if blocked == "PILE_EMPTY":
        return blocked, "the discard pile is empty"
    if blocked == "PILE_TOP_WILD":
        return blocked, "a wild card is on top of the pile: nobody may take it until a natural card covers it"
    if blocked == "PILE_TOP_BLACK_THREE":
        return blocked, "a black three is on top of the pile: it stops the next player taking it"
    if blocked:
        return blocked, "the pile cannot be taken now"
    top = state.pile[-1]
    key, rank = m.rank, key_rank(m.rank)
    if r.pile_needs_opened_side and not state.opened[side]:
        return "MUST_OPEN_BEFORE_PILE", "your side must open from its hand before it may take the pile"
    if rank_of(top) in dead_ranks(state):
        return "DEAD_RANK", f"a canasta of {rank_str(rank_of(top))}s is finished: nobody may take a pile topped by one"
    if is_sequence_key(key):
        return _diagnose_sequence_take(state, m)
    slot_problem = _diagnose_slot(state, m, state.melds[side])
    if slot_problem:
        return slot_problem
    if rank != (top >> 2) + 2:
        return "TAKE_WRONG_RANK", f"the pile's top card is {a_rank((top >> 2) + 2)}"
    if r.one_card_pile_rule and len(state.pile) == 1 and hsize == 1:
        return "ONE_CARD_PILE", "a one-card pile may not be taken by a player holding one card"
    held = _held(rc, m)
    if held:
        return held
    melds = state.melds[side]
    if r.pile_blocked_for_canastas and len(melds.get(key, ())) >= 7:
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
        if key not in melds:
            return "NO_MELD_TO_ADD_TO", f"your side has no meld {key_label(key)} for the top card"
        if not r.unfrozen_take_by_adding:
            return "TAKE_NEEDS_PAIR", "these rules need cards from your hand to take the pile"
        if len(melds[key]) >= 7 and not r.take_onto_canasta:
            return "TAKE_ONTO_CANASTA", ("the top card may not go onto a finished canasta: take the pile with a "
                                         "natural pair")
    if m.naturals == 1 and not r.unfrozen_take_with_natural_plus_wild:
        return "TAKE_NEEDS_PAIR", "these rules need a natural pair to take the pile"
    if m.naturals == 0 and m.twos + m.jokers:
        return "TOO_FEW_NATURALS", "the top card needs at least one natural partner from your hand"
    if m.twos and r.twos_as_rank and twos_meld_open(melds):
        return "TWOS_NOT_WILD", "while your side's meld of twos is unfinished, twos are not wild cards"
    if (m.twos or m.jokers) and r.natural_opening and not state.opened[side]:
        return "OPENING_MUST_BE_NATURAL", "your side's opening melds may hold no wild cards"
    if key in melds and len(melds[key]) >= 7 and (m.twos or m.jokers) and not r.wilds_onto_canasta:
        return "WILD_ONTO_CANASTA", "no wild card may be added to a finished canasta"
    if key not in melds and key != rank and key != free_key(melds, rank):
        return "NO_MELD_TO_ADD_TO", f"your side has no meld {key_label(key)}"
    nat0, wild0 = meld_counts(melds[key]) if key in melds else (0, 0)
    nat, wild = nat0 + 1 + m.naturals, wild0 + m.twos + m.jokers
    if not r.meld_ok(nat, wild):
        return "TOO_MANY_WILDS", (f"the {rank_str(rank)} meld would have {wild} wild cards to {nat} naturals "
                                  f"(limit: {r.wild_rule})")
    if r.max_meld_size and (len(melds.get(key, ())) + 1 + m.naturals + m.twos + m.jokers) > r.max_meld_size:
        return "MELD_TOO_LARGE", f"the {rank_str(rank)} meld would pass {r.max_meld_size} cards"
    need = minimum_needed(state, side, state.turn_seat)
    base = RV[rank] * (r.top_card_counts + m.naturals) + 20 * m.twos + 50 * m.jokers
    if need and base < need:
        return "OPENING_NOT_REACHABLE", (f"your side has not opened: the top card and your hand cannot make "
                                         f"melds counting {need} (cards from the pile do not count)")
    return _going_out_message("NEED_CANASTA_TO_GO_OUT", r, need, base)


def _diagnose_combine(state: State, m: Move) -> tuple[str, str]:
    r = state.rules
    melds = state.melds[state.seat_sides[state.turn_seat]]
    if not r.several_melds_per_rank:
        return "ONE_MELD_PER_RANK", "a side holds one meld of each rank here: there is nothing to combine"
    for key in (m.low, m.rank):
        if key not in melds:
            return "NO_MELD_TO_ADD_TO", f"your side has no meld {key_label(key)}"
    if key_rank(m.low) != key_rank(m.rank) or m.low == m.rank:
        return "COMBINE_MISMATCH", "only two different melds of the same rank can be combined"
    if key_slot(m.low) < key_slot(m.rank):
        return "COMBINE_MISMATCH", f"combine the later meld into the earlier one: 'combine {key_label(m.rank)} on " \
                                   f"{key_label(m.low)}'"
    if state.stage is not None and state.stage.pending is not None:
        return "MUST_COMPLETE_OPENING", "finish the opening you started by taking the pile first"
    if state.turn.permission == "yes":
        return "MUST_GO_OUT", "your partner said yes: meld and discard to go out this turn"
    a, b = melds[m.rank], melds[m.low]
    if not r.wilds_onto_canasta and (len(a) >= 7 or len(b) >= 7):
        return "WILD_ONTO_CANASTA", "no wild card may be added to a finished canasta"
    if key_rank(m.rank) == JOKER_RANK:
        return "MELD_TOO_LARGE", f"a meld of wild cards holds at most {r.wild_meld_max} cards"
    if r.max_meld_size and len(a) + len(b) > r.max_meld_size:
        return "MELD_TOO_LARGE", f"a meld may hold at most {r.max_meld_size} cards"
    return "TOO_MANY_WILDS", f"together the two melds would break the wild-card limit ({r.wild_rule})"


def _diagnose_sequence_take(state: State, m: Move) -> tuple[str, str]:
    """Taking the pile onto a sequence: only its top card, only onto a sequence shorter than 7 that it
    extends, and only while the pile is not frozen (docs/sources.md §4B Samba, GC-P11)."""
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    top = state.pile[-1]
    meld = state.melds[side].get(m.rank)
    if not r.sequences:
        return "SEQUENCE_NOT_ALLOWED", "these rules have no sequences"
    if m.naturals:
        return "TAKE_WITH_TWO_CARDS", "a take onto a sequence adds the top card alone: 'take on seqH'"
    if meld is None:
        return "NO_MELD_TO_ADD_TO", (f"your side has no sequence {key_label(m.rank)}; the top card may not start "
                                     f"one: take the pile with a natural pair")
    if pile_frozen_for(state, side):
        return "FROZEN_NEEDS_NATURAL_PAIR", "the pile is frozen: take it with a natural pair from your hand"
    lo, hi = sequence_span(meld)
    if top & 3 != key_suit(m.rank) or rank_of(top) not in (lo - 1, hi + 1) or m.low != rank_of(top):
        return "SEQUENCE_GAP", f"the top card {card_str(top)} does not extend {key_label(m.rank)} at either end"
    if len(meld) >= SEQUENCE_MAX:
        return "SEQUENCE_TOO_LONG", f"a sequence stops at {SEQUENCE_MAX} cards"
    return "NEED_CANASTA_TO_GO_OUT", ("taking the pile would leave you unable to go out: your side needs "
                                      f"{_canastas_needed(r)}")


def _diagnose_meld(state: State, m: Move, rc: list[int], hsize: int, need: int, pts: int) -> tuple[str, str]:
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    melds = state.melds[side]
    if is_sequence_key(m.rank):
        return _diagnose_sequence(state, m, hsize, need, pts)
    slot_problem = _diagnose_slot(state, m, melds)
    if slot_problem:
        return slot_problem
    if r.natural_opening and not state.opened[side] and (m.twos or m.jokers):
        return "OPENING_MUST_BE_NATURAL", "your side's opening melds may hold no wild cards"
    if m.twos and r.twos_as_rank and twos_meld_open(melds):
        return "TWOS_NOT_WILD", "while your side's meld of twos is unfinished, twos are not wild cards"
    if (key_rank(m.rank) == TWO and not r.twos_as_rank) or (key_rank(m.rank) == JOKER_RANK and not r.wild_melds):
        return "WILD_MELD_NOT_ALLOWED", "a meld of wild cards only is not allowed; name a rank: 'meld 2 on 9'"
    key, rank = m.rank, key_rank(m.rank)
    if rank == 1:
        return "RED_THREE_NOT_MELDABLE", "red threes are never melded"
    if not (2 <= rank <= 14 or rank == JOKER_RANK):
        return "UNKNOWN_MOVE", "no such rank"
    if m.naturals + m.twos + m.jokers == 0:
        return "EMPTY_MELD", "meld which cards?"
    held = _held(rc, m)
    if held:
        return held
    if rank in dead_ranks(state):
        return "DEAD_RANK", f"a canasta of {rank_str(rank)}s is finished: nobody may meld them any more"
    if (m.twos or m.jokers) and rank >= 4:
        if rank in r.pure_ranks:
            return "PURE_RANK", f"a meld of {rank_str(rank)}s never holds wild cards"
        if rank in r.pure_after_opening_ranks and after_opening_turn(state):
            return "WILDS_ONLY_IN_OPENING", (f"a meld of {rank_str(rank)}s takes wild cards only in the turn "
                                             "your side opens")
    if (m.twos or m.jokers) and rank != JOKER_RANK and unfinished_wild_meld(r, melds):
        return "WILD_MELD_UNFINISHED", "while your side's meld of wild cards is unfinished, wild cards go only there"
    if state.stage is not None and state.stage.pending is not None and rank == THREE:
        return "BLACK_THREES_ONLY_GOING_OUT", "black threes may be melded only when going out"
    if rank == THREE and not r.black_threes_meldable:
        return "BLACK_THREES_NOT_MELDABLE", "black threes are never melded in these rules"
    if rank == THREE and has_foot(state, state.turn_seat):
        return "BLACK_THREES_ONLY_GOING_OUT", ("black threes may be melded only in the turn you go out, and you "
                                               "have not picked up your foot yet")
    if rank == THREE:
        if m.twos or m.jokers:
            return "BLACK_THREES_NO_WILDS", "black threes may not be melded with wild cards"
        if THREE in melds or m.naturals < 3:
            return "MELD_TOO_SMALL", "black threes are melded as a set of 3 or 4"
        if hsize - m.naturals > 1:
            return "BLACK_THREES_ONLY_GOING_OUT", ("black threes may be melded only in the turn you go out, "
                                                   "as your last meld")
        why = out_problem(state, count_canastas(r, melds), pts + 5 * m.naturals)
        return _going_out_message(why or "NOT_ALLOWED_NOW", r, need, pts)
    meld = melds.get(key)
    size = (len(meld) if meld else 0) + m.naturals + m.twos + m.jokers
    if rank == JOKER_RANK:
        if m.naturals:
            return "UNKNOWN_MOVE", "a meld of wild cards holds no natural cards"
        if size < 3:
            return "MELD_TOO_SMALL", "a meld of wild cards needs at least 3 cards"
        if size > r.wild_meld_max:
            return "MELD_TOO_LARGE", f"a meld of wild cards holds at most {r.wild_meld_max} cards"
    elif r.max_meld_size and size > r.max_meld_size:
        return "MELD_TOO_LARGE", f"a meld may hold at most {r.max_meld_size} cards"
    if meld and len(meld) >= 7 and (m.twos or m.jokers) and not r.wilds_onto_canasta:
        return "WILD_ONTO_CANASTA", "no wild card may be added to a finished canasta"
    nat0, wild0 = (twos_counts(meld) if rank == TWO else meld_counts(meld)) if meld else (0, 0)
    nat, wild = nat0 + m.naturals, wild0 + m.twos + m.jokers
    if rank != JOKER_RANK and nat < r.min_naturals:
        return "TOO_FEW_NATURALS", f"a meld needs at least {r.min_naturals} natural cards; this has {nat}"
    if size < 3:
        return "MELD_TOO_SMALL", "a new meld needs at least 3 cards"
    if (m.twos or m.jokers) and rank != JOKER_RANK and nat < r.rule_of_five and after_opening_turn(state):
        return "RULE_OF_FIVE", (f"after your side's opening turn wild cards join a meld only when it has "
                                f"{r.rule_of_five} natural cards; the {rank_str(rank)} meld would have {nat}")
    if rank != JOKER_RANK and not r.meld_ok(nat, wild):
        return "TOO_MANY_WILDS", (f"the {rank_str(rank)} meld would have {wild} wild cards to {nat} naturals "
                                  f"(limit: {r.wild_rule})")
    after = hsize - m.naturals - m.twos - m.jokers
    c2 = canastas_after(r, melds, count_canastas(r, melds), key, len(meld) if meld else 0, size)
    pts2 = pts + RV[rank] * m.naturals + 20 * m.twos + 50 * m.jokers
    return _meld_consequence(state, m, after, c2, pts2, need)


def _meld_consequence(state: State, m: Move, after: int, c2: int, pts2: int, need: int) -> tuple[str, str]:
    """A well-formed meld of cards the player holds is illegal for what it leaves: too few cards to end
    the turn, an obligation to go out, or an opening no longer reachable."""
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    if has_foot(state, state.turn_seat):  # emptying the hand picks up the foot: the opening must stand first
        if after == 0 and not state.opened[side] and pts2 < need:
            return "BELOW_MINIMUM", (f"your melds this turn would count {pts2}; your side needs {need} to open "
                                     f"before you may play into your foot")
    elif after == 0 and r.go_out_needs_discard:
        return _going_out_message("GO_OUT_NEEDS_DISCARD", r, need, pts2)
    elif after <= 1:
        why = out_problem(state, c2, pts2, melds_after(state, m) if r.opening_canasta else None)
        if why:
            if why == "NEED_CANASTA_TO_GO_OUT":
                return why, (f"you would be left with {after} card{'s' if after != 1 else ''} but your side has "
                             f"not {_canastas_needed(r)}: keep at least one card after your discard")
            return _going_out_message(why, r, need, pts2)
    if state.turn.permission == "yes":
        return "MUST_GO_OUT", "your partner said yes: this meld would leave you unable to go out this turn"
    if state.turn.withdrew and not state.opened[side]:
        return "OPENING_NOT_REACHABLE", ("you have withdrawn once this turn: stage only melds that can still "
                                         f"reach {need}, keeping a card to discard, or discard")
    if after == 1:
        return "CANNOT_GO_OUT_WITH_LAST_CARD", ("this would leave one card you could neither meld nor discard "
                                                "to go out: keep two")
    return "NOT_ALLOWED_NOW", f"{m} is not allowed now"


def _canastas_needed(r: Rules) -> str:
    text = "a canasta" if r.canastas_to_go_out == 1 else f"{r.canastas_to_go_out} canastas"
    if r.go_out_needs_sequence:
        text += ", one of them a sequence"
    if not r.wild_canastas_count_to_go_out:
        text += " (a canasta of wild cards or twos does not count)"
    if r.natural_canastas_to_go_out:
        text += f", {r.natural_canastas_to_go_out} of them natural"
    if r.mixed_canastas_to_go_out:
        text += f" and {r.mixed_canastas_to_go_out} mixed (a natural one does not stand in for a mixed one)"
    return text


def _diagnose_slot(state: State, m: Move, melds: Melds) -> tuple[str, str] | None:
    """A meld named by a second (third ...) slot of its rank: allowed only where a side may hold several
    melds of a rank, and only as the next free slot."""
    key = m.rank
    if key_slot(key) == 0:
        return None
    if not state.rules.several_melds_per_rank:
        return "ONE_MELD_PER_RANK", (f"a side holds one meld of each rank here: meld onto "
                                     f"{key_label(key_rank(key))}, not {key_label(key)}")
    new = free_key(melds, key_rank(key))
    if key not in melds and key != new:
        return "NO_MELD_TO_ADD_TO", f"your side has no meld {key_label(key)}; a new one is {key_label(new or key)}"
    return None


def _diagnose_sequence(state: State, m: Move, hsize: int, need: int, pts: int) -> tuple[str, str]:
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    melds = state.melds[side]
    if not r.sequences:
        return "SEQUENCE_NOT_ALLOWED", "these rules have no sequences: a meld is cards of one rank"
    key, suit = m.rank, key_suit(m.rank)
    hand = state.hands[state.turn_seat]
    cards = [(x - 2) * 4 + suit for x in range(m.low, m.low + m.naturals)]
    if m.naturals == 0:
        return "EMPTY_MELD", "meld which cards?"
    if m.low + m.naturals - 1 > 14:
        return "SEQUENCE_GAP", "a sequence runs from 4 up to the ace, no further"
    missing = [c for c in set(cards) if not hand[c]]
    if missing:
        return "CARDS_NOT_IN_HAND", f"you hold no {' '.join(card_str(c) for c in sorted(missing))}"
    meld = melds.get(key)
    if meld is None:
        if key != free_key(melds, sequence_key(suit)):
            return "NO_MELD_TO_ADD_TO", f"your side has no sequence {key_label(key)}"
        if m.naturals < 3:
            return "MELD_TOO_SMALL", "a new sequence needs at least 3 cards"
        if m.naturals > SEQUENCE_MAX:
            return "SEQUENCE_TOO_LONG", f"a sequence stops at {SEQUENCE_MAX} cards"
        size0 = 0
    else:
        lo, hi = sequence_span(meld)
        size0 = len(meld)
        if size0 + m.naturals > SEQUENCE_MAX:
            if r.sequence_extends_going_out and m.low in (lo - m.naturals, hi + 1) and m.low >= SEQUENCE_LOW:
                return "SEQUENCE_TOO_LONG", (f"a sequence passes {SEQUENCE_MAX} cards only in the turn you go out, "
                                             f"and after this you could not go out")
            return "SEQUENCE_TOO_LONG", f"a sequence stops at {SEQUENCE_MAX} cards; {key_label(key)} has {size0}"
        if m.low + m.naturals != lo and m.low != hi + 1:
            return "SEQUENCE_GAP", (f"the cards must join {key_label(key)} ({rank_str(lo)} to {rank_str(hi)}) "
                                    f"at one end, with no gap")
    after = hsize - m.naturals
    c2 = canastas_after(r, melds, count_canastas(r, melds), key, size0, size0 + m.naturals)
    pts2 = pts + sum(RV[x] for x in range(m.low, m.low + m.naturals))
    return _meld_consequence(state, m, after, c2, pts2, need)
