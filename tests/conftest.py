"""Fixtures shared by the tests: the server's database, a private autosave directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import POSTGRES_URL, fresh_postgres


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
