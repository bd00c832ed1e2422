"""The old import paths of moved modules (canasta.moved): the same module objects, a DeprecationWarning that
names the new path, and the package's public functions untouched by importing an old path of the same name."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import canasta
from canasta.moved import MOVED, new_path


# canasta.rules and canasta.view are registered when the package is imported (see the last test), so they
# never warn.
@pytest.mark.parametrize("old", sorted(set(MOVED) - {"canasta.rules", "canasta.view"}))
def test_an_old_path_gives_the_module_at_its_new_one(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    sys.modules.pop(old, None)  # as if imported for the first time
    with pytest.warns(DeprecationWarning, match=MOVED[old].replace(".", r"\.")):
        assert importlib.import_module(old) is new
    assert new.__spec__ is not None and new.__spec__.name == MOVED[old]  # the module keeps its own spec


def test_modules_inside_an_old_package_move_with_it() -> None:
    assert new_path("canasta.engine.api") == "canasta.canasta.engine.api"
    assert new_path("canasta.bots.heuristic") == "canasta.players.heuristic"
    assert new_path("canasta.rummy.search") == "canasta.players.rummy.search"
    assert new_path("canasta.rummy.state") is None and new_path("canasta.server") is None


def test_old_paths_in_a_fresh_interpreter() -> None:
    """``canasta.rules`` and ``canasta.view`` stay the public functions after their old module paths are
    imported, and ``from canasta.bots import make_player`` warns and works."""
    code = ("import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            "import canasta, canasta.rules, canasta.view\n"
            "from canasta.rules import Rules\n"
            "assert callable(canasta.rules) and canasta.rules('classic').name == 'classic'\n"
            "assert callable(canasta.view)\n"
            "try:\n"
            "    from canasta.bots import make_player\n"
            "except DeprecationWarning as w:\n"
            "    print(w)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "canasta.bots moved to canasta.players" in out


def test_the_public_api_did_not_move() -> None:
    for name in canasta.__all__:
        assert getattr(canasta, name) is not None


def test_an_old_path_runs_as_a_program() -> None:
    """``python -m canasta.rummy.arena`` runs the module at its new path, with a warning naming it."""
    run = subprocess.run([sys.executable, "-m", "canasta.rummy.arena", "--help"], capture_output=True, text=True,
                         check=True)
    assert "--deals" in run.stdout and "run python -m canasta.play.strength" in run.stderr
