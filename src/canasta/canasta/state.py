"""Game state: one immutable value per position, with a JSON form that round-trips exactly.

``State`` holds the whole game (hands, stock order, pile, melds, scores). Treat it as a value: the
engine never changes a state, it makes a new one. Only ``view(state, seat)`` may show it to a player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, ClassVar, Final, NamedTuple

from ..jsonform import describe, dumps, loads
from .kinds import NUM_KINDS, card_str, cards_of, counts_of, parse_card
from .melds import is_run, is_sequence_key, key_label, key_rank, key_suit, parse_key
from .rules import Rules

_set: Final = object.__setattr__  # fills a new State's slots (State.__setattr__ refuses)
_new: Final = object.__new__


class _Keep(Enum):
    """The type of ``KEEP``, the default of ``State.replace``'s and ``turn_with``'s fields: left as it is."""

    KEEP = 0


KEEP: Final = _Keep.KEEP

# Phases of a turn (draw -> meld -> discard, with the permission question).
DRAW_PHASE: Final = "draw"
PLAY_PHASE: Final = "play"
ANSWER_PHASE: Final = "answer"
GAME_OVER: Final = "over"

Hand = tuple[int, ...]  # 53 counts, one per card kind
SeatCounts = list[tuple[Hand, list[int]] | None]  # State.seat_counts: per seat, (hand, its rank counts)
Melds = dict[int, tuple[int, ...]]  # rank -> the meld's cards, sorted


class Turn(NamedTuple):
    """What happened so far in the current turn."""

    source: str | None = None  # "stock" or "pile" once the player has drawn
    permission: str | None = None  # None, "asked", "yes", "no"
    melded: bool = False  # made a meld move (not counting the take) this turn
    new_ranks: tuple[int, ...] = ()  # melds the side started this turn
    touched_old: bool = False  # added to a meld that existed before this turn
    no_discard: bool = False  # last stock card was a red three under meld_no_discard
    must_go_out: bool = False  # took the pile to go out concealed below the minimum (D2 "always")
    withdrew: bool = False  # staged melds were withdrawn this turn (allowed once, so turns end)
    opened_now: bool = False  # the side completed its opening this turn by picking up a pending pile


class Stage(NamedTuple):
    """An opening in progress for a side that has not yet met its minimum count (docs/sources.md §3.4).

    Melds made in the opening turn are staged: ``withdraw`` restores ``hand``/``melds``/``turn``.
    ``pending`` holds the rest of a pile taken by an unopened side: it joins the hand only once the
    top card plus cards from the hand reach the minimum (pagat: the opening is shown first).
    """

    hand: Hand
    melds: Melds
    turn: Turn
    base: int  # points that withdraw cannot take back (the take's meld)
    points: int  # points counted towards the minimum so far
    pending: tuple[int, ...] | None


_new_tuple: Final = tuple.__new__


def turn_with(t: Turn, *, source: str | _Keep | None = KEEP, permission: str | _Keep | None = KEEP,
              melded: bool | _Keep = KEEP, new_ranks: tuple[int, ...] | _Keep = KEEP, touched_old: bool | _Keep = KEEP,
              no_discard: bool | _Keep = KEEP, must_go_out: bool | _Keep = KEEP, withdrew: bool | _Keep = KEEP,
              opened_now: bool | _Keep = KEEP) -> Turn:
    """``t._replace(...)`` built as a tuple directly: NamedTuple's ``_replace`` is Python code (``_make``, a map
    and a dict), slow interpreted and a call into the interpreter from compiled code."""
    made: Turn = _new_tuple(Turn, (
        t.source if source is KEEP else source, t.permission if permission is KEEP else permission,
        t.melded if melded is KEEP else melded, t.new_ranks if new_ranks is KEEP else new_ranks,
        t.touched_old if touched_old is KEEP else touched_old, t.no_discard if no_discard is KEEP else no_discard,
        t.must_go_out if must_go_out is KEEP else must_go_out, t.withdrew if withdrew is KEEP else withdrew,
        t.opened_now if opened_now is KEEP else opened_now))
    return made


def new_stage(hand: Hand, melds: Melds, turn: Turn, base: int, points: int, pending: tuple[int, ...] | None) -> Stage:
    """``Stage(...)`` built as a tuple directly (NamedTuple's ``__new__`` is Python code)."""
    made: Stage = _new_tuple(Stage, (hand, melds, turn, base, points, pending))
    return made


# A turn not begun yet, and the same turn after a draw from the stock: values shared by every such turn, so the
# common draw and discard make no new Turn.
NEW_TURN: Final = Turn()
DRAWN_TURN: Final = Turn(source="stock")


# The history of a hand, kept as entries and turned into text only when ``State.history`` is read: a chain of
# nodes ``[earlier, seat, event, text]``, newest first, None when empty. The event is a Move or the text after
# the seat ("red-three 3H"); seat -1 holds an entry read from text as a whole (it may not name a seat at all).
# ``text`` is None, or the whole history up to this node as text: ``log_text`` keeps it at a node every
# ``_CHECKPOINT`` entries or more, so that reading the history after each move costs a short walk and a copy,
# not a walk over the whole hand.
Log = list[Any] | None
_CHECKPOINT: Final = 32


def log_add(log: Log, seat: int, event: object) -> Log:
    """The history with one more entry."""
    return [log, seat, event, None]


def log_of(history: tuple[str, ...] | list[str]) -> Log:
    """The entries of a history given as text (a position read from JSON, ``replace(history=...)``)."""
    log: Log = None
    for entry in history:
        log = [log, -1, entry, None]
    return log


def entry_text(seat: int, event: object) -> str:
    return str(event) if seat < 0 else f"{seat} {event}"


def log_text(log: Log) -> tuple[str, ...]:
    node = log
    newer: list[str] = []
    while node is not None and node[3] is None:
        newer.append(entry_text(node[1], node[2]))
        node = node[0]
    newer.reverse()
    text: tuple[str, ...] = (*node[3], *newer) if node is not None else tuple(newer)
    if log is not None and len(newer) >= _CHECKPOINT:
        log[3] = text
    return text


def log_contains(log: Log, text: str) -> bool:
    """Is ``text`` (``"0 ask"``) an entry of the history? (Through ``log_text``: its checkpoints keep this a
    short walk and a scan of text, where a walk over every entry would format each one.)"""
    return text in log_text(log)


def log_count_at_least(log: Log, word: str, n: int) -> bool:
    """Do at least ``n`` entries contain ``word`` (``" discard "``)? Stops at the n-th, newest first."""
    while log is not None and n > 0:
        if word in entry_text(log[1], log[2]):
            n -= 1
        log = log[0]
    return n <= 0


class ViewParts:
    """What the views of one game's states build from its parts and share (``canasta.view`` fills and reads it):
    each seat's hand and each side's melds as texts, the side entries, the pile's texts, the history's text.

    Held by the states themselves: ``replace`` and ``moved`` pass it on to the next state, as the engine passes
    on the unchanged parts, so that a view of the next state finds the texts of what did not change. Each entry
    keeps the part it was made from and holds only while that very object is the state's part (``is``: a state
    never changes a part, a change makes a new object), so states that branch from one another may share it, and
    an entry another branch set is only a miss. One entry per seat or side, the latest: it never grows, and it
    goes with the hand's last state (a new deal starts afresh). Made for one rules object (``rules``); a state
    under other rules makes its own."""

    __slots__ = ("hands", "history", "melds", "melds_json", "pile", "rules", "sides")

    def __init__(self, rules: Rules) -> None:
        self.rules: Final = rules
        # per seat: (the hand's counts, its cards' texts)
        self.hands: list[tuple[Hand, list[str]] | None] = [None] * rules.players
        # per side: (its melds, their entries in table order, meld key -> (the meld, its entry))
        self.melds: list[tuple[Melds, list[dict[str, Any]], dict[int, tuple[tuple[int, ...], dict[str, Any]]]]
                         | None] = [None] * rules.teams
        # per side: (melds, red threes, seats, score, opened, minimum needed, pile frozen for it, the side's entry)
        self.sides: list[tuple[Melds, tuple[int, ...], tuple[int, ...], int, bool, int, bool, dict[str, Any]]
                         | None] = [None] * rules.teams
        # per side: (its melds, their JSON as ``State.to_dict`` writes it)
        self.melds_json: list[tuple[Melds, dict[str, list[str]]] | None] = [None] * rules.teams
        # (the pile, its hidden cards, the face-up cards' texts, every card's text)
        self.pile: tuple[tuple[int, ...], int, list[str], list[str]] | None = None
        # (a history node, the history's text up to it)
        self.history: tuple[list[Any], tuple[str, ...]] | None = None


class State:
    """One position. Immutable: ``canasta.apply`` returns a new State and leaves this one alone.

    A slotted class with no ``__dict__``: assigning a field raises ``AttributeError``; the state's own
    constructor and ``replace`` fill the slots. The same code compiles to a native class with mypyc.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rules", "seed", "hand_number", "dealer", "scores", "hands", "stock", "pile", "pile_frozen",
        "melds", "red_threes", "opened", "has_melded", "turn_seat", "to_move", "phase", "turn",
        "stage", "last_hand", "deal", "history", "result", "black_threes", "concealed_canastas", "recycled",
        "seat_sides", "pile_hidden", "feet",
    )
    # "history" is read through a property: the slot ``log`` keeps the entries, and text is made when asked.
    __slots__ = (*(name for name in FIELDS if name != "history"), "log", "legal_cache", "counts", "seat_counts",
                 "view_parts")

    rules: Final[Rules]
    seed: Final[int | None]
    hand_number: Final[int]
    dealer: Final[int]
    scores: Final[tuple[int, ...]]
    hands: Final[tuple[Hand, ...]]
    stock: Final[tuple[int, ...]]
    pile: Final[tuple[int, ...]]
    pile_frozen: Final[bool]
    melds: Final[tuple[Melds, ...]]
    red_threes: Final[tuple[tuple[int, ...], ...]]
    opened: Final[tuple[bool, ...]]
    has_melded: Final[tuple[bool, ...]]
    turn_seat: Final[int]
    to_move: Final[int]
    phase: Final[str]
    turn: Final[Turn]
    stage: Final[Stage | None]
    last_hand: Final[tuple[dict[str, Any], ...] | None]
    deal: Final[tuple[int, ...]]
    log: Final[Log]  # the hand's history as entries, newest first (see ``Log``)
    result: Final[dict[str, Any] | None]
    black_threes: Final[tuple[tuple[int, ...], ...]]  # laid aside from taken piles (pile_black_threes="bonus")
    concealed_canastas: Final[tuple[tuple[int, ...], ...]]  # ranks of canastas laid down whole from the hand
    recycled: Final[bool]  # the pile has been turned over as a new stock this hand (recycle_pile)
    seat_sides: Final[tuple[int, ...]]  # the side each seat plays for this hand (changes only in Cutthroat)
    pile_hidden: Final[int]  # cards face down at the bottom of the pile (Italian upcard_buries), seen by nobody
    feet: Final[tuple[Hand, ...]]  # each seat's foot (Hand and Foot), seen by nobody; all zero once picked up
    # The cache of legal_moves, filled on first use by the engine (a State never changes, so it stays valid).
    legal_cache: list[Any] | None
    # The rank counts of the hand of ``turn_seat`` (``engine.core.turn_counts``), filled on first use or by the
    # transition that made the state from its predecessor's; never changed once set (readers copy to change).
    counts: list[int] | None
    # Rank counts kept between turns, so that a turn starts with its counts known (``engine.core.known_counts``):
    # per seat, None or (the hand tuple counted, its rank counts). An entry holds only while that very tuple is the
    # seat's hand (``is``): any change of a hand makes a new tuple, so the list can be carried from state to state
    # (``replace`` keeps it) without asking which transition changed which hand, and shared by the states of a hand
    # and changed in place (an entry another state set is only a miss there; each entry is one store).
    seat_counts: SeatCounts | None
    # What views of this game's states share (see ``ViewParts``): passed on to the next state like ``seat_counts``.
    view_parts: ViewParts | None

    def __init__(self, rules: Rules, seed: int | None, hand_number: int, dealer: int, scores: tuple[int, ...],
                 hands: tuple[Hand, ...], stock: tuple[int, ...], pile: tuple[int, ...], pile_frozen: bool,
                 melds: tuple[Melds, ...], red_threes: tuple[tuple[int, ...], ...], opened: tuple[bool, ...],
                 has_melded: tuple[bool, ...], turn_seat: int, to_move: int, phase: str, turn: Turn,
                 stage: Stage | None, last_hand: tuple[dict[str, Any], ...] | None, deal: tuple[int, ...],
                 history: tuple[str, ...], result: dict[str, Any] | None, black_threes: tuple[tuple[int, ...], ...],
                 concealed_canastas: tuple[tuple[int, ...], ...], recycled: bool, seat_sides: tuple[int, ...],
                 pile_hidden: int, feet: tuple[Hand, ...], log: Log = None, counts: list[int] | None = None,
                 seat_counts: SeatCounts | None = None, view_parts: ViewParts | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.hand_number = hand_number
        self.dealer = dealer
        self.scores = scores
        self.hands = hands
        self.stock = stock
        self.pile = pile
        self.pile_frozen = pile_frozen
        self.melds = melds
        self.red_threes = red_threes
        self.opened = opened
        self.has_melded = has_melded
        self.turn_seat = turn_seat
        self.to_move = to_move
        self.phase = phase
        self.turn = turn
        self.stage = stage
        self.last_hand = last_hand
        self.deal = deal
        self.log = log if log is not None else log_of(history)  # entries given, or read from text
        self.result = result
        self.black_threes = black_threes
        self.concealed_canastas = concealed_canastas
        self.recycled = recycled
        self.seat_sides = seat_sides
        self.pile_hidden = pile_hidden
        self.feet = feet
        self.legal_cache = None
        self.counts = counts
        self.seat_counts = seat_counts
        self.view_parts = view_parts
        if not _COMPILED:
            _set(self, "__class__", State)

    def __copy__(self) -> State:
        return self  # immutable: the state itself is as good as a copy

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled through the constructor (process pools send states to workers): a compiled State is a
        # native class, with neither a __dict__ nor the slot protocol that pickle's default restores.
        return (State, tuple(getattr(self, name) for name in self.FIELDS))

    def cache_legal(self, moves: list[Any]) -> None:
        """Keep the engine's list of legal moves for this state (it never changes, so the list stays valid)."""
        if _COMPILED:
            self.legal_cache = moves  # compiled code fills a native slot directly
        else:
            _set(self, "legal_cache", moves)

    def keep_view_parts(self, parts: ViewParts) -> None:
        """Keep what the views of this game's states share (see ``ViewParts``)."""
        if _COMPILED:
            self.view_parts = parts
        else:
            _set(self, "view_parts", parts)

    def cache_counts(self, counts: list[int]) -> None:
        """Keep the rank counts of the hand of ``turn_seat`` (see ``engine.core.turn_counts``)."""
        if _COMPILED:
            self.counts = counts
        else:
            _set(self, "counts", counts)

    def replace(self, *, rules: Rules | Any = KEEP, seed: int | _Keep | None = KEEP, hand_number: int | _Keep = KEEP,
                dealer: int | _Keep = KEEP, scores: tuple[int, ...] | _Keep = KEEP,
                hands: tuple[Hand, ...] | _Keep = KEEP, stock: tuple[int, ...] | _Keep = KEEP,
                pile: tuple[int, ...] | _Keep = KEEP,
                pile_frozen: bool | _Keep = KEEP, melds: tuple[Melds, ...] | _Keep = KEEP,
                red_threes: tuple[tuple[int, ...], ...] | _Keep = KEEP, opened: tuple[bool, ...] | _Keep = KEEP,
                has_melded: tuple[bool, ...] | _Keep = KEEP, turn_seat: int | _Keep = KEEP, to_move: int | _Keep = KEEP,
                phase: str | _Keep = KEEP, turn: Turn | _Keep = KEEP, stage: Stage | _Keep | None = KEEP,
                last_hand: tuple[dict[str, Any], ...] | _Keep | None = KEEP, deal: tuple[int, ...] | _Keep = KEEP,
                result: dict[str, Any] | _Keep | None = KEEP, black_threes: tuple[tuple[int, ...], ...] | _Keep = KEEP,
                concealed_canastas: tuple[tuple[int, ...], ...] | _Keep = KEEP, recycled: bool | _Keep = KEEP,
                seat_sides: tuple[int, ...] | _Keep = KEEP, pile_hidden: int | _Keep = KEEP,
                feet: tuple[Hand, ...] | _Keep = KEEP, log: Log | _Keep = KEEP,
                history: tuple[str, ...] | list[str] | _Keep = KEEP, counts: list[int] | None = None,
                seat_counts: SeatCounts | _Keep | None = KEEP) -> State:
        """A copy with some fields changed (the copy shares the unchanged, immutable parts). ``history`` (text,
        as in a position) sets the history; ``log``, its entries. ``counts``: the rank counts of the new turn's
        hand, if known (see ``engine.core.turn_counts``); the seats' (``seat_counts``) are kept unless given: each
        entry checks its own hand. (``rules`` admits Any: the server replays a move under rules of either family
        through this one name, canasta.server.games.final_table; issue 46.)"""
        if history is not KEEP:
            log = log_of(history)
        state = State(
            self.rules if rules is KEEP else rules,
            self.seed if seed is KEEP else seed,
            self.hand_number if hand_number is KEEP else hand_number,
            self.dealer if dealer is KEEP else dealer,
            self.scores if scores is KEEP else scores,
            self.hands if hands is KEEP else hands,
            self.stock if stock is KEEP else stock,
            self.pile if pile is KEEP else pile,
            self.pile_frozen if pile_frozen is KEEP else pile_frozen,
            self.melds if melds is KEEP else melds,
            self.red_threes if red_threes is KEEP else red_threes,
            self.opened if opened is KEEP else opened,
            self.has_melded if has_melded is KEEP else has_melded,
            self.turn_seat if turn_seat is KEEP else turn_seat,
            self.to_move if to_move is KEEP else to_move,
            self.phase if phase is KEEP else phase,
            self.turn if turn is KEEP else turn,
            self.stage if stage is KEEP else stage,
            self.last_hand if last_hand is KEEP else last_hand,
            self.deal if deal is KEEP else deal,
            (),
            self.result if result is KEEP else result,
            self.black_threes if black_threes is KEEP else black_threes,
            self.concealed_canastas if concealed_canastas is KEEP else concealed_canastas,
            self.recycled if recycled is KEEP else recycled,
            self.seat_sides if seat_sides is KEEP else seat_sides,
            self.pile_hidden if pile_hidden is KEEP else pile_hidden,
            self.feet if feet is KEEP else feet,
            self.log if log is KEEP else log,
            counts,
            self.seat_counts if seat_counts is KEEP else seat_counts,
            self.view_parts)
        return state

    def moved(self, hands: tuple[Hand, ...], stock: tuple[int, ...], pile: tuple[int, ...], pile_frozen: bool,
              melds: tuple[Melds, ...], has_melded: tuple[bool, ...], turn_seat: int, to_move: int, phase: str,
              turn: Turn, stage: Stage | None, log: Log, counts: list[int] | None = None,
              seat_counts: SeatCounts | None = None) -> State:
        """``replace`` with the fields an ordinary move changes all given (the draw, a meld, a discard), the others
        kept: a constructor call with typed arguments, where ``replace``'s are boxed objects each tested against
        ``KEEP`` (twice this method's cost). ``counts`` and ``seat_counts``: the rank counts the new state starts
        with (see ``engine.core.turn_counts``)."""
        return State(self.rules, self.seed, self.hand_number, self.dealer, self.scores, hands, stock, pile, pile_frozen,
                     melds, self.red_threes, self.opened, has_melded, turn_seat, to_move, phase, turn, stage,
                     self.last_hand, self.deal, (), self.result, self.black_threes, self.concealed_canastas,
                     self.recycled, self.seat_sides, self.pile_hidden, self.feet, log, counts, seat_counts,
                     self.view_parts)

    @property
    def history(self) -> tuple[str, ...]:
        """The hand's events so far as text, oldest first (``"0 draw"``, ``"1 red-three 3H"`` ...)."""
        return log_text(self.log)

    # -- convenience -------------------------------------------------------------------------
    @property
    def side_to_move(self) -> int:
        return self.seat_sides[self.to_move]

    def side_of(self, seat: int) -> int:
        """The side a seat plays for in this hand (fixed, except in Cutthroat)."""
        return self.seat_sides[seat]

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s, x in enumerate(self.seat_sides) if x == side)

    def hand_cards(self, seat: int) -> list[int]:
        return cards_of(self.hands[seat])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return describe("State", self.rules.name, self.hand_number, self.to_move, self.phase, self.scores)

    # -- JSON ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return position_dict(self, [_texts(cards_of(h)) for h in self.hands], _texts(self.stock), _texts(self.pile),
                             [_melds_json(m) for m in self.melds], _texts(self.deal), list(self.history))

    def to_json(self) -> str:
        return dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> State:
        """Read a state from ``to_dict()``'s form; raises ``ValueError`` naming the field that is wrong."""
        return _from_dict(data)

    @classmethod
    def from_json(cls, text: str) -> State:
        """Read a state written by ``to_json``; raises ``ValueError`` naming what is wrong."""
        return _from_dict(loads(text, "State.from_json"))


