#!/usr/bin/env bash
# GPU test (label gpu): GPM activity and per-process utilisation as gpupack reads them from NVML, while a
# known workload runs on one GPU (Hopper or newer for GPM):
# - a saturating fp16 GEMM (8192^3, torch.matmul in a loop): SM activity near 1;
# - a tiny workload: 8 one-block spin kernels on 8 streams (torch.cuda._sleep), so 8 SMs are busy while
#   a kernel runs all the time: NVML utilisation near 1, GPM SM activity low.
# For each: `gpupack gpus --interval S --format json` (the values printed), then the agent's /metrics
# (gpupack_gpu_sm_active_ratio, the process's series, and the slice's measured SM activity beside the
# predicted one its node.yaml states) once for the GEMM. Needs python3 with torch.
# GPM_GPU (default 0: NVML and CUDA index, PCI order), GPM_INTERVAL (default 2 s) change the setup.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU here" >&2
  exit 1
fi
if ! python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  echo "python3 with torch and CUDA is needed for the workloads" >&2
  exit 1
fi
GPU=${GPM_GPU:-0}
INTERVAL=${GPM_INTERVAL:-2}
export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$GPU
unset GPUPACK_GPU_BACKEND

cat >"$WORK/load.py" <<'PY'
import sys, time, torch
mode, seconds, ready = sys.argv[1], float(sys.argv[2]), sys.argv[3]
if mode == "gemm":
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    b = torch.randn_like(a)
    def step():
        torch.matmul(a, b)
else:  # 8 one-thread blocks at a time, one per stream: 8 SMs busy, a kernel always running
    streams = [torch.cuda.Stream() for _ in range(8)]
    def step():
        for s in streams:
            with torch.cuda.stream(s):
                torch.cuda._sleep(20_000_000)
for _ in range(3):
    step()
torch.cuda.synchronize()
open(ready, "w").write("ready\n")
end = time.time() + seconds
while time.time() < end:
    for _ in range(4):
        step()
    torch.cuda.synchronize()
PY

