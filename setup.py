"""Build step: compile the rules engine with mypyc when it can be, else install it as pure Python.

Everything else about the package is declared in pyproject.toml. The compiled modules are the same
sources, type-checked and translated to C by mypyc (a part of mypy); the ``.py`` files are installed
beside them, so a failed or skipped compilation leaves a working pure-Python install.

- ``CANASTA_PURE=1 pip install .`` skips the compilation.
- ``CANASTA_COMPILE=require pip install .`` fails instead of falling back when it cannot compile.
- Editable installs (``pip install -e .``) stay pure, so that edits to the sources take effect.
- The C is one file per module, compiled in parallel, one compiler per core (``CANASTA_BUILD_JOBS=N`` sets
  how many).
- ``CANASTA_PGO=1 pip install .`` compiles the engine twice with gcc, guided by a profile of a short training
  run in between (``TRAINING``): about 10 % faster play for about twice the compile time.

``canasta --version`` says which kind of install is running.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The engine and the data it works on, and the computer players' thinking (the heuristic's rules, the search's
# play-outs and their samples). Modules that mypyc cannot compile natively stay pure: ``Card`` subclasses
# ``int``; ``canasta.players`` itself (``Player``, which users subclass in Python) stays pure too.
COMPILED = [
    "src/canasta/canasta/engine/",
    "src/canasta/canasta/kinds.py",
    "src/canasta/dispatch.py",
    "src/canasta/canasta/state.py",
    "src/canasta/canasta/melds.py",
    "src/canasta/canasta/moves.py",
    "src/canasta/canasta/rules.py",
    "src/canasta/canasta/scoring.py",
    "src/canasta/canasta/view.py",
    "src/canasta/canasta/sampling.py",
    "src/canasta/players/heuristic.py",
    "src/canasta/players/penalties.py",
    "src/canasta/players/search.py",
    # the rl environments' per-step work: the legal atoms, the cards known in hands, the observation buffers,
    # and the game they step (``Table``: decode an atom, play the move, follow the known cards and the log)
    # (standard library only; the numpy side, canasta.rl.tensor, and the API layers stay pure)
    "src/canasta/rl/actions.py",
    "src/canasta/rl/known.py",
    "src/canasta/rl/encoder.py",
    "src/canasta/rl/table.py",
]
# The rl observation and mask writers in Cython (a float32 buffer written natively, which mypyc cannot do),
# the copies handed out of them as numpy arrays (numpy's C API) and OpenSpiel's observer's ``set_from``, built
# beside the mypyc group when Cython (and numpy, for the copies) are there; without them canasta.rl.tensor uses
# canasta.rl.encoder's writers and numpy's ``copy()``, and the observer its Python ``set_from``.
# OpenSpiel's game is plain Python that Cython compiles as it is: pyspiel calls ``current_player`` and
# ``_apply_action`` back from C++ at every step, and a compiled method spares each call an interpreted frame
# (mypyc cannot compile it: its classes derive from pyspiel's). The PettingZoo and Gymnasium modules stay
# interpreted: compiled, their many attribute look-ups cost more than Python 3.11's specialized ones (measured,
# docs/rl.md). Without Cython the game runs as it is.
NATIVE = {"canasta.rl.native": "src/canasta/rl/native.pyx", "canasta.rl.arrays": "src/canasta/rl/arrays.pyx",
          "canasta.rl.observer": "src/canasta/rl/observer.pyx",
          "canasta.rl.openspiel_game": "src/canasta/rl/openspiel_game.py"}
NEEDS_NUMPY = {"canasta.rl.arrays"}

# What the profile-guided build runs between its two compilations (``OptionalMypycBuild._profiled_run``): the
# compiled code's common paths, so that gcc lays out and inlines them for the branches play takes. Random games
# through the public API in the main presets (Classic most), games of the computer players (their views, the
# heuristic's rules, the search's play-outs) and the rl table's steps. About 6 seconds on the instrumented build.
TRAINING = r"""
import random

import canasta
from canasta.play.simulate import play_one


def random_games(preset, games):
    rules = canasta.rules(preset)
    for seed in range(games):
        rng = random.Random(seed)
        state = canasta.new_game(rules, seed=seed)
        for _ in range(3000):
            if canasta.is_over(state):
                break
            state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))


for preset, games in (("classic", 60), ("hand-and-foot", 20), ("samba", 10), ("modern-american", 10),
                      ("bolivia", 5), ("italian", 5), ("cutthroat", 5), ("uruguayan", 5)):
    random_games(preset, games)
