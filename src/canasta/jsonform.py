"""The exact JSON form of a position, the same for both families' states (docs/position-schema.md): one text per
position (keys sorted, no spaces), by which states also compare and hash, and the reading of such a text back,
with a clear error for anything else."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def dumps(data: dict[str, Any]) -> str:
    """A position's ``to_dict()`` as its one text: equal positions give equal texts."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def loads(text: str | bytes, reader: str) -> Any:
    """The JSON data of a position's text, for ``reader`` (``"State.from_json"``) to check field by field:
    ``TypeError`` for what is not text, ``ValueError`` for text that is not JSON."""
    if not isinstance(text, str | bytes):
        raise TypeError(f"{reader} wants JSON text, got {type(text).__name__}")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"position is not valid JSON: {exc}") from None


def describe(kind: str, variant: str, hand_number: int, seat: int, phase: str, scores: Sequence[int]) -> str:
    """A state's ``repr``: what it is at a glance, never a hidden card."""
    return f"<{kind} {variant} hand {hand_number} seat {seat} to move ({phase}), scores {list(scores)}>"
