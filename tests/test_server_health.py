"""``/healthz`` (liveness) and ``/readyz`` (the database and the broker answer), and ``serve --broker``'s
refusals (docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from server_helpers import POSTGRES_URL, LiveServer, fresh_postgres


def test_health_and_readiness_on_one_process(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        alive = server.get("/healthz")
        assert alive.status_code == 200 and alive.json() == {"status": "ok"}
        ready = server.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready", "database": "ok", "broker": None}
        assert ready.headers["cache-control"] == "no-store"

        def down() -> None:
            raise OperationalError("SELECT 1", {}, OSError("connection refused"))

        store = server.app.state.lobby.store
        store.ping = down  # the database stops answering
        answer = server.get("/readyz")
        assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
        assert answer.json() == {"error": "NOT_READY", "message": "the database does not answer"}
        assert server.get("/healthz").status_code == 200  # alive all the same: no restart for that


@pytest.mark.skipif(POSTGRES_URL is None, reason="no PostgreSQL server: .ci/run starts one")
def test_not_ready_while_the_broker_does_not_answer() -> None:
    with fresh_postgres() as database, LiveServer(database, broker="redis://127.0.0.1:1/5") as server:
        answer = server.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {"error": "NOT_READY", "message": "the broker does not answer"}
        assert server.get("/healthz").status_code == 200


def test_a_broker_needs_postgresql(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main
    from canasta.server.app import create_app

    assert main(["serve", "--database", f"sqlite:///{tmp_path / 'x.db'}", "--broker", "redis://localhost/5"]) == 2
    assert "needs a PostgreSQL --database" in capsys.readouterr().err
    with pytest.raises(ValueError, match="PostgreSQL"):
        create_app(f"sqlite:///{tmp_path / 'x.db'}", broker="redis://localhost/5")
