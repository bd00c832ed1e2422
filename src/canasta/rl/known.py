"""Cards known to be in the hands, followed move by move (the same answer as
``canasta.sampling.known_in_hands(view)``, which re-reads the whole public history every call).

The environments ask after every move, so this keeps the pile as ranks and each seat's known ranks and
reads only the history entries added since the last position. Tests check it against
``known_in_hands`` on many positions of every preset.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import RED_THREES, parse_card, rank_of
from ..sampling import follow_entry
from ..state import State
from .actions import RANKS

_SHOWING = ("upcard", "discard", "take", "meld")  # the history events that change the pile or what is known
Counts = tuple[int, ...]  # RANKS counts per rank code (1 = a red three held)
_RANK_CODES = tuple(1 if c in RED_THREES else rank_of(c) for c in range(53))  # as the history names them


class Known(NamedTuple):
    """What the public history of the current hand has shown so far."""

    hand_number: int
    read: int  # history entries read
    pile: tuple[int, ...]  # the pile's ranks as the history built it
    known: tuple[Counts, ...]  # per seat


def start(state: State) -> Known:
    return advance(Known(0, 0, (), ()), state)


def advance(k: Known, state: State) -> Known:
    """``k`` brought up to ``state`` (a later position of the same game)."""
    r = state.rules
    history = state.history
    if k.hand_number != state.hand_number or k.read > len(history):
        k = Known(state.hand_number, 0, (), ((0,) * RANKS,) * r.players)
    if k.read == len(history):
        return k
    new = history[k.read:]
    if not any(e.split(" ", 2)[1] in _SHOWING for e in new):  # draw, ask, …: nothing known changes
        return k._replace(read=len(history))
    limit = r.pile_take_limit
    bonus_blacks = r.pile_black_threes == "bonus"
    held_reds = r.threes_laid_out == "none"
    pile = list(k.pile)
    known = [list(c) for c in k.known]
    for entry in new:
        who, _, what = entry.partition(" ")
        words = what.split()
        mine = known[int(who)]
        if words[0] == "upcard":
            pile.extend(1 if parse_card(c) in RED_THREES else rank_of(parse_card(c)) for c in words[1:])
        else:
            pile = follow_entry(words, mine, pile, limit, held_reds, bonus_blacks)
    return Known(state.hand_number, len(history), tuple(pile), tuple(tuple(c) for c in known))


def known_ranks(k: Known, state: State) -> dict[int, dict[int, int]]:
    """Per seat, rank code -> cards known in that hand (``known_in_hands`` of any seat's view)."""
    visible = tuple(map(_RANK_CODES.__getitem__, state.pile[state.pile_hidden:]))
    if k.pile != visible:  # the pile was recycled: claim nothing (as known_in_hands does)
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
