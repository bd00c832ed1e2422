"""The line mode (``canasta play --plain``) and the text the terminal faces share: ``game`` the loop, the same for
every family; ``common`` what they all say alike; ``canasta`` and ``rummy`` each family's plug-in (its table, its
moves explained, its hands' ends)."""

from __future__ import annotations

from .game import LineGame, table_text, wrap

__all__ = ["LineGame", "table_text", "wrap"]
