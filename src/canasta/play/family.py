"""What the play layer and the faces ask of a family beyond its engine (``canasta.game.GameFamily``): its
computer players by name, which moves a person may take back and what a move showed the table, the hint, the
pack a record's deal is drawn from, its rules' parameters, what a table shows each seat and a replay each
position, the browser's table page's plug-in, and what a finished hand's summary tells the score pad.
``play_family(rules or state)`` gives it.

Each family's answers live in its own modules (``canasta.canasta.table``, ``canasta.rummy.table``, the views,
the players); this module only wires them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..bounds import Bound
from ..canasta import family as canasta_family
from ..canasta import table as canasta_table
from ..canasta.engine import redeal as canasta_redeal
from ..canasta.rules import PARAMETERS as CANASTA_PARAMETERS
from ..canasta.view import seat_views as canasta_seat_views
from ..dispatch import family_of
from ..game import GameFamily
from ..players import Player
from ..players import player_names as canasta_player_names
from ..players.levels import LEVELS, seat_player
from ..players.levels import hint as canasta_hint
from ..players.rummy import hint as rummy_hint
from ..players.rummy import make_rummy_player, rummy_player_names
from ..rummy import family as rummy_family
from ..rummy import table as rummy_table
from ..rummy.deal import dealt_pack as rummy_dealt_pack
from ..rummy.deal import redeal as rummy_redeal
from ..rummy.rules import PARAMETERS as RUMMY_PARAMETERS
from ..rummy.view import face_up as rummy_face_up
from ..rummy.view import seat_views as rummy_seat_views
from .seated import HUMAN


@dataclass(frozen=True)
class PlayFamily:
    engine: GameFamily
    player_names: Callable[[], list[str]]  # the players a seat or a tournament may name, besides the levels
    make_player: Callable[[str, int | None], Player]  # a level or a player name (``ValueError`` for others)
    undoable: Callable[[Any, Any, Any], bool]  # may this move (before, move, after) be taken back this turn?
    nothing_to_undo: str  # what may be taken back, in the family's terms (when nothing may)
    news: Callable[[Any, Any, Any], list[str]]  # what the table saw of a move: history entries "SEAT WHAT"
    hint: Callable[[Any, int, str], tuple[Any, str]]  # (state, seat, level): the level's move and why
    dealt_pack: Callable[[Any], list[int]]  # every card a hand of these rules is dealt from
    redeal: Callable[[Any, list[int]], Any]  # a state at the start of its hand, dealt again from this deck
    parameters: Mapping[str, tuple[str, str, Bound]]  # the rules' parameters: meaning, source, allowed values
    # what a table shows each seat (None: a spectator) of a state: its view with the notation of its legal moves
    seat_views: Callable[[Any, Iterable[int | None]], dict[int | None, dict[str, Any]]]
    face_up: Callable[[Any], dict[str, Any]]  # a whole position, JSON-ready, as a replay shows it
    web_plugin: str  # the browser's table page's plug-in for this family (a script in canasta/server/web)
    hand_sides: Callable[[Any], list[dict[str, Any]]]  # each side's scores of the hand a state's move just ended
    # (a state just after a hand ended, the mover's seat, whether his hand still holds cards): who went out, or None
    went_out: Callable[[Any, int, bool], int | None]

    @property
    def name(self) -> str:
        """The family's name in messages ("Canasta", "rummy")."""
        return self.engine.FAMILY

    def seat_choices(self) -> list[str]:
        """Every name a seat at a face's table may be given."""
        return [HUMAN, *LEVELS, *self.player_names()]


CANASTA = PlayFamily(canasta_family, canasta_player_names, seat_player, canasta_table.undoable,
                     canasta_table.NOTHING_TO_UNDO, canasta_table.news, canasta_hint, canasta_table.dealt_pack,
                     canasta_redeal, CANASTA_PARAMETERS, canasta_seat_views, lambda state: state.to_dict(),
                     "table_canasta.js", canasta_table.hand_sides, canasta_table.went_out)
RUMMY = PlayFamily(rummy_family, rummy_player_names, make_rummy_player, rummy_table.undoable,
                   rummy_table.NOTHING_TO_UNDO, rummy_table.news, rummy_hint, rummy_dealt_pack, rummy_redeal,
                   RUMMY_PARAMETERS, rummy_seat_views, rummy_face_up, "table_rummy.js", rummy_table.hand_sides,
                   rummy_table.went_out)
FAMILIES = (CANASTA, RUMMY)
_BY_ENGINE: dict[GameFamily, PlayFamily] = {f.engine: f for f in FAMILIES}


def play_family(game: object) -> PlayFamily:
    """The play layer's family of a game's rules or state (``TypeError`` for anything else)."""
    return _BY_ENGINE[family_of(game)]


__all__ = ["CANASTA", "FAMILIES", "RUMMY", "PlayFamily", "play_family"]