# Is this module compiled (mypyc)? Compiled, State is a native class whose own code fills its slots directly.
_COMPILED: Final = not __file__.endswith(".py")
# Interpreted, ``State.__setattr__`` (which refuses every assignment) would make each slot filled through
# ``object.__setattr__`` cost a call: ``State(...)`` fills a new state as an instance of this twin, which adds no
# slot and keeps the plain assignment, and then makes it a State (the same layout, so ``__class__`` may change).
_Open: Final[Any] = None if _COMPILED else type("_OpenState", (State,),
                                                 {"__slots__": (), "__setattr__": object.__setattr__})


def _refuse(self: State, name: str, value: Any) -> None:
    raise AttributeError("State is immutable; use canasta.apply to make a new one")


if not _COMPILED:
    # Interpreted, nothing stops an assignment to a slot: State refuses them, and State(...) fills its slots as
    # the twin. (Compiled, the fields are Final: read-only outside the class's own code.) A plain assignment
    # to the method: mypy and mypyc refuse it.
    setattr(State, "__setattr__", _refuse)  # noqa: B010
    setattr(State, "__new__", lambda cls, *args, **kwargs: _new(_Open))  # noqa: B010


def position_dict(s: State, hands: list[list[str]], stock: list[str], pile: list[str],
                  melds: list[dict[str, list[str]]], deal: list[str], history: list[str]) -> dict[str, Any]:
    """``s.to_dict()``, its largest parts given as they are to appear: ``State.to_dict`` writes them out, and the
    views (``canasta.view``) give the texts kept between views and blank what the seat may not see."""
    stage = None
    if s.stage is not None:
        st = s.stage
        stage = {
            "hand": _texts(cards_of(st.hand)),
            "melds": _melds_json(st.melds),
            "turn": _turn_json(st.turn),
            "base": st.base,
            "points": st.points,
            "pending": None if st.pending is None else _texts(st.pending),
        }
    out: dict[str, Any] = {
        "format": "canasta-state/1",
        "rules": s.rules.to_dict(),
        "seed": s.seed,
        "hand_number": s.hand_number,
        "dealer": s.dealer,
        "scores": list(s.scores),
        "hands": hands,
        "stock": stock,
        "pile": pile,
        "pile_frozen": s.pile_frozen,
        "melds": melds,
        "red_threes": [_texts(r) for r in s.red_threes],
        "opened": list(s.opened),
        "has_melded": list(s.has_melded),
        "turn_seat": s.turn_seat,
        "to_move": s.to_move,
        "phase": s.phase,
        "turn": _turn_json(s.turn),
        "stage": stage,
        "last_hand": None if s.last_hand is None else list(s.last_hand),
        "deal": deal,
        "history": history,
        "result": s.result,
        "black_threes": [_texts(b) for b in s.black_threes],
        "concealed_canastas": [[key_label(k) for k in c] for c in s.concealed_canastas],
        "recycled": s.recycled,
        "seat_sides": list(s.seat_sides),
        "pile_hidden": s.pile_hidden,
    }
    if s.rules.foot_size or _any_cards(s.feet):  # only in games with a foot (Hand and Foot)
        out["feet"] = [_texts(cards_of(f)) for f in s.feet]
    return out


