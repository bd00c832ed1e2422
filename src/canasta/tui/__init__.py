"""The Textual app of ``canasta play`` (extra ``[tui]``: ``pip install 'canasta[tui]'``).

``available()`` says whether Textual is installed; ``canasta.tui.app.CanastaApp`` is the app.
"""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """Is the Textual library installed (so that ``canasta play`` can open the app)?"""
    return importlib.util.find_spec("textual") is not None


__all__ = ["available"]
