"""The legal atoms of a position for any family whose moves are written as atom sequences (docs/rl.md,
"The rummy family"): the legal moves' full sequences, each cut at the first atom after which only one legal
move remains.

Canasta's environments use their own ``actions.LegalTree`` (compiled, tuned for the engine's hot path); this
one is the plain version of the same rule, generic over the move type, for the rummy family and any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

Atoms = tuple[int, ...]
MoveT = TypeVar("MoveT")


class PrefixTree(Generic[MoveT]):
    """``moves[i]`` is played by the atoms ``sequences[i]``; no sequence may be another's prefix (an end atom
    closes a sequence of variable length), so following the legal atoms one by one reaches each move once."""

    def __init__(self, moves: Sequence[MoveT], sequences: Sequence[Atoms]) -> None:
        if len(set(sequences)) != len(sequences):
            raise ValueError("two legal moves have the same atoms")
        self.moves = list(moves)
        self.sequences = list(sequences)

    def _matching(self, prefix: Atoms) -> list[int]:
        k = len(prefix)
        return [i for i, seq in enumerate(self.sequences) if seq[:k] == prefix and len(seq) > k]

    def legal(self, prefix: Atoms = ()) -> list[int]:
        """The atoms that may follow ``prefix`` (sorted, each once)."""
        k = len(prefix)
        return sorted({self.sequences[i][k] for i in self._matching(prefix)})

    def step(self, prefix: Atoms, atom: int) -> tuple[Atoms, MoveT | None]:
        """The prefix after ``atom`` and, once the atoms name a single move, that move (the prefix is then
        empty). ``ValueError`` for an atom not legal after ``prefix``."""
        longer = (*prefix, atom)
        found = self._matching(prefix)
        found = [i for i in found if self.sequences[i][len(prefix)] == atom]
        if not found:
            raise ValueError(f"action {atom} is not legal here")
        if len(found) == 1:
            return (), self.moves[found[0]]
        return longer, None

    def encode(self, move: MoveT) -> Atoms:
        """The atoms that play ``move``: its full sequence cut at the first atom naming it alone."""
        try:
            full = self.sequences[self.moves.index(move)]
        except ValueError:
            raise ValueError(f"{move} is not a legal move here") from None
        for k in range(1, len(full) + 1):
            if sum(seq[:k] == full[:k] for seq in self.sequences) == 1:
                return full[:k]
        return full  # pragma: no cover - distinct sequences, none another's prefix: the whole one names it
