"""The legal atoms of a position for any family whose moves are written as atom sequences (docs/rl.md,
"The rummy family"): the legal moves' full sequences, each cut at the first atom after which only one legal
move remains, and with the atoms that leave no choice (one possible next atom) added without asking.

Canasta's environments use their own ``actions.LegalTree`` (compiled, tuned for the engine's hot path); this
one is the plain version of the same rule, generic over the move type, for the rummy family and any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Atoms = tuple[int, ...]
MoveT = TypeVar("MoveT")


class PrefixTree(Generic[MoveT]):
    """``moves[i]`` is played by the atoms ``sequences[i]``; no sequence may be another's prefix (an end atom
    closes a sequence of variable length), so following the legal atoms one by one reaches each move once."""

    def __init__(self, moves: Sequence[MoveT], sequences: Sequence[Atoms], name: Callable[[int], str] = str) -> None:
        if len(set(sequences)) != len(sequences):
            raise ValueError("two legal moves have the same atoms")
        self.moves = list(moves)
        self.sequences = list(sequences)
        self.name = name  # an atom's name, for messages

    def _matching(self, prefix: Atoms) -> list[int]:
        k = len(prefix)
        return [i for i, seq in enumerate(self.sequences) if seq[:k] == prefix and len(seq) > k]

    def legal(self, prefix: Atoms = ()) -> list[int]:
        """The atoms that may follow ``prefix`` (sorted, each once)."""
        k = len(prefix)
        return sorted({self.sequences[i][k] for i in self._matching(prefix)})

    def step(self, prefix: Atoms, atom: int) -> tuple[Atoms, MoveT | None]:
        """The prefix after ``atom`` and, once the atoms name a single move, that move (the prefix is then
        empty). An atom that is the only one possible next is no choice: it is added at once, so every atom an
        agent is asked for has an alternative. ``ValueError`` for an atom not legal after ``prefix``."""
        longer = (*prefix, atom)
        found = [i for i in self._matching(prefix) if self.sequences[i][len(prefix)] == atom]
        if not found:
            raise ValueError(f"action {atom} ({self.name(atom)}) is not legal here")
        if len(found) == 1:
            return (), self.moves[found[0]]
        while True:  # several moves remain, none ending here (no sequence is another's prefix)
            following = {self.sequences[i][len(longer)] for i in found}
            if len(following) > 1:
                return longer, None
            longer = (*longer, following.pop())

    def encode(self, move: MoveT) -> Atoms:
        """The atoms an agent chooses to play ``move``: its full sequence less the atoms that were no choice,
        cut at the first atom naming it alone."""
        try:
            full = self.sequences[self.moves.index(move)]
        except ValueError:
            raise ValueError(f"{move} is not a legal move here") from None
        chosen: list[int] = []
        prefix: Atoms = ()
        while True:
            atom = full[len(prefix)]
            chosen.append(atom)
            prefix, played = self.step(prefix, atom)
            if played is not None:
                return tuple(chosen)
