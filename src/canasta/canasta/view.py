"""What one seat may see: the only door hidden cards pass through.

A seat sees its own hand; of the others only their sizes; of every foot (Hand and Foot), its own
included, only its size; the table (melds, red threes, the pile,
which every player watched being built); the stock's size but never its order; scores and the
public history. The seed and the deal are never shown: they would reveal the stock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from .cards import TWO, card_str, cards_of, rank_str
from .engine import canasta_count, legal_moves, meld_counts, minimum_needed, pile_frozen_for
from .melds import is_sequence_key, key_label, key_rank
from .rules import Rules
from .scoring import is_natural, is_wild_meld
from .state import Log, Melds, State, ViewParts, entry_text, log_text, position_dict

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


def meld_order(item: tuple[int, tuple[int, ...]]) -> tuple[int, int, int]:
    """Groups from aces down (wild melds last), then sequences by suit: the order a table shows them."""
    key = item[0]
    if is_sequence_key(key):
        return (1, key, 0)
    return (0, -(key_rank(key) or 1), key)


def _meld_entry(rules: Rules, key: int, m: tuple[int, ...]) -> dict[str, Any]:
    naturals, wilds = meld_counts(m)
    return {"rank": _rank_name(key), "key": key_label(key), "cards": [card_str(c) for c in m],
            "naturals": naturals, "wilds": wilds, "canasta": len(m) >= 7,
            "kind": _kind(rules, key, m) if len(m) >= 7 or is_sequence_key(key) else None}


def side_entries(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The view's ``sides``: each side's public table as ``seat`` sees it (its own minimum by its score), as new
    objects (the view's caller owns them). ``seat`` None: a spectator, who sees each side's minimum by the side's
    score."""
    parts = _parts(state)
    me = None if seat is None else state.side_of(seat)
    return [_side_entry(state, side, minimum_needed(state, side, seat if side == me else None),
                        [{**e, "cards": list(e["cards"])} for e in _meld_entries(parts, side, state.melds[side])])
            for side in range(state.rules.teams)]


def _side_entry(state: State, side: int, minimum: int, melds: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "seats": list(state.seats_of(side)),
        "score": state.scores[side],
        "opened": state.opened[side],
        "minimum_needed": minimum,
        "red_threes": [card_str(c) for c in state.red_threes[side]],
        "canastas": canasta_count(state.melds[side]),
        "pile_frozen_for_side": pile_frozen_for(state, side),
        "melds": melds,
    }


# --- one builder for the view and the lean view -----------------------------------------------------
#
# Each field of a view is built by one function of (state, seat, lean). ``view`` calls every one of them
# with lean False; a ``LeanView`` (for computer players' play-outs) calls one when a field is first read,
# with lean True. Both build from texts kept in the game's ``ViewParts`` (``_parts``), which the states pass
# on to the next: a view of the next state finds there the texts of the parts that did not change (states
# are values: the engine shares an unchanged part between a state and the next and never changes a part a
# state holds). Lean shares those texts and entries between lean views; a view copies them, so that its
# caller owns it. Both hold equal values (tests/test_view.py checks it).


def _parts(state: State) -> ViewParts:
    """The texts the views of this game's states share (made with the first view, passed on by the engine)."""
    parts = state.view_parts
    if parts is None or parts.rules is not state.rules:
        parts = ViewParts(state.rules)
        state.keep_view_parts(parts)
    return parts


def _meld_entries(parts: ViewParts, side: int, melds: Melds) -> list[dict[str, Any]]:
    """A side's melds as the view shows them, in table order, shared (read them, never change them): kept while
    the side's melds are the same dict (a side's melds change a few times a hand; rebuilding them every move was
    a third of a play-out), and a meld's entry while it is the same tuple (a meld move changes one meld of a
    side's few)."""
    hit = parts.melds[side]
    if hit is not None and hit[0] is melds:
        return hit[1]
    before = hit[2] if hit is not None else {}
    entries: list[dict[str, Any]] = []
    by_key: dict[int, tuple[tuple[int, ...], dict[str, Any]]] = {}
    for key, m in sorted(melds.items(), key=meld_order):
        old = before.get(key)
        entry = old[1] if old is not None and old[0] is m else _meld_entry(parts.rules, key, m)
        by_key[key] = (m, entry)
        entries.append(entry)
    parts.melds[side] = (melds, entries, by_key)
    return entries


