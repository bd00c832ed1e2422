"""What the play layer and the faces ask of a family beyond its engine (``canasta.game.GameFamily``): its
computer players by name, which moves a person may take back, what a table shows each seat and a replay each
position, and the browser's page. ``play_family(rules or state)`` gives it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..canasta import family as canasta_family
from ..canasta.view import seat_views as canasta_seat_views
from ..dispatch import family_of
from ..game import GameFamily
from ..players import Player
from ..players import player_names as canasta_player_names
from ..players.levels import LEVELS
from ..players.rummy import make_rummy_player, rummy_player_names
from ..rummy import family as rummy_family
from ..rummy.session import rummy_undoable
from ..rummy.view import face_up as rummy_face_up
from ..rummy.view import seat_views as rummy_seat_views
from .seated import HUMAN
from .session import computer as canasta_computer
from .session import undoable as canasta_undoable


@dataclass(frozen=True)
class PlayFamily:
    engine: GameFamily
    player_names: Callable[[], list[str]]  # the players a seat or a tournament may name, besides the levels
    make_player: Callable[[str, int | None], Player]  # a level or a player name (``ValueError`` for others)
    undoable: Callable[[Any, Any, Any], bool]  # may this move (before, move, after) be taken back this turn?
    # what a table shows each seat (None: a spectator) of a state: its view with the notation of its legal moves
    seat_views: Callable[[Any, Iterable[int | None]], dict[int | None, dict[str, Any]]]
    face_up: Callable[[Any], dict[str, Any]]  # a whole position, JSON-ready, as a replay shows it
    web_page: str  # the browser client's page for a table (under canasta/web)

    def seat_choices(self) -> list[str]:
        """Every name a seat at a face's table may be given."""
        return [HUMAN, *LEVELS, *self.player_names()]


CANASTA = PlayFamily(canasta_family, canasta_player_names, canasta_computer, canasta_undoable, canasta_seat_views,
                     lambda state: state.to_dict(), "table.html")
RUMMY = PlayFamily(rummy_family, rummy_player_names, make_rummy_player, rummy_undoable, rummy_seat_views,
                   rummy_face_up, "rummy.html")
_BY_ENGINE = {id(f.engine): f for f in (CANASTA, RUMMY)}


def play_family(game: object) -> PlayFamily:
    """The play layer's family of a game's rules or state (``TypeError`` for anything else)."""
    return _BY_ENGINE[id(family_of(game))]


__all__ = ["CANASTA", "RUMMY", "PlayFamily", "play_family"]
