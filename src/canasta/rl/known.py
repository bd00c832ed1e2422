"""Cards known to be in the hands, followed move by move (the same answer as
``canasta.canasta.sampling.known_in_hands(view)``, which re-reads the whole public history every call).

The environments ask after every move, so this keeps the pile as ranks and each seat's known ranks and
reads only the history entries added since the last position. Tests check it against
``known_in_hands`` on many positions of every preset.
"""

from __future__ import annotations

from typing import Final

from ..canasta.cards import RED_THREES, THREE, parse_card, parse_rank, rank_of
from ..canasta.moves import Move, token_rank
from ..canasta.sampling import follow_entry
from ..canasta.state import Log, State, entry_text
from .actions import RANKS

_SHOWING: Final = ("upcard", "discard", "take", "meld")  # the history events that change the pile or what is known
Counts = tuple[int, ...]  # RANKS counts per rank code (1 = a red three held)
_RANK_CODES: Final = tuple(1 if c in RED_THREES else rank_of(c) for c in range(53))  # as the history names them
# A move's effect, read once from its history text as ``sampling.follow_entry`` reads it (moves are values
# and recur all game long): its first word's index in _SHOWING (0 for a move that shows nothing), and the
# rank codes it names (a discard's one; the ranks a take or meld spends from the hand).
Effect = tuple[int, tuple[int, ...]]
_EFFECTS: Final[dict[Move, Effect]] = {}
_DISCARD: Final = 1
_TAKE: Final = 2
_MELD: Final = 3


class Known:
    """What the public history of the current hand has shown so far. A plain class, not a NamedTuple: one
    is made after every move, and compiled, a NamedTuple's constructor is Python code."""

    def __init__(self, hand_number: int, read: Log, pile: bytes, known: tuple[Counts, ...]) -> None:
        self.hand_number = hand_number
        self.read = read  # the newest history entry read (the state's log node: positions share older entries)
        self.pile = pile  # the pile's ranks as the history built it, one byte each
        self.known = known  # per seat

    def __reduce__(self) -> tuple[type[Known], tuple[int, Log, bytes, tuple[Counts, ...]]]:
        return (Known, (self.hand_number, self.read, self.pile, self.known))  # compiled: no field-by-field pickle


def start(state: State) -> Known:
    return advance(Known(0, None, b"", ()), state)


def _effect(move: Move) -> Effect:
    hit = _EFFECTS.get(move)
    if hit is None:
        words = str(move).split()
        kind = _SHOWING.index(words[0]) if words[0] in _SHOWING else 0
        ranks: list[int] = []
        if kind == _DISCARD:
            ranks.append(1 if _is_red_three(words[1]) else token_rank(words[1]) or 0)
        elif kind in (_TAKE, _MELD):
            tokens = words[1: words.index("on")] if "on" in words else words[1:]
            ranks.extend(parse_rank(t) if kind == _TAKE else token_rank(t) or 0 for t in tokens)
        if len(_EFFECTS) > 100_000:
            _EFFECTS.clear()
        hit = _EFFECTS[move] = (kind, tuple(ranks))
    return hit


def _is_red_three(token: str) -> bool:
    try:
        return parse_card(token) in RED_THREES
    except ValueError:
        return False


def _since(log: Log, read: Log) -> list[tuple[int, Move | None, str]] | None:
    """The history entries after node ``read`` that show cards (``_SHOWING``), oldest first: (seat, the
    move, None) for a move, (seat, None, its text) for another event; None when ``read`` is not an older
    entry of ``log``."""
    new: list[tuple[int, Move | None, str]] = []
    node = log
    while node is not read:
        if node is None:
            return None
        seat, event = node[1], node[2]
        if type(event) is Move and seat >= 0:
            if _effect(event)[0]:
                new.append((seat, event, ""))
        else:
            text = entry_text(seat, event)
            if text.split(" ", 2)[1] in _SHOWING:
                new.append((seat, None, text))
        node = node[0]
    new.reverse()
    return new


def advance(k: Known, state: State) -> Known:
    """``k`` brought up to ``state`` (a later position of the same game)."""
    log = state.log
    if k.hand_number == state.hand_number and log is not None and log[0] is k.read:
        # one entry since (nearly every step): a move is read without listing the entries
        seat, event = log[1], log[2]
        if type(event) is Move and seat >= 0:
            quick = _after_move(k, log, seat, _effect(event))
            return quick if quick is not None else _follow(k, state, [(seat, event, "")])
    new = _since(log, k.read) if k.hand_number == state.hand_number else None
    if new is None:  # a new hand (or a history given anew): read it from its start
        k = Known(state.hand_number, None, b"", ((0,) * RANKS,) * state.rules.players)
        new = _since(log, None) or []
    if not new:  # draw, ask, …: nothing known changes
        return k if k.read is log else Known(k.hand_number, log, k.pile, k.known)
    seat, move, _ = new[0]
    if len(new) == 1 and move is not None:
        quick = _after_move(k, log, seat, _effect(move))
        if quick is not None:
            return quick
    return _follow(k, state, new)