def _pile_texts(state: State, parts: ViewParts) -> tuple[list[str], list[str]]:
    """The pile's face-up cards and all its cards as texts, shared (read them, never change them): kept while the
    pile is the same tuple (most moves leave it as it was)."""
    pile, hidden = state.pile, state.pile_hidden
    hit = parts.pile
    if hit is not None and hit[0] is pile and hit[1] == hidden:
        return hit[2], hit[3]
    every = _cards_field(pile)
    texts = every[hidden:] if hidden else every
    parts.pile = (pile, hidden, texts, every)
    return texts, every


def _pile_field(state: State, lean: bool) -> list[str]:
    """The pile's face-up cards (a lean view shares them)."""
    texts = _pile_texts(state, _parts(state))[0]
    return texts if lean else list(texts)


def _lean_sides(state: State, seat: int) -> list[dict[str, Any]]:
    """``side_entries`` for a lean view: a side's entry is shared with earlier lean views whose side was the same
    (most moves change one side's table at most)."""
    parts = _parts(state)
    me = state.side_of(seat)
    seats = state.seat_sides
    out = []
    for side in range(state.rules.teams):
        melds, threes, score, opened = state.melds[side], state.red_threes[side], state.scores[side], state.opened[side]
        minimum = minimum_needed(state, side, seat if side == me else None)
        frozen = pile_frozen_for(state, side)
        hit = parts.sides[side]
        if (hit is not None and hit[0] is melds and hit[1] is threes and hit[2] is seats and hit[3] == score
                and hit[4] == opened and hit[5] == minimum and hit[6] == frozen):
            out.append(hit[7])
            continue
        entry = _side_entry(state, side, minimum, _meld_entries(parts, side, melds))
        parts.sides[side] = (melds, threes, seats, score, opened, minimum, frozen, entry)
        out.append(entry)
    return out


def _hand_field(state: State, seat: int, lean: bool) -> list[str]:
    texts = _hand_texts(_parts(state), seat, state.hands[seat])
    return texts if lean else list(texts)  # a lean view shares the texts; a view's caller owns its list


def _hand_texts(parts: ViewParts, seat: int, counts: tuple[int, ...]) -> list[str]:
    """A seat's hand's cards as texts, shared: read them, never change them. Kept while the hand is the same
    tuple (a hand changes on its own seat's moves only)."""
    hit = parts.hands[seat]
    if hit is not None and hit[0] is counts:
        return hit[1]
    texts = _cards_field(cards_of(counts))
    parts.hands[seat] = (counts, texts)
    return texts


def _size(counts: tuple[int, ...]) -> int:
    """How many cards a hand of counts holds. (A loop: compiled, ``sum`` of a tuple is a generic call per
    item, and the hand sizes were a quarter of a search play-out's time.)"""
    n = 0
    for x in counts:
        n += x
    return n


def _cards_field(cards: Iterable[int]) -> list[str]:
    return [card_str(c) for c in cards]


def _pending(state: State) -> list[str] | None:
    stage = state.stage
    return None if stage is None or stage.pending is None else _cards_field(stage.pending)


