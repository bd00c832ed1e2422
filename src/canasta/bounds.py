"""The valid values of a rules parameter, declared next to its meaning and source (``PARAMETERS`` in rules.py
and rummy/rules.py): one place for both families.

A bound reads an option's value as its field's type, whether it comes from Python, a JSON body or the command
line's text, and refuses anything else, wrong types included (``1e30``, ``"abc"``, ``true`` for a number,
NaN), with the parameter's name and its range: ``option jokers=1000000: must be an integer from 0 to 24``.
``describe()`` is the range in words for the generated pages, ``to_json()`` the same as data (``record()``: both,
for ``canasta rules --json`` and ``GET /api/rules``). Lists are refused by their length before their items are
read, and a refused value is echoed shortened: an option may come from anyone.

``Options`` makes either family's rules object from a preset's values and the caller's options, each checked
against its bound, then together by the family's own check (what no single bound can say).
"""

from __future__ import annotations

import dataclasses
import json
import re
import reprlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping
from typing import Any, Generic, TypeVar

_INTEGER = re.compile(r"[+-]?\d{1,18}")
_LABEL = re.compile(r"[a-z][a-z0-9_]*")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")

R = TypeVar("R")
Parameters = Mapping[str, tuple[str, str, "Bound"]]  # name: (meaning, source, valid values), ``PARAMETERS``

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = 6
_SHORT.maxlevel = 3


def shown(value: Any) -> str:
    """A value as a message echoes it: short, whatever its size."""
    return _SHORT.repr(value)


