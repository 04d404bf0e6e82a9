#!/usr/bin/env bash
# Sourced by the GPU tests that check `gpupack bench --client-cmd` against copies started by hand
# (tests/e2e-gpu/grid_real.sh, grid_vs_hand.sh). Needs CLIENTS (tests/example_clients.sh) and WORK.
#
# by_hand NAME K WINDOW: K copies of examples/clients/NAME.py started without gpupack, each with its own
# report file and one go file, released together once all said ready; their requests are counted by this
# function over the grid's window (1 s after the release, then WINDOW s), on the copies' own clock
# (time.monotonic: CLOCK_MONOTONIC, as here). Prints "<aggregate req/s> <copies counted> <aggregate of
# the copies' own whole-run req/s> <median latency ms over the window's requests>".
by_hand() {
  local name=$1 k=$2 window=$3 i go pids=() own
  local dir
  dir=$(mktemp -d "$WORK/hand-$name-$k.XXXXXX")
  local run_s=$((${window%.*} + 3))  # the copies run past the window's end
  for ((i = 0; i < k; i++)); do
    GPUPACK_REPORT="$dir/r$i" GPUPACK_GO="$dir/go" python3 "$CLIENTS/$name.py" --duration "$run_s" >"$dir/out$i" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < k; i++)); do
    for _ in $(seq 600); do grep -q '"ready"' "$dir/r$i" 2>/dev/null && break; sleep 0.5; done
  done
  go=$(python3 -c 'import time; print(time.monotonic())')
  touch "$dir/go"
  wait "${pids[@]}" || true
  own=$(cat "$dir"/out* | awk '/ req\/s$/ {sum += $(NF - 1)} END {printf "%.1f", sum}')
  python3 - "$dir" "$go" "$window" "$own" <<'PY'
import glob, json, statistics, sys
folder, go, window, own = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
total, copies, latencies = 0.0, 0, []
for path in glob.glob(folder + "/r*"):
    count = 0
    for line in open(path):
        try:
            j = json.loads(line)
        except ValueError:
            continue
        if j.get("event") == "request" and go + 1 <= j["t"] <= go + 1 + window:
            count += 1
            latencies.append(j["latency_ms"])
    total += count / window
    copies += count > 0
p50 = statistics.median(latencies) if latencies else float("nan")
print(f"{total:.1f} {copies} {own} {p50:.4f}")
PY
}
