"""Fixtures shared by the tests: the server's database, a private autosave directory, and for the browser
tests one Chromium and one live server per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import ARGS, ARTIFACTS, CHROMIUM
from server_helpers import POSTGRES_URL, LiveServer, fresh_postgres


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL: an SQLite file, then a fresh PostgreSQL database (skipped, saying why, with no server)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite'}"
        return
    if POSTGRES_URL is None:
        pytest.skip("no PostgreSQL server: .ci/run starts one and sets CANASTA_TEST_POSTGRES")
    with fresh_postgres() as url:
        yield url


@pytest.fixture(autouse=True)
def private_autosave(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """`canasta play` saves to $XDG_STATE_HOME/canasta/autosave.json unless told otherwise: each test gets
    a directory of its own, so that tests (or two test runs on one machine) never write the same file."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one per test module (skipped, saying why, without either)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium: apt-get install chromium (.ci/run does)")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server on an SQLite file, one per test module: each test makes tables of its own."""
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('live') / 'db.sqlite'}") as live:
        yield live


def pytest_report_header() -> str:
    return f"browser screenshots: {ARTIFACTS}"
