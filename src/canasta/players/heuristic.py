"""The heuristic player: an expert's rules of thumb, with a memory of the hand, and no look-ahead.

Everything comes from the seat's view and the legal moves (docs/players.md, "Heuristic player",
explains each rule). In short:

* **Opening:** the fewest cards that reach the minimum count, natural melds first, wild cards kept.
* **The pile:** taken whenever it is worth more than a stock card (always when it opens the side or,
  where one canasta lets a side go out, with a natural pair; big piles at any price), with the
  cheapest take: adding to a meld, then a natural pair, then one natural and a two, a joker last. In
  Cutthroat the first pile of a hand is left to an opponent while the stock lasts: its taker plays
  alone against two.
* **Melding:** natural cards first (onto the side's melds, new triples); natural pairs stay in the
  hand to take the pile; wild cards only finish canastas (and, in a one-canasta race before the first
  canasta, make a meld of five one card short). Once the side has a canasta, everything goes
  down (pairs with a wild card, wild cards onto the longest melds), to go out sooner and be caught
  with less.
* **Discards** come from a memory of the hand (what each player took from the pile, melded, discarded
  or refused): black threes first as stop cards, then cards the next opponent is unlikely to take the
  pile with. A rank the next opponent's side has melded is never thrown onto an unfrozen pile while
  another card will do. A two freezes a big pile when every natural discard would be risky, or the
  side is behind.
* **Going out** as soon as the side may (the side that goes out usually wins the hand: the bonus, the
  opponents caught with cards and unfinished canastas); with a partner, ``ask`` first. The
  partner's ``ask`` is answered ``yes`` when the side is ahead or the hands are small, ``no`` when this
  hand still holds many points to meld. Acaba is never called or approved. Never out to end the game
  on a loss (it plays on); an ask that wins the game is approved.
* **The Samba family** (sequences, several melds of a rank): the side opens with groups; a sequence is
  lengthened before anything else, a new one is started only with five cards; wild cards and pairs go
  down only once the side has the two canastas to go out; takes onto any meld (a sequence, a second
  meld of a rank) are weighed like the others; going out counts the sambas and the cards that lengthen
  the side's sequences; discards keep suited neighbours and never feed an opponent's sequence end or
  unfinished group while the pile is open.

Fast: a move costs a few dozen microseconds to a millisecond; no game is simulated.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any, Final

from ..canasta.cards import JOKER_RANK, RANK_CHARS, RANK_VALUE, RED_THREES, THREE, TWO, parse_card, rank_of
from ..canasta.engine import game_result, meld_counts
from ..canasta.melds import SEQUENCE_LOW, SEQUENCE_MAX, SLOTS, is_sequence_key, key_rank, key_suit, parse_key
from ..canasta.moves import ASK, DRAW, LAYOUT, NO, PASS, SPECIAL_HAND_NAMES, WITHDRAW, YES, Move, token_rank
from ..canasta.rules import Rules
from ..canasta.scoring import score_side
from ..canasta.state import Melds, entry_text
from ..canasta.view import LeanView, meld_order
from . import Player, rules_of
from .penalties import safe_moves, shed_bonus

NATURALS: Final = tuple(range(4, 15))
RED: Final = -1  # a red three in the pile (bonus card: laid out by whoever takes the pile)
_CHAR_RANK: Final = {c: i + 2 for i, c in enumerate(RANK_CHARS)}
# Rules of thumb, in points unless said otherwise (docs/players.md explains each one).
STOCK_CARD_VALUE: Final = 30.0  # an unknown stock card is worth about this much: take the pile when it is worth more
THREAT_HAND_SIZE: Final = 4  # an opponent with a canasta and at most this many cards may go out any turn
PAIR_KEEP: Final = 25.0  # keeping a natural pair (it takes the pile), on top of the card's value
SINGLE_KEEP: Final = 0.3  # keeping a lone card: a fraction of its value (it counts against us in the hand)
OWN_MELD_KEEP: Final = 15.0  # keeping a card of a rank our side has melded (it lengthens the meld)
SHED_PENALISED: Final = 80.0  # shedding a rank held three or more times where that costs 1,500 (Modern American)
DANGER_WEIGHT: Final = 5.0  # how much the chance of handing the pile to the next opponent weighs in a discard
STOP_CARD_PER_PILE_CARD: Final = 3.0  # a black three blocks the next player: worth more as the pile grows
# How much likelier (or less likely) than a random draw a player is to hold two or more copies of a rank:
# fitted to the real hands behind 128,748 candidate discards in 400 games against greedy (strength.md).
HELD_WEIGHTS: Final = {
    "pair": 2.5,  # after its side opened: pairs are kept, lone cards thrown ...
    "triple": 0.1,  # ... and three of a rank melded
    "pair unopened": 1.0,  # before the opening a hand is closer to the deal,
    "triple unopened": 2.0,  # and a triple may wait for the minimum count
    "discarded": 0.02,  # it threw that rank since it last took the pile
    "declined": 0.7,  # it drew rather than take a pile topped by that rank
    "melded": 0.1,  # its side has melded the rank: copies it draws go onto the meld
}
# Presets where the weights above measured worse (strength.md): there a hand counts as random draws,
# less the ranks a player threw or refused.
PLAIN_HELD_WEIGHTS: Final = dict.fromkeys(HELD_WEIGHTS, 1.0) | {"discarded": 0.3, "declined": 0.15}
PLAIN_WEIGHT_PRESETS: Final = frozenset({"cutthroat", "modern-american"})
FREEZE_PILE: Final = 6  # freeze the pile with a two once it holds this many cards ...
FREEZE_RISK: Final = 30.0  # ... when every natural discard carries at least this much risk,
FREEZE_BEHIND_PILE: Final = 8  # or when we are behind and the pile holds this many
FREEZE_OVER_THREE_PILE: Final = 9  # with a black three in hand, freeze only a pile this big
# The Samba family (sequences, several melds of a rank; docs/players.md, "Samba family").
SEQ_EXTEND_KEEP: Final = 25.0  # keeping a card that lengthens one of the side's sequences (seven make 1,500)
CONNECTOR_KEEP: Final = 10.0  # keeping a card with a suited neighbour at most two ranks away (a run in the making)
SAMBA_TAKE_BONUS: Final = 600.0  # a take that finishes a samba (1,500) is worth at least this much
NEW_SEQUENCE_MIN: Final = 5  # a new sequence is melded only this long: shorter runs stay in the hand (measured)
NEW_SEQUENCE_KEEP: Final = 2  # ... and only if it leaves at least this many cards in the hand
CARD_IN_HAND: Final = 10.0  # what an unseen card in a hand is guessed to cost its side when the hand ends
LAST_HAND_MARGIN: Final = 100.0  # how sure the guess of the game's end must be before it changes the play


MeldInfo = dict[int, tuple[int, int, int]]  # rank -> (naturals, wilds, size); rank 0 = a meld of wild cards


def _parse_card_rank(text: str) -> int:
    """The rank code of a card text (``JK`` 0, ``3H``/``3D`` RED, else 2..14)."""
    if text == "JK":
        return JOKER_RANK
    rank = _CHAR_RANK[text[0]]
    if rank == THREE and text[-1] in "HD":
        return RED
    return rank


class _RankOf(dict[str, int]):
    """Card text -> rank code, computed once per text (a view's cards are a few dozen texts, read over
    and over: the lookup is most of the price of reading a hand)."""

    def __missing__(self, text: str) -> int:
        rank = self[text] = _parse_card_rank(text)
        return rank


_RANK_OF: Final = _RankOf()
_card_rank: Final = _RANK_OF.__getitem__


class _KeyOf(dict[str, int]):
    """Meld label -> meld key (``melds.parse_key``), computed once per label."""

    def __missing__(self, label: str) -> int:
        key = self[label] = parse_key(label)
        return key


_key_of: Final = _KeyOf().__getitem__




class _Table:
    """A side's melds as the heuristic reads them, counted once: ``first``, the side's first meld of each rank
    keyed by rank; ``every``, all its melds (second melds of a rank and sequences too) keyed by meld key
    (melds.py); ``ranks``, how many cards of each rank code lie in them (wild cards at 0, threes at 3);
    ``canastas``, its melds of seven or more; ``sequences``, its sequences smaller than a samba (meld key ->
    (suit, lowest rank, highest rank)); ``open_groups``, the ranks of its groups smaller than a canasta.
    Built from the view's meld entries or (a lean view) from the melds as card codes, in the view's order;
    ``source`` is what it was built from. Shared: read it, never change it."""

    __slots__ = ("_values", "canastas", "cards", "ends", "every", "first", "open_groups", "ranks", "sequences",
                 "source")

    def __init__(self, source: object, melds: list[tuple[int, tuple[int, ...]]]) -> None:
        first: MeldInfo = {}
        every: MeldInfo = {}
        ranks = [0] * 15
        sequences: dict[int, tuple[int, int, int]] = {}
        open_groups: set[int] = set()
        canastas = 0
        for key, cards in melds:
            naturals, wilds = meld_counts(cards)
            size = len(cards)
            info = every[key] = (naturals, wilds, size)
            if key < SLOTS:
                first[key] = info
            low, high = 15, 0
            for c in cards:
                rank = _KIND_RANK[c]
                slot = max(0, rank)
                ranks[slot] = ranks[slot] + 1  # (``x = x + 1``, not ``+=``, here and below: compiled, native)
                low, high = min(low, rank), max(high, rank)
            if size >= 7:
                canastas += 1
            if is_sequence_key(key):
                if size < SEQUENCE_MAX:
                    sequences[key] = (key_suit(key), low, high)
            elif size < 7:
                open_groups.add(key_rank(key))
        ends: set[Card] = set()  # the cards that would lengthen one of the unfinished sequences
        for suit, low, high in sequences.values():
            if low > SEQUENCE_LOW:
                ends.add((low - 1, suit))
            if high < 14:
                ends.add((high + 1, suit))
        self.source, self.cards = source, [cards for _, cards in melds]
        self.first, self.every, self.ranks, self.canastas = first, every, ranks, canastas
        self.sequences, self.open_groups, self.ends = sequences, open_groups, ends
        self._values: dict[tuple[int, tuple[int, ...]], tuple[Rules, int]] = {}

    def value(self, r: Rules, red_threes: tuple[int, ...]) -> int:
        """The side's hand score so far from the table (melds, canasta bonuses, threes, unfinished-meld
        penalties), as the scoring module would count it if the hand ended with empty hands."""
        key = (id(r), red_threes)
        hit = self._values.get(key)
        if hit is not None and hit[0] is r:
            return hit[1]
        total = int(score_side(r, [list(cards) for cards in self.cards], [], list(red_threes))["total"])
        self._values[key] = (r, total)
        return total


Card = tuple[int, int]  # (rank, suit) of a natural card, where suits matter


def _table(side: dict[str, Any], tables: dict[int, _Table] | None = None) -> _Table:
    """The ``_Table`` of a side's view entry, kept in ``tables`` by its melds list (which the table holds, so
    the id stays its own): a decision's own dict for a plain view (its caller may change it between
    decisions); None: built afresh."""
    melds = side["melds"]
    if tables is not None:
        table = tables.get(id(melds))
        if table is not None and table.source is melds:
            return table
    table = _Table(melds, [(_key_of(m["key"]), tuple(int(parse_card(c)) for c in m["cards"])) for m in melds])
    if tables is not None:
        if len(tables) > 20_000:
            tables.clear()
        tables[id(melds)] = table
    return table


# id of a side's melds as a state keeps them (a dict: meld key -> card codes, never changed once a state holds
# it; the engine shares an unchanged side's dict between a state and the next) -> (the dict, kept so that its id
# stays its own, and its table)
_TABLES: Final[dict[int, tuple[Melds, _Table]]] = {}


# a side's melds by content -> their table: play-outs make new dicts of melds that earlier play-outs made too
_TABLES_BY_MELDS: Final[dict[tuple[tuple[int, tuple[int, ...]], ...], _Table]] = {}


def _numbers_table(melds: Melds) -> _Table:
    """The ``_Table`` of a side's melds read from a lean view (``LeanView.side_numbers``), built once per dict
    and once per content."""
    hit = _TABLES.get(id(melds))
    if hit is not None and hit[0] is melds:
        return hit[1]
    items = tuple(melds.items())
    table = _TABLES_BY_MELDS.get(items)
    if table is None:
        if len(_TABLES_BY_MELDS) > 20_000:
            _TABLES_BY_MELDS.clear()
        table = _TABLES_BY_MELDS[items] = _Table(melds, sorted(items, key=meld_order))
    if len(_TABLES) > 20_000:
        _TABLES.clear()
    _TABLES[id(melds)] = (melds, table)
    return table


class _Side:
    """One side's entry of the view (``view["sides"]``) as the heuristic reads it: from the entry's dict, or
    from a lean view's numbers (no texts built or read). ``minimum`` is read for the seat's own side only."""

    __slots__ = ("canastas", "minimum", "opened", "score", "seats", "table", "threes")

    def __init__(self, seats: list[int] | tuple[int, ...], score: int, opened: bool, minimum: int, canastas: int,
                 table: _Table, threes: tuple[int, ...]) -> None:
        self.seats, self.score, self.opened, self.minimum = seats, score, opened, minimum
        self.canastas, self.table, self.threes = canastas, table, threes

    def value(self, r: Rules) -> int:
        """The side's hand score so far from the table (``_Table.value``)."""
        return self.table.value(r, self.threes)


