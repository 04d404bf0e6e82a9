#!/usr/bin/env bash
# GPU test (label gpu): issue 14's robustness cases on a real GPU and the real NVML, for `gpupack profile`
# and the `gpupack bench --client-cmd` grid: a program that never touches the GPU, one that exits during
# the warm-up, one with a 15 s start-up, one that writes garbage reports. Each must end with a clear
# message (exit 1 and one line where there is no profile), never hang (every call runs under `timeout`),
# and never print an entry `gpupack plan` rejects (every entry printed is planned). The CI versions of
# these cases (and a program that reports nothing, measured from its first GPU use in the grid) run
# against the fake GPU backend (tests/e2e/profile.sh, tests/measure/steady_profile_test,
# tests/bench/grid_test).
# Needs a CUDA GPU whose model is in gpupack's catalog and python3 with torch and torchvision
# (tests/example_clients.sh). Outputs under $OUT/robustness when OUT is set: each call's stdout and
# stderr (CASE.txt) and the profiles (CASE.json). About 4 minutes on an H100 (237 s on 2026-11-26).
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/robustness}
RESULTS=${RESULTS:-$WORK/robustness}
mkdir -p "$RESULTS"
unset GPUPACK_GPU_BACKEND
MODEL=$(gpu0_catalog_model "$GPUPACK")

# timed NAME LIMIT ARGS...: gpupack ARGS under `timeout LIMIT` (a hang fails the test), output kept.
timed() {
  local name=$1 limit=$2
  shift 2
  LAST="[$name] gpupack $*"
  set +e
  timeout "$limit" "$GPUPACK" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
  printf '$ gpupack %s\nexit %s\n--- stdout\n%s\n--- stderr\n%s\n' "$*" "$RC" "$OUT" "$ERR" >"$RESULTS/$name.txt"
  [ "$RC" -ne 124 ] || fail "did not end within $limit s"
}
# No profile: exit 1, one line on stderr, nothing on stdout.
expect_no_profile() {
  expect_rc 1
  expect_no_out
  expect_err "$1"
  [ "$(wc -l <<<"$ERR")" -eq 1 ] || fail "stderr is not one line"
}
# The entry on stdout is one `gpupack plan` accepts (it names the profile JSON -o wrote: plan reads that too).
expect_plannable() {
  printf '%s\n' "$OUT" >"$RESULTS/$1.yaml"
  local saved_out=$OUT saved_err=$ERR
  run plan "$RESULTS/$1.yaml" --gpu "$MODEL"
  expect_rc 0
  OUT=$saved_out ERR=$saved_err
}

# 1. Never touches the GPU (exits by itself, then one that would run for a minute).
timed never-gpu 60 profile --warmup 1 --duration 2 -- python3 -c "import time; time.sleep(3)"
expect_no_profile "never used the GPU"
timed never-gpu-timeout 60 profile --warmup 1 --duration 2 --startup-timeout 5 -- python3 -c "import time; time.sleep(60)"
expect_no_profile "had not used the GPU after 5.0 s"

# 2. Exits during the warm-up: holds GPU memory for 3 s, the window would begin 8 s after its first use.
timed exits-in-warmup 90 profile --interval 0.2 --warmup 8 --duration 2 -- python3 -c \
  "import time, torch; x = torch.ones(1 << 24, device='cuda'); torch.cuda.synchronize(); time.sleep(3)"
expect_no_profile "before the measurement window began"

# 3. A 15 s start-up (sleep, then the MLP client's own few seconds): waited for, never counted.
timed slow-start 120 profile --name slow-start --warmup 2 --duration 4 -o "$RESULTS/slow-start.json" -- \
  sh -c "sleep 15; exec python3 $CLIENTS/mlp_b8.py --duration 600"
expect_rc 0
expect_out "^    memory: [0-9.]+[MG]iB$"
jq -e '.window.start == "ready-line" and .window.complete and .window.first_gpu_seconds >= 15 and .window.seconds >= 3.9
       and .requests.req_per_s > 100 and .memory.peak_bytes > 100 * 1048576' "$RESULTS/slow-start.json" >/dev/null ||
  fail "slow-start.json: $(cat "$RESULTS/slow-start.json")"