Field = Callable[[State, int, bool], Any]
_FIELDS: Final[dict[str, Field]] = {
    "variant": lambda s, seat, lean: s.rules.name,
    "rules": lambda s, seat, lean: s.rules.spec if lean else s.rules.to_dict(),
    "seat": lambda s, seat, lean: seat,
    "side": lambda s, seat, lean: s.side_of(seat),
    "players": lambda s, seat, lean: s.rules.players,
    "hand_number": lambda s, seat, lean: s.hand_number,
    "dealer": lambda s, seat, lean: s.dealer,
    "turn_seat": lambda s, seat, lean: s.turn_seat,
    "to_move": lambda s, seat, lean: s.to_move,
    "phase": lambda s, seat, lean: s.phase,
    "hand": _hand_field,
    "hand_sizes": lambda s, seat, lean: [_size(h) for h in s.hands],
    "foot_sizes": lambda s, seat, lean: [_size(f) for f in s.feet],  # a foot is hidden from everybody, its owner too
    "scores": lambda s, seat, lean: list(s.scores),  # one column per side (per player in Cutthroat)
    "seat_sides": lambda s, seat, lean: list(s.seat_sides),
    "stock_size": lambda s, seat, lean: len(s.stock),
    "pile": lambda s, seat, lean: _pile_field(s, lean),  # the face-down cards stay hidden
    "pile_hidden": lambda s, seat, lean: s.pile_hidden,
    "pile_top": lambda s, seat, lean: card_str(s.pile[-1]) if s.pile else None,
    "pile_size": lambda s, seat, lean: len(s.pile),
    "pile_frozen": lambda s, seat, lean: s.pile_frozen,
    "sides": lambda s, seat, lean: _lean_sides(s, seat) if lean else side_entries(s, seat),
    "permission": lambda s, seat, lean: s.turn.permission,
    "staged_points": lambda s, seat, lean: None if s.stage is None else s.stage.points,
    "pending_pile": lambda s, seat, lean: _pending(s),
    "last_hand": lambda s, seat, lean: None if s.last_hand is None else list(s.last_hand),
    "history": lambda s, seat, lean: list(history_text(s)),
    "result": lambda s, seat, lean: s.result,
    "legal_moves": lambda s, seat, lean: [str(m) for m in legal_moves(s)] if s.to_move == seat else [],
    "upcards": lambda s, seat, lean: upcards(s),
    "public_state": lambda s, seat, lean: public_state(s, seat),
}


def _check_seat(state: State, seat: int) -> None:
    players = state.rules.players
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1}, got {seat}")


