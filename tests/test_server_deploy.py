"""Deployment as people run it (docs/deploy.md): compose.yaml and its proxy and Prometheus files agree with
the server's options and the docs (docker is not run here); every ``canasta serve`` option from the
environment; Prometheus metrics; JSON log lines; a process draining before it stops."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from contextlib import redirect_stdout
from pathlib import Path

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed

from canasta.cli import build_parser, env_name, main
from canasta.server.logs import JsonFormatter, TextFormatter, configure
from server_helpers import LiveServer, free_port

ROOT = Path(__file__).resolve().parent.parent


def serve_flags() -> list[str]:
    """Every ``canasta serve`` option, from its help."""
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        main(["serve", "--help"])
    flags = sorted(set(re.findall(r"^\s+(--[a-z-]+)", out.getvalue(), re.MULTILINE)) - {"--help"})
    assert {"--database", "--broker", "--metrics", "--log-format", "--max-tables"} <= set(flags)
    return flags


def test_the_compose_file_runs_what_the_docs_describe() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    servers = sorted(name for name in services if name.startswith("server-"))
    assert len(servers) >= 2 and {"db", "redis", "proxy"} <= set(services)
    variables = {env_name(flag) for flag in serve_flags()}
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    assert all(f"`{name}`" in deploy for name in variables), sorted(v for v in variables if f"`{v}`" not in deploy)
    for name in servers:
        server = services[name]
        env = server["environment"]
        assert {key for key in env if key.startswith("CANASTA_")} <= variables
        assert env["CANASTA_DATABASE"].startswith("postgresql://") and env["CANASTA_BROKER"].startswith("redis://")
        assert env["CANASTA_HOST"] == "0.0.0.0" and env["CANASTA_LOG_FORMAT"] == "json"
        assert server["stop_signal"] == "SIGTERM" and "/readyz" in " ".join(server["healthcheck"]["test"])
        assert {"db", "redis"} <= set(server["depends_on"])
        assert "ports" not in server  # reached through the proxy only
    port, metrics_port = env["CANASTA_PORT"], env["CANASTA_METRICS"].rsplit(":", 1)[1]
    assert services["proxy"]["image"].startswith("caddy") and "443:443" in services["proxy"]["ports"]
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    found = re.search(r"reverse_proxy ([^{]+)\{", caddy)
    assert found is not None and found.group(1).split() == [f"{name}:{port}" for name in servers]
    assert "health_uri /readyz" in caddy and "9100" not in found.group(0)
    prometheus = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    assert prometheus["scrape_configs"][0]["static_configs"][0]["targets"] == [f"{n}:{metrics_port}" for n in servers]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["canasta", "serve"]' in dockerfile and "STOPSIGNAL SIGTERM" in dockerfile


def test_every_serve_option_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    for name, value in {"CANASTA_PORT": "9001", "CANASTA_DATABASE": "postgresql://u:p@db/x",
                        "CANASTA_API_DOCS": "yes", "CANASTA_MAX_TABLES": "7", "CANASTA_LOG_FORMAT": "json",
                        "CANASTA_ALLOW_ORIGIN": "https://a.example, https://b.example"}.items():
        monkeypatch.setenv(name, value)
    args = build_parser().parse_args(["serve"])
    assert (args.port, args.database, args.api_docs, args.tables, args.log_format) == \
        (9001, "postgresql://u:p@db/x", True, 7, "json")
    assert args.allow_origin == ["https://a.example", "https://b.example"]
    assert build_parser().parse_args(["serve", "--port", "9002"]).port == 9002  # the command line wins
    monkeypatch.setenv("CANASTA_PORT", "nine")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve"])
    assert "--port" in capsys.readouterr().err
    monkeypatch.setenv("CANASTA_PORT", "9001")
    monkeypatch.setenv("CANASTA_API_DOCS", "maybe")
    assert main(["serve"]) == 2
    assert "CANASTA_API_DOCS is one of 1, true, yes, on, 0, false, no, off" in capsys.readouterr().err
    monkeypatch.setenv("CANASTA_API_DOCS", "0")
    monkeypatch.setenv("CANASTA_LOG_FORMAT", "xml")
    assert main(["serve"]) == 2
    assert "log format" in capsys.readouterr().err


def test_json_log_lines_hold_the_error_class_only(capsys: pytest.CaptureFixture[str]) -> None:
    handler = configure("json", "info")
    try:
        log = logging.getLogger("canasta.server")
        log.info("table %s: runs here", "Ab3x")
        try:
            raise RuntimeError("4H 5H 6H 7H in the stock")  # what a careless error's text could hold
        except RuntimeError:
            log.exception("cannot use postgresql://canasta:hunter2@db/canasta")
        logging.getLogger("canasta.server.noise").debug("not at info")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(line["level"], line["logger"], line["message"]) for line in lines] == [
        ("info", "canasta.server", "table Ab3x: runs here"),
        ("error", "canasta.server", "cannot use postgresql://canasta:***@db/canasta")]
    assert lines[1]["error"] == "RuntimeError" and "error" not in lines[0]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", lines[0]["time"])
    record = logging.LogRecord("canasta.server", logging.ERROR, __file__, 1, "failed", (), None)
    assert TextFormatter().format(record).endswith(" ERROR canasta.server: failed")
    assert JsonFormatter().format(record).startswith('{"time": ')


def metrics_of(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_count_tables_connections_moves_and_acks(tmp_path: Path) -> None:
    port = free_port()
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", metrics=f"127.0.0.1:{port}") as server:
        table = server.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
        assert server.get("/metrics").status_code == 404  # not on the game's port
        with server.client(table["table"], table["seats"][0]["token"]) as player, server.client(table["table"]):
            state = player.until("state", status="playing")
            moves = 0  # the person plays until the computer players have moved three times and wait for it
            while moves < 2 or sum(1 for f in player.frames if f["type"] == "event" and f["by"] == "bot") < 3:
                while not state["legal"]:
                    state = player.until("state")
                player.until("ack", id=player.move(state["legal"][-1]))  # (the last: a discard ends the turn)
                moves += 1
                state = player.until("state")
                while not state["legal"]:
                    state = player.until("state")
            bots = sum(1 for f in player.frames if f["type"] == "event" and f["by"] == "bot")
            seen = metrics_of(port)
            assert seen[("canasta_tables", (("status", "playing"),))] == 1
            assert seen[("canasta_tables_run", ())] == 1
            assert seen[("canasta_connections", (("kind", "player"),))] == 1
            assert seen[("canasta_connections", (("kind", "spectator"),))] == 1
            assert seen[("canasta_moves_total", (("by", "human"),))] == moves
            assert seen[("canasta_moves_total", (("by", "bot"),))] == bots  # all of them: it is the person's turn
            assert seen[("canasta_ack_seconds_count", ())] == moves
            assert seen[("canasta_ack_seconds_bucket", (("le", "+Inf"),))] == moves
            assert ("canasta_bot_queue", (("priority", "urgent"),)) in seen
            assert seen[("canasta_draining", ())] == 0


def test_a_drained_process_sends_its_clients_away(tmp_path: Path) -> None:
    """What SIGTERM starts (``Lobby.drain``; the rolling-restart test sends the signal itself): not ready,
    no new tables or connections, then every connection is told to reconnect and closed with 1012."""
    with LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}") as server:
        table = server.create(seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
        lobby = server.app.state.lobby
        with server.client(table["table"], table["seats"][0]["token"]) as player:
            player.until("state")
            room = lobby.rooms[table["table"]]
            assert room.task is not None
            drained = asyncio.run_coroutine_threadsafe(lobby.drain(1.0), room.task.get_loop())
            ready = server.get("/readyz")
            assert ready.status_code == 503 and ready.json()["message"] == "the server is stopping"
            refused = server.post("/api/tables", {})
            assert refused.status_code == 503 and refused.json()["error"] == "DRAINING"
            with server.client(table["table"]) as late:  # a new connection is sent on at once
                assert late.recv()["type"] == "reconnect"
                with pytest.raises(ConnectionClosed) as closed:
                    late.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            player.until("reconnect")
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    player.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            drained.result(10)


def test_a_server_process_collects_its_young_objects_less_often() -> None:
    """``canasta serve`` tunes the cyclic collector once its app is built (docs/server-load.md)."""
    import gc

    from canasta.server.config import COLLECT_EVERY, tune_collector

    threshold = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == (COLLECT_EVERY, *threshold[1:]) and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
