"""Why a move is illegal: now ``canasta.canasta.engine.explain`` (this module is kept for old imports)."""

from __future__ import annotations

from .canasta.engine.explain import diagnose

__all__ = ["diagnose"]