def _view_sides(view: dict[str, Any], own: int, teams: int, tables: dict[int, _Table]) -> list[_Side]:
    """Every side of the view (``own``: the seat's side, whose minimum is read)."""
    if isinstance(view, LeanView):
        out = []
        for i in range(teams):
            seats, score, opened, threes, melds = view.side_numbers(i)
            table = _numbers_table(melds)
            out.append(_Side(seats, score, opened, view.own_minimum() if i == own else 0, table.canastas, table,
                             threes))
        return out
    return [_Side(side["seats"], side["score"], bool(side["opened"]), side["minimum_needed"], side["canastas"],
                  _table(side, tables), tuple(int(parse_card(c)) for c in side["red_threes"]))
            for side in view["sides"]]


def _suited(hand: list[str]) -> list[Card]:
    """The natural cards of a hand as (rank, suit), where suits matter."""
    out = []
    for text in hand:
        rank = _card_rank(text)
        if rank in NATURALS:
            out.append((rank, int(parse_card(text)) & 3))
    return out


def _suited_counts(counts: tuple[int, ...]) -> list[Card]:
    """``_suited`` of a hand given as counts per card kind (the same cards in the same order)."""
    out = []
    for kind in range(53):
        n = counts[kind]
        if n:
            rank = _KIND_RANK[kind]
            if rank in NATURALS:
                for _ in range(n):
                    out.append((rank, kind & 3))
    return out


_KIND_RANK: Final = [RED if kind in RED_THREES else rank_of(kind) for kind in range(53)]  # card kind -> ``_card_rank``


def _ranks_of_hand(counts: tuple[int, ...]) -> list[int]:
    """A hand's counts per card kind as the heuristic's rank counts (``_card_rank`` of each card: 16 slots,
    red threes at RED, the last), as a new list. (Counted every time: compiled, a loop over the 53 counts is
    cheaper than hashing them to look the list up.)"""
    rc = [0] * 16
    for kind in range(len(counts)):
        n = counts[kind]
        if n:
            rank = _KIND_RANK[kind]
            rc[rank] = rc[rank] + n  # (not ``+=``: compiled, a generic in-place add)
    return rc


# --- memory of the hand ---------------------------------------------------------------------------

