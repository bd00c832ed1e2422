"""Which family's part of the table (``face.Face``) a game gets: chosen by the game's play family
(``canasta.play.family.play_family``)."""

from __future__ import annotations

from ..play.family import CANASTA, RUMMY, play_family
from .canasta_face import CanastaFace
from .face import Face
from .rummy_face import RummyFace

FACES: dict[int, type[Face]] = {id(CANASTA): CanastaFace, id(RUMMY): RummyFace}  # by the PlayFamily's id


def face_for(rules: object) -> Face:
    """The table's plug-in for a game of ``rules`` (``TypeError`` for anything but a family's rules)."""
    return FACES[id(play_family(rules))](rules)


__all__ = ["FACES", "face_for"]
