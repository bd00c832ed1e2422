"""The import paths of the modules that moved when the source tree was laid out by layers (after release 0.1.0).

``import canasta.cards`` and ``from canasta.bots import make_player`` keep working: the old name gives the very
module now at its new path (``canasta.canasta.cards``, ``canasta.players``), with a ``DeprecationWarning`` that
names it. New code should use the new paths (docs/index.md maps the tree); the old ones will go in a later
release. ``import canasta`` installs the finder; the public API (``canasta.apply`` …) never moved.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence

_FAMILY = ("cards", "kinds", "melds", "moves", "rules", "state", "view", "scoring", "special_hands", "sampling",
           "variants", "engine")
_PLAY = ("seated", "session", "record", "autosave", "simulate", "arena", "rummy_matches")
_TEXT = ("names", "how_to_play", "variant_docs", "doc_tables")

MOVED: dict[str, str] = {
    **{f"canasta.{name}": f"canasta.canasta.{name}" for name in _FAMILY},
    **{f"canasta.{name}": f"canasta.play.{name}" for name in _PLAY},
    **{f"canasta.{name}": f"canasta.text.{name}" for name in _TEXT},
    "canasta.bots": "canasta.players",
    "canasta.explain": "canasta.canasta.engine.explain",
    "canasta.rummy.players": "canasta.players.rummy",
    "canasta.rummy.heuristic": "canasta.players.rummy.heuristic",
    "canasta.rummy.search": "canasta.players.rummy.search",
    "canasta.rummy.arena": "canasta.play.strength",  # written for both families since
}


def new_path(old: str) -> str | None:
    """The module's path today, for an old path (or a module inside an old package); None if it did not move."""
    for prefix in sorted(MOVED, key=len, reverse=True):
        if old == prefix or old.startswith(prefix + "."):
            return MOVED[prefix] + old[len(prefix):]
    return None


class _OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers an old path with the module at its new one (the same object, so that state and patches are
    shared)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if new_path(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = new_path(spec.name)
        assert new is not None
        warnings.warn(f"{spec.name} moved to {new}; the old path will go in a later release",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self._spec = module.__spec__  # the import system sets the alias's spec on it; put the true one back
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        module.__spec__ = self._spec

    def get_code(self, fullname: str) -> types.CodeType:
        """``python -m OLD_PATH`` (runpy asks for the code to run as ``__main__``): warn, then run the module at
        its new path as the main program."""
        new = new_path(fullname)
        return compile(f"import runpy, warnings\n"
                       f"warnings.warn({f'{fullname} moved to {new}: run python -m {new}'!r}, DeprecationWarning)\n"
                       f"runpy.run_module({new!r}, run_name='__main__', alter_sys=True)\n", f"<{fullname}>", "exec")


def install() -> None:
    """Make the old paths importable (once). ``canasta.rules`` and ``canasta.view`` are registered at once:
    they name public functions of the package too, which importing the old module path must not replace."""
    if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())
    for name in ("rules", "view"):
        sys.modules.setdefault(f"canasta.{name}", importlib.import_module(f"canasta.canasta.{name}"))


__all__ = ["MOVED", "install", "new_path"]
