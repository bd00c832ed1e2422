"""Cards known to be in the hands, followed move by move (the same answer as
``canasta.sampling.known_in_hands(view)``, which re-reads the whole public history every call).

The environments ask after every move, so this keeps the pile as ranks and each seat's known ranks and
reads only the history entries added since the last position. Tests check it against
``known_in_hands`` on many positions of every preset.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import RED_THREES, parse_card, rank_of
from ..moves import Move
from ..sampling import follow_entry
from ..state import Log, State, entry_text
from .actions import RANKS

_SHOWING = ("upcard", "discard", "take", "meld")  # the history events that change the pile or what is known
Counts = tuple[int, ...]  # RANKS counts per rank code (1 = a red three held)
_RANK_CODES = tuple(1 if c in RED_THREES else rank_of(c) for c in range(53))  # as the history names them


class Known(NamedTuple):
    """What the public history of the current hand has shown so far."""

    hand_number: int
    read: Log  # the newest history entry read (the state's log node: positions share their older entries)
    pile: tuple[int, ...]  # the pile's ranks as the history built it
    known: tuple[Counts, ...]  # per seat


def start(state: State) -> Known:
    return advance(Known(0, None, (), ()), state)


def _since(log: Log, read: Log) -> list[str] | None:
    """The history entries after node ``read`` that show cards (``_SHOWING``), oldest first, as text (only
    these are formatted: reading ``state.history`` would format the whole hand); None when ``read`` is not
    an older entry of ``log``."""
    new: list[str] = []
    node = log
    while node is not read:
        if node is None:
            return None
        seat, event = node[1], node[2]
        if type(event) is not Move or event.action in _SHOWING:  # a Move that shows nothing needs no text
            text = entry_text(seat, event)
            if text.split(" ", 2)[1] in _SHOWING:
                new.append(text)
        node = node[0]
    new.reverse()
    return new


def advance(k: Known, state: State) -> Known:
    """``k`` brought up to ``state`` (a later position of the same game)."""
    r = state.rules
    new = _since(state.log, k.read) if k.hand_number == state.hand_number else None
    if new is None:  # a new hand (or a history given anew): read it from its start
        k = Known(state.hand_number, None, (), ((0,) * RANKS,) * r.players)
        new = _since(state.log, None) or []
    if not new:  # draw, ask, …: nothing known changes
        return k if k.read is state.log else k._replace(read=state.log)
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
    return Known(state.hand_number, state.log, tuple(pile), tuple(tuple(c) for c in known))


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