LOAD=""
stop_load() {
  if [ -n "$LOAD" ]; then
    kill "$LOAD" 2>/dev/null || true
    wait "$LOAD" 2>/dev/null || true
  fi
  LOAD=""
}
AGENT=""
cleanup() {
  stop_load
  if [ -n "$AGENT" ]; then
    kill -TERM "$AGENT" 2>/dev/null || true
    wait "$AGENT" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# start_load MODE: starts the workload for long enough and waits (up to 120 s) until it is warmed up.
start_load() {
  rm -f "$WORK/ready"
  python3 "$WORK/load.py" "$1" 300 "$WORK/ready" >"$WORK/load.log" 2>&1 &
  LOAD=$!
  for _ in $(seq 1 1200); do
    [ -f "$WORK/ready" ] && return 0
    kill -0 "$LOAD" 2>/dev/null || break
    sleep 0.1
  done
  fail "workload $1 did not start: $(tail -3 "$WORK/load.log")"
  return 1
}

# show MODE: the GPU's values from `gpupack gpus --interval`, printed, kept in $WORK/MODE.txt as
# "sm_active sm_occupancy tensor_active dram_bw nvml_util process_sm_util".
show() {
  run gpus --interval "$INTERVAL" --format json
  expect_rc 0
  printf '%s\n' "$OUT" >"$WORK/$1.json"
  python3 - "$GPU" "$LOAD" "$1" "$WORK/$1.json" >"$WORK/$1.txt" <<'PY'
import json, sys
gpu, pid, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
d = next(x for x in json.load(open(sys.argv[4]))["devices"] if x["index"] == gpu)
g = d["gpm"] or {}
p = next((x for x in d["processes"] if x["pid"] == pid), {})
f = lambda v: "null" if v is None else "%.3f" % v
vals = [g.get("sm_active"), g.get("sm_occupancy"), g.get("tensor_active"), g.get("dram_bw"), d["utilization_gpu"], p.get("sm_utilization")]
print(" ".join(f(v) for v in vals))
print("%-5s %s (GPU %d, %s s): GPM sm_active %s sm_occupancy %s tensor_active %s dram_bw %s | NVML util %s | process %d sm_util %s"
      % (mode, d["name"], gpu, g.get("interval_seconds"), *[f(v) for v in vals[:5]], pid, f(vals[5])), file=sys.stderr)
PY
}

run gpus --interval "$INTERVAL"
echo "$OUT"

LAST="GEMM"
if start_load gemm; then
  show gemm
  read -r SM _ TENSOR _ _ PSM <"$WORK/gemm.txt"
  if [ "$SM" = null ]; then
    fail "no GPM SM activity on GPU $GPU (GPM needs Hopper or newer and driver >= 520)"
  else
    python3 -c "import sys; sys.exit(0 if $SM >= 0.8 else 1)" || fail "GEMM: GPM SM activity $SM, expected near 1 (>= 0.8)"
    python3 -c "import sys; sys.exit(0 if $TENSOR >= 0.3 else 1)" || fail "GEMM: tensor activity $TENSOR, expected high"
  fi
  [ "$PSM" = null ] && fail "GEMM: no per-process SM utilisation for pid $LOAD (time-sliced: NVML reports it)"

  # The agent exports the same activity in /metrics.
  cat >"$WORK/node.yaml" <<YAML
mps_root: $WORK/mps
metrics_address: 127.0.0.1:0
check_interval_seconds: 1
gpus:
  - {gpu: "$GPU", mode: time-slicing, clients: 4, predicted_sm_active: 0.9}
YAML
  "$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
  AGENT=$!
  PORT=$(agent_port "$WORK/agent.log")
  LAST="agent /metrics during the GEMM"
  if [ -z "$PORT" ]; then
    fail "agent did not start: $(cat "$WORK/agent.log")"
  else
    sleep 3  # a few refreshes: GPM needs two samples
    OUT=$(python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
      "http://127.0.0.1:$PORT/metrics" || true)
    grep -E "^gpupack_(gpu_sm_active_ratio|gpu_sm_occupancy_ratio|gpu_tensor_active_ratio|gpu_dram_bandwidth_ratio|gpu_utilization_ratio|slice_sm_allotted_unused_ratio|slice_sm_active_ratio|slice_sm_active_predicted_ratio|process_sm_utilization_ratio)\{" <<<"$OUT" >&2
    grep -Eq "^gpupack_gpu_sm_active_ratio\{gpu=\"$GPU\"" <<<"$OUT" || fail "no gpupack_gpu_sm_active_ratio for GPU $GPU"
    grep -Eq "^gpupack_process_sm_utilization_ratio\{gpu=\"$GPU\",[^}]*pid=\"$LOAD\"" <<<"$OUT" || fail "no per-process SM utilisation for the GEMM"
    # The plan's prediction (node.yaml) beside the slice's measured activity.
    grep -Eq "^gpupack_slice_sm_active_predicted_ratio\{[^}]*\} 0\.9$" <<<"$OUT" || fail "no gpupack_slice_sm_active_predicted_ratio 0.9"
    grep -Eq "^gpupack_slice_sm_active_ratio\{" <<<"$OUT" || fail "no gpupack_slice_sm_active_ratio beside it"
  fi
  kill -TERM "$AGENT" 2>/dev/null || true
  wait "$AGENT" 2>/dev/null || true
  AGENT=""
  stop_load
fi

LAST="8-block workload"
if start_load tiny; then
  show tiny
  read -r SM _ _ _ UTIL _ <"$WORK/tiny.txt"
  if [ "$SM" != null ]; then
    python3 -c "import sys; sys.exit(0 if $SM <= 0.2 else 1)" || fail "8 blocks: GPM SM activity $SM, expected low (<= 0.2)"
    python3 -c "import sys; sys.exit(0 if $UTIL >= 0.5 else 1)" || fail "8 blocks: NVML utilisation $UTIL, expected high (a kernel always runs)"
  fi
  stop_load
fi
finish