def _texts(cards: Iterable[int]) -> list[str]:
    return [card_str(c) for c in cards]


def _any_cards(hands: tuple[Hand, ...]) -> bool:
    """Does any of these hands of counts hold a card? (Loops: compiled, ``any`` is a generic call per item.)"""
    for counts in hands:
        for x in counts:
            if x:
                return True
    return False


def _melds_json(melds: Melds) -> dict[str, list[str]]:
    return {key_label(k): _texts(m) for k, m in sorted(melds.items())}


def _turn_json(t: Turn) -> dict[str, Any]:
    return {
        "source": t.source, "permission": t.permission, "melded": t.melded,
        "new_ranks": [key_label(k) for k in t.new_ranks], "touched_old": t.touched_old,
        "no_discard": t.no_discard, "must_go_out": t.must_go_out, "withdrew": t.withdrew,
        "opened_now": t.opened_now,
    }


def _json_kind(value: Any) -> str:
    """How a JSON value reads to a person: ``a list``, ``null``, ``the text 'x'`` ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    return "a list" if isinstance(value, list) else "an object"


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"want a whole number, got {_json_kind(value)}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"want true or false, got {_json_kind(value)}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"want text, got {_json_kind(value)}")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"want a list, got {_json_kind(value)}")
    return value


def _object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"want an object, got {_json_kind(value)}")
    return value


def _cards(items: Any) -> tuple[int, ...]:
    return tuple(parse_card(_text(c)) for c in _list(items))


def _melds(data: Any) -> Melds:
    return {parse_key(_text(k)): tuple(sorted(_cards(m))) for k, m in _object(data).items()}


def _turn(value: Any) -> Turn:
    d = _object(value)
    source, permission = d["source"], d["permission"]
    if source not in (None, "stock", "pile"):
        raise ValueError(f"turn source must be null, 'stock' or 'pile', got {_json_kind(source)}")
    if permission is not None:
        _text(permission)
    return Turn(source, permission, _bool(d["melded"]), tuple(parse_key(_text(k)) for k in _list(d["new_ranks"])),
                _bool(d["touched_old"]), _bool(d["no_discard"]), _bool(d.get("must_go_out", False)),
                _bool(d.get("withdrew", False)), _bool(d.get("opened_now", False)))


def _stage(value: Any, hand: Callable[[Any], Hand]) -> Stage | None:
    if value is None:
        return None
    s = _object(value)
    pending = None if s["pending"] is None else _cards(s["pending"])
    return Stage(hand(s["hand"]), _melds(s["melds"]), _turn(s["turn"]), _int(s["base"]), _int(s["points"]), pending)


def _rules_of(value: Any) -> Rules:
    from .variants import rules as make_rules  # local: variants imports rules, not state

    spec = _object(value)
    options = _object(spec.get("options", {}))
    return make_rules(_text(spec["variant"]), **options)


def _from_dict(d: Any) -> State:
    """Read every field with its own check, so that a wrong one is named: ``ValueError`` only."""
    if not isinstance(d, dict):
        raise ValueError(f"a position is a JSON object (state.to_json()), got {_json_kind(d)}")
    if d.get("format") != "canasta-state/1":
        raise ValueError(f"unknown position format {d.get('format')!r}; want 'canasta-state/1'")
    field = "rules"
    try:
        rules = _rules_of(d["rules"])
        n, t = rules.players, rules.teams

        def hand(items: Any) -> Hand:
            return tuple(counts_of(_cards(items)))

        def each(key: str, read: Callable[[Any], Any], default: Any = None) -> tuple[Any, ...]:
            nonlocal field
            field = key
            return tuple(read(x) for x in _list(d[key] if default is None else d.get(key, default)))

        def one(key: str, read: Callable[[Any], Any], default: Any = None) -> Any:
            nonlocal field
            field = key
            return read(d[key] if default is None else d.get(key, default))

        def optional(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
            return lambda v: None if v is None else read(v)

        fields: dict[str, Any] = {
            "rules": rules, "seed": one("seed", optional(_int)), "hand_number": one("hand_number", _int),
            "dealer": one("dealer", _int), "scores": each("scores", _int), "hands": each("hands", hand),
            "stock": one("stock", _cards), "pile": one("pile", _cards), "pile_frozen": one("pile_frozen", _bool),
            "melds": each("melds", _melds), "red_threes": each("red_threes", _cards),
            "opened": each("opened", _bool), "has_melded": each("has_melded", _bool),
            "turn_seat": one("turn_seat", _int), "to_move": one("to_move", _int), "phase": one("phase", _text),
            "turn": one("turn", _turn), "stage": one("stage", lambda v: _stage(v, hand)),
            "last_hand": one("last_hand", optional(lambda v: tuple(_object(x) for x in _list(v)))),
            "deal": one("deal", _cards), "history": each("history", _text),
            "result": one("result", optional(_object)),
            "black_threes": each("black_threes", _cards, [[]] * t),
            "concealed_canastas": each("concealed_canastas", lambda c: tuple(parse_key(_text(k)) for k in _list(c)),
                                       [[]] * t),
            "recycled": one("recycled", _bool, False),
            "seat_sides": each("seat_sides", _int, [rules.side_of(s) for s in range(n)]),
            "pile_hidden": one("pile_hidden", _int, 0),
            "feet": each("feet", hand, [[]] * n),
        }
    except KeyError as exc:
        raise ValueError(f"position lacks the field {exc.args[0]!r}" +
                         ("" if exc.args[0] == field else f" (in {field!r})")) from None
    except ValueError as exc:
        raise ValueError(f"position field {field!r}: {exc}") from None
    state = State(**fields)
    _check_consistent(state, n, t)
    return state


def _filed_right(rules: Rules, key: int, meld: tuple[int, ...]) -> bool:
    """Does the meld's key match its cards (a sequence of that suit, a group of that rank)?"""
    from .kinds import is_wild, rank_of

    if is_sequence_key(key):
        return is_run(meld) and all(c & 3 == key_suit(key) for c in meld)
    rank = key_rank(key)
    if rank == 2 and rules.twos_as_rank:
        return all(rank_of(c) in (0, 2) for c in meld)
    return ({rank_of(c) for c in meld if not is_wild(c)} or {0}) == {rank}


