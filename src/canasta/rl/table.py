"""One game as the environments play it (docs/rl.md): the engine position, the partial move being
built from atoms, the cards known in hands, and each seat's log for its information state.

The three APIs (OpenSpiel, PettingZoo, Gymnasium) are thin layers over ``Table``, so they play the same
game: an episode is one hand (returns: the hand's scores) or, with ``whole_game``, the whole game
(returns: the final scores). A seat's return is its side's score column (its own column in Cutthroat).
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import card_str, cards_of
from ..engine import apply, is_over, legal_moves, new_game
from ..melds import key_label
from ..moves import Move
from ..rules import Rules
from ..sampling import determinize
from ..state import State
from ..view import view
from . import known as known_cards
from .actions import ActionSpace, Atoms, LegalTree
from .observation import Entries, Layout, sparse_state

# The public log: ((position before, position after) of the newest move, older log), shared between copies;
# a seat's information state renders it from that seat's side only when asked.
Log = tuple[tuple[State | None, State], Any] | None


def _hand_text(state: State, seat: int) -> str:
    """The seat's own hand, as ``view(state, seat)["hand"]`` shows it."""
    return " ".join(card_str(c) for c in cards_of(state.hands[seat]))


class Table:
    """A game in progress. ``copy`` is cheap (the engine state is immutable, the logs are shared)."""

    def __init__(self, rules: Rules, seed: int, whole_game: bool = False) -> None:
        self.rules = rules
        self.space = ActionSpace.for_rules(rules)
        self.layout = Layout.for_rules(rules)
        self.whole_game = whole_game
        self.state = new_game(rules, seed)
        self.first_hand = self.state.hand_number
        self.prefix: Atoms = ()
        self.known = known_cards.start(self.state)
        self.moves = 0  # engine moves played
        self.log: Log = ((None, self.state), None)
        # where a seat's log starts after a resample (the node then, and what it is told), else None
        self.starts: list[tuple[Log, str] | None] = [None] * rules.players
        self._info: dict[int, tuple[Log, list[str]]] = {}
        self._tree: tuple[State, LegalTree] | None = None
        self._terminal: tuple[State | None, bool] = (None, False)
        self._observed: tuple[State, Atoms, int, Entries] | None = None
        self._parts: dict[Any, Any] = {}  # encoded parts of the observation (observation.sparse_state)
        self._known_now: tuple[tuple[Any, ...], dict[int, dict[int, int]]] | None = None
        # encoders that keep parts of recent positions (canasta.rl.tensor), shared by copies of this game
        self.encoders: dict[str, Any] = {}

    def copy(self) -> Table:
        new = object.__new__(Table)
        new.__dict__.update(self.__dict__)
        new._info = dict(self._info)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.copy()  # what OpenSpiel's clone calls: the shared parts are immutable

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (OpenSpiel serializes states so) without its caches, which are built again when first
        needed: on a compiled install the legal tree and the observation encoder cannot be pickled."""
        state = dict(self.__dict__)
        state.update(_tree=None, _observed=None, _known_now=None, _parts={}, encoders={})
        return state

    # -- the game ---------------------------------------------------------------------------------
    @property
    def terminal(self) -> bool:
        state = self.state
        cached = self._terminal  # asked several times a step: answered once per position
        if cached[0] is not state:
            cached = self._terminal = (state, is_over(state) or (not self.whole_game
                                                                   and state.hand_number != self.first_hand))
        return cached[1]

    @property
    def to_move(self) -> int:
        return self.state.to_move

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
        cached = self._tree
        if cached is None or cached[0] is not self.state:
            cached = self._tree = (self.state, LegalTree(self.space, legal_moves(self.state)))
        return cached[1]

    def legal_actions(self) -> list[int]:
        return [] if self.terminal else self.tree().legal(self.prefix)

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
        self.log = ((before, after), self.log)

    def _entry(self, before: State | None, after: State, seat: int) -> str:
        """What ``seat`` learned from one move: the public history added, and its hand if it changed."""
        if before is None or before.hand_number != after.hand_number:
            public = [f"hand {after.hand_number}", *after.history] if not is_over(after) else ["over"]
            if before is not None and after.last_hand:
                public.insert(0, "scored " + " ".join(str(h["total"]) for h in after.last_hand))
        else:
            public = list(after.history[len(before.history):])
        if before is None or before.hands[seat] != after.hands[seat] or before.hand_number != after.hand_number:
            public.append(f"hand: {_hand_text(after, seat)}")
        return "; ".join(public)

    # -- what a seat may know -----------------------------------------------------------------------
    def known_ranks(self) -> dict[int, dict[int, int]]:
        """The cards known in each hand now (``canasta.sampling.known_in_hands`` of any seat's view)."""
        k, state = self.known, self.state
        # what the answer depends on: it stays the same dict while they are the same (most moves)
        stage = state.stage
        key = (k.known, known_cards.pile_matches(k, state), None if stage is None else stage.pending,
               state.turn_seat)
        cached = self._known_now
        if cached is None or cached[0] != key:
            cached = self._known_now = (key, known_cards.known_ranks(k, state))
        return cached[1]

    def observation(self, seat: int) -> list[float]:
        """The seat's observation tensor (flat; ``canasta.rl.observation``)."""
        return self.observation_entries(seat).dense()

    def observation_entries(self, seat: int) -> Entries:
        """The seat's observation tensor as its non-zero entries (``.values``: index -> value), cached."""
        prefix = self.prefix if seat == self.to_move else ()
        cached = self._observed
        if cached is None or cached[0] is not self.state or cached[1:3] != (prefix, seat):
            entries = sparse_state(self.layout, self.state, seat, prefix, self.known_ranks(), self._parts)
            cached = self._observed = (self.state, prefix, seat, entries)
        return cached[3]

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
            (before, after), node = node
            newer.append(self._entry(before, after, seat))
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
        return (f"seat {seat} to_move {s.to_move} phase {s.phase} hand {s.hand_number}: {_hand_text(s, seat)}"
                f" | pile {card_str(s.pile[-1]) if s.pile else '-'} x{len(s.pile)}"
                f"{' frozen' if s.pile_frozen else ''} | stock {len(s.stock)}"
                f" | hands {[sum(h) for h in s.hands]} | melds {melds} | red threes "
                f"{[len(r) for r in s.red_threes]} | scores {list(s.scores)} | building {building}")

    def resample(self, seat: int, rng: random.Random) -> Table:
        """A copy where every card ``seat`` cannot see is dealt again at random
        (``canasta.sampling.determinize`` of its view); the seat's own log stays, the others' restart."""
        new = self.copy()
        new.state = determinize(view(self.state, seat), rng)
        new._tree = new._observed = new._known_now = None
        new.starts = [start if s == seat else (self.log, f"resampled; hand: {_hand_text(new.state, s)}")
                      for s, start in enumerate(self.starts)]
        new._info = {s: v for s, v in self._info.items() if s == seat}
        return new
