"""The rules engine: new_game, legal_moves, apply, why_illegal, outcome (docs/sources.md §3).

A package split by concern; docs/engine.md is the map. ``legal_moves`` is the single source of truth:
``apply`` accepts exactly the moves it lists (the list is cached on the immutable state), and
``why_illegal`` explains any other move with a stable code.

The opening (docs/sources.md §3.4; "the hard part" of the design): a side that has not opened *stages* its
melds in the opening turn; they count towards the minimum, ``withdraw`` takes them back, and the
turn cannot end until they reach it. A pile taken by such a side stays *pending* beside the table
until the top card plus cards from the hand reach the minimum, so buried pile cards never count
(pagat; GOLDEN GC-I05). The take itself is legal only if the hand can still reach the minimum.

Each submodule imports only lower ones (docs/engine.md, "Modules, lowest layer first").
"""

from __future__ import annotations

from .api import apply, legal_moves, parse_move, why_illegal
from .core import (
    DISCARD_RANKS,
    DISCARDS,
    NATURAL_RANKS,
    RANK_KINDS,
    RV,
    after_opening_turn,
    canasta_count,
    dead_ranks,
    free_key,
    group_keys,
    group_wilds,
    has_foot,
    is_over,
    laid_out_threes,
    meld_counts,
    minimum_needed,
    natural_canastas,
    out_canastas,
    outcome,
    pile_frozen_for,
    rank_counts,
)
from .deal import new_game, redeal, shuffled_deck, start_hand
from .end import game_result
from .going_out import can_go_out
from .search import SEARCH_LIMIT
from .turn import apply_move

_apply = apply_move  # the transition without the legality check, under its old name (tests/test_perft.py)

# Every name the single-module engine made public stays importable from here.
__all__ = [
    "DISCARDS",
    "DISCARD_RANKS",
    "NATURAL_RANKS",
    "RANK_KINDS",
    "RV",
    "SEARCH_LIMIT",
    "after_opening_turn",
    "apply",
    "apply_move",
    "can_go_out",
    "canasta_count",
    "dead_ranks",
    "free_key",
    "game_result",
    "group_keys",
    "group_wilds",
    "has_foot",
    "is_over",
    "laid_out_threes",
    "legal_moves",
    "meld_counts",
    "minimum_needed",
    "natural_canastas",
    "new_game",
    "out_canastas",
    "outcome",
    "parse_move",
    "pile_frozen_for",
    "rank_counts",
    "redeal",
    "shuffled_deck",
    "start_hand",
    "why_illegal",
]
