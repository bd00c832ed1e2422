"""Canasta for AI research (docs/rl.md): OpenSpiel, PettingZoo and Gymnasium environments over the
rules engine, with a fixed integer action space and fixed-size observation tensors for every preset.

Needs the extra ``[rl]`` (numpy, open-spiel, pettingzoo, gymnasium). ``import canasta.rl`` registers the
OpenSpiel game ``python_canasta`` when open-spiel is installed::

    import canasta.rl, pyspiel
    game = pyspiel.load_game("python_canasta", {"variant": "classic"})
    env = canasta.rl.env(variant="classic")  # a PettingZoo AEC environment
"""

from __future__ import annotations

from typing import Any

from .actions import ActionSpace, LegalTree
from .observation import Layout, encode_state, encode_view
from .table import Table

try:  # registering needs open-spiel; the rest of canasta.rl works without it
    from . import openspiel_game as _openspiel_game  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on what is installed
    if exc.name not in ("pyspiel", "numpy"):
        raise


def env(variant: str = "classic", **options: Any) -> Any:
    """A PettingZoo AEC environment (wrapped as PettingZoo's classic games are); see ``raw_env``."""
    from .pettingzoo_env import env as make

    return make(variant, **options)


def __getattr__(name: str) -> Any:
    if name == "raw_env":
        from .pettingzoo_env import raw_env

        return raw_env
    if name == "SingleAgentEnv":
        from .gym_env import SingleAgentEnv

        return SingleAgentEnv
    raise AttributeError(f"module 'canasta.rl' has no attribute {name!r}")


__all__ = ["ActionSpace", "Layout", "LegalTree", "SingleAgentEnv", "Table", "encode_state", "encode_view", "env",
           "raw_env"]
