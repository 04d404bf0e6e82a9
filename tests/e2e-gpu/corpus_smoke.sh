#!/usr/bin/env bash
# GPU test (label gpu), issue 36: every client of the corpus (examples/clients/*.py that runs the shared
# request loop, serve_common) alone on one GPU (CUDA_VISIBLE_DEVICES, default 0) for a few seconds,
# without gpupack but with the client report's variables set as gpupack sets them. Checks per client: it
# exits 0, writes its ready line and then waits for GPUPACK_GO (no request line before the go file
# exists), every report line is valid version-1 JSON (docs/client-report.md) with request lines only after
# the ready line, it reported at least one request, and its peak GPU memory stays under 4 GiB (NVML's
# figure for its process, CUDA context included, where nvidia-smi lists it; else PyTorch's allocator peak
# it prints). Prints a table (program, requests, req/s, median and p99 ms, peak GPU memory) and notes
# medians outside 1-50 ms (not a failure).
# Env: CORPUS_SECONDS (default 4) seconds of requests per client; CORPUS_CLIENTS (space-separated file
# names, default all). Writes the table, each report and each log under $OUT/corpus-smoke when OUT is set.
RESULTS="${OUT:-}"  # the device machine's output folder; lib.sh reuses the name OUT for stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
R="${RESULTS:-$WORK}/corpus-smoke"
mkdir -p "$R"
SECONDS_EACH=${CORPUS_SECONDS:-4}
LIMIT_MIB=4096
GPU=${CUDA_VISIBLE_DEVICES:-0}  # an index or a UUID, as nvidia-smi -i takes it

if [ -n "${CORPUS_CLIENTS:-}" ]; then
  read -r -a clients <<<"$CORPUS_CLIENTS"
else
  mapfile -t clients < <(cd "$CLIENTS" && grep -l '^import serve_common' ./*.py | sed 's|^\./||' | sort)
fi
[ "${#clients[@]}" -gt 0 ] || { echo "no clients found in $CLIENTS" >&2; exit 1; }

# nvml_mib PID: GPU memory (MiB) nvidia-smi lists for PID, empty when it lists none (in a container
# nvidia-smi may not see the program's PID: the table then shows PyTorch's allocator peak).
nvml_mib() {
  { nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null || true; } |
    awk -F', *' -v pid="$1" '$1 == pid { print $2 }'
}

# run_client FILE: runs it with the report's variables, holds it at its ready line for a second, releases
# it and samples its GPU memory until it exits (at most 10 minutes in all); leaves REPORT, LOG and
# NVML_PEAK (MiB or empty).
run_client() {
  local file=$1 stem=${1%.py} go pid waited=0 mib
  REPORT="$R/$stem.report.jsonl" LOG="$R/$stem.log" NVML_PEAK=""
  go="$WORK/$stem.go"
  rm -f "$REPORT" "$go"
  LAST="python3 $file --duration $SECONDS_EACH"
  CUDA_VISIBLE_DEVICES=$GPU GPUPACK_REPORT="$REPORT" GPUPACK_GO="$go" \
    python3 "$CLIENTS/$file" --duration "$SECONDS_EACH" >"$LOG" 2>&1 &
  pid=$!  # the client itself (no wrapper), so that nvidia-smi's PID is this one
  while ! grep -q '"ready"' "$REPORT" 2>/dev/null && kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 3000 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  sleep 1  # held at its ready line: no request may start before the go file exists
  if grep -q '"request"' "$REPORT" 2>/dev/null; then
    fail "$file reported requests before GPUPACK_GO existed"
  fi
  touch "$go"
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge 6000 ]; then  # 10 minutes in all: stuck
      kill -9 "$pid" 2>/dev/null || true
      fail "$file still running after 600 s: killed"
      break
    fi
    waited=$((waited + 5))
    mib=$(nvml_mib "$pid")
    if [ -n "$mib" ] && { [ -z "$NVML_PEAK" ] || [ "$mib" -gt "$NVML_PEAK" ]; }; then NVML_PEAK=$mib; fi
    sleep 0.5
  done
  set +e
  wait "$pid"
  RC=$?
  set -e
}

echo "GPU $GPU: $(nvidia-smi -i "$GPU" --query-gpu=name,memory.total --format=csv,noheader); $(nproc) host cores; ${SECONDS_EACH} s per client"
printf '%-24s %8s %8s %9s %9s %12s  %s\n' program requests "req/s" "median ms" "p99 ms" "peak MiB" note | tee "$R/table.txt"
for file in "${clients[@]}"; do
  LAST="$file"
  [ -f "$CLIENTS/$file" ] || { fail "no client $file in $CLIENTS"; continue; }
  run_client "$file"
  OUT="" ERR=$(tail -n 20 "$LOG")
  [ "$RC" -eq 0 ] || fail "$file exited $RC"
  allocator=$(sed -nE 's/.*peak GPU memory ([0-9]+) MiB \(PyTorch allocator\).*/\1/p' "$LOG" | tail -n 1)
  if [ -n "$NVML_PEAK" ]; then peak="$NVML_PEAK nvml"; else peak="${allocator:-?} alloc"; fi
  # The report's checks and figures: one line "requests req/s median p99 note", or "ERROR why".
  row=$(python3 - "$REPORT" <<'PY'
import json, math, sys
events, ready_t = [], None
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    print("ERROR no report file"); sys.exit()
for n, line in enumerate(lines, 1):
    try:
        e = json.loads(line)
    except ValueError:
        print(f"ERROR line {n} is not JSON"); sys.exit()
    if not isinstance(e, dict) or e.get("v", 1) != 1 or not isinstance(e.get("t"), (int, float)):
        print(f"ERROR line {n} is not a version-1 event with a time"); sys.exit()
    if e.get("event") == "ready" and ready_t is None:
        ready_t = e["t"]
    elif e.get("event") == "request":
        ms = e.get("latency_ms")
        if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms < 0 or not math.isfinite(ms):
            print(f"ERROR line {n}: latency_ms {ms!r}"); sys.exit()
        if ready_t is None or e["t"] < ready_t:
            print(f"ERROR line {n}: a request before the ready line"); sys.exit()
        events.append(e)
if ready_t is None or not events:
    print("ERROR no ready line" if ready_t is None else "ERROR no request reported"); sys.exit()
ms = sorted(e["latency_ms"] for e in events)
pick = lambda q: ms[min(len(ms) - 1, math.ceil(q * len(ms)) - 1)]  # nearest rank
span = events[-1]["t"] - (events[0]["t"] - events[0]["latency_ms"] / 1000)
median = pick(0.5)
note = "" if 1 <= median <= 50 else "median outside 1-50 ms"
print(f"{len(ms)} {len(ms) / span if span > 0 else 0:.1f} {median:.2f} {pick(0.99):.2f} {note}")
PY
  )
  if [[ $row == ERROR* ]]; then
    fail "$file: ${row#ERROR }"
    printf '%-24s %s\n' "$file" "$row" | tee -a "$R/table.txt"
    continue
  fi
  read -r requests rate median p99 note <<<"$row"
  printf '%-24s %8s %8s %9s %9s %12s  %s\n' "$file" "$requests" "$rate" "$median" "$p99" "$peak" "$note" | tee -a "$R/table.txt"
  used=${NVML_PEAK:-${allocator:-0}}
  [ "$used" -lt "$LIMIT_MIB" ] || fail "$file peaked at $used MiB of GPU memory, over the corpus's $LIMIT_MIB MiB"
done
echo "peak MiB: nvml = the process on the GPU (CUDA context included), alloc = PyTorch's allocator peak (without it)"
finish