classic = canasta.rules("classic")
play_one(classic, ["heuristic", "greedy"] * 2, 0)
play_one(classic, ["search", "heuristic"] * 2, 1, max_moves=150)
from canasta.rl.table import Table

rng = random.Random(0)
for seed in range(10):
    table = Table(classic, seed)
    while not table.terminal:
        table.apply_action(rng.choice(table.legal_actions()))
"""


def _wanted() -> bool:
    return os.environ.get("CANASTA_PURE", "") in ("", "0")


def _required() -> bool:
    return os.environ.get("CANASTA_COMPILE", "") == "require"


def _compiler() -> list[str]:
    return (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()


def _has_compiler() -> bool:
    cc = _compiler()
    return bool(cc) and shutil.which(cc[0]) is not None


def _is_gcc() -> bool:
    """Is the C compiler gcc (whose profile files the second compilation reads by itself; clang's need merging)?"""
    try:
        out = subprocess.run([_compiler()[0], "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError, IndexError):
        return False
    return "Free Software Foundation" in out


def _jobs() -> int:
    """How many compilers run at once: ``CANASTA_BUILD_JOBS``, else one per core this process may use."""
    wanted = os.environ.get("CANASTA_BUILD_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class ParallelCompile:
    """A compiler's ``compile`` that runs one compiler process per source file, at most ``jobs`` at a time across
    every extension being built (build_ext builds the extensions in parallel, each calls this with its sources),
    the largest files first, so that the build does not end waiting for one large file started last."""

    def __init__(self, compile_sources: Callable[..., list[str]], slots: threading.BoundedSemaphore,
                 jobs: int) -> None:
        self.compile_sources, self.slots, self.jobs = compile_sources, slots, jobs

    def __call__(self, sources: list[str], *args: object, **kwargs: object) -> list[str]:
        largest_first = sorted(sources, key=lambda s: os.path.getsize(s) if os.path.exists(s) else 0, reverse=True)
        with ThreadPoolExecutor(self.jobs) as pool:
            done = dict(zip(largest_first, pool.map(lambda s: self._one(s, args, kwargs), largest_first),
                            strict=True))
        return [o for s in sources for o in done[s]]

    def _one(self, source: str, args: tuple[object, ...], kwargs: dict[str, object]) -> list[str]:
        with self.slots:
            return self.compile_sources([source], *args, **kwargs)


class OptionalMypycBuild(build_ext):
    """Generates the C code only when the extensions are really built (not for metadata or editable
    installs), and falls back to the pure-Python modules when generating or compiling it fails."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules:
            self.distribution.ext_modules = self._mypyc_extensions()
        if self.parallel is None:  # the extensions built side by side (``ParallelCompile`` bounds the compilers)
            self.parallel = _jobs()
        super().finalize_options()

    def _mypyc_extensions(self) -> list[Extension]:
        if getattr(self, "editable_mode", False):
            return []
        if not _has_compiler():
            return self._fall_back("no C compiler found")
        try:
            from mypyc.build import mypycify

            # one C file per module (multi_file), so that they compile in parallel; still one library, whose
            # modules call one another's functions directly
            compiled = list(mypycify(COMPILED, opt_level="3", group_name="canasta", multi_file=True))
        except (Exception, SystemExit) as error:
            return self._fall_back(f"mypyc failed ({error})")
        return compiled + self._native_extensions()

    def _native_extensions(self) -> list[Extension]:
        try:
            from Cython.Build import cythonize
        except ImportError:
            return self._fall_back("Cython is not installed (for the rl modules it compiles)", engine=False)
        try:
            import numpy

            numpy_headers = [numpy.get_include()]
        except ImportError:
            numpy_headers = None
            self._fall_back("numpy is not installed (for canasta.rl.arrays)", engine=False)
        sources = [Extension(name, [path], include_dirs=numpy_headers or [],
                             define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
                   for name, path in NATIVE.items() if name not in NEEDS_NUMPY or numpy_headers]
        # the generated C goes under build/, not beside the sources; a Python module's annotations are left to mypy
        # (read by Cython, ``x: int`` would refuse a numpy integer)
        return list(cythonize(sources, build_dir="build/cython", quiet=True,
                              compiler_directives={"language_level": 3, "annotation_typing": False}))

    def _fall_back(self, why: str, engine: bool = True) -> list[Extension]:
        if _required():
            raise SystemExit(f"canasta: CANASTA_COMPILE=require, but {why}")
        what = "the pure-Python engine" if engine else "without it (the rl writers stay mypyc, numpy copies)"
        print(f"canasta: {why}; installing {what}", file=sys.stderr)
        return []

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            # -fvisibility=hidden: the library exports only its module's init function, so that its functions call
            # one another directly and gcc may inline them (an exported function of a shared library may be
            # replaced by another library's when it is loaded, so calls to it went through the PLT and were never
            # inlined): about 5 % fewer instructions a move. Two of Python's CFLAGS slow gcc down on mypyc's C and
            # change no instruction of it: -Wall's -Wmisleading-indentation alone doubles the compile time, and the
            # debug information (-g, mypyc's -g1) makes the library 1.8 times as large.
            extra = ["-fvisibility=hidden", "-Wno-misleading-indentation", "-g0"]
            for e in self.extensions:
                e.extra_compile_args = [*(f for f in e.extra_compile_args if f not in extra), *extra]
        jobs = _jobs()
        self.compiler.compile = ParallelCompile(self.compiler.compile, threading.BoundedSemaphore(jobs), jobs)
        super().build_extensions()

    def build_extension(self, ext: Extension) -> None:
        if ext.name not in NATIVE:
            super().build_extension(ext)
            return
        try:  # the Cython writers are optional: failing them leaves the compiled engine in place
            super().build_extension(ext)
        except Exception as error:
            self._fall_back(f"compiling {ext.name} failed ({error})", engine=False)
            built = self.get_ext_fullpath(ext.name)
            if os.path.exists(built):
                os.remove(built)

    def run(self) -> None:
        # A module compiled by an earlier build in the same tree but no longer listed would shadow its source.
        for stale in Path(self.build_lib).glob("canasta*/**/*.so"):
            stale.unlink()
        for stale in Path(self.build_lib).glob("canasta__mypyc*.so"):
            stale.unlink()
        try:
            if not self._profiled_run():
                super().run()
        except Exception as error:
            self._fall_back(f"compiling the engine failed ({error})")
            for extension in self.extensions:  # no half-built module may shadow its source
                built = self.get_ext_fullpath(extension.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []

    def _profiled_run(self) -> bool:
        """Build the extensions with gcc's profile-guided optimization: the engine compiled with
        ``-fprofile-generate``, ``TRAINING`` run on it, then everything compiled with ``-fprofile-use``, so that
        the hot paths are laid out and inlined for the branches play takes (same code, same results: about 10 %
        more moves a second, benchmarks/README.md). False, with nothing built, where it is not asked for
        (``CANASTA_PGO=1``), the compiler is not gcc, or a step fails (then the caller compiles once, without)."""
        engine = [e for e in self.extensions if e.name not in NATIVE]
        if not engine or os.environ.get("CANASTA_PGO", "") != "1" or not _is_gcc():
            return False
        every, chosen = self.extensions, self.compiler  # (``run`` replaces the compiler's name by the compiler)
        flags = {e.name: (list(e.extra_compile_args), list(e.extra_link_args)) for e in engine}
        profile = tempfile.mkdtemp(prefix="canasta-profile-")
        try:
            for e in engine:
                e.extra_compile_args = [*flags[e.name][0], "-fprofile-generate", f"-fprofile-dir={profile}"]
                e.extra_link_args = [*flags[e.name][1], "-fprofile-generate"]
            self.extensions = engine  # (the Cython writers are built once, below)
            super().run()
            path = os.pathsep.join(p for p in (os.path.abspath(self.build_lib), os.environ.get("PYTHONPATH")) if p)
            subprocess.run([sys.executable, "-c", TRAINING], env={**os.environ, "PYTHONPATH": path}, check=True,
                           stdout=subprocess.DEVNULL, timeout=1800)
            for e in engine:
                # -w: gcc warns of every function the training never called (the same sources compiled cleanly,
                # under mypyc's -Werror, in the first compilation)
                e.extra_compile_args = [*(f for f in flags[e.name][0] if f != "-Werror"), "-fprofile-use",
                                        "-fprofile-partial-training", f"-fprofile-dir={profile}", "-w"]
                e.extra_link_args = flags[e.name][1]
            self.extensions, self.force, self.compiler = every, True, chosen
            super().run()
            return True
        except Exception as error:
            print(f"canasta: the profile-guided build failed ({error}); compiling without a profile", file=sys.stderr)
            for e in engine:
                e.extra_compile_args, e.extra_link_args = flags[e.name]
            self.extensions, self.force, self.compiler = every, True, chosen
            return False
        finally:
            shutil.rmtree(profile, ignore_errors=True)


# A placeholder: the real extension list is made by OptionalMypycBuild.run. Having one at all makes the
# wheel platform-specific, which a compiled engine is.
setup(
    ext_modules=[Extension("canasta.__compiled__", sources=[])] if _wanted() else [],
    cmdclass={"build_ext": OptionalMypycBuild},
)