class LeanView(dict[str, Any]):
    """``view(state, seat)`` built lazily: a field is built when it is first read (``view[key]``), by the
    same builder as ``view``'s, and kept. For computer players' play-outs, where most decisions read a
    few fields and many have one legal move. Read it by key (``[]``, ``get``, ``in``); iterating shows
    only the fields read so far, and ``to_dict()`` gives them all. Parts are shared between lean views
    (the rules spec, meld entries): read them, don't change them."""

    __slots__ = ("state", "viewer")

    def __init__(self, state: State, seat: int) -> None:
        super().__init__()
        _check_seat(state, seat)
        self.state, self.viewer = state, seat

    def __missing__(self, key: str) -> Any:
        value = self[key] = _FIELDS[key](self.state, self.viewer, True)
        return value

    def __contains__(self, key: object) -> bool:
        return key in _FIELDS

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in _FIELDS else default

    def to_dict(self) -> dict[str, Any]:
        """Every field, in ``view``'s order."""
        return {key: self[key] for key in _FIELDS}

    def history_since(self, start: int) -> tuple[int, list[str]]:
        """``(len(view["history"]), view["history"][start:])``, without writing out the whole history:
        a player that read the history up to ``start`` at an earlier move needs only the entries since.
        (The whole history's text costs a walk and a copy of every entry, every move.)"""
        if "history" in self.keys():  # already built for this view
            history: list[str] = self["history"]
            return len(history), history[start:]
        newer, older = _newest_entries(self.state)
        if len(newer) >= _LONG_WALK:  # written out once, the text is kept at this entry (``state.log_text``): every
            older, newer = log_text(self.state.log), []  # later walk along this history stops there
        out: list[str] = list(older[start:])
        first = max(0, start - len(older))  # the oldest of the newer entries wanted, counted from the oldest
        for i in range(len(newer) - 1 - first, -1, -1):  # (newer is newest first)
            node = newer[i]
            out.append(entry_text(node[1], node[2]))
        return len(newer) + len(older), out

    def numbers(self) -> tuple[int, int, int, int, str, int, int | None, str | None, bool, tuple[int, ...]]:
        """The view's scalar fields in one call, for a player that reads them every move: ``(view["seat"],
        view["side"], view["players"], view["hand_number"], view["phase"], view["stock_size"],
        view["staged_points"], view["permission"], view["pile_frozen"], view["seat_sides"])`` (the last as a
        tuple). Each field read by key is built on first reading, a call per field."""
        state, seat = self.state, self.viewer
        stage = state.stage
        return (seat, state.seat_sides[seat], state.rules.players, state.hand_number, state.phase, len(state.stock),
                None if stage is None else stage.points, state.turn.permission, state.pile_frozen, state.seat_sides)

    def game_rules(self) -> Rules:
        """The rules object ``view["rules"]`` describes (the position's own)."""
        return self.state.rules

    def side_numbers(self, side: int) -> tuple[tuple[int, ...], int, bool, tuple[int, ...], Melds]:
        """``view["sides"][side]`` as numbers, for a player that reads no texts: (its seats, its score, whether it
        has opened, its red threes as card codes, its melds as the engine keeps them: meld key -> card codes,
        ``meld_order`` gives the view's order). Its ``canastas`` are the melds of seven or more; the seat's own
        side's ``minimum_needed`` is ``own_minimum()``. Shared: never change them."""
        state = self.state
        return (state.seats_of(side), state.scores[side], bool(state.opened[side]), state.red_threes[side],
                state.melds[side])

    def own_minimum(self) -> int:
        """``view["sides"][view["side"]]["minimum_needed"]``, without building the sides."""
        state, seat = self.state, self.viewer
        return minimum_needed(state, state.side_of(seat), seat)

    def hand_counts(self) -> tuple[int, ...]:
        """The seat's own hand (``view["hand"]``) as counts per card kind (``cards.counts_of``), for a player that
        counts ranks without reading texts. Shared: never change it."""
        counts = self.state.hands[self.viewer]
        return counts if type(counts) is tuple else tuple(counts)

    def pile_cards(self) -> tuple[int, ...]:
        """The pile's face-up cards (``view["pile"]``) as card codes, for a player that reads no texts. The same
        object while the pile is (most moves leave it as it was); never change it."""
        state = self.state
        hidden = state.pile_hidden
        return state.pile[hidden:] if hidden else state.pile

    def recent_entries(self) -> Iterator[tuple[int, object]]:
        """``recent_history`` as (seat, event) pairs (``history_after``'s form), written out as none."""
        node: Log = self.state.log
        while node is not None and node[3] is None:
            yield node[1], node[2]
            node = node[0]
        if node is not None:
            text: tuple[str, ...] = node[3]
            for i in range(len(text) - 1, -1, -1):
                yield -1, text[i]

    @property
    def history_mark(self) -> object:
        """An opaque mark of the history as it stands in this view, for ``history_after`` in a later view."""
        return self.state.log

    def history_after(self, mark: object) -> list[tuple[int, object]] | None:
        """The history's entries since ``mark`` (``history_mark`` of an earlier view of the same hand), oldest
        first, each as (seat, event): ``entry_text(seat, event)`` is its text in ``view["history"]``. None
        when this history does not continue that one within a few dozen entries (then read
        ``history_since``). A play-out's player reads the few entries since its last move, without writing
        any of them out."""
        newer: list[tuple[int, object]] = []
        node: Log = self.state.log
        while node is not mark:
            if node is None or len(newer) >= _LONG_WALK:
                return None
            newer.append((node[1], node[2]))
            node = node[0]
        newer.reverse()
        return newer

    def recent_history(self) -> Iterator[str]:
        """``reversed(view["history"])``, newest first, each entry written out only when it is reached (a
        player that looks back over the current turn reads a few entries, not the hand's)."""
        if "history" in self.keys():
            history: list[str] = self["history"]
            for i in range(len(history) - 1, -1, -1):
                yield history[i]
            return
        node = self.state.log
        while node is not None and node[3] is None:
            yield entry_text(node[1], node[2])
            node = node[0]
        if node is not None:
            text: tuple[str, ...] = node[3]
            for i in range(len(text) - 1, -1, -1):
                yield text[i]


_LONG_WALK: Final = 32  # entries since the history's last text checkpoint that make ``history_since`` set a new one


def _newest_entries(state: State) -> tuple[list[list[Any]], tuple[str, ...]]:
    """The history's entries back to its newest text checkpoint (``state.Log``), newest first, and the
    checkpoint's text (the entries before them; empty without one)."""
    newer: list[list[Any]] = []
    node = state.log
    while node is not None and node[3] is None:
        newer.append(node)
        node = node[0]
    return newer, (() if node is None else node[3])


def lean_view(state: State, seat: int) -> LeanView:
    """What ``seat`` may see, as a ``LeanView`` (equal field by field to ``view(state, seat)``)."""
    return LeanView(state, seat)


def view(state: State, seat: int) -> dict[str, Any]:
    """A JSON-ready dict of everything ``seat`` may see, and nothing more."""
    _check_seat(state, seat)
    return _view(state, seat, _seen_dict(state, seat))