class Bound(ABC):
    """What a parameter accepts."""

    @abstractmethod
    def read(self, value: Any) -> Any:
        """The value as the field holds it; ``ValueError`` or ``TypeError`` refuses it."""

    @abstractmethod
    def describe(self) -> str:
        """The valid values in words ("an integer from 0 to 24")."""

    def plural(self) -> str:
        """The words for a list of these ("integers from 4 to 14")."""
        return f"values, each {self.describe()}"

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The valid values as data: ``type`` (int, bool, choice, label, row, list) and its limits."""

    def record(self) -> dict[str, Any]:
        """``to_json()`` with the words of ``describe()`` as ``text``: what ``canasta rules --json`` and the
        browser's rules page show."""
        return {**self.to_json(), "text": self.describe()}

    def check(self, key: str, value: Any) -> Any:
        """The option's value as its field holds it, or ``ValueError`` naming the option and its range."""
        try:
            return self.read(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {key}={shown(value)}: must be {self.describe()}") from None


class Int(Bound):
    """A whole number from ``lo`` to ``hi`` (text of digits too; never a float or a bool)."""

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def read(self, value: Any) -> int:
        if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise ValueError
        return int(value)

    def describe(self) -> str:
        return f"an integer from {self.lo} to {self.hi}"

    def plural(self) -> str:
        return f"integers from {self.lo} to {self.hi}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "int", "min": self.lo, "max": self.hi}


class Bool(Bound):
    """True or false (as text: true/false, yes/no, on/off, 1/0)."""

    def read(self, value: Any) -> bool:
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _TRUE or word in _FALSE:
                return word in _TRUE
        if not isinstance(value, bool):
            raise ValueError
        return value

    def describe(self) -> str:
        return "true or false"

    def to_json(self) -> dict[str, Any]:
        return {"type": "bool"}


class Choice(Bound):
    """One of some words."""

    def __init__(self, *choices: str) -> None:
        self.choices = choices

    def read(self, value: Any) -> str:
        if not isinstance(value, str) or value.strip() not in self.choices:
            raise ValueError
        return value.strip()

    def describe(self) -> str:
        return "one of " + ", ".join(self.choices)

    def to_json(self) -> dict[str, Any]:
        return {"type": "choice", "choices": list(self.choices)}


class Label(Bound):
    """A name the rules give to something (a group of bonuses): lower-case letters, digits and _."""

    def __init__(self, longest: int) -> None:
        self.longest = longest

    def read(self, value: Any) -> str:
        if not isinstance(value, str) or len(value) > self.longest or not _LABEL.fullmatch(value):
            raise ValueError
        return value

    def describe(self) -> str:
        return f"a name of 1 to {self.longest} lower-case letters, digits or _"

    def to_json(self) -> dict[str, Any]:
        return {"type": "label", "max_length": self.longest}


class Row(Bound):
    """A fixed list of named fields, e.g. [lowest score, minimum]."""

    def __init__(self, *fields: tuple[str, Bound]) -> None:
        self.fields = fields

    def read(self, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(self.fields):
            raise ValueError
        return tuple(bound.read(v) for (_, bound), v in zip(self.fields, value, strict=True))

    def _shape(self) -> str:
        return "[" + ", ".join(name for name, _ in self.fields) + "]"

    def _each(self) -> str:
        return "; ".join(f"{name}: {bound.describe()}" for name, bound in self.fields)

    def describe(self) -> str:
        return f"{self._shape()} ({self._each()})"

    def plural(self) -> str:
        noun = {2: "pairs", 3: "triples"}.get(len(self.fields), "rows")
        return f"{self._shape()} {noun} ({self._each()})"

    def to_json(self) -> dict[str, Any]:
        return {"type": "row", "fields": [{"name": name, **bound.to_json()} for name, bound in self.fields]}


class Seq(Bound):
    """A list of ``lo`` to ``hi`` items (as text: JSON, or numbers separated by commas or spaces), kept as a
    tuple; ``ordered``: sorted, as the rules object keeps thresholds."""

    def __init__(self, item: Bound, lo: int, hi: int, *, ordered: bool = False) -> None:
        self.item, self.lo, self.hi, self.ordered = item, lo, hi, ordered

    def read(self, value: Any) -> tuple[Any, ...]:
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                value = value.replace(",", " ").split()
        if not isinstance(value, list | tuple) or not self.lo <= len(value) <= self.hi:
            raise ValueError
        items = tuple(self.item.read(v) for v in value)
        return tuple(sorted(items)) if self.ordered else items

    def describe(self) -> str:
        count = f"up to {self.hi}" if self.lo == 0 else f"{self.lo} to {self.hi}"
        return f"a list of {count} {self.item.plural()}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "list", "min_items": self.lo, "max_items": self.hi, "items": self.item.to_json()}


BOOL = Bool()


class Options(Generic[R]):
    """A family's rules options: ``make`` builds its rules object (the dataclass, called with ``name``,
    ``overrides`` and every parameter's value), ``parameters`` bounds each option (``PARAMETERS``), ``together``
    refuses what no single bound can say (``ValueError``), the values together."""

    def __init__(self, make: Callable[..., R], parameters: Parameters, together: Callable[[R], None]) -> None:
        self._make, self.parameters, self._together = make, parameters, together

    def make(self, name: str, base: Mapping[str, Any], overrides: Mapping[str, Any]) -> R:
        """The rules object of the preset ``name``, from its values (``base``) and the caller's ``overrides``,
        each checked against its bound, then together; ``overrides`` keeps the checked options sorted, as
        records store them (``rules_spec``)."""
        for key in overrides:
            if key not in self.parameters:
                raise ValueError(f"unknown option {shown(key)} for {name}; valid options: "
                                 f"{', '.join(sorted(self.parameters))}")
        values = {key: self.check(key, value) for key, value in {**base, **overrides}.items()}
        rules = self._make(name=name, overrides=tuple(sorted((key, values[key]) for key in overrides)), **values)
        self._together(rules)
        return rules

    def check(self, key: str, value: Any) -> Any:
        """One parameter's value as the rules object holds it, or ``ValueError`` naming it and its range."""
        return self.parameters[key][2].check(key, value)


def rules_spec(name: str, overrides: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """A rules object's record: ``{"variant": its preset, "options": the overrides that made it}``, as JSON data."""
    return {"variant": name, "options": {key: json.loads(json.dumps(value)) for key, value in overrides}}


def parameter_rows(rules: Any, parameters: Parameters, internal: Collection[str]) -> list[tuple[str, Any, str, str]]:
    """(parameter, value, meaning, source) for every field of a rules object (a dataclass) but the ``internal``
    ones, in the fields' order: what ``canasta rules`` prints."""
    rows = []
    for f in dataclasses.fields(rules):
        if f.name not in internal:
            meaning, source = parameters[f.name][:2]
            rows.append((f.name, getattr(rules, f.name), meaning, source))
    return rows
