"""The change between two JSON documents as a JSON Patch (RFC 6902): what protocol version 2 sends after a
move instead of the whole ``state`` frame (docs/protocol.md, "Protocol version 2").

Only three of the RFC's operations are made: ``add`` (a list's new tail, ``/-``; an object's new key),
``remove`` (an object's key; a list's last items) and ``replace``. Any RFC 6902 implementation applies the
patch, and applying it to ``old`` gives a document equal to ``new``. Unchanged parts are found by equality,
which Python compares at C speed, so a diff walks only into what changed: a view after a move is a few
kilobytes of which a few dozen bytes differ. (Equality is Python's: a number that becomes the boolean of
the same value inside a list or an object is not seen; no view field changes type so.)
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


Memo = dict[tuple[int, int, str], Patch]


def diff(old: Any, new: Any, memo: Memo | None = None) -> Patch:
    """A JSON Patch that turns ``old`` into ``new`` (JSON values: dicts, lists, strings, numbers, bools, None).

    ``memo`` (one dict for several diffs, while their documents live): the seats' views after a move share
    most of their parts (``canasta.canasta.view.seat_views``), and so did their views before it; a pair of parts
    already compared at the same place gives the same operations again without a second walk."""
    ops: Patch = []
    _diff(old, new, "", ops, {} if memo is None else memo)
    return ops


def _same(a: Any, b: Any) -> bool:
    # 1 == True and 0 == 0.0 in Python, but they are different JSON
    return type(a) is type(b) and a == b


def _diff(old: Any, new: Any, path: str, ops: Patch, memo: Memo) -> None:
    if old is new:
        return
    container = type(old) is type(new) and type(new) in (dict, list)
    if container:
        key = (id(old), id(new), path)
        known = memo.get(key)
        if known is not None:
            ops.extend(known)
            return
        start = len(ops)
    if _same(old, new):
        pass
    elif type(old) is dict and type(new) is dict:
        for name, value in new.items():
            if name not in old:
                ops.append({"op": "add", "path": pointer(path, name), "value": value})
            else:
                was = old[name]
                if was is not value and not _same(was, value):
                    _diff(was, value, pointer(path, name), ops, memo)
        for name in old:
            if name not in new:
                ops.append({"op": "remove", "path": pointer(path, name)})
    elif type(old) is list and type(new) is list:
        _diff_list(old, new, path, ops, memo)
    else:
        ops.append({"op": "replace", "path": path, "value": new})
    if container:
        memo[key] = ops[start:]


def _diff_list(old: list[Any], new: list[Any], path: str, ops: Patch, memo: Memo) -> None:
    shared = min(len(old), len(new))
    if old[:shared] != new[:shared]:
        if len(old) != len(new):  # a card taken out of a hand shifts the rest: the list is shorter than the shifts
            ops.append({"op": "replace", "path": path, "value": new})
            return
        for i in range(shared):
            a, b = old[i], new[i]
            if a is not b and not _same(a, b):
                _diff(a, b, pointer(path, i), ops, memo)
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