Event = tuple[int, str, tuple[int, ...]]  # (seat, action, the ranks it names), as Memory reads an entry


def _parse_event(entry: str) -> Event:
    """A history entry as ``Memory`` reads it: the seat, the action, and the ranks that matter to it (a
    discard's card; the hand's cards of a take; a meld's cards; the upcards)."""
    words = entry.split()
    seat, action = int(words[0]), words[1]
    ranks: tuple[int, ...] = ()
    if action == "discard":
        rank = token_rank(words[2])
        ranks = () if rank is None else (rank,)
    elif action == "take":
        ranks = tuple(token_rank(t) or 0 for t in words[2: words.index("on") if "on" in words else None])
    elif action == "upcard":
        ranks = tuple(_card_rank(c) for c in words[2:])
    elif action == "meld":
        tokens = words[2:]
        if len(tokens) >= 2 and tokens[-2] == "on":
            tokens = tokens[:-2]
        ranks = tuple(rank for rank in map(token_rank, tokens) if rank is not None)
    return seat, action, ranks


class _EventOf(dict[str, Event]):
    """History entry -> parsed event, each text parsed once (play-outs repeat the same few hundred)."""

    def __missing__(self, entry: str) -> Event:
        event = _parse_event(entry)
        if len(self) < 50_000:
            self[entry] = event
        return event


_event_of: Final = _EventOf().__getitem__


# a history entry's event (a move, or the text after the seat) -> its parsed action and ranks, which do not
# depend on the seat
_MOVE_EVENTS: Final[dict[object, tuple[str, tuple[int, ...]]]] = {}


def _move_event_of(seat: int, event: object) -> Event:
    """``_event_of(entry_text(seat, event))``, without writing the entry out (``view.LeanView.history_after``):
    each event parsed once (play-outs repeat the same few hundred)."""
    if seat < 0:  # an entry of a text checkpoint: the event is the whole entry
        return _event_of(str(event))
    parts = _MOVE_EVENTS.get(event)
    if parts is None:
        parsed = _event_of(entry_text(seat, event))
        parts = (parsed[1], parsed[2])
        if len(_MOVE_EVENTS) < 50_000:
            _MOVE_EVENTS[event] = parts
    return seat, parts[0], parts[1]


class Memory:
    """What this seat has seen in the current hand, rebuilt from ``view["history"]`` as it grows.

    ``known[s]``: ranks seat ``s`` is known to hold (cards it took with the pile, less what it has
    melded or discarded since); ``discarded[s]`` / ``declined[s]``: ranks it discarded, or drew rather
    than take the pile topped by, mapped to how many times it has drawn since (old news fades)."""

    def __init__(self) -> None:
        self.hand = -1
        self.players = 0
        self.index = 0
        self.pile: list[int] = []
        self.known: list[dict[int, int]] = []
        self.discarded: list[dict[int, int]] = []
        self.declined: list[dict[int, int]] = []
        # the last view's pile as read (texts, rank codes; never changed in place): the next view's pile
        # usually only adds cards to it, so only those are read
        self._pile_texts: list[str] = []
        self._pile_ranks: list[int] = []
        self._mark: object = None  # a lean view's ``history_mark`` after the last entry read, or None
        self._pile_cards: tuple[int, ...] | None = None  # a lean view's pile as last read (``pile_cards``)

    def copy(self) -> Memory:
        """An independent copy (for search players that play on from the same point)."""
        other = Memory()
        other.hand, other.players, other.index, other.pile = self.hand, self.players, self.index, list(self.pile)
        other.known = [dict(d) for d in self.known]
        other.discarded = [dict(d) for d in self.discarded]
        other.declined = [dict(d) for d in self.declined]
        other._pile_texts, other._pile_ranks, other._mark = self._pile_texts, self._pile_ranks, self._mark
        other._pile_cards = self._pile_cards
        return other

    def read_up_to(self, view: LeanView) -> None:
        """Take it that this memory has read ``view``'s history (a lean view of a position whose history is the
        one this memory last read, entry for entry: a search's sample of the position its guide saw), so
        that the next lean view's new entries are read as moves since it (``LeanView.history_after``)."""
        numbers = view.numbers()
        if numbers[3] == self.hand and numbers[2] == self.players:
            self._mark = view.history_mark

    def reset(self, hand: int, players: int) -> None:
        self.hand, self.players, self.index = hand, players, 0
        self._mark = None
        self.pile = []
        self.known = [{} for _ in range(players)]
        self.discarded = [{} for _ in range(players)]
        self.declined = [{} for _ in range(players)]

    def update(self, view: dict[str, Any], black_threes_aside: bool) -> None:
        if isinstance(view, LeanView):
            numbers = view.numbers()
            hand, players = numbers[3], numbers[2]
        else:
            hand, players = view["hand_number"], view["players"]
        if hand != self.hand or players != self.players:
            self.reset(hand, players)
        lean = isinstance(view, LeanView)
        if isinstance(view, LeanView) and self._mark is not None:  # the entries since the last read: none written out
            since = view.history_after(self._mark)
            if since is not None:
                for seat, event in since:
                    self._event(_move_event_of(seat, event), black_threes_aside)
                self.index += len(since)
                self._mark = view.history_mark
                self._read_pile(view, True)
                return
        self._mark = view.history_mark if isinstance(view, LeanView) else None
        if isinstance(view, LeanView):  # only the entries since the last read are written out
            length, new = view.history_since(self.index)
        else:
            history: list[str] = view["history"]
            length, new = len(history), history[self.index:]
        if length < self.index:
            self.reset(hand, players)
            new = view.history_since(0)[1] if isinstance(view, LeanView) else view["history"]
        for entry in new:
            self._event(_event_of(entry), black_threes_aside)
        self.index = length
        self._read_pile(view, lean)

    def _read_pile(self, view: dict[str, Any], lean: bool) -> None:
        """``pile``: the view's pile as rank codes (``_card_rank`` of each card)."""
        if isinstance(view, LeanView):  # from the cards (no texts written out or read)
            cards = view.pile_cards()
            if cards is not self._pile_cards:
                self._pile_cards, self._pile_ranks = cards, [_KIND_RANK[c] for c in cards]
                self._pile_texts = []  # (the ranks no longer follow the texts last read)
            self.pile = list(self._pile_ranks)
            return
        self._pile_cards = None  # (nor the cards)
        texts: list[str] = view["pile"]
        if texts is not self._pile_texts:  # (a lean view's pile is shared while the pile stays as it was)
            seen = len(self._pile_texts)
            if len(texts) >= seen and texts[:seen] == self._pile_texts:
                ranks = self._pile_ranks + [_card_rank(c) for c in texts[seen:]]
            else:
                ranks = [_card_rank(c) for c in texts]
            # a lean view's pile never changes: keep it; a plain view's caller might change it: copy it
            self._pile_texts, self._pile_ranks = texts if lean else list(texts), ranks
        self.pile = list(self._pile_ranks)

    def _forget(self, seat: int, rank: int, count: int = 1) -> None:
        known = self.known[seat]
        if rank in known:
            left = known[rank] - count
            if left > 0:
                known[rank] = left
            else:
                del known[rank]

    def _event(self, event: Event, black_threes_aside: bool) -> None:
        seat, action, ranks = event
        if action == "discard":
            if not ranks:
                return
            rank = ranks[0]
            self._forget(seat, rank)
            self.discarded[seat][rank] = 0
            self.pile.append(rank)
        elif action == "draw":
            # (two loops, not one over a tuple of the two; and not ``+=``: compiled, both are generic operations)
            discarded = self.discarded[seat]
            for rank in discarded:
                discarded[rank] = discarded[rank] + 1
            declined = self.declined[seat]
            for rank in declined:
                declined[rank] = declined[rank] + 1
            if self.pile and 4 <= self.pile[-1] <= 14:  # a natural rank (``NATURALS``)
                self.declined[seat][self.pile[-1]] = 0
        elif action == "take":
            for rank in ranks:
                self._forget(seat, rank)
            known = self.known[seat]
            for rank in self.pile[:-1]:
                if rank == RED or (rank == THREE and black_threes_aside):
                    continue
                known[rank] = known.get(rank, 0) + 1
            self.pile = []
            self.discarded[seat].clear()
            self.declined[seat].clear()
        elif action == "upcard":
            self.pile = list(ranks)
        elif action == "meld":
            for rank in ranks:
                self._forget(seat, rank)


