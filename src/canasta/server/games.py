"""What the server's rooms show of a game, whatever its family: each seat's view and the table at the end of
a hand. The family is asked (``canasta.play.family.play_family``: what a table shows each seat) and so are the
rules; everything else goes through the package's own entry points (``canasta.apply``, ``legal_moves``,
``is_over``, ``outcome``), which send each call to the state's family.

A seat's view carries ``legal_moves``, the notation of every legal move when the seat is to move (else
empty), which every client reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from .. import apply
from .. import view as any_view
from ..canasta.state import State
from ..play.family import play_family
from ..positions import load_state
from ..rummy import RummyState

AnyState = State | RummyState

__all__ = ["AnyState", "final_table", "hand_sides", "load", "move_effects", "played", "seat_view", "seat_views"]


def load(text: str) -> AnyState:
    """A stored position of either family (its JSON says which)."""
    return load_state(text)


def seat_view(state: AnyState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see."""
    return play_family(state).seat_views(state, (seat,))[seat]


def seat_views(state: AnyState, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``seat_view`` for each of ``seats``, built once per move."""
    return play_family(state).seat_views(state, seats)


def hand_sides(state: AnyState) -> list[dict[str, Any]]:
    """Each side's scores of the hand ``state``'s move just finished, for the score pad (the family reads its
    ``last_hand``)."""
    return play_family(state).hand_sides(state)


def final_table(before: AnyState, move: Any, seat: int) -> dict[str, Any]:
    """The table as ``move`` (by ``seat``) left it when it ended the hand, every hand face up, as the players
    see it before the cards are gathered: ``{"hand", "sides"`` (Canasta) or ``"melds"`` (rummy)``, "hands",
    "went_out", "pile_top"}``. The engine deals the next hand at once, so the move is replayed under the same rules made
    to end the game with this hand: that keeps the last position (and gives the same breakdown)."""
    last = dataclasses.replace(before.rules, hands_per_game=before.hand_number)
    if last.tie == "play_on":  # a tie at the top would otherwise play another hand
        last = dataclasses.replace(last, tie="draw")
    ended = apply(before.replace(rules=last), move)
    public = seat_view(ended, None)
    hands = [any_view(ended, s)["hand"] for s in range(before.rules.players)]
    went_out = play_family(ended).went_out(ended, seat, bool(hands[seat]))
    out: dict[str, Any] = {"hand": before.hand_number, "hands": hands, "went_out": went_out,
                           "pile_top": public.get("pile_top") or (public.get("pile") or [None])[-1]}
    for key in ("sides", "melds"):
        if key in public:
            out[key] = public[key]
    return out


def played(before: dict[str, Any], after: dict[str, Any], move: str, seat: int) -> dict[str, Any]:
    """What every seat saw ``seat``'s ``move`` put on the table, suited, from the public views before and after
    it (a Canasta move's notation names ranks only): ``{"took": the pile's size when the move took it, else
    None, "melds": [{"key", "rank", "added": [cards], "new": bool}]}``, the melds of the mover's side the move
    made or added to. The rummy family's moves name their cards: its list stays empty."""
    took = before.get("pile_size", len(before.get("pile") or [])) if move.split(" ")[0] == "take" else None
    side = next((i for i, s in enumerate(before.get("sides") or []) if seat in s["seats"]), None)
    if side is None:
        return {"took": took, "melds": []}
    old = {m.get("key") or m["rank"]: list(m["cards"]) for m in before["sides"][side]["melds"]}
    melds = []
    for m in after["sides"][side]["melds"]:
        key = m.get("key") or m["rank"]
        pool, added = list(old.get(key, [])), []
        for card in m["cards"]:
            if card in pool:
                pool.remove(card)
            else:
                added.append(card)
        if added:
            melds.append({"key": key, "rank": m["rank"], "added": added, "new": key not in old})
    return {"took": took, "melds": melds}


def move_effects(before: AnyState, move: Any, seat: int) -> list[dict[str, Any]]:
    """What ``move`` does for ``seat``, in public terms, for a hint's "why": ``[{"code", ...}]`` with the codes
    ``goes_out``, ``opens``, ``canasta`` (``count``: canastas made), ``takes_pile`` (``count``: its cards),
    ``freezes_pile``, ``blocks_pile`` (a black three discarded), ``safe_discard`` (no other side has a meld of
    that rank) and ``lays_points`` (``count``: points put on the table, the rummy family)."""
    after = apply(before, move)
    out: list[dict[str, Any]] = []
    if after.hand_number != before.hand_number or after.result is not None:
        if final_table(before, move, seat)["went_out"] == seat:
            out.append({"code": "goes_out"})
        return out
    old, new = seat_view(before, seat), seat_view(after, seat)
    action = str(move).split()[0]
    if action == "take":
        out.append({"code": "takes_pile", "count": old.get("pile_size", len(old.get("pile") or []))})
    if "sides" in new:  # Canasta
        side = new["side"]
        was, now = old["sides"][side], new["sides"][side]
        if now["opened"] and not was["opened"]:
            out.append({"code": "opens"})
        if now["canastas"] > was["canastas"]:
            out.append({"code": "canasta", "count": now["canastas"] - was["canastas"]})
        if action == "discard":
            top = new["pile_top"] or ""
            if new["pile_frozen"] and not old["pile_frozen"]:
                out.append({"code": "freezes_pile"})
            elif top in ("3S", "3C"):
                out.append({"code": "blocks_pile"})
            elif not any(m["rank"] == top[:-1] for i, s in enumerate(new["sides"]) if i != side for m in s["melds"]):
                out.append({"code": "safe_discard"})
    else:  # the rummy family: the points each card laid scores for the seat that laid it
        def laid(view: dict[str, Any]) -> int:
            return sum(p for m in view["melds"] for s, p in zip(m["seats"], m["points"], strict=True) if s == seat)
        gained = laid(new) - laid(old)
        if gained > 0:
            out.append({"code": "lays_points", "count": gained})
    return out
