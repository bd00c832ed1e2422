"""A score pad for games played with real cards (docs/pad.md): enter each hand as the table counts it, and
the engine's own scoring gives the lines, the totals, the minimums and the end of the game. Standard library
only; the faces (``canasta pad``, the browser's pad page) use this and nothing else."""

from __future__ import annotations

from .game import FORMAT, MAX_HANDS, Pad, PadError, load_pad, new_pad, score_entry
from .irregularities import IRREGULARITIES, Irregularity, available
from .sheet import from_csv, to_csv

__all__ = ["FORMAT", "IRREGULARITIES", "MAX_HANDS", "Irregularity", "Pad", "PadError", "available", "from_csv",
           "load_pad", "new_pad", "score_entry", "to_csv"]