def _after_move(k: Known, log: Log, seat: int, effect: Effect) -> Known | None:
    """``k`` after one move of ``seat`` (its ``effect``), read into ``log``, where that is simple: a move that
    shows nothing, a discard, or a meld of cards none of which was known to be held; else None."""
    kind, ranks = effect
    if not kind:  # draw, ask, …: nothing known changes
        return Known(k.hand_number, log, k.pile, k.known)
    if kind == _DISCARD:  # the most common: one card onto the pile (as ``_follow``, without copying lists)
        rank = ranks[0]
        counts = k.known
        held = counts[seat]
        if held[rank]:
            counts = (*counts[:seat], (*held[:rank], held[rank] - 1, *held[rank + 1:]), *counts[seat + 1:])
        return Known(k.hand_number, log, k.pile + bytes((rank,)), counts)
    if kind == _MELD:
        held = k.known[seat]
        for rank in ranks:
            if held[rank]:
                return None
        return Known(k.hand_number, log, k.pile, k.known)
    return None


def _follow(k: Known, state: State, new: list[tuple[int, Move | None, str]]) -> Known:
    """``k`` after the history entries ``new`` (``_since``), read one by one."""
    r = state.rules
    limit = r.pile_take_limit
    bonus_blacks = r.pile_black_threes == "bonus"
    held_reds = r.threes_laid_out == "none"
    pile = list(k.pile)
    known = list(k.known)
    for seat, move, text in new:
        if move is None:  # not a move: read from its text, as sampling.known_in_hands does
            who, _, what = text.partition(" ")
            words = what.split()
            mine = list(known[int(who)])
            if words[0] == "upcard":
                pile.extend(1 if parse_card(c) in RED_THREES else rank_of(parse_card(c)) for c in words[1:])
            else:
                pile = follow_entry(words, mine, pile, limit, held_reds, bonus_blacks)
            known[int(who)] = tuple(mine)
            continue
        kind, ranks = _effect(move)  # what follow_entry does with the move's words
        mine = list(known[seat])
        if kind == _DISCARD:
            rank = ranks[0]
            pile.append(rank)
            mine[rank] = max(0, mine[rank] - 1)
        else:
            if kind == _TAKE:
                n = limit if limit and len(pile) > limit else len(pile)
                taken = pile[len(pile) - n:]
                pile = pile[: len(pile) - n]
                for j in range(len(taken) - 1):
                    rank = taken[j]
                    if (rank != 1 or held_reds) and not (bonus_blacks and rank == THREE):
                        mine[rank] += 1
            for rank in ranks:
                mine[rank] = max(0, mine[rank] - 1)
        known[seat] = tuple(mine)
    return Known(state.hand_number, state.log, bytes(pile), tuple(known))


def pile_matches(k: Known, state: State) -> bool:
    """Is the pile the history built the pile in sight? (Not once the pile was recycled.)"""
    return _matches_from(k.pile, state.pile, state.pile_hidden, state.pile_hidden)


def pile_still_matches(k: Known, state: State, pile: tuple[int, ...], mine: bytes, hidden: int) -> bool:
    """``pile_matches(k, state)``, given that it held for an earlier pile in sight ``pile`` (with ``hidden``) and
    history's pile ``mine``: where both piles only grew since, only the cards added on top are compared (the
    environments ask after every discard, and a whole pile costs some 40 instructions a card)."""
    now, now_mine = state.pile, k.pile
    n = len(pile)
    if (state.pile_hidden == hidden and len(now) >= n and len(now_mine) >= len(mine) and now[:n] == pile
            and now_mine[:len(mine)] == mine):  # (compared in C, with no conversion of the cards)
        return _matches_from(now_mine, now, hidden, n)
    return pile_matches(k, state)


def _matches_from(mine: bytes, pile: tuple[int, ...], hidden: int, start: int) -> bool:
    """Does ``mine`` give the rank codes of ``pile[hidden:]``? (Its cards below ``start`` known to match.)"""
    if len(mine) != len(pile) - hidden:
        return False
    for j in range(start, len(pile)):  # noqa: SIM110 (a plain loop: native code when compiled)
        if mine[j - hidden] != _RANK_CODES[pile[j]]:
            return False
    return True


def known_ranks(k: Known, state: State) -> dict[int, dict[int, int]]:
    """Per seat, rank code -> cards known in that hand (``known_in_hands`` of any seat's view)."""
    if not pile_matches(k, state):  # the pile was recycled: claim nothing (as known_in_hands does)
        return {s: {} for s in range(len(k.known))}
    out = {s: {rank: n for rank, n in enumerate(c) if n} for s, c in enumerate(k.known)}
    stage = state.stage
    if stage is not None and stage.pending:  # a pile taken to open lies beside the table until it opens
        taker = out[state.turn_seat]
        for c in stage.pending:
            rank = rank_of(c)
            if taker.get(rank):
                taker[rank] -= 1
                if not taker[rank]:
                    del taker[rank]
    return out
