"""One game as the environments play it (docs/rl.md): the engine position, the partial move being
built from atoms, the cards known in hands, and each seat's log for its information state.

The three APIs (OpenSpiel, PettingZoo, Gymnasium) are thin layers over ``Table``, so they play the same
game: an episode is one hand (returns: the hand's scores) or, with ``whole_game``, the whole game
(returns: the final scores). A seat's return is its side's score column (its own column in Cutthroat).
"""

from __future__ import annotations

import random
from typing import Any, Final

from ..canasta.cards import card_str, cards_of
from ..canasta.engine import apply, is_over, legal_moves, new_game
from ..canasta.melds import key_label
from ..canasta.moves import Move
from ..canasta.rules import Rules
from ..canasta.sampling import determinize
from ..canasta.state import Hand, State, log_text
from ..canasta.state import Log as HistoryLog
from ..canasta.view import view
from . import known as known_cards
from .actions import ActionSpace, Atoms, LegalTree
from .encoder import Encoder, Masks
from .observation import Entries, Layout, sparse_state

# The public log, newest move first, shared between copies; a seat's information state renders it from that
# seat's side only when asked. One node per engine move: (older node, then of the position before it and the
# position after it the hand number, the history and the hands, and the position after it where its entry
# needs more: at the start (hand number before -1) and when a hand begins, else None). The log keeps no
# other position alive: a position holds its legal moves and more, and keeping every one of a game's made
# the garbage collector run about twice as often.
Log = tuple[Any, int, HistoryLog, tuple[Hand, ...] | None, int, HistoryLog, tuple[Hand, ...], State | None] | None
_NOTHING: Final[list[int]] = []  # no legal atom (a mask of a seat not to act): never changed


def _hand_text(hand: Hand) -> str:
    """A hand, as ``view(state, seat)["hand"]`` shows the seat's own."""
    return " ".join(card_str(c) for c in cards_of(hand))