# --- planning helpers ---------------------------------------------------------------------------

def opening_plan(r: Rules, rc: list[int], melds: MeldInfo, need: int, keep: int) -> list[Move] | None:
    """The cheapest melds from hand counts ``rc`` worth ``need`` points that leave ``keep`` cards.

    Cost: cards used, a two counting 1.6 cards and a joker 2.6 (so natural melds and few cards win).
    A small dynamic programme over ranks, keyed by (twos used, jokers used, points so far)."""
    twos, jokers = rc[TWO], rc[JOKER_RANK]
    budget = sum(rc) - keep
    if budget <= 0:
        return None
    size_cap = r.max_meld_size or 10**9
    options: list[tuple[int, list[tuple[int, int, int, int, int]]]] = []
    for rank in NATURALS:
        n = rc[rank]
        if rank in melds:
            nat0, wild0, size0 = melds[rank]
            k_lo = 0
        elif n >= r.min_naturals:
            nat0 = wild0 = size0 = 0
            k_lo = r.min_naturals
        else:
            continue
        value = RANK_VALUE[rank]
        opts = []
        for k in range(k_lo, n + 1):
            cap = r.max_wilds(nat0 + k) - wild0
            for a in range(max(0, min(twos, cap)) + 1):
                for b in range(max(0, min(jokers, cap - a)) + 1):
                    cnt = k + a + b
                    if cnt == 0 or size0 + cnt < 3 or size0 + cnt > size_cap or cnt > budget:
                        continue
                    opts.append((k, a, b, k * value + 20 * a + 50 * b, 10 * cnt + 6 * a + 16 * b))
        if opts:
            options.append((rank, opts))
    if r.wild_melds and twos + jokers:
        size0 = melds[JOKER_RANK][2] if JOKER_RANK in melds else 0
        opts = [(0, a, b, 20 * a + 50 * b, 16 * a + 26 * b)
                for a in range(twos + 1) for b in range(jokers + 1)
                if a + b >= (1 if size0 else 3) and size0 + a + b <= r.wild_meld_max and a + b <= budget]
        if opts:
            options.append((JOKER_RANK, opts))
    Key = tuple[int, int, int]
    states: dict[Key, tuple[int, int, tuple[tuple[int, int, int, int], ...]]] = {(0, 0, 0): (0, 0, ())}
    for rank, opts in options:
        new = dict(states)
        for (tu, ju, pts), (cost, cards, chosen) in states.items():
            if pts >= need:
                continue
            for k, a, b, p, c in opts:
                if tu + a > twos or ju + b > jokers or cards + k + a + b > budget:
                    continue
                key = (tu + a, ju + b, min(need, pts + p))
                old = new.get(key)
                if old is None or old[0] > cost + c:
                    new[key] = (cost + c, cards + k + a + b, (*chosen, (rank, k, a, b)))
        states = new
    done = [v for key, v in states.items() if key[2] >= need and v[2]]
    if not done:
        return None
    chosen = min(done, key=lambda v: v[0])[2]
    moves = [Move("meld", rank, k, a, b) for rank, k, a, b in chosen]
    moves.sort(key=lambda m: -(m.naturals * RANK_VALUE[m.rank] + 20 * m.twos + 50 * m.jokers))
    return moves


def meld_everything(r: Rules, rc: list[int], melds: MeldInfo) -> tuple[list[Move], int, int] | None:
    """Melds that use every card of ``rc``: (moves in a playable order, points, canastas after), or None.

    Needed wild cards fill new melds to 3; spare ones finish canastas (shortest first), then go where
    they cost least (melds that already hold wilds, short melds, natural canastas last)."""
    blacks = rc[THREE]
    if blacks and (blacks < 3 or THREE in melds):
        return None
    size_cap = r.max_meld_size or 10**9
    plan: dict[int, list[int]] = {}  # rank -> [naturals from the hand, wilds from the hand]
    info: dict[int, tuple[int, int, int]] = {}  # rank -> (naturals after, wilds before, size before)
    points = 5 * blacks + 20 * rc[TWO] + 50 * rc[JOKER_RANK]
    need_w = 0
    for rank in NATURALS:
        n = rc[rank]
        if rank in melds:
            nat0, wild0, size0 = melds[rank]
        elif not n:
            continue
        elif n < r.min_naturals:
            return None
        else:
            nat0 = wild0 = size0 = 0
        if size0 + n > size_cap:
            return None
        w = max(0, 3 - size0 - n)
        if w > r.max_wilds(nat0 + n) - wild0 or size0 + n + w > size_cap:
            return None
        plan[rank] = [n, w]
        info[rank] = (nat0 + n, wild0, size0)
        need_w += w
        points += n * RANK_VALUE[rank]
    spare = rc[TWO] + rc[JOKER_RANK] - need_w
    if spare < 0:
        return None

    def room(rank: int) -> int:
        nat, wild0, size0 = info[rank]
        if size0 >= 7 and not r.wilds_onto_canasta:
            return 0
        n, w = plan[rank]
        return max(0, min(r.max_wilds(nat) - wild0 - w, size_cap - size0 - n - w))

    def size(rank: int) -> int:
        return info[rank][2] + plan[rank][0] + plan[rank][1]

    for gap, rank in sorted((7 - size(x), x) for x in plan if 0 < 7 - size(x) <= 3):
        if gap <= spare and gap <= room(rank):
            plan[rank][1] += gap
            spare -= gap
    wild0 = melds[JOKER_RANK][2] if JOKER_RANK in melds else 0
    wild_meld = 0
    if spare and r.wild_melds and spare >= (1 if wild0 else 3):
        wild_meld = min(spare, r.wild_meld_max - wild0)
        spare -= wild_meld
    if spare:
        def where(rank: int) -> tuple[int, int]:
            natural_canasta = size(rank) >= 7 and info[rank][1] + plan[rank][1] == 0
            return (int(natural_canasta), -(info[rank][1] + plan[rank][1]))

        for rank in sorted(plan, key=where):
            add = min(spare, room(rank))
            plan[rank][1] += add
            spare -= add
        if spare:
            return None
    canastas = sum(1 for x in plan if size(x) >= 7) + int(wild0 + wild_meld >= 7)
    moves: list[Move] = []
    twos, jokers = rc[TWO], rc[JOKER_RANK]
    for rank in sorted(plan, key=lambda x: (-plan[x][0], x)):
        n, w = plan[rank]
        if not (n or w):
            continue
        a = min(w, twos)
        twos -= a
        jokers -= w - a
        moves.append(Move("meld", rank, n, a, w - a))
    if wild_meld:
        a = min(wild_meld, twos)
        moves.append(Move("meld", JOKER_RANK, 0, a, wild_meld - a))
    if blacks:
        moves.append(Move("meld", THREE, blacks))
    return moves, points, canastas


# --- the player -----------------------------------------------------------------------------------

def _points(m: Move) -> int:
    """What a meld move counts (a sequence: its cards' values)."""
    if is_sequence_key(m.rank):
        return sum(RANK_VALUE[rank] for rank in range(m.low, m.low + m.naturals))
    return m.naturals * RANK_VALUE[key_rank(m.rank)] + 20 * m.twos + 50 * m.jokers


def take_cost_key(m: Move) -> tuple[int, int]:
    """The order in which the heuristic prefers its ways of taking the pile (the largest first): adding to
    a meld, then a natural pair, then a natural and a two, a joker last."""
    return (-(m.jokers * 3 + m.twos), -m.naturals)


