"""Canasta for AI research (docs/rl.md): OpenSpiel, PettingZoo and Gymnasium environments over the
rules engine, with a fixed integer action space and fixed-size observation tensors for every preset.
PettingZoo and Gymnasium play the rummy family's presets too (``RummyTable``); OpenSpiel plays Canasta's.

Needs the extra ``[rl]`` (numpy, open-spiel, pettingzoo, gymnasium). ``import canasta.rl`` registers the
OpenSpiel game ``python_canasta`` when open-spiel is installed::

    import canasta.rl, pyspiel
    game = pyspiel.load_game("python_canasta", {"variant": "classic"})
    env = canasta.rl.env(variant="classic")  # a PettingZoo AEC environment
    env = canasta.rl.env(variant="500-rum")  # the same for a rummy preset
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .actions import ActionSpace, LegalTree
from .observation import Layout, encode_state, encode_view
from .rummy_table import RummyTable
from .table import Table

# The environment modules need numpy and the research libraries. They are imported by name, so that compiling
# this package's per-step modules (mypyc checks every module they import, and the isolated build has no
# numpy) does not need them; the same reason as for the learned player in canasta.players.
try:  # registering needs open-spiel; the rest of canasta.rl works without it
    import_module(".openspiel_game", __name__)
except ImportError as exc:  # pragma: no cover - depends on what is installed
    if exc.name not in ("pyspiel", "numpy"):
        raise


def env(variant: str = "classic", **options: Any) -> Any:
    """A PettingZoo AEC environment (wrapped as PettingZoo's classic games are); see ``raw_env``."""
    return import_module(".pettingzoo_env", __name__).env(variant, **options)


def __getattr__(name: str) -> Any:
    if name == "raw_env":
        return import_module(".pettingzoo_env", __name__).raw_env
    if name == "SingleAgentEnv":
        return import_module(".gym_env", __name__).SingleAgentEnv
    raise AttributeError(f"module 'canasta.rl' has no attribute {name!r}")


__all__ = ["ActionSpace", "Layout", "LegalTree", "RummyTable", "SingleAgentEnv", "Table", "encode_state", "encode_view",
           "env", "raw_env"]
