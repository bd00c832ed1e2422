"""The install says which engine it runs, and CI checks it runs the one it meant to test.

CI runs the whole suite twice: on the compiled install (``CANASTA_EXPECT_COMPILED=1``) and on the same
sources imported as pure Python (``CANASTA_EXPECT_COMPILED=0``). Without the variable the test only
checks that the two ways of asking agree."""

from __future__ import annotations

import ast
import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import canasta


def test_the_engine_runs_the_kind_of_install_this_run_expects() -> None:
    expected = os.environ.get("CANASTA_EXPECT_COMPILED")
    compiled = canasta.is_compiled()
    if expected is not None:
        assert compiled == (expected == "1"), f"CANASTA_EXPECT_COMPILED={expected}, but compiled={compiled}"
    from canasta import dispatch
    from canasta.canasta.engine import core

    assert str(core.__file__).endswith(".py") != compiled  # the whole engine is one kind, not a mix
    # and so are the public entry points in front of it (canasta.legal_moves is canasta.dispatch's)
    assert str(dispatch.__file__).endswith(".py") != compiled
    assert canasta.legal_moves is dispatch.legal_moves and canasta.apply is dispatch.apply


def test_version_names_the_kind_of_install() -> None:
    out = subprocess.run([sys.executable, "-m", "canasta", "--version"], capture_output=True, text=True, check=True)
    kind = "compiled" if canasta.is_compiled() else "pure Python"
    assert out.stdout.strip() == f"canasta {canasta.__version__} ({kind})"


def test_what_process_pools_send_pickles_on_either_kind_of_install() -> None:
    # The arena, the server's bot pool and the simulator send rules, positions and moves to worker processes.
    rules = canasta.rules("samba", target=7000)
    state = canasta.new_game(rules, seed=3)
    move = canasta.legal_moves(state)[0]
    for thing in (rules, state, move):
        again = pickle.loads(pickle.dumps(thing))
        assert again == thing and type(again) is type(thing)
        assert copy.copy(thing) == thing and copy.deepcopy(thing) == thing  # OpenSpiel clones states this way
    assert pickle.loads(pickle.dumps(rules)).overrides == rules.overrides


def test_the_profile_guided_builds_training_run_plays_on_this_install() -> None:
    # The profile-guided build (CANASTA_PGO=1) runs TRAINING between its two compilations and, should it fail,
    # quietly compiles without a profile: here it must run cleanly (on the compiled install and on the pure sources).
    tree = ast.parse((Path(__file__).resolve().parents[1] / "setup.py").read_text())
    training = next(ast.literal_eval(node.value) for node in tree.body
                    if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TRAINING"])
    run = subprocess.run([sys.executable, "-c", training], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr


def test_the_compiled_library_exports_only_its_init_function() -> None:
    # setup.py compiles with -fvisibility=hidden so that the engine's C functions call one another directly and
    # gcc may inline them (an exported function may be interposed: every call went through the PLT). mypyc writes
    # a C file per module, linked into one library: the functions named here, called from one module's file into
    # another's (dispatch -> legal), are not static, so only the flag keeps them out of the exports.
    if not canasta.is_compiled():
        pytest.skip("a pure-Python install has no compiled library")
    import ctypes

    import canasta__mypyc  # type: ignore[import-not-found]  # mypyc's library of the whole compiled group

    library = ctypes.CDLL(canasta__mypyc.__file__)
    assert hasattr(library, "PyInit_canasta__mypyc")
    for name in ("CPyDef_dispatch___legal_moves", "CPyDef_dispatch___apply", "CPyDef_legal___generate_moves"):
        assert not hasattr(library, name), f"{name} is exported"
