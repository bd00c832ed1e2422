"""Why a move is illegal: now ``canasta.engine.explain`` (this module is kept for old imports)."""

from __future__ import annotations

from .engine.explain import diagnose

__all__ = ["diagnose"]
