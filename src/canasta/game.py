"""The game protocol: what a family of games gives every layer above its engine.

A family is a package (``canasta.canasta``, ``canasta.rummy``) whose module answers these calls; the package's
entry points (``canasta.apply`` …, ``canasta.dispatch``) send each call to the family of its rules or state
(``family_of``), and the layers above (players, the play layer, the faces, the environments) ask the family
instead of testing types. The values are the family's own (``Rules``/``State``/``Move`` or ``RummyRules``/
``RummyState``/``RummyMove``); views are JSON-ready dictionaries in either family (docs/position-schema.md,
docs/rummy.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from .errors import IllegalMove


class GameFamily(Protocol):
    """A family of games, as its package module implements it."""

    FAMILY: str  # the family's name in messages ("Canasta", "rummy")
    RULES: type[Any]  # its rules, state and move types
    STATE: type[Any]
    MOVE: type[Any]

    def new_game(self, rules: Any, seed: int | None = None) -> Any:
        """A new game of these rules, its first hand dealt; an integer ``seed`` makes every deal reproducible."""

    def legal_moves(self, state: Any) -> list[Any]:
        """Every legal move for ``state.to_move``, in a fixed order (the single source of truth)."""

    def apply(self, state: Any, move: Any) -> Any:
        """The state after ``move`` (a move or its notation); ``IllegalMove`` if it is not legal."""

    def why_illegal(self, state: Any, move: Any) -> IllegalMove | None:
        """None if ``move`` is legal, else an ``IllegalMove`` with a stable code and a message."""

    def parse_move(self, state: Any, text: str) -> Any:
        """Move notation read in the context of ``state`` (syntax only); ``ValueError`` quoting the bad part."""

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> dict[str, Any] | None:
        """Final scores per side and the winning side; None while play goes on."""

    def view(self, state: Any, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see of the game, and nothing more: the only way hidden cards leave."""

    def public_view(self, state: Any) -> dict[str, Any]:
        """What a spectator sees."""

    def can_go_out(self, state: Any) -> bool:
        """Can the player to move go out this turn, from here?"""

    def score_hand(self, rules: Any, sides: Any) -> list[dict[str, Any]]:
        """One hand scored line by line per side (``ValueError`` names a bad field)."""

    def minimum_needed(self, state: Any, side: int, seat: int | None = None) -> int:
        """What ``side`` must still meet to open this hand, 0 once it has (``seat``: whose count, where each
        player opens for himself or his own score sets it)."""

    def game_result(self, rules: Any, scores: Sequence[int], hand_number: int, canastas: Sequence[int] | None = None,
                    went_out: int | None = None) -> dict[str, Any] | None:
        """The result ``outcome`` would give if hand ``hand_number`` ended with these cumulative ``scores``."""

    def determinize(self, view: dict[str, Any], rng: random.Random) -> Any:
        """A whole position consistent with a seat's ``view``: the cards it cannot see dealt at random (for
        search)."""


__all__ = ["GameFamily"]
