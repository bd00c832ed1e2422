"""Build step: compile the rules engine with mypyc when it can be, else install it as pure Python.

Everything else about the package is declared in pyproject.toml. The compiled modules are the same
sources, type-checked and translated to C by mypyc (a part of mypy); the ``.py`` files are installed
beside them, so a failed or skipped compilation leaves a working pure-Python install.

- ``CANASTA_PURE=1 pip install .`` skips the compilation.
- ``CANASTA_COMPILE=require pip install .`` fails instead of falling back when it cannot compile.
- Editable installs (``pip install -e .``) stay pure, so that edits to the sources take effect.

``canasta --version`` says which kind of install is running.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The engine and the data it works on, and the computer players' thinking (the heuristic's rules, the search's
# play-outs and their samples). Modules that mypyc cannot compile natively stay pure: ``Card`` subclasses
# ``int``; ``canasta.bots`` itself (``Player``, which users subclass in Python) stays pure too.
COMPILED = [
    "src/canasta/engine/",
    "src/canasta/kinds.py",
    "src/canasta/dispatch.py",
    "src/canasta/state.py",
    "src/canasta/melds.py",
    "src/canasta/moves.py",
    "src/canasta/rules.py",
    "src/canasta/scoring.py",
    "src/canasta/view.py",
    "src/canasta/sampling.py",
    "src/canasta/bots/heuristic.py",
    "src/canasta/bots/penalties.py",
    "src/canasta/bots/search.py",
    # the rl environments' per-step work: the legal atoms, the cards known in hands, the observation buffers,
    # and the game they step (``Table``: decode an atom, play the move, follow the known cards and the log)
    # (standard library only; the numpy side, canasta.rl.tensor, and the API layers stay pure)
    "src/canasta/rl/actions.py",
    "src/canasta/rl/known.py",
    "src/canasta/rl/encoder.py",
    "src/canasta/rl/table.py",
]
# The rl observation and mask writers in Cython (a float32 buffer written natively, which mypyc cannot do),
# and the copies handed out of them as numpy arrays (numpy's C API), built beside the mypyc group when Cython
# (and numpy, for the copies) are there; without them canasta.rl.tensor uses canasta.rl.encoder's writers and
# numpy's ``copy()``.
NATIVE = {"canasta.rl.native": "src/canasta/rl/native.pyx", "canasta.rl.arrays": "src/canasta/rl/arrays.pyx"}
NEEDS_NUMPY = {"canasta.rl.arrays"}


def _wanted() -> bool:
    return os.environ.get("CANASTA_PURE", "") in ("", "0")


def _required() -> bool:
    return os.environ.get("CANASTA_COMPILE", "") == "require"


def _has_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    return bool(cc) and shutil.which(cc[0]) is not None


class OptionalMypycBuild(build_ext):
    """Generates the C code only when the extensions are really built (not for metadata or editable
    installs), and falls back to the pure-Python modules when generating or compiling it fails."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules:
            self.distribution.ext_modules = self._mypyc_extensions()
        super().finalize_options()

    def _mypyc_extensions(self) -> list[Extension]:
        if getattr(self, "editable_mode", False):
            return []
        if not _has_compiler():
            return self._fall_back("no C compiler found")
        try:
            from mypyc.build import mypycify

            compiled = list(mypycify(COMPILED, opt_level="3", group_name="canasta"))
        except (Exception, SystemExit) as error:
            return self._fall_back(f"mypyc failed ({error})")
        return compiled + self._native_extensions()

    def _native_extensions(self) -> list[Extension]:
        try:
            from Cython.Build import cythonize
        except ImportError:
            return self._fall_back("Cython is not installed (for canasta.rl.native)", engine=False)
        try:
            import numpy

            numpy_headers = [numpy.get_include()]
        except ImportError:
            numpy_headers = None
            self._fall_back("numpy is not installed (for canasta.rl.arrays)", engine=False)
        sources = [Extension(name, [path], include_dirs=numpy_headers or [],
                             define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
                   for name, path in NATIVE.items() if name not in NEEDS_NUMPY or numpy_headers]
        # the generated C goes under build/, not beside the .pyx
        return list(cythonize(sources, build_dir="build/cython", quiet=True, compiler_directives={"language_level": 3}))

    def _fall_back(self, why: str, engine: bool = True) -> list[Extension]:
        if _required():
            raise SystemExit(f"canasta: CANASTA_COMPILE=require, but {why}")
        what = "the pure-Python engine" if engine else "without it (the rl writers stay mypyc, numpy copies)"
        print(f"canasta: {why}; installing {what}", file=sys.stderr)
        return []

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
            super().run()
        except Exception as error:
            self._fall_back(f"compiling the engine failed ({error})")
            for extension in self.extensions:  # no half-built module may shadow its source
                built = self.get_ext_fullpath(extension.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []


# A placeholder: the real extension list is made by OptionalMypycBuild.run. Having one at all makes the
# wheel platform-specific, which a compiled engine is.
setup(
    ext_modules=[Extension("canasta.__compiled__", sources=[])] if _wanted() else [],
    cmdclass={"build_ext": OptionalMypycBuild},
)
