"""What the browser tests share: Debian's Chromium, its flags, the screenshots kept as test artifacts, and
opening a page once its script has run. The ``browser`` and ``server`` fixtures (one of each per module)
are in conftest.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
# Screenshots of the pages (each language, phone and desktop): the session's header names the directory.
ARTIFACTS = Path(os.environ.get("CANASTA_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def goto(page: Any, url: str) -> None:
    """Open ``url`` and wait until its script has run: every page's script loads its language's catalog first
    (a top-level await, which the load event does not wait for), then translates the page, puts the language
    menu in and hooks up its buttons in one go; a click before that is lost."""
    page.goto(url)
    page.wait_for_selector("#language", state="attached")


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 A/AA violations on the page (skipped without axe)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python: test extra")
    results = axe.Axe().run(page, options={"runOnly": {"type": "tag",
                                                       "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
