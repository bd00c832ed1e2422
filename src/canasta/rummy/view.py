"""Per-seat views of a rummy game: everything a seat may see and nothing more.

The discard pile is spread, so every pile card is public (§8.1 [S2]); the cards taken from it stay known.
Hands are hidden but their sizes; the stock shows only its size. ``seat=None`` is a spectator's view.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..canasta.cards import card_str
from .melds import labels
from .state import RummyState


def _cs(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_str(c) for c in cards]


def public_view(s: RummyState) -> dict[str, Any]:
    r = s.rules
    return {
        "family": "rummy",
        "variant": r.name,
        "rules": r.to_dict(),
        "players": r.players,
        "teams": r.teams,
        "hand_number": s.hand_number,
        "dealer": s.dealer,
        "to_move": s.to_move if s.result is None else None,
        "phase": s.phase,
        "scores": list(s.scores),
        "hand_sizes": [len(h) for h in s.hands],
        "stock": len(s.stock),
        "pile": _cs(s.pile),
        "melds": [{"label": name, "kind": m.kind, "cards": _cs(m.cards), "seats": list(m.seats),
                   "points": list(m.points)} for m, name in zip(s.melds, labels(s.melds), strict=True)],
        "must_use": card_str(s.must_use) if s.must_use >= 0 else None,
        "taken": _cs(s.taken),
        "melded": [s.melded[i] or (s.turn_melded and i == s.turn_seat) for i in range(r.players)],
        "reshuffles": s.reshuffles,
        # Dealer's Gambit: the dealer's joker face up beside the stock (with a second joker face down over it
        # once blocked), the effect the dealer nominated for the hand ("" until he has) and the cards a split
        # took out of the game
        "dealers_joker": _cs(s.aside),
        "dealers_joker_blocked": len(s.aside) > 1,
        "joker_effect": r.joker_effect,
        "removed": _cs(s.removed),
        "claim_from": s.claim_from if s.claim_from >= 0 else None,  # call_rum: who discarded the claimable card
        "history": [h for h in s.history],
        "last_hand": s.last_hand,
        "result": s.result,
        "target": r.game_target(),
    }


def view(s: RummyState, seat: int | None) -> dict[str, Any]:
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.rules.players):
        raise ValueError(f"seat must be 0..{s.rules.players - 1}, got {seat!r}")
    out = public_view(s)
    out["seat"] = seat
    if seat is not None:
        out["hand"] = _cs(s.hands[seat])
        out["side"] = s.rules.side_of(seat)
    return out


def seat_views(s: RummyState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """What a table shows each of ``seats`` (None: a spectator): ``view`` plus ``legal_moves``, the notation of
    every legal move when that seat is to move (else empty), the field Canasta's view carries."""
    from .api import legal_moves  # (the engine's entry points, above this module)

    out: dict[int | None, dict[str, Any]] = {}
    for seat in set(seats):
        seen = view(s, seat)
        if seat is None:
            seen["hand"] = []
        to_move = seat is not None and s.result is None and s.to_move == seat
        seen["legal_moves"] = [str(m) for m in legal_moves(s)] if to_move else []
        out[seat] = seen
    return out


def face_up(s: RummyState) -> dict[str, Any]:
    """The whole position (``to_dict``) with every meld's name in notation (``label``, as in a seat's view)."""
    d = s.to_dict()
    for meld, name in zip(d["melds"], labels(s.melds), strict=True):
        meld["label"] = name
    return d
