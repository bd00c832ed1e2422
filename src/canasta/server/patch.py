"""The change between two JSON documents as a JSON Patch (RFC 6902): what protocol version 2 sends after a
move instead of the whole ``state`` frame (docs/protocol.md, "Protocol version 2").

Only three of the RFC's operations are made: ``add`` (a list's new tail, ``/-``; an object's new key),
``remove`` (an object's key; a list's last items) and ``replace``. Any RFC 6902 implementation applies the
patch, and applying it to ``old`` gives a document equal to ``new``. Unchanged parts are found by equality,
which Python compares at C speed, so a diff walks only into what changed: a view after a move is a few
kilobytes of which a few dozen bytes differ.
"""

from __future__ import annotations

from typing import Any

Patch = list[dict[str, Any]]


def pointer(path: str, key: str | int) -> str:
    """``path`` one level down (RFC 6901 escapes ``~`` and ``/`` in a key)."""
    text = str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return f"{path}/{text}"


def diff(old: Any, new: Any) -> Patch:
    """A JSON Patch that turns ``old`` into ``new`` (JSON values: dicts, lists, strings, numbers, bools, None)."""
    ops: Patch = []
    _diff(old, new, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # 1 == True and 0 == 0.0 in Python, but they are different JSON
    return type(a) is type(b) and a == b


def _diff(old: Any, new: Any, path: str, ops: Patch) -> None:
    if _same(old, new):
        return
    if type(old) is dict and type(new) is dict:
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": pointer(path, key), "value": value})
            else:
                _diff(old[key], value, pointer(path, key), ops)
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": pointer(path, key)})
        return
    if type(old) is list and type(new) is list:
        _diff_list(old, new, path, ops)
        return
    ops.append({"op": "replace", "path": path, "value": new})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: Patch) -> None:
    shared = min(len(old), len(new))
    if old[:shared] != new[:shared] and len(old) != len(new):
        # a card taken out of a hand shifts the rest: the list itself is shorter than the shifts
        ops.append({"op": "replace", "path": path, "value": new})
        return
    for i in range(shared):
        _diff(old[i], new[i], pointer(path, i), ops)
    for i in range(len(old) - 1, shared - 1, -1):  # from the end, so each index is still the list's last
        ops.append({"op": "remove", "path": pointer(path, i)})
    for value in new[shared:]:
        ops.append({"op": "add", "path": f"{path}/-", "value": value})


def apply(doc: Any, patch: Patch) -> Any:
    """``patch`` (the operations ``diff`` makes: add, remove, replace) applied to ``doc`` in place; returns the
    document (a new one when the patch replaces the root). For Python clients of protocol version 2; any
    RFC 6902 implementation does the same."""
    for op in patch:
        path, kind = op["path"], op["op"]
        if path == "":
            if kind != "replace":
                raise ValueError(f"a patch cannot {kind} the root")
            doc = op["value"]
            continue
        *keys, last = (k.replace("~1", "/").replace("~0", "~") for k in path.split("/")[1:])
        parent = doc
        for key in keys:
            parent = parent[int(key)] if type(parent) is list else parent[key]
        if type(parent) is list:
            index = len(parent) if last == "-" else int(last)
            if kind == "add":
                parent.insert(index, op["value"])
            elif kind == "remove":
                del parent[index]
            elif kind == "replace":
                parent[index] = op["value"]
            else:
                raise ValueError(f"unknown patch operation {kind!r}")
        elif kind in ("add", "replace"):
            parent[last] = op["value"]
        elif kind == "remove":
            del parent[last]
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return doc
