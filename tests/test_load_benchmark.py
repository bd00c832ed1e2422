"""benchmarks/load.py keeps working: a tiny run against its own server completes and reports sane figures
(never timing: the figures depend on the machine; docs/server-load.md has real runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")
pytest.importorskip("fastapi")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"


def test_a_tiny_load_run_reports_its_figures() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--tables", "2", "--seconds", "2", "--warmup", "1",
                          "--think", "0", "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout)
    assert figures["tables"] == 2 and figures["seconds"] == 2 and figures["think"] == 0
    assert figures["options"] == {"hands_per_game": 1} and figures["variant"] == "classic"
    assert figures["moves"] > 0 and figures["moves_per_s"] == pytest.approx(figures["moves"] / 2)
    assert figures["moves_total"] >= figures["moves"]
    ack = figures["ack_ms"]
    assert 0 < ack["p50"] <= ack["p90"] <= ack["p99"] <= ack["max"]
    assert 0 < ack["mean"] <= ack["max"]
    assert isinstance(figures["errors"], dict)
    assert not any(code.startswith("client:") or code == "STALLED" for code in figures["errors_total"])
    assert figures["tables_started"] >= 2
    assert 0 <= figures["tables_finished"] <= figures["tables_finished_total"] <= figures["tables_started"]
    assert figures["unacked"] == 0
    assert figures["server_cpu_percent"] is None or figures["server_cpu_percent"] >= 0