class Table:
    """A game in progress. ``copy`` is cheap (the engine state is immutable, the logs are shared).

    Compiled with the engine (setup.py), so the per-step work the three APIs share (an atom decoded, the
    engine move played, the known cards and the log followed, the legal atoms, the observation written)
    runs as native code; the numpy and API layers above it stay pure. Its caches are plain fields, typed,
    rather than tuples, so that compiled code reads them natively."""

    def __init__(self, rules: Rules, seed: int, whole_game: bool = False,
                 fields: tuple[Any, ...] | None = None) -> None:
        # ``fields``: the game's fields as ``_fields`` gives them, for a copy or an unpickled table, instead of
        # dealing game ``seed``
        self.rules = rules
        self.space = ActionSpace.for_rules(rules)
        self.layout = Layout.for_rules(rules)
        # where a seat's log starts after a resample (the node then, and what it is told), else None
        self.starts: list[tuple[Log, str] | None] = [None] * rules.players
        self.prefix: Atoms = ()
        self.moves = 0  # engine moves played
        if fields is None:
            self.whole_game = whole_game
            self.state = new_game(rules, seed)
            self.first_hand = self.state.hand_number
            self.known = known_cards.start(self.state)
            s = self.state
            self.log: Log = (None, -1, None, None, s.hand_number, s.log, s.hands, s)
        else:
            self._set_fields(fields)
        self._info: dict[int, tuple[Log, list[str]]] = {}
        self._clear_caches()
        # encoders that keep parts of recent positions (canasta.rl.tensor), shared by copies of this game
        self.encoders: dict[str, Any] = {}

    def _clear_caches(self) -> None:
        """Caches of answers about ``state``, each valid while its position is the state (``is``)."""
        self._tree_state: State | None = None
        self._tree: LegalTree | None = None
        self._terminal_state: State | None = None
        self._terminal = False
        self._observed_state: State | None = None
        self._observed_key: tuple[Atoms, int] = ((), -1)
        self._observed: Entries | None = None
        self._parts: dict[Any, Any] = {}  # encoded parts of the observation (observation.sparse_state)
        self._known_key: tuple[Any, ...] | None = None
        self._known_now: dict[int, dict[int, int]] = {}
        # the objects the answer was last found for (``known_ranks``)
        self._known_counts: Any = None
        self._known_pile: Any = None
        self._known_history_pile: Any = None
        self._known_pending: Any = None
        self._known_turn = -1
        self._known_hidden = -1
        # the piles ``known_cards.pile_matches`` last answered True for (None: not asked, or it was False)
        self._matched_pile: tuple[int, ...] | None = None
        self._matched_mine = b""
        self._matched_hidden = 0

    def _fields(self) -> tuple[Any, ...]:
        return (self.rules, self.whole_game, self.state, self.first_hand, self.prefix, self.known, self.moves,
                self.log, self.starts)

    def _set_fields(self, fields: tuple[Any, ...]) -> None:
        (self.rules, self.whole_game, self.state, self.first_hand, self.prefix, self.known, self.moves,
         self.log, self.starts) = fields

    def copy(self) -> Table:
        new = Table(self.rules, 0, self.whole_game, self._fields())
        new._info = dict(self._info)
        # the caches are about the same position: shared (each is replaced, never changed, when it moves on)
        new._tree_state, new._tree = self._tree_state, self._tree
        new._terminal_state, new._terminal = self._terminal_state, self._terminal
        new._observed_state, new._observed_key, new._observed = (self._observed_state, self._observed_key,
                                                                  self._observed)
        new._parts = self._parts
        new._known_key, new._known_now = self._known_key, self._known_now
        new._known_counts, new._known_pile, new._known_history_pile = (self._known_counts, self._known_pile,
                                                                       self._known_history_pile)
        new._known_pending, new._known_turn, new._known_hidden = (self._known_pending, self._known_turn,
                                                                  self._known_hidden)
        new.encoders = self.encoders
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.copy()  # what OpenSpiel's clone calls: the shared parts are immutable

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel serializes states so) without its caches, which are built again when first
        needed (on a compiled install the legal tree and the observation encoder cannot be pickled), and
        rebuilt through ``_restore``: a compiled class cannot be unpickled field by field."""
        return (_restore, (self._fields(), self._info))

    # -- the game ---------------------------------------------------------------------------------
    @property
    def terminal(self) -> bool:
        state = self.state
        if self._terminal_state is not state:  # asked several times a step: answered once per position
            self._terminal = is_over(state) or (not self.whole_game and state.hand_number != self.first_hand)
            self._terminal_state = state
        return self._terminal

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def acting(self, over: int) -> int:
        """The seat to act, or ``over`` once the episode is over (OpenSpiel's ``current_player``, asked twice
        an atom: one compiled call instead of two properties)."""
        return over if self.terminal else self.state.to_move

    def column(self, seat: int) -> int:
        """The score column of a seat: its side's, or its own in Cutthroat (one column per player)."""
        return seat if self.rules.cutthroat else self.state.side_of(seat)

    def returns(self) -> list[float]:
        """Each seat's score: the hand's (or the game's, with ``whole_game``) once over; zeros before."""
        if not self.terminal:
            return [0.0] * self.rules.players
        if self.whole_game:
            return [float(self.state.scores[self.column(s)]) for s in range(self.rules.players)]
        last = self.state.last_hand or ()
        return [float(last[self.column(s)]["total"]) for s in range(self.rules.players)]

    def tree(self) -> LegalTree:
        state = self.state
        tree = self._tree
        if tree is None or self._tree_state is not state:
            tree = self._tree = LegalTree(self.space, legal_moves(state))
            self._tree_state = state
        return tree

    def legal_actions(self) -> list[int]:
        return [] if self.terminal else self.tree().legal(self.prefix)

    def write_dense(self, encoder: Encoder, seat: int) -> bytearray:
        """The seat's observation tensor written into ``encoder``'s buffer for the seat (returned)."""
        state = self.state
        return encoder.encode(state, seat, self.prefix if seat == state.to_move else (), self.known_ranks())

    def write_observation(self, encoder: Encoder, masks: Masks, seat: int) -> tuple[bytearray, bytearray]:
        """The seat's observation tensor written into ``encoder``'s buffer for the seat, and its legal-atom mask
        into ``masks`` (all zero when it is not to act): what the environments hand out every step, in one
        compiled call (``canasta.rl.tensor`` views both buffers with numpy). Returns the two buffers."""
        buffer = self.write_dense(encoder, seat)
        if seat != self.state.to_move or self.terminal:
            return buffer, masks.write(_NOTHING)
        # a mask needs no order: at the start of a move, the first atoms as they come
        prefix = self.prefix
        return buffer, masks.write(self.tree().legal_shared(prefix) if prefix else self.tree().heads())

    def apply_action(self, action: int) -> Move | None:
        """Play one atom; the engine move once the atoms name one (else None). ``ValueError`` if illegal."""
        if self.terminal:
            raise ValueError("the episode is over")
        self.prefix, move = self.tree().step(self.prefix, int(action))
        if move is not None:
            self.play(move)
        return move

    def play(self, move: Move) -> None:
        """Play a whole engine move (``IllegalMove`` if it is not legal)."""
        before = self.state
        self.state = after = apply(before, move)
        self.prefix = ()
        self.moves += 1
        self.known = known_cards.advance(self.known, after)
        hand = after.hand_number
        self.log = (self.log, before.hand_number, before.log, before.hands, hand, after.log, after.hands,
                    after if hand != before.hand_number else None)

    @staticmethod
    def _entry(node: tuple[Any, ...], seat: int) -> str:
        """What ``seat`` learned from one move (a ``Log`` node): the public history added, and its hand if it
        changed."""
        _, hand_before, history_before, hands_before, hand, history, hands, new_hand = node
        if new_hand is not None:  # the start, or a new hand
            public = [f"hand {hand}", *log_text(history)] if not is_over(new_hand) else ["over"]
            if hand_before >= 0 and new_hand.last_hand:
                public.insert(0, "scored " + " ".join(str(h["total"]) for h in new_hand.last_hand))
        else:
            public = list(log_text(history)[len(log_text(history_before)):])
        if new_hand is not None or hands_before is None or hands_before[seat] != hands[seat]:
            public.append(f"hand: {_hand_text(hands[seat])}")
        return "; ".join(public)

    # -- what a seat may know -----------------------------------------------------------------------
    def known_ranks(self) -> dict[int, dict[int, int]]:
        """The cards known in each hand now (``canasta.canasta.sampling.known_in_hands`` of any seat's view)."""
        k, state = self.known, self.state
        stage = state.stage
        pending = None if stage is None else stage.pending
        turn = state.turn_seat if pending else -1  # whose hand a pending pile is taken from (none: no matter)
        # What the answer depends on: the known counts, the pile (whether the history's pile is the pile in
        # sight), a pending pile and the turn. Most moves keep the same objects: then the answer is the same
        # dict, found without comparing anything.
        if (self._known_counts is k.known and self._known_pile is state.pile and self._known_history_pile is k.pile
                and self._known_pending is pending and self._known_turn == turn
                and self._known_hidden == state.pile_hidden):
            return self._known_now
        matched = self._matched_pile
        if matched is None:
            matches = known_cards.pile_matches(k, state)
        else:
            matches = known_cards.pile_still_matches(k, state, matched, self._matched_mine, self._matched_hidden)
        self._matched_pile = state.pile if matches else None
        self._matched_mine, self._matched_hidden = k.pile, state.pile_hidden
        key = (k.known, matches, pending, turn)
        if self._known_key is None or self._known_key != key:
            self._known_now = known_cards.known_ranks(k, state)
            self._known_key = key
        self._known_counts, self._known_pile, self._known_history_pile = k.known, state.pile, k.pile
        self._known_pending, self._known_turn, self._known_hidden = pending, turn, state.pile_hidden
        return self._known_now

    def observation(self, seat: int) -> list[float]:
        """The seat's observation tensor (flat; ``canasta.rl.observation``)."""
        return self.observation_entries(seat).dense()

    def observation_entries(self, seat: int) -> Entries:
        """The seat's observation tensor as its non-zero entries (``.values``: index -> value), cached."""
        prefix = self.prefix if seat == self.to_move else ()
        entries = self._observed
        if entries is None or self._observed_state is not self.state or self._observed_key != (prefix, seat):
            entries = self._observed = sparse_state(self.layout, self.state, seat, prefix, self.known_ranks(),
                                                    self._parts)
            self._observed_state, self._observed_key = self.state, (prefix, seat)
        return entries

    def information_state(self, seat: int) -> str:
        """A perfect-recall string: every public event and each hand the seat held, oldest first."""
        entries = self._entries(seat)
        head = f"{self.rules.name} seat {seat}"
        building = " ".join(self.space.name(a) for a in self.prefix)
        return "\n".join([head, *entries, f"building: {building}" if building else "to play"])

    def _entries(self, seat: int) -> list[str]:
        """The seat's log entries, oldest first (the newest rendered, the rest from the cache)."""
        start = self.starts[seat]
        stop = None if start is None else start[0]
        cached = self._info.get(seat)
        newer: list[str] = []
        node = self.log
        while node is not stop and node is not None and (cached is None or node is not cached[0]):
            newer.append(self._entry(node, seat))
            node = node[0]
        if cached is not None and node is cached[0] and node is not stop:
            older = cached[1]
        else:
            older = [] if start is None else [start[1]]
        entries = older + newer[::-1]
        self._info[seat] = (self.log, entries)
        return entries

    def observation_string(self, seat: int) -> str:
        """What the seat sees now (not its past): hand, pile, table, sizes, scores, the move being built."""
        s = self.state
        melds = " | ".join(
            " ".join(f"{key_label(k)}:{''.join(card_str(c) for c in m)}" for k, m in sorted(side.items()))
            for side in s.melds)
        building = " ".join(self.space.name(a) for a in self.prefix) if seat == s.to_move else ""
        return (f"seat {seat} to_move {s.to_move} phase {s.phase} hand {s.hand_number}: {_hand_text(s.hands[seat])}"
                f" | pile {card_str(s.pile[-1]) if s.pile else '-'} x{len(s.pile)}"
                f"{' frozen' if s.pile_frozen else ''} | stock {len(s.stock)}"
                f" | hands {[sum(h) for h in s.hands]} | melds {melds} | red threes "
                f"{[len(r) for r in s.red_threes]} | scores {list(s.scores)} | building {building}")

    def resample(self, seat: int, rng: random.Random) -> Table:
        """A copy where every card ``seat`` cannot see is dealt again at random
        (``canasta.canasta.sampling.determinize`` of its view); the seat's own log stays, the others' restart."""
        new = self.copy()
        new.state = determinize(view(self.state, seat), rng)
        new._clear_caches()
        new.starts = [start if s == seat else (self.log, f"resampled; hand: {_hand_text(new.state.hands[s])}")
                      for s, start in enumerate(self.starts)]
        new._info = {s: v for s, v in self._info.items() if s == seat}
        return new


def _restore(fields: tuple[Any, ...], info: dict[int, tuple[Log, list[str]]]) -> Table:
    """A pickled ``Table`` back (``Table.__reduce__``)."""
    table = Table(fields[0], 0, fields[1], fields)
    table._info = info
    return table
