"""What the play layer and the faces ask of a family beyond its engine (``canasta.game.GameFamily``): its
computer players by name, and which moves a person may take back. ``play_family(rules or state)`` gives it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..canasta import family as canasta_family
from ..dispatch import family_of
from ..game import GameFamily
from ..players import Player
from ..players import player_names as canasta_player_names
from ..players.levels import LEVELS
from ..players.rummy import make_rummy_player, rummy_player_names
from ..rummy import family as rummy_family
from ..rummy.session import rummy_undoable
from .seated import HUMAN
from .session import computer as canasta_computer
from .session import undoable as canasta_undoable


@dataclass(frozen=True)
class PlayFamily:
    engine: GameFamily
    player_names: Callable[[], list[str]]  # the players a seat or a tournament may name, besides the levels
    make_player: Callable[[str, int | None], Player]  # a level or a player name (``ValueError`` for others)
    undoable: Callable[[Any, Any, Any], bool]  # may this move (before, move, after) be taken back this turn?

    def seat_choices(self) -> list[str]:
        """Every name a seat at a face's table may be given."""
        return [HUMAN, *LEVELS, *self.player_names()]


CANASTA = PlayFamily(canasta_family, canasta_player_names, canasta_computer, canasta_undoable)
RUMMY = PlayFamily(rummy_family, rummy_player_names, make_rummy_player, rummy_undoable)
_BY_ENGINE = {id(f.engine): f for f in (CANASTA, RUMMY)}


def play_family(game: object) -> PlayFamily:
    """The play layer's family of a game's rules or state (``TypeError`` for anything else)."""
    return _BY_ENGINE[id(family_of(game))]


__all__ = ["CANASTA", "RUMMY", "PlayFamily", "play_family"]