def _seen_dict(state: State, seat: int | None = None) -> dict[str, Any]:
    """``state.to_dict()`` for views, built from the texts kept between views (``_parts``): the stock and the deal
    (no view shows them) come out empty, and so do the other hands when only ``seat``'s view is wanted;
    ``public_state`` blanks or drops them all. The same content as ``to_dict`` (tests/test_view.py compares
    them on every preset): writing out the whole position was most of a view's price."""
    parts = _parts(state)
    hands = [list(_hand_texts(parts, i, h)) if seat is None or i == seat else [] for i, h in enumerate(state.hands)]
    melds = [_melds_json(parts, side, m) for side, m in enumerate(state.melds)]
    return position_dict(state, hands, [], list(_pile_texts(state, parts)[1]), melds, [], list(history_text(state)))


def _melds_json(parts: ViewParts, side: int, melds: Melds) -> dict[str, list[str]]:
    """A side's melds as ``State.to_dict`` writes them (label -> cards), as new objects (the view's caller owns
    them), copied from the JSON kept while the side's melds are the same dict."""
    hit = parts.melds_json[side]
    if hit is None or hit[0] is not melds:
        hit = (melds, {key_label(k): _cards_field(m) for k, m in sorted(melds.items())})
        parts.melds_json[side] = hit
    return {label: list(cards) for label, cards in hit[1].items()}


def seat_views(state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``view`` for each of ``seats`` (None: ``public_view``), built from one ``state.to_dict()``: what a
    server sends after every move. The views share their unchanged parts: read them, don't modify them."""
    full = _seen_dict(state)
    return {seat: _public_view(state, full) if seat is None else _view(state, seat, full) for seat in seats}


def _view(state: State, seat: int, full: dict[str, Any]) -> dict[str, Any]:
    _check_seat(state, seat)
    out = {key: field(state, seat, False) for key, field in _FIELDS.items() if key != "public_state"}
    out["public_state"] = public_state(state, seat, full)
    return out


def public_view(state: State) -> dict[str, Any]:
    """What a spectator may see while play goes on: ``view`` with every seat's own part blanked (no hand,
    no legal moves, no hand snapshot of a staged opening); ``seat`` and ``side`` are None."""
    return _public_view(state, _seen_dict(state))


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
    history = history_text(state)
    if history and history[0].split(" ", 2)[1:2] == ["upcard"]:
        return history[0].split()[2:]
    return []


def history_text(state: State) -> tuple[str, ...]:
    """``state.history``, written out from the history text made here last for this game (``ViewParts.history``)
    or kept in the log (``state.Log``) that it continues: after a move, the text of the entries since the last
    view only, where ``state.history`` writes out every entry since its last checkpoint (up to 32) each time. (A
    view reads the history three times: its field, the upcards, the public state.)"""
    parts = _parts(state)
    hit = parts.history
    mark = None if hit is None else hit[0]
    log: Log = state.log
    node = log
    newer: list[str] = []
    base: tuple[str, ...] = ()
    while node is not None:
        if node is mark and hit is not None:
            base = hit[1]
            break
        if node[3] is not None:
            base = node[3]
            break
        newer.append(entry_text(node[1], node[2]))
        node = node[0]
    if not newer:
        return base
    newer.reverse()
    text = (*base, *newer)
    if log is not None:
        parts.history = (log, text)
    return text


def public_state(state: State, seat: int, full: dict[str, Any] | None = None) -> dict[str, Any]:
    """The position as ``seat`` may know it: ``state.to_dict()`` with every hidden part blanked (other
    hands, the stock, every foot (its owner's too), the hand snapshot of another player's staged opening)
    or left out (the deal and the seed).
    ``canasta.canasta.sampling.determinize`` fills the blanks with cards consistent with the view."""
    d = dict(_seen_dict(state) if full is None else full)  # ``full``: ``_seen_dict``, shared, never changed
    d["hands"] = [cards if i == seat else None for i, cards in enumerate(d["hands"])]
    d["stock"] = None
    if "feet" in d:
        d["feet"] = [None] * len(d["feet"])
    d["pile"] = [None] * state.pile_hidden + d["pile"][state.pile_hidden:]
    del d["deal"], d["seed"]
    if d["stage"] is not None and state.turn_seat != seat:
        d["stage"] = {**d["stage"], "hand": None}
    return d
