"""One rummy game as the environments play it (docs/rl-encoding.md, "The rummy family's atoms"): the engine position and
the partial move being built from atoms, over the public entry points (``canasta.new_game``, ``legal_moves``,
``apply``, ``view``, ``is_over``) only.

The same interface as Canasta's ``canasta.rl.Table`` where the PettingZoo and Gymnasium environments use it
(``to_move``, ``terminal``, ``legal_actions``, ``apply_action``, ``play``, ``returns``, ``observation_string``),
so that they play either family. An episode is one hand (returns: the hand's score of each seat's side) or,
with ``whole_game``, the whole game (returns: the result's final scores).
"""

from __future__ import annotations

from typing import Any

from .. import apply, is_over, legal_moves, new_game, outcome, view
from ..rummy import RummyMove, RummyRules
from .prefix import Atoms, PrefixTree
from .rummy_actions import RummyActionSpace
from .rummy_observation import RummyLayout, encode_view


class RummyTable:
    def __init__(self, rules: RummyRules, seed: int, whole_game: bool = False) -> None:
        self.rules, self.whole_game = rules, whole_game
        self.space = RummyActionSpace.for_rules(rules)
        self.layout = RummyLayout.for_rules(rules)
        self.state = new_game(rules, seed)
        self.first_hand = self.state.hand_number
        self.prefix: Atoms = ()
        self.moves = 0  # engine moves played
        self._views: dict[int, dict[str, Any]] = {}  # each seat's view of the position, once asked
        self._tree: PrefixTree[RummyMove] | None = None

    # -- the game ---------------------------------------------------------------------------------
    @property
    def terminal(self) -> bool:
        return is_over(self.state) or (not self.whole_game and self.state.hand_number != self.first_hand)

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def column(self, seat: int) -> int:
        """The score column of a seat: its side's."""
        return self.rules.side_of(seat)

    def returns(self) -> list[float]:
        """Each seat's score: its side's for the hand (or the game, with ``whole_game``) once over; zeros
        before."""
        if not self.terminal:
            return [0.0] * self.rules.players
        if self.whole_game:  # the result's scores: a game bonus (Persian Rummy's) is added at the end
            scores = (outcome(self.state) or {})["scores"]
            return [float(scores[self.column(s)]) for s in range(self.rules.players)]
        sides = (self.state.last_hand or {})["sides"]
        return [float(sides[self.column(s)]["total"]) for s in range(self.rules.players)]

    def view(self, seat: int) -> dict[str, Any]:
        """``canasta.view(state, seat)``, made once per position (the caller must not change it)."""
        seen = self._views.get(seat)
        if seen is None:
            seen = self._views[seat] = view(self.state, seat)
        return seen

    def tree(self) -> PrefixTree[RummyMove]:
        if self._tree is None:
            legal = legal_moves(self.state)
            labels = [m["label"] for m in self.view(self.to_move)["melds"]]
            self._tree = PrefixTree(legal, [self.space.atoms(m, labels) for m in legal], self.space.name)
        return self._tree

    def legal_actions(self) -> list[int]:
        return [] if self.terminal else self.tree().legal(self.prefix)

    def apply_action(self, action: int) -> RummyMove | None:
        """Play one atom; the engine move once the atoms name one (else None). ``ValueError`` if illegal."""
        if self.terminal:
            raise ValueError("the episode is over")
        self.prefix, move = self.tree().step(self.prefix, int(action))
        if move is not None:
            self.play(move)
        return move

    def play(self, move: RummyMove) -> None:
        """Play a whole engine move (``IllegalMove`` if it is not legal)."""
        self.state = apply(self.state, move)
        self.prefix = ()
        self.moves += 1
        self._views, self._tree = {}, None

    # -- what a seat sees -------------------------------------------------------------------------
    def observation(self, seat: int) -> list[float]:
        """The seat's observation (``canasta.rl.rummy_observation``), from its view alone."""
        return encode_view(self.layout, self.view(seat), self.prefix if seat == self.to_move else ())

    def observation_string(self, seat: int) -> str:
        """What the seat sees now: hand, pile, melds, sizes, scores, the move being built."""
        v = self.view(seat)
        melds = " | ".join(f"{m['label']}:{''.join(m['cards'])}" for m in v["melds"])
        building = " ".join(self.space.name(a) for a in self.prefix) if seat == self.to_move else ""
        return (f"seat {seat} to_move {v['to_move']} phase {v['phase']} hand {v['hand_number']}: "
                f"{' '.join(v['hand'])} | pile {' '.join(v['pile']) or '-'} | stock {v['stock']}"
                f" | hands {v['hand_sizes']} | melds {melds} | scores {v['scores']} | building {building}")
