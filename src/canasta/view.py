"""What one seat may see (DESIGN.md A "per-seat views"): the only door hidden cards pass through.

A seat sees its own hand; of the others only their sizes; of every foot (Hand and Foot), its own
included, only its size; the table (melds, red threes, the pile,
which every player watched being built); the stock's size but never its order; scores and the
public history. The seed and the deal are never shown: they would reveal the stock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .cards import TWO, card_str, cards_of, rank_str
from .engine import canasta_count, legal_moves, meld_counts, minimum_needed, pile_frozen_for
from .melds import is_sequence_key, key_label, key_rank
from .rules import Rules
from .scoring import is_natural, is_wild_meld
from .state import Melds, State

SEAT_NAMES_4 = ("North", "East", "South", "West")


def seat_name(rules_players: int, seat: int) -> str:
    if rules_players == 4:
        return SEAT_NAMES_4[seat]
    return f"Player {seat + 1}"


def _kind(rules: Rules, key: int, meld: tuple[int, ...]) -> str:
    if is_sequence_key(key):
        return "sequence"
    if key_rank(key) == TWO and rules.twos_as_rank:
        return "twos"
    return "natural" if is_natural(meld) else "wild" if is_wild_meld(meld) else "mixed"


def _rank_name(key: int) -> str:
    """The meld's rank ("9", "wild", "2"), or "sequence" for a sequence."""
    if is_sequence_key(key):
        return "sequence"
    rank = key_rank(key)
    return "wild" if rank == 0 else rank_str(rank)


def _meld_order(item: tuple[int, tuple[int, ...]]) -> tuple[int, int, int]:
    """Groups from aces down (wild melds last), then sequences by suit: the order a table shows them."""
    key = item[0]
    if is_sequence_key(key):
        return (1, key, 0)
    return (0, -(key_rank(key) or 1), key)


def meld_entries(rules: Rules, melds: Melds) -> list[dict[str, Any]]:
    """A side's melds as the view shows them, in table order."""
    return [{"rank": _rank_name(key), "key": key_label(key), "cards": [card_str(c) for c in m],
             "naturals": meld_counts(m)[0], "wilds": meld_counts(m)[1], "canasta": len(m) >= 7,
             "kind": _kind(rules, key, m) if len(m) >= 7 or is_sequence_key(key) else None}
            for key, m in sorted(melds.items(), key=_meld_order)]


def side_entries(state: State, seat: int | None,
                 entries: Callable[[Rules, Melds], list[dict[str, Any]]] = meld_entries) -> list[dict[str, Any]]:
    """The view's ``sides``: each side's public table as ``seat`` sees it (its own minimum by its score).

    ``entries`` builds a side's melds (search play-outs pass a cached ``meld_entries``); ``seat`` None: a
    spectator, who sees each side's minimum by the side's score."""
    r = state.rules
    me = None if seat is None else state.side_of(seat)
    return [{
        "seats": list(state.seats_of(side)),
        "score": state.scores[side],
        "opened": state.opened[side],
        "minimum_needed": minimum_needed(state, side, seat if side == me else None),
        "red_threes": [card_str(c) for c in state.red_threes[side]],
        "canastas": canasta_count(state.melds[side]),
        "pile_frozen_for_side": pile_frozen_for(state, side),
        "melds": entries(r, state.melds[side]),
    } for side in range(r.teams)]


def view(state: State, seat: int) -> dict[str, Any]:
    """A JSON-ready dict of everything ``seat`` may see, and nothing more."""
    return _view(state, seat, state.to_dict())


def seat_views(state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``view`` for each of ``seats`` (None: ``public_view``), built from one ``state.to_dict()``: what a
    server sends after every move. The views share their unchanged parts: read them, don't modify them."""
    full = state.to_dict()
    return {seat: _public_view(state, full) if seat is None else _view(state, seat, full) for seat in seats}


def _view(state: State, seat: int, full: dict[str, Any]) -> dict[str, Any]:
    r = state.rules
    if not 0 <= seat < r.players:
        raise ValueError(f"seat must be 0..{r.players - 1}, got {seat}")
    me = state.side_of(seat)
    stage = state.stage
    sides = side_entries(state, seat)
    out: dict[str, Any] = {
        "variant": r.name,
        "rules": r.to_dict(),
        "seat": seat,
        "side": me,
        "players": r.players,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "turn_seat": state.turn_seat,
        "to_move": state.to_move,
        "phase": state.phase,
        "hand": [card_str(c) for c in cards_of(state.hands[seat])],
        "hand_sizes": [sum(h) for h in state.hands],
        "foot_sizes": [sum(f) for f in state.feet],  # a foot is hidden from everybody, its owner too
        "scores": list(state.scores),  # one column per side (per player in Cutthroat)
        "seat_sides": list(state.seat_sides),
        "stock_size": len(state.stock),
        "pile": [card_str(c) for c in state.pile[state.pile_hidden:]],  # the face-down cards stay hidden
        "pile_hidden": state.pile_hidden,
        "pile_top": card_str(state.pile[-1]) if state.pile else None,
        "pile_size": len(state.pile),
        "pile_frozen": state.pile_frozen,
        "sides": sides,
        "permission": state.turn.permission,
        "staged_points": None if stage is None else stage.points,
        "pending_pile": None if stage is None or stage.pending is None else [card_str(c) for c in stage.pending],
        "last_hand": None if state.last_hand is None else list(state.last_hand),
        "history": list(state.history),
        "result": state.result,
        "legal_moves": [str(m) for m in legal_moves(state)] if state.to_move == seat else [],
        "upcards": upcards(state),
        "public_state": public_state(state, seat, full),
    }
    return out


def public_view(state: State) -> dict[str, Any]:
    """What a spectator may see while play goes on: ``view`` with every seat's own part blanked (no hand,
    no legal moves, no hand snapshot of a staged opening); ``seat`` and ``side`` are None."""
    return _public_view(state, state.to_dict())


def _public_view(state: State, full: dict[str, Any]) -> dict[str, Any]:
    out = _view(state, state.turn_seat, full)
    out.update(seat=None, side=None, hand=[], legal_moves=[])
    out["sides"] = side_entries(state, None)
    public = out["public_state"]
    public["hands"] = [None] * len(public["hands"])
    if public["stage"] is not None:
        public["stage"] = {**public["stage"], "hand": None}
    return out


def upcards(state: State) -> list[str]:
    """The cards turned up to start this hand's pile (the hand's first history event)."""
    if state.history and state.history[0].split(" ", 2)[1:2] == ["upcard"]:
        return state.history[0].split()[2:]
    return []


def public_state(state: State, seat: int, full: dict[str, Any] | None = None) -> dict[str, Any]:
    """The position as ``seat`` may know it: ``state.to_dict()`` with every hidden part blanked (other
    hands, the stock, every foot (its owner's too), the hand snapshot of another player's staged opening)
    or left out (the deal and the seed).
    ``canasta.sampling.determinize`` fills the blanks with cards consistent with the view."""
    d = dict(state.to_dict() if full is None else full)  # ``full``: the state's to_dict(), shared, never changed
    d["hands"] = [cards if i == seat else None for i, cards in enumerate(d["hands"])]
    d["stock"] = None
    if "feet" in d:
        d["feet"] = [None] * len(d["feet"])
    d["pile"] = [None] * state.pile_hidden + d["pile"][state.pile_hidden:]
    del d["deal"], d["seed"]
    if d["stage"] is not None and state.turn_seat != seat:
        d["stage"] = {**d["stage"], "hand": None}
    return d
