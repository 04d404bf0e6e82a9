"""The gpupack client report (docs/client-report.md) for Python programs.

gpupack sets GPUPACK_REPORT (a file to append JSON lines to) and may set GPUPACK_GO (a file whose
existence releases the program after its ready line). Without gpupack both are unset and nothing is
written, so a program using this module runs the same on its own.
"""
import json
import os
import time

_path = os.environ.get("GPUPACK_REPORT")
_file = open(_path, "a", buffering=1) if _path else None  # line-buffered: each line lands whole


def report(event, **fields):
    if _file:
        _file.write(json.dumps({"v": 1, "event": event, "t": time.monotonic(), **fields}) + "\n")


def ready():
    """Say the program is warmed up, then wait for gpupack's go (when it asked for one)."""
    report("ready")
    go = os.environ.get("GPUPACK_GO")
    while go and not os.path.exists(go):
        time.sleep(0.005)


def request_done(started):
    """One request finished; `started` is the time.monotonic() taken when it began."""
    report("request", latency_ms=(time.monotonic() - started) * 1000)
