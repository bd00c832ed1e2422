"""The benchmark scripts that are not run by CI keep working: their pure parts, and a tiny run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmarks_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def deviations() -> ModuleType:
    return load("deviations")


def test_cross_fitted_gain_finds_a_real_gain(deviations: ModuleType) -> None:
    assert deviations.cross_fitted_gain([[0.0] * 4, [10.0] * 4, [-5.0] * 4]) == 10.0
    assert deviations.cross_fitted_gain([[0.0] * 4, [-1.0] * 4]) == 0.0  # the heuristic's move stays


def test_cross_fitted_gain_does_not_count_noise(deviations: ModuleType) -> None:
    # better on the first half, worse on the second: choosing on one half and scoring on the other shows it
    assert deviations.cross_fitted_gain([[0.0] * 4, [100.0, 100.0, -100.0, -100.0]]) == -50.0


def test_a_tiny_study_runs(deviations: ModuleType) -> None:
    study = deviations.Study("classic", "greedy", samples=2, rate=0.2, hands=1)
    rows = deviations.study_game((study, 3))
    assert rows and all(len(r["results"]) == len(r["moves"]) >= 2 for r in rows)
    assert all(len(res) == 2 for r in rows for res in r["results"])
    assert {r["kind"] for r in rows} <= {"draw", "take", "discard", "play"}


def test_hand_reading_compares_estimates_with_real_hands() -> None:
    hand_reading = load("hand_reading")
    rows = hand_reading.study(1, 7, "greedy", "classic")
    assert rows and all(0.0 <= estimate <= 1.0 and 0.0 <= plain <= 1.0 for _, estimate, plain, _ in rows)
    assert any(held for *_, held in rows) and not all(held for *_, held in rows)
    assert hand_reading.log_loss(0.9, True) < hand_reading.log_loss(0.1, True)


def test_a_tiny_fair_compute_run() -> None:
    import json
    import subprocess

    done = subprocess.run([sys.executable, str(BENCHMARKS / "fair_compute.py"), "--bot-tables", "1", "--replies", "3",
                           "--level", "easy"], capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(done.stdout)
    assert figures["replies"] == 3 and 0 <= figures["p50_s"] <= figures["p99_s"] <= figures["max_s"]


def test_frames_compares_the_two_protocols(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert load("frames").main(["--variant", "500-rum", "--repeat", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["moves"] > 0 and figures["connections"] == 4
    assert 0 < figures["v2"]["bytes_per_move"] < figures["v1"]["bytes_per_move"]  # a patch is smaller
    assert figures["v1"]["cpu_us_per_move"] >= 0 and figures["v2"]["cpu_us_per_move"] >= 0


def test_the_rummy_environment_speed_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo")
    load("rl_rummy_speed").main(["--variant", "basic-rummy", "--deals", "1"])
    assert "us a step" in capsys.readouterr().out