def _opening_moves(legal: list[Move]) -> list[Move]:
    """Samba family, side not yet open: the legal moves without sequences and second melds of a rank (the
    opening is planned with groups; a run staged towards a minimum it cannot reach would strand the
    turn), unless nothing else is left."""
    plain = [m for m in legal if m.action not in ("meld", "take") or m.rank < SLOTS]
    return plain or legal


class HeuristicPlayer(Player):
    name = "heuristic"
    lean_views = True

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng: random.Random | None = None
        self.memory = Memory()

    @property
    def rng(self) -> random.Random:
        """Only to escape a position its rules cannot resolve: made when first needed (search play-outs make
        four players each and seeding one was a visible share of a play-out), with the same draws as one
        made in the constructor."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        r = rules_of(view)
        self.memory.update(view, r.pile_black_threes == "bonus")
        self.last_why = ()
        if len(legal) == 1:
            return legal[0]
        legal = safe_moves(r, view, legal)
        declares = [m for m in legal if m.action == "declare"]
        if declares:  # a special hand (Modern American) is worth more than any ordinary hand's start
            values = dict(r.special_hands)
            return max(declares, key=lambda m: values.get(SPECIAL_HAND_NAMES[m.rank], 0))
        if LAYOUT in legal:  # a three kept for a Straight: lay it out for a fresh card (no Straight play)
            return LAYOUT
        turn = _Turn(view, legal, r, self.memory)
        phase = turn.phase
        if (r.sequences or r.several_melds_per_rank) and phase == "play" and turn.need > 0:
            turn.legal = legal = _opening_moves(legal)
        if phase == "answer":
            move = turn.answer()
        elif phase == "draw":
            move = turn.draw()
        else:
            move = turn.play(self)
        self.last_why = turn.why
        return move

    def ranked_discards(self, view: dict[str, Any], legal: list[Move]) -> list[Move]:
        """The legal discards in this player's order of preference, best first (for search players)."""
        discards = [m for m in legal if m.action == "discard"]
        if not discards:
            return []
        r = rules_of(view)
        self.memory.update(view, r.pile_black_threes == "bonus")  # (a no-op after ``choose`` on this view)
        return _Turn(view, legal, r, self.memory).ranked_discards(discards)