expect_plannable slow-start
# The grid waits for its ready line the same way; the rate is from the window only.
timed slow-start-grid 180 bench --only client --client-cmd "sleep 15; exec python3 $CLIENTS/mlp_b8.py --duration 3600" \
  --ks 1 --window 3 --json "$RESULTS/slow-start-grid.json"
expect_rc 0
jq -e '.colocation.cells | length == 2 and all(.error == "" and .latency_reported and .aggregate_req_per_s > 100
       and .mean_wall_s > 15)' "$RESULTS/slow-start-grid.json" >/dev/null || fail "slow-start-grid.json: a cell failed"

# 4. Garbage reports: a program on the GPU whose report file gets only malformed lines. Measured all
# the same (memory, activity), latency said to be missing, the bad lines counted.
cat >"$WORK/garbage.py" <<'PY'
import os, time, torch
x = torch.ones(1 << 24, device="cuda")
torch.cuda.synchronize()
f = open(os.environ["GPUPACK_REPORT"], "a", buffering=1)
while True:
    f.write("garbage {\n")
    f.write('{"v": 1, "event": "request", "t": "soon"}\n')
    time.sleep(0.05)
PY
timed garbage 90 profile --name garbage --warmup 1 --duration 3 -o "$RESULTS/garbage.json" -- python3 "$WORK/garbage.py"
expect_rc 0
expect_err "request latency not reported"
expect_err "malformed line\(s\) ignored, the first: "
jq -e '.requests == null and .report.any_line and .report.malformed_lines > 20 and .window.start == "warmup"
       and .memory.peak_bytes > 50 * 1048576' "$RESULTS/garbage.json" >/dev/null || fail "garbage.json: $(cat "$RESULTS/garbage.json")"
expect_plannable garbage
# In the grid no valid ready line means no window: each cell fails with the reason, within --ready-timeout.
timed garbage-grid 120 bench --only client --client-cmd "python3 $WORK/garbage.py" --ks 1 --window 2 --ready-timeout 10 \
  --json "$RESULTS/garbage-grid.json"
jq -e '.colocation.cells | length == 2 and all(.error | test("wrote no ready line .* within 10 s \\(--ready-timeout\\) \\([0-9]+ malformed line"))' \
  "$RESULTS/garbage-grid.json" >/dev/null || fail "garbage-grid.json: $(jq -c '[.colocation.cells[].error]' "$RESULTS/garbage-grid.json")"
expect_out "FAILED: .*wrote no ready line"

# 5. Reports nothing (its report variables removed): the grid measures each copy from its first GPU use
# to its exit through NVML's process lists (MPS clients included), so the start-up (a 5 s sleep, then
# importing torch) is not its time on the GPU; a fixed amount of work (2000 requests) per copy.
timed silent-grid 240 bench --only client --ks 1,2 --json "$RESULTS/silent-grid.json" --client-cmd \
  "sleep 5; exec env -u GPUPACK_REPORT -u GPUPACK_GO python3 $CLIENTS/resnet18_b1.py --requests 2000"
expect_rc 0
expect_out "request latency was not reported; on the GPU [0-9.]+ s per copy"
jq -e '.colocation.cells | length == 4 and all(.error == "" and (.latency_reported | not) and .mean_gpu_s > 0.5
       and all(.copies[]; .first_gpu_s >= 5 and .gpu_s < .wall_s - 5 and .gpu_memory_bytes > 50 * 1048576))' \
  "$RESULTS/silent-grid.json" >/dev/null || fail "silent-grid.json: $(jq -c '[.colocation.cells[] | {mode, k, error, copies}]' "$RESULTS/silent-grid.json")"

# Nothing of ours left running.
sleep 1
if pgrep -f "$CLIENTS/mlp_b8.py|$CLIENTS/resnet18_b1.py|$WORK/garbage.py" >/dev/null; then
  fail "a client survived: $(pgrep -af "$CLIENTS/mlp_b8.py|$CLIENTS/resnet18_b1.py|$WORK/garbage.py")"
fi
finish
