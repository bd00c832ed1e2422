"""Old import path (deprecated; it will go in a later release): Canasta's table as text is
``canasta.line.canasta``, the text every family shares ``canasta.line.common``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .canasta.moves import Move
from .line.canasta import explain_move, group_hand, pile_status, render_hand_end, render_view, turn_text, variant_verbs
from .line.common import _LINE_LABELS, describe_history, render_breakdown, render_result
from .line.common import render_help as _render_help
from .text.names import side_name


def render_help(legal: Sequence[Move], view: dict[str, Any]) -> str:
    """Canasta's legal moves with what they do (``canasta.line.common.render_help`` with Canasta's words)."""
    return _render_help(legal, view, explain_move)


__all__ = ["_LINE_LABELS", "describe_history", "explain_move", "group_hand", "pile_status", "render_breakdown",
           "render_hand_end", "render_help", "render_result", "render_view", "side_name", "turn_text",
           "variant_verbs"]