class _Turn:
    """One decision: the view parsed once, with the rules of thumb as methods."""

    def __init__(self, view: dict[str, Any], legal: list[Move], r: Rules, memory: Memory) -> None:
        self.view, self.legal, self.r, self.mem = view, legal, r, memory
        self.why: tuple[tuple[str, int], ...] = ()  # the reason codes of the decision (``Player.last_why``)
        self.seat_sides: list[int] | tuple[int, ...]
        self.staged: int
        self.pending: list[str] | None = None
        if isinstance(view, LeanView):  # the scalars in one call
            (self.seat, self.side, self.players, self.hand_number, self.phase, self.stock, staged, self.permission,
             self.pile_frozen, self.seat_sides) = view.numbers()
            self.staged = staged or 0
            if staged is not None:  # (no staged opening, no pile beside the table)
                self.pending = view["pending_pile"]
        else:
            self.seat, self.side, self.players = view["seat"], view["side"], view["players"]
            self.hand_number, self.phase, self.stock = view["hand_number"], view["phase"], view["stock_size"]
            self.permission, self.pile_frozen = view["permission"], view["pile_frozen"]
            self.seat_sides = view["seat_sides"]
            self.staged = view["staged_points"] or 0
            self.pending = view["pending_pile"]
        # rank codes 0-14, and red threes held (Hand and Foot) at RED = -1, the last slot
        if isinstance(view, LeanView):  # from the hand's counts (no card texts to read)
            rc = _ranks_of_hand(view.hand_counts())
        else:
            rc = [0] * 16
            for text in view["hand"]:
                rc[_card_rank(text)] += 1
        self.rc = rc
        size = 0
        for n in rc:  # (a loop: compiled, ``sum`` is a generic call per item)
            size += n
        self.hand_size = size
        # each side's entry: read from a lean view as numbers; a plain view's meld tables are kept for this
        # decision only (its caller may change the view afterwards)
        self.sides = sides = _view_sides(view, self.side, r.teams, {})
        self.me = sides[self.side]
        table = self.me.table
        self.mine = table.first
        self.every = table.every  # = mine where a side has one meld per rank (Classic)
        self.cards: list[Card] = []  # (rank, suit) of the naturals held, where suits matter
        if r.sequences:
            self.cards = _suited_counts(view.hand_counts()) if isinstance(view, LeanView) else _suited(view["hand"])
        self.opponent_sides = [i for i in range(len(sides)) if i != self.side and sides[i].seats]
        self.pile: list[int] = memory.pile  # the view's pile as rank codes (read by the memory just now)
        self.need: int = self.me.minimum

    # -- shared judgements ---------------------------------------------------------------------
    @functools.cached_property
    def hand_points(self) -> int:
        """The card values of the hand (red threes held, in the last slot, not counted)."""
        return sum(RANK_VALUE[x] * self.rc[x] for x in range(15) if self.rc[x])

    def next_seat(self) -> int:
        return (self.seat + 1) % self.players

    def opponents_threaten(self) -> bool:
        """Could an opponent go out soon? (their side has the canastas and a small hand)"""
        sides = self.sides
        sizes = self.view["hand_sizes"]
        for i in self.opponent_sides:
            if sides[i].canastas >= self.r.canastas_to_go_out:
                if min(sizes[s] for s in sides[i].seats) <= THREAT_HAND_SIZE:
                    return True
            elif sides[i].canastas + 1 >= self.r.canastas_to_go_out and \
                    min(sizes[s] for s in sides[i].seats) <= 2:
                return True
        return False

    def opponents_can_go_out_soon(self) -> bool:
        """Has an opposing side a canasta (or is the stock nearly gone)? Until then nobody can end the hand
        on us, so after our canasta we keep pairs and wild cards to take piles and build more canastas
        instead of melding everything down (measured in docs/strength.md)."""
        sides = self.sides
        return self.end_near() or any(sides[i].canastas for i in self.opponent_sides)

    def one_canasta_race(self) -> bool:
        """Does one canasta let a side go out (Classic, Cutthroat)? Then the hand is a race to the first
        canasta, and a natural pair or a wild card is worth more on the table than in the hand; with two
        or more needed (two-player, Samba) keeping them measured better (docs/strength.md)."""
        return self.r.canastas_to_go_out == 1

    @functools.cached_property
    def play_on(self) -> bool:
        """Would going out now lose the game? Then the player plays on (asked only where it could go out)."""
        return self.me.canastas >= self.r.canastas_to_go_out and self.going_out_ends_game() < 0

    def going_out_ends_game(self) -> int:
        """If our side went out now, would that end the game, and how? +1: we would win it, -1: we would
        lose it (better play on and build: the opponents may not go out at once), 0: neither surely, or
        the game goes on. Guessed from the scores, the table, our hand melded and every other hand at
        ``CARD_IN_HAND`` a card."""
        r, sides, sizes = self.r, self.sides, self.view["hand_sizes"]
        if r.canastas_to_win:
            return 0  # not guessed: the canastas on the table decide such a game

        def total(i: int, out: bool) -> int:
            side = sides[i]
            left = sum(sizes[s] for s in side.seats if not (out and s == self.seat))
            mine = self.hand_points if out else 0
            bonus = r.going_out_bonus if out else 0
            return int(side.score + side.value(r) + mine + bonus - CARD_IN_HAND * left)

        totals = [total(i, i == self.side) for i in range(len(sides))]
        if game_result(r, totals, self.hand_number) is None:
            return 0
        ours = totals[self.side]
        theirs = max(totals[i] for i in self.opponent_sides)
        if theirs > ours + LAST_HAND_MARGIN:
            return -1
        return 1 if ours > theirs + LAST_HAND_MARGIN else 0

    def end_near(self) -> bool:
        return self.stock <= 2 * self.r.draw_count * self.players

    def behind(self) -> bool:
        sides = self.sides
        mine = self.me.value(self.r) + self.me.score // 4
        return any(sides[i].value(self.r) + sides[i].score // 4 > mine + 100
                   for i in self.opponent_sides)

    def seen_counts(self) -> tuple[list[int], int]:
        """Per rank, the copies not visible to this seat; and how many cards are unknown to it."""
        r = self.r
        total = [r.decks * 4] * 15
        total[JOKER_RANK] = r.jokers
        total[THREE] = r.decks * 2
        unseen = list(total)  # (``x = x - y`` below, not ``-=``: compiled, that is a generic in-place subtract)
        rc = self.rc
        for i in range(15):
            unseen[i] = unseen[i] - rc[i]
        for side in self.sides:
            on_table = side.table.ranks
            for i in range(15):
                unseen[i] = unseen[i] - on_table[i]
        for rank in self.mem.pile:
            if rank != RED:
                unseen[rank] = unseen[rank] - 1
        known_total = 0
        for s, known in enumerate(self.mem.known):
            if s == self.seat:
                continue
            for rank, n in known.items():
                unseen[rank] = unseen[rank] - n
                known_total += n
        others = sum(n for s, n in enumerate(self.view["hand_sizes"]) if s != self.seat)
        pool = max(1, self.stock + others - known_total)
        return [max(0, u) for u in unseen], pool

    # -- answering the partner -----------------------------------------------------------------
    def answer(self) -> Move:
        if self.permission != "asked":
            return NO  # "ask acaba": never hand the opponents the Acaba bonus
        ending = self.going_out_ends_game()
        if ending:
            self.why = (("out_wins_game", 0),) if ending > 0 else (("out_loses_game", 0),)
            return YES if ending > 0 else NO
        rc = self.rc
        points = self.hand_points
        meldable = sum(RANK_VALUE[x] * rc[x] for x in NATURALS if rc[x] >= 3 or x in self.mine)
        meldable += 20 * rc[TWO] + 50 * rc[JOKER_RANK]
        if self.hand_size <= 3 or points <= 60:
            self.why = (("little_in_hand", 0),)
            return YES
        if self.end_near() or self.opponents_threaten():
            self.why = (("opponents_near_out", 0),)
            return YES
        sides = self.sides
        ahead = all(self.me.value(self.r) > sides[i].value(self.r) + 200
                    for i in self.opponent_sides)
        if ahead and meldable < 100:
            self.why = (("side_ahead", 0),)
            return YES
        if meldable >= 60 or points > 150:
            self.why = (("points_to_meld", meldable),) if meldable >= 60 else (("points_in_hand", points),)
            return NO
        self.why = (("little_in_hand", 0),)
        return YES

    # -- draw phase ----------------------------------------------------------------------------
    def draw(self) -> Move:
        takes = [m for m in self.legal if m.action == "take"]
        can_draw = DRAW in self.legal
        if not takes:
            if can_draw:
                return DRAW
            return PASS if PASS in self.legal else self._not_acaba()
        best = max(takes, key=take_cost_key)
        if not can_draw:  # the stock is gone: take the discard whenever it fits
            return best
        if self.would_play_alone():
            self.why = (("would_play_alone", 0),)
            return DRAW
        if self.take_value(best) > 0:
            return best
        return DRAW

    def would_play_alone(self) -> bool:
        """Cutthroat, before anyone has taken the pile: the first to take it plays alone against the
        other two, who pool their melds; one hand against two loses more than any pile brings, so the
        heuristic leaves that to an opponent (docs/strength.md, "Cutthroat")."""
        return self.r.cutthroat and len(set(self.seat_sides)) == self.players

    def _not_acaba(self) -> Move:
        for m in self.legal:
            if m.action not in ("acaba", "ask-acaba"):
                return m
        return self.legal[0]

    def take_value(self, m: Move) -> float:
        """Worth of taking the pile with ``m`` over drawing from the stock (> 0: take)."""
        rc = self.rc
        top = self.pile[-1]
        if self.need > 0:
            return 1000.0  # the pile opens the side: always worth it
        if m.naturals == 2 and not (m.twos or m.jokers) and self.one_canasta_race():
            return 1000.0  # a natural pair: a meld for no wild card, and the pile besides (measured)
        danger = self.opponents_threaten()
        value = RANK_VALUE[top] + 8.0
        meld = self.every.get(m.rank)
        size_after = (meld[2] if meld else 0) + 1 + m.cards
        if size_after >= 7 > (meld[2] if meld else 0):
            value += SAMBA_TAKE_BONUS if is_sequence_key(m.rank) else 150
        counts = list(rc)
        counts[top] -= m.naturals
        counts[TWO] -= m.twos
        counts[JOKER_RANK] -= m.jokers
        for rank in self.pile[:-1]:
            if rank == RED:
                value += 100
            elif rank in (TWO, JOKER_RANK):
                value += 30
            elif rank == THREE:
                value += 0 if self.r.pile_black_threes == "hand" else 5
            else:
                counts[rank] += 1
        for rank in NATURALS:
            extra = counts[rank] - rc[rank] + (m.naturals if rank == top else 0)
            if extra <= 0:
                continue
            if rank in self.mine or rank == top or counts[rank] >= 3:
                value += extra * (RANK_VALUE[rank] + 4)
            elif counts[rank] == 2:
                value += extra * 4
            else:
                value += extra * (-RANK_VALUE[rank] if danger else 1)
        value -= 25 * m.twos + 45 * m.jokers + (10 if m.naturals == 2 else 0)
        return value - STOCK_CARD_VALUE

    # -- play phase ----------------------------------------------------------------------------
    def play(self, player: HeuristicPlayer) -> Move:
        legal = self.legal
        melds = [m for m in legal if m.action == "meld"]
        if self.withdrawals_this_turn() >= 2:
            return player.rng.choice(legal)
        if self.permission == "yes":
            out = self.going_out_move()
            if out is not None and not self.play_on:
                return out
        opening = self.need > 0 and self.staged < self.need
        if opening:
            move = self.opening_move()
            if move is not None:
                return move
            if self.pending is not None or (self.staged and not self.discards()):
                if melds:
                    return max(melds, key=lambda m: (_points(m), -m.jokers))
                if WITHDRAW in legal:
                    return WITHDRAW
            if self.staged and WITHDRAW in legal and not self.discards():
                return WITHDRAW
        elif self.permission != "no":
            out = self.going_out_move(ask=True)
            if out is not None and not self.play_on:
                if out == ASK:
                    self.why = (("may_go_out", 0),)
                return out
        elif self.pending is None and self.out_plan() is not None:
            # the partner answered no: he still holds points to meld, which going out would cost the side
            self.why = (("partner_needs_to_meld", 0),)
        if not opening:
            move = self.meld_move(melds)
            if move is not None:
                return move
        discards = self.discards()
        if discards:
            return self.best_discard(discards)
        if PASS in legal:
            return PASS
        if melds:
            return max(melds, key=lambda m: m.cards)
        return self._not_acaba()

    def discards(self) -> list[Move]:
        return [m for m in self.legal if m.action == "discard"]

    def _newest_first(self) -> Iterator[Event]:
        """The history's entries as parsed events, newest first (a lean view writes none out)."""
        view = self.view
        if isinstance(view, LeanView):
            for seat, event in view.recent_entries():
                yield _move_event_of(seat, event)
        else:
            history: list[str] = view["history"]
            for i in range(len(history) - 1, -1, -1):
                yield _event_of(history[i])

    def withdrawals_this_turn(self) -> int:
        count = 0
        for who, action, _ in self._newest_first():
            if who == self.seat:
                count += action == "withdraw"
            elif action not in ("yes", "no"):
                break
        return count

    def drew_from_stock(self) -> bool:
        for who, action, _ in self._newest_first():
            if who != self.seat:
                if action in ("yes", "no"):
                    continue
                return False
            if action in ("draw", "take"):
                return bool(action == "draw")
        return False

    # going out
    def out_plan(self) -> list[Move] | None:
        """Moves that go out from here (melds, then a discard if one is left), or None."""
        rc = list(self.rc)
        r = self.r
        need = max(0, self.need - self.staged) if self.need else 0
        runs, run_points, run_canastas = self.sequence_extensions(rc)
        # ``meld_everything`` refuses a hand with a rank it cannot meld (too few naturals for a new meld,
        # one or two black threes); a discard mends at most one such rank, and only when it is its last
        # card: so two of them rule out going out, and one leaves a single candidate discard
        unmeldable = [x for x in NATURALS if 0 < rc[x] < r.min_naturals and x not in self.mine]
        if rc[THREE] and (rc[THREE] < 3 or THREE in self.mine):
            unmeldable.append(THREE)
        candidates: list[int | None]
        if len(unmeldable) > 1 or (unmeldable and rc[unmeldable[0]] != 1):
            return None
        if unmeldable:
            candidates = [unmeldable[0]]
        else:
            order: list[int] = sorted((x for x in range(15) if rc[x]),
                                      key=lambda x: (x in (TWO, JOKER_RANK), x != THREE, RANK_VALUE[x]))
            candidates = [None, *order]
        waived = self.need > 0 and (r.concealed_waives_minimum == "always" or (
            r.concealed_waives_minimum == "stock_only" and self.drew_from_stock()))
        for d in candidates:
            if d is not None:
                rc[d] = rc[d] - 1
            result = meld_everything(r, rc, self.mine)
            if d is not None:
                rc[d] = rc[d] + 1
            if result is None:
                continue
            moves, points, canastas = result
            moves = runs + moves
            points += run_points
            canastas += run_canastas
            if canastas < r.canastas_to_go_out:
                continue
            if points < need and not (waived and canastas >= 1):
                continue
            if d is not None:
                moves.append(Move("discard", d))
            elif not moves:
                continue
            return moves
        return None

    def sequence_extensions(self, rc: list[int]) -> tuple[list[Move], int, int]:
        """Samba family: the hand's cards that lengthen the side's sequences, as moves (taken out of
        ``rc``), their points, and the canastas on the table besides the first group of each rank (which
        ``meld_everything`` counts) plus the sambas these moves finish. (0 and nothing in Classic.)"""
        r = self.r
        if not (r.sequences or r.several_melds_per_rank):
            return [], 0, 0
        counted = sum(1 for n, w, size in self.mine.values() if size >= 7)
        canastas = self.me.canastas - counted
        held = set(self.cards)
        moves: list[Move] = []
        points = 0
        for key, (suit, low, high) in self.me.table.sequences.items():
            size = high - low + 1
            down = low
            while down > SEQUENCE_LOW and (down - 1, suit) in held and size + low - down < SEQUENCE_MAX:
                down -= 1
            up = high
            while up < 14 and (up + 1, suit) in held and size + low - down + up - high < SEQUENCE_MAX:
                up += 1
            for lo, n in ((down, low - down), (high + 1, up - high)):
                if n:
                    moves.append(Move("meld", key, n, low=lo))
                    for rank in range(lo, lo + n):
                        rc[rank] -= 1
                        held.discard((rank, suit))
                        points += RANK_VALUE[rank]
            canastas += int(up - down + 1 >= SEQUENCE_MAX)
        return moves, points, canastas

    def going_out_move(self, ask: bool = False) -> Move | None:
        if self.pending is not None:
            return None
        plan = self.out_plan()
        if plan is None:
            return None
        if ask and ASK in self.legal:
            return ASK
        for m in plan:
            if m in self.legal:
                return m
        return None

    # opening
    def opening_move(self) -> Move | None:
        need = self.need - self.staged
        keep = 2
        if self.pending is not None:
            keep = max(0, 2 - len(self.pending))
        plan = opening_plan(self.r, self.rc, self.mine, need, keep)
        if plan is None:
            return None
        for m in plan:
            if m in self.legal:
                return m
        return None

    # ordinary melding
    def meld_move(self, melds: list[Move]) -> Move | None:
        """The best meld now, or None to go on to the discard.

        Natural cards first (the most at once, finishing a canasta first), so natural pairs stay in
        the hand to take the pile. Wild cards only finish a canasta until the side may go out; from
        then on everything goes down (pairs with a wild card, wild cards onto the longest melds):
        each card on the table counts for us instead of against us, and going out comes closer."""
        meld_all = (self.me.canastas >= self.canastas_to_meld_all() and self.opponents_can_go_out_soon()) \
            or self.permission == "yes"
        best: Move | None = None
        best_key: tuple[int, ...] = ()
        for m in melds:
            if self.hand_size - m.cards < 2 and self.play_on:
                continue  # the last cards would take us out, and lose the game
            key = self.meld_key(m, meld_all)
            if key is not None and (best is None or key > best_key):
                best, best_key = m, key
        return best

    def canastas_to_meld_all(self) -> int:
        """Canastas the side needs before everything goes down: one in Classic; in the Samba family all
        those needed to go out (two), as wild cards and pairs are worth more in the hand until then."""
        if self.r.sequences or self.r.several_melds_per_rank:
            return self.r.canastas_to_go_out
        return 1

    def meld_key(self, m: Move, meld_all: bool) -> tuple[int, ...] | None:
        """How much ``meld_move`` likes ``m`` (a larger tuple is better), or None to leave it."""
        size0 = self.every[m.rank][2] if m.rank in self.every else 0
        completes = int(size0 < 7 <= size0 + m.cards)
        wilds = m.twos + m.jokers
        if is_sequence_key(m.rank):
            return self.sequence_key(m, size0, completes)
        rank = key_rank(m.rank)
        if rank == THREE:
            return (4, m.naturals)  # black threes: only ever legal when going out
        if wilds == 0:
            return (3, completes, m.naturals, RANK_VALUE[rank])
        if not (meld_all or completes):
            if size0 == 5 and m.cards == 1 and not (m.naturals or self.me.canastas) and self.one_canasta_race():
                return (0, size0)  # before the first canasta: a wild card makes a meld one card short
            return None
        if size0 == 0 and m.cards == 3:  # a new meld: a pair and a wild card, twos before jokers
            return (2, completes, m.naturals, RANK_VALUE[rank], -wilds, m.twos)
        return (1, completes, size0 + m.naturals, -wilds if completes else wilds, m.twos)

    def sequence_key(self, m: Move, size0: int, completes: int) -> tuple[int, ...] | None:
        """Samba: lengthening a sequence comes before any group (a group would take the card first, and
        seven in sequence make 1,500); a new sequence only with NEW_SEQUENCE_MIN cards, leaving
        NEW_SEQUENCE_KEEP in the hand."""
        if not size0 and (m.naturals < NEW_SEQUENCE_MIN or self.hand_size - m.cards < NEW_SEQUENCE_KEEP):
            return None
        return (5, completes, m.naturals)

    # discarding
    def best_discard(self, discards: list[Move]) -> Move:
        return self.ranked_discards(discards)[0]

    def ranked_discards(self, discards: list[Move]) -> list[Move]:
        """The discards, best first: the cheapest to lose and least likely to hand over the pile."""
        scores, opponent_may_take = self.discard_costs(discards)
        ranked = sorted(discards, key=lambda m: scores[m])
        by_rank: dict[int, float] = {}
        for m, cost in scores.items():
            by_rank[m.rank] = min(cost, by_rank.get(m.rank, cost))
        if self.should_freeze(by_rank, opponent_may_take, len(self.pile)):
            ranked.remove(Move("discard", TWO))
            ranked.insert(0, Move("discard", TWO))
            self.why += (("freezes_big_pile", len(self.pile)),)
        elif ranked[0].rank in NATURALS and self.seat_sides[self.next_seat()] != self.side and \
                (self.pile_frozen or self.r.pile_always_frozen):
            self.why += (("pile_stays_frozen", 0),)
        return ranked

    def discard_costs(self, discards: list[Move]) -> tuple[dict[Move, float], bool]:
        """What each discard costs (move -> cost: the card's worth to keep plus the danger of handing
        the next opponent the pile), and whether that opponent may take the pile unfrozen."""
        r, rc = self.r, self.rc
        sides = self.sides
        nxt = self.next_seat()
        nxt_side = self.seat_sides[nxt]
        feeds_opponent = nxt_side != self.side
        opp = sides[nxt_side]
        opp_melds = opp.table.first
        samba = r.sequences or r.several_melds_per_rank
        opp_groups = opp.table.open_groups if samba else set()  # ranks the top card may join (Samba family)
        opp_ends = opp.table.ends if r.sequences else set()
        opp_opened = opp.opened
        frozen_for_opp = bool(self.pile_frozen or r.pile_always_frozen or not opp_opened)
        naturals = {m.rank for m in discards if 4 <= m.rank <= 14}  # (``NATURALS``)
        holds, p_wild = self.holding_chances(nxt, naturals) if feeds_opponent else ({}, 0.0)
        pile_size = len(self.pile)
        pile_points = sum(RANK_VALUE[max(0, rank)] for rank in self.mem.pile)  # mem.pile: the view's pile, read
        prev = (self.seat - 1) % self.players
        prev_discarded = self.mem.discarded[prev]

        def danger(rank: int, suit: int) -> float:
            if not feeds_opponent:
                return 0.0
            value = pile_points + RANK_VALUE[rank] + 10.0 * (pile_size + 1)
            if samba and not frozen_for_opp and (rank in opp_groups or (rank, suit) in opp_ends):
                return value + 200.0  # the top card joins one of their melds
            meld = None if samba else opp_melds.get(rank)
            if not frozen_for_opp and meld is not None and r.unfrozen_take_by_adding and not (
                    r.max_meld_size and meld[2] >= r.max_meld_size) and not (
                    r.pile_blocked_for_canastas and meld[2] >= 7):
                return value + 200.0
            pair, single = holds[rank]
            chance = pair
            if not frozen_for_opp and r.unfrozen_take_with_natural_plus_wild:
                chance += single * p_wild
            if not opp_opened:
                chance *= 0.5
                value += 50.0
            return chance * value

        scores: dict[Move, float] = {}
        for m in discards:
            rank = m.rank
            if rank == 1:  # a red three held (Hand and Foot): costly in hand, and it stops the next player
                score = -100.0
            elif rank == JOKER_RANK:
                score = 400.0
            elif rank == TWO:
                score = 120.0
            elif rank == THREE:
                # a stop card for the next opponent (worth little when the next player is our partner)
                score = 4.0 - STOP_CARD_PER_PILE_CARD * min(pile_size, 8) + (0.0 if feeds_opponent else 30.0)
            else:
                c = rc[rank]
                v = RANK_VALUE[rank]
                if c >= 3:
                    keep = 45.0 + 2 * v
                elif c == 2:
                    # a pair takes the pile; more so when the player before us throws that rank
                    keep = PAIR_KEEP + v + (8.0 if rank in prev_discarded else 0.0)
                else:
                    keep = SINGLE_KEEP * v
                if rank in self.mine:
                    keep += OWN_MELD_KEEP
                keep += self.run_keep(rank, m.suit)
                keep -= SHED_PENALISED * shed_bonus(r, rank, c)
                score = keep + DANGER_WEIGHT * danger(rank, m.suit)
            scores[m] = score
        return scores, feeds_opponent and not frozen_for_opp

    def holding_chances(self, seat: int, ranks: set[int], weights: dict[str, float] | None = None
                        ) -> tuple[dict[int, tuple[float, float]], float]:
        """For each natural rank in ``ranks``, the chance that ``seat`` holds two or more of it and the
        chance that it holds exactly one (``pair_chance`` with ``weights``, by default the preset's);
        and the chance that it holds a wild card."""
        unseen, pool = self.seen_counts()
        known = self.mem.known[seat]
        hidden = max(0, self.view["hand_sizes"][seat] - sum(known.values()))
        side = self.sides[self.seat_sides[seat]]
        melded = side.table.first
        if weights is None:
            weights = PLAIN_HELD_WEIGHTS if self.r.name in PLAIN_WEIGHT_PRESETS else HELD_WEIGHTS
        discarded, declined = self.mem.discarded[seat], self.mem.declined[seat]
        holds = {rank: self.pair_chance(unseen[rank] / pool, known.get(rank, 0), hidden, side.opened,
                                        rank in discarded, rank in declined, rank in melded, weights)
                 for rank in ranks}
        p_wild = 1.0 - (1.0 - (unseen[TWO] + unseen[JOKER_RANK]) / pool) ** hidden if hidden else 0.0
        return holds, p_wild

    @staticmethod
    def pair_chance(p: float, k: int, hidden: int, opened: bool, discarded: bool, declined: bool, melded: bool,
                    weights: dict[str, float] = HELD_WEIGHTS) -> tuple[float, float]:
        """The chance that a player holds a natural pair of a rank (or more), and exactly one: ``k`` copies
        are known to be in their hand, and each of their ``hidden`` cards is that rank with chance ``p``.
        Hands are not random draws: players keep pairs and throw lone cards, meld triples once open,
        add to their side's melds, and throw or refuse ranks they have no pair of. So the binomial
        counts are weighted by ``weights`` (docs/players.md, "Discarding")."""
        if k >= 2:
            return 1.0, 0.0
        q = 1.0 - p
        p0 = q ** hidden
        p1 = hidden * p * q ** (hidden - 1) if hidden else 0.0
        p2 = hidden * (hidden - 1) / 2 * p * p * q ** (hidden - 2) if hidden >= 2 else 0.0
        p3 = max(0.0, 1.0 - p0 - p1 - p2)
        if k == 1:  # one copy held for sure: one more makes the pair
            p0, p1, p2, p3 = 0.0, p0, p1, p2 + p3
        two, more = weights["pair" if opened else "pair unopened"], weights["triple" if opened else "triple unopened"]
        weight = two * p2 + more * p3
        if discarded:  # (three tests, not a loop over pairs: compiled, that builds and walks tuples generically)
            weight *= weights["discarded"]
        if declined:
            weight *= weights["declined"]
        if melded:
            weight *= weights["melded"]
        total = p0 + p1 + weight
        return (weight / total, p1 / total) if total > 0 else (0.0, 0.0)

    def run_keep(self, rank: int, suit: int) -> float:
        """Samba: what keeping this card is worth for sequences (0 in Classic): more when it lengthens one
        of the side's sequences, some when a suited neighbour at most two ranks away is held."""
        if not self.r.sequences:
            return 0.0
        if (rank, suit) in self.me.table.ends:
            return SEQ_EXTEND_KEEP
        near = [(rank + d, suit) for d in (-2, -1, 1, 2)]
        return CONNECTOR_KEEP if any(card in self.cards for card in near) else 0.0

    def should_freeze(self, scores: dict[int, float], opponent_may_take: bool, pile_size: int) -> bool:
        """Freeze a big pile with a two when every natural discard is risky, or we are behind; a black
        three (which only stops one player) is kept for smaller piles. ``scores``: rank -> discard cost."""
        if TWO not in scores or not opponent_may_take or pile_size < FREEZE_PILE:
            return False
        naturals = [cost for rank, cost in scores.items() if rank in NATURALS]
        risky = min(naturals, default=1000.0) >= FREEZE_RISK
        behind = self.behind() and pile_size >= FREEZE_BEHIND_PILE
        return (risky or behind) and (THREE not in scores or pile_size >= FREEZE_OVER_THREE_PILE)


__all__ = ["HeuristicPlayer", "Memory", "meld_everything", "opening_plan", "take_cost_key"]
