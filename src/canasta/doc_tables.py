"""Markdown pieces shared by the generated rules pages of both families (``canasta rules NAME``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def shown(value: Any) -> str:
    """A parameter's value as the pages print it: text as is, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(json.loads(json.dumps(value)))


def parameter_table(rows: Iterable[tuple[str, Any, str, str]], source_header: str = "source") -> list[str]:
    """The "Every parameter" section: one row per (name, value, meaning, source)."""
    lines = ["## Every parameter", "", f"| parameter | value | meaning | {source_header} |", "|---|---|---|---|"]
    lines += [f"| `{name}` | `{shown(value)}` | {meaning} | {source} |" for name, value, meaning, source in rows]
    return lines
