"""Times every garbage collection of the ``canasta serve`` processes a load run starts (docs/server-load.md,
"What limits it"). Python imports ``sitecustomize`` at start from the path, and the servers inherit it:

    PYTHONPATH=benchmarks/gc_probe GC_PROBE_LOG=/tmp/gc python benchmarks/load.py --tables 225 ...

Each server process appends ``TIME genN MILLISECONDS collected=K`` to ``$GC_PROBE_LOG/PID.txt`` for every
collection of the older generations and every young one over 5 ms. ``GC_PROBE_THRESHOLD=N`` sets the young
generation's threshold 8 s after start (after ``canasta serve`` has set its own)."""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

_folder = os.environ.get("GC_PROBE_LOG")
if _folder and "serve" in sys.argv:
    Path(_folder).mkdir(parents=True, exist_ok=True)
    _log = (Path(_folder) / f"{os.getpid()}.txt").open("a", buffering=1)
    _started = [0.0]

    def _time(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            _started[0] = time.perf_counter()
            return
        ms = (time.perf_counter() - _started[0]) * 1000
        if info["generation"] > 0 or ms > 5:
            _log.write(f"{time.time():.1f} gen{info['generation']} {ms:.1f}ms collected={info['collected']}\n")

    gc.callbacks.append(_time)
    _threshold = os.environ.get("GC_PROBE_THRESHOLD")
    if _threshold:
        def _set_threshold(young: int) -> None:
            time.sleep(8)
            gc.set_threshold(young, *gc.get_threshold()[1:])

        threading.Thread(target=_set_threshold, args=(int(_threshold),), daemon=True).start()
