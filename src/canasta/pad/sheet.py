"""A pad as a CSV score sheet, and back (docs/pad.md).

One row per side per hand with its lines, total and running total, for a spreadsheet; the ``entry`` column
holds the side as the pad's JSON holds it, and rows of kind ``game`` and ``hand`` the game's and each hand's
metadata, so that the sheet reads back into the same pad. Reading it scores every hand again and refuses a
sheet whose totals were changed by hand (the row names the hand and the side).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .game import MAX_HANDS, Pad, PadError, load_pad

FIXED = ("kind", "hand", "side", "name", "total", "cumulative", "entry")
MAX_SHEET = 2_000_000  # characters: a sheet of MAX_HANDS hands is far smaller


def to_csv(pad: Pad) -> str:
    names = sorted({line for hand in pad.sheet for side in hand["sides"] for line in side["lines"]})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*FIXED, *names])
    game = {"variant": pad.variant, "options": pad.options, "names": list(pad.names)}
    writer.writerow(["game", "", "", "", "", "", json.dumps(game, ensure_ascii=False)])
    for hand, scored in zip(pad.hands, pad.sheet, strict=True):
        meta = {k: v for k, v in hand.items() if k not in ("variant", "options", "sides")}
        writer.writerow(["hand", scored["number"], "", "", "", "", json.dumps(meta, ensure_ascii=False)])
        for i, (side, result) in enumerate(zip(hand["sides"] or [{}] * len(pad.names), scored["sides"],
                                               strict=True)):
            writer.writerow(["side", scored["number"], i + 1, pad.names[i], result["total"], result["cumulative"],
                             json.dumps(side, ensure_ascii=False), *(result["lines"].get(n, "") for n in names)])
    return out.getvalue()


def from_csv(text: str) -> Pad:
    if len(text) > MAX_SHEET:
        raise PadError(f"the sheet is larger than {MAX_SHEET} characters")
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows or rows[0].get("kind") != "game":
        raise PadError(f"not a pad's sheet: the first row after the header is the game's (columns {', '.join(FIXED)})")
    game = _json(rows[0].get("entry"), "the game row")
    hands: list[dict[str, Any]] = []
    totals: list[tuple[int, int, str]] = []
    for n, row in enumerate(rows[1:], 3):
        kind = row.get("kind")
        if kind == "hand":
            if len(hands) >= MAX_HANDS:
                raise PadError(f"row {n}: a pad holds at most {MAX_HANDS} hands")
            hands.append({**_json(row.get("entry"), f"row {n}"), "sides": []})
        elif kind == "side":
            if not hands:
                raise PadError(f"row {n}: a side's row comes after its hand's row")
            hands[-1]["sides"].append(_json(row.get("entry"), f"row {n}"))
            totals.append((n, len(hands), row.get("total") or ""))
        else:
            raise PadError(f"row {n}: kind is game, hand or side, got {kind!r}")
    for hand in hands:
        if hand.get("acaba_by") is not None and not any(hand["sides"]):
            hand["sides"] = []
    pad = load_pad({"format": "canasta-pad", "version": 1, **game, "hands": hands})
    scored = [side["total"] for hand in pad.sheet for side in hand["sides"]]
    for (n, number, written), total in zip(totals, scored, strict=False):
        if written.strip() != str(total):
            raise PadError(f"row {n} (hand {number}): the sheet says total {written!r} but the hand scores {total}")
    return pad


def _json(text: Any, where: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except (json.JSONDecodeError, RecursionError) as exc:
        raise PadError(f"{where}: the entry column is not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise PadError(f"{where}: the entry column holds a JSON object")
    return value
