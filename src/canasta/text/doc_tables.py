"""Markdown pieces shared by the generated rules pages of both families (``canasta rules NAME``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..bounds import Bound


def shown(value: Any) -> str:
    """A parameter's value as the pages print it: text as is, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(json.loads(json.dumps(value)))


def parameter_table(rows: Iterable[tuple[str, Any, str, str]], parameters: Mapping[str, tuple[str, str, Bound]],
                    source_header: str = "source") -> list[str]:
    """The "Every parameter" section: one row per (name, value, meaning, source), with the values the
    parameter accepts (its bound in ``parameters``)."""
    lines = ["## Every parameter", "", f"| parameter | value | allowed values | meaning | {source_header} |",
             "|---|---|---|---|---|"]
    lines += [f"| `{name}` | `{shown(value)}` | {parameters[name][2].describe()} | {meaning} | {source} |"
              for name, value, meaning, source in rows]
    return lines
