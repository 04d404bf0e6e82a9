#!/usr/bin/env bash
# The two Python helpers users copy speak the client report gpupack reads: the 10-line helper printed in
# docs/client-report.md (taken from the document itself, so the text users copy is what runs here) and
# examples/clients/gpupack_report.py, the module the example clients import. Each drives a tiny
# request loop (no GPU, no torch) under `gpupack profile` with the fake GPU backend: its ready line starts
# the window, its request lines give req/s and latency, no line is malformed. Then GPUPACK_GO: the helper
# holds the program after its ready line until the file exists.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MACHINES="$ROOT/tests/measure/machines"
export GPUPACK_GPU_BACKEND="fake:$MACHINES/growing-h100.json"
# The fake GPU is "used" from the start, so the window would start at first GPU use + --warmup: a warm-up
# long enough for python3 to print its ready line on a loaded machine lets that line start the window.
FAST=(--interval 0.05 --warmup 4 --duration 0.6 --baseline-runs 1)  # the fake machine's memory grows once

# The documented helper: the first ```python block after the "A Python helper" heading.
mkdir -p "$WORK/doc" "$WORK/example"
awk '/^## A Python helper/ {section = 1} section && /^```python$/ {inside = 1; next}
     inside && /^```$/ {exit} inside {print}' "$ROOT/docs/client-report.md" >"$WORK/doc/gpupack_report.py"
lines=$(grep -cv '^$' "$WORK/doc/gpupack_report.py" || true)
{ [ "$lines" -ge 5 ] && [ "$lines" -le 12 ]; } || fail "docs/client-report.md: the helper has $lines lines, expected about 10"
cp "$ROOT/examples/clients/gpupack_report.py" "$WORK/example/gpupack_report.py"

# A program using a helper: 50 ms of start-up, ready, then 2 ms requests until it is stopped. The
# documented helper has report() only; the example's request_done(started) is the same line.
cat >"$WORK/loop.py" <<'PY'
import sys, time
sys.path.insert(0, sys.argv[1])
import gpupack_report as r
time.sleep(0.05)
r.ready()
while True:
    started = time.monotonic()
    time.sleep(0.002)
    r.report("request", latency_ms=(time.monotonic() - started) * 1000)
PY

for helper in doc example; do
  run profile "${FAST[@]}" --name "$helper" --format json -- python3 "$WORK/loop.py" "$WORK/$helper"
  LAST="profile with the $helper helper"
  expect_rc 0
  expect_json '.window.start == "ready-line" and .report.any_line and .report.malformed_lines == 0'
  # Loose bounds: CI machines are loaded (a 2 ms sleep may take far longer); the rate comes from the lines.
  expect_json '.requests.req_per_s > 10 and .requests.req_per_s < 600 and .requests.p50_ms >= 2 and .requests.p99_ms < 1000'
done

# GPUPACK_GO: after its ready line the program waits until the go file exists, then reports requests.
for helper in doc example; do
  LAST="GPUPACK_GO with the $helper helper"
  report="$WORK/$helper.jsonl" go="$WORK/$helper.go"
  GPUPACK_REPORT="$report" GPUPACK_GO="$go" python3 "$WORK/loop.py" "$WORK/$helper" &
  pid=$!
  for _ in $(seq 100); do grep -q '"ready"' "$report" 2>/dev/null && break; sleep 0.05; done
  sleep 0.3
  [ "$(grep -c . "$report")" -eq 1 ] || fail "lines before the go file: $(cat "$report")"
  : >"$go"
  for _ in $(seq 100); do grep -q '"request"' "$report" && break; sleep 0.05; done
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  grep -q '"event": "request", "t": [0-9.]*, "latency_ms": [0-9.]*}$' "$report" || fail "no request line after the go file"
done

# Without gpupack the variables are unset: the program runs and writes nothing.
LAST="the documented helper without gpupack"
before=$(ls -A "$WORK/doc")
rc=0
(cd "$WORK/doc" && env -u GPUPACK_REPORT -u GPUPACK_GO timeout 0.5 python3 "$WORK/loop.py" "$WORK/doc") || rc=$?
[ "$rc" -eq 124 ] || fail "exit $rc without GPUPACK_REPORT, expected to run until stopped (124)"
[ "$(ls -A "$WORK/doc")" = "$before" ] || fail "a file appeared without GPUPACK_REPORT: $(ls -A "$WORK/doc")"
finish