def _check_consistent(s: State, players: int, teams: int) -> None:
    """Reject positions that no game could reach in shape: wrong sizes or a wrong pack."""
    if len(s.hands) != players or len(s.has_melded) != players:
        raise ValueError(f"position has {len(s.hands)} hands for {players} players")
    if len(s.feet) != players:
        raise ValueError(f"position has {len(s.feet)} feet for {players} players")
    if not (len(s.scores) == len(s.melds) == len(s.red_threes) == len(s.opened) == len(s.black_threes)
            == len(s.concealed_canastas) == teams):
        raise ValueError(f"position does not have one score, meld set and red-three set for each of {teams} sides")
    if not 0 <= s.pile_hidden <= len(s.pile):
        raise ValueError(f"pile_hidden must be 0 to the pile's size, got {s.pile_hidden}")
    if not (0 <= s.to_move < players and 0 <= s.turn_seat < players and 0 <= s.dealer < players):
        raise ValueError("position names a seat that does not exist")
    if len(s.seat_sides) != players or not all(0 <= side < teams for side in s.seat_sides):
        # (not every side need have a seat: in Cutthroat two players join one side for the rest of the hand)
        raise ValueError(f"seat_sides must give each of {players} seats a side 0..{teams - 1}")
    if s.hand_number < 1:
        raise ValueError(f"hand_number starts at 1, got {s.hand_number}")
    for entry in s.history:
        seat, _, what = entry.partition(" ")
        if not (seat.isdigit() and int(seat) < players and what):
            raise ValueError(f"history entry {entry!r} is not 'SEAT EVENT' with a seat 0..{players - 1}")
    if (s.result is not None) != (s.phase == GAME_OVER):
        raise ValueError("result is set exactly when the phase is 'over'")
    if s.phase not in (DRAW_PHASE, PLAY_PHASE, ANSWER_PHASE, GAME_OVER):
        raise ValueError(f"unknown phase {s.phase!r}")
    if s.phase in (DRAW_PHASE, PLAY_PHASE) and s.to_move != s.turn_seat:
        raise ValueError("to_move must be the turn's seat outside the answer phase")
    if s.stage is not None and s.phase not in (PLAY_PHASE, ANSWER_PHASE):
        raise ValueError("a staged opening exists only in the play phase (or while the partner answers)")
    from .scoring import meld_problem

    for side, melds in enumerate(s.melds):
        for key, meld in melds.items():
            problem = meld_problem(s.rules, meld)
            if problem and s.rules.cutthroat and "wild-card limit" in problem:
                problem = None  # partners' melds combined in Cutthroat may pass the limit
            if problem is None and not _filed_right(s.rules, key, meld):
                problem = f"it is filed under {key_label(key)}"
            if problem:
                raise ValueError(f"side {side} meld {' '.join(card_str(c) for c in meld)}: {problem}")
    if s.phase != GAME_OVER:
        counts = [0] * NUM_KINDS
        everything: list[Any] = [*s.stock, *s.pile, *(c for r in s.red_threes for c in r),
                                 *(c for b in s.black_threes for c in b),
                                 *(c for m in s.melds for meld in m.values() for c in meld)]
        if s.stage is not None and s.stage.pending:
            everything.extend(s.stage.pending)
        for c in everything:
            counts[c] = counts[c] + 1
        for h in (*s.hands, *s.feet):
            for c in range(NUM_KINDS):
                counts[c] = counts[c] + h[c]
        want = counts_of(_pack(s.rules))
        if counts != want:
            bad = [card_str(c) for c in range(NUM_KINDS) if counts[c] != want[c]]
            raise ValueError(f"position's cards do not make up the pack; wrong counts of {' '.join(bad[:8])}")


def _pack(rules: Rules) -> list[int]:
    from .kinds import pack

    return pack(rules.decks, rules.jokers)
