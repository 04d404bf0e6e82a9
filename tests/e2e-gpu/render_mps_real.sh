#!/usr/bin/env bash
# GPU test (label gpu): the rendered MPS start and stop scripts drive the real nvidia-cuda-mps-control
# with private pipe and log directories on this machine's GPU 0, and a client started with a rendered
# env file sees its SM cap. Never changes the GPU's settings; always quits the daemon it started.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU here" >&2
  exit 1
fi
export GPUPACK_MPS_ROOT="$WORK/mps" GPUPACK_MPS_LOG_ROOT="$WORK/mps-log"
PIPE="$GPUPACK_MPS_ROOT/node-0-gpu0"
cleanup() {
  CUDA_MPS_PIPE_DIRECTORY="$PIPE" timeout 10 nvidia-cuda-mps-control <<<quit >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

cat >"$WORK/plan.json" <<'JSON'
{"schema_version": 1, "gpus": [{"id": "gpu0", "node": "node-0", "model": "H100-SXM5-80GB", "mode": "mps", "mig": [],
  "slices": [{"id": "s0", "profile": null, "sharing": "mps", "memory_bytes": 85899345920}]}],
 "placements": [
  {"workload": "latency", "replica": 0, "tenant": "t", "gpu": "gpu0", "slice": "s0",
   "memory_limit_bytes": 4294967296, "mps_active_thread_percentage": 50},
  {"workload": "batch", "replica": 0, "tenant": "t", "gpu": "gpu0", "slice": "s0",
   "memory_limit_bytes": 2147483648, "mps_active_thread_percentage": 25}]}
JSON
run render "$WORK/plan.json" --target mps -o "$WORK/r"
expect_rc 0
D="$WORK/r/mps/node-0-gpu0"

"$D/start.sh" >"$WORK/start.log" 2>&1 || fail "start.sh: $(cat "$WORK/start.log")"
pct=$(CUDA_MPS_PIPE_DIRECTORY="$PIPE" nvidia-cuda-mps-control <<<get_default_active_thread_percentage)
[ "${pct%%.*}" = 50 ] || fail "default active thread percentage is '$pct', expected 50"
mem=$(CUDA_MPS_PIPE_DIRECTORY="$PIPE" nvidia-cuda-mps-control <<<"get_default_device_pinned_mem_limit 0")
# The daemon reports the limit normalised: 4096M reads back as 4G.
grep -Eq "^(4G|4096M)$" <<<"$mem" || fail "default pinned memory limit is '$mem', expected 4G"

# A client with the rendered env file (25% of the SMs) sees a quarter of them, if PyTorch is here.
if python3 -c "import torch" 2>/dev/null; then
  # The env file names the default pipe directory; this test relocated it with GPUPACK_MPS_ROOT.
  mapfile -t client_env < <(grep -v '^#' "$D/clients/batch-0.env")
  sms=$(env "${client_env[@]}" CUDA_MPS_PIPE_DIRECTORY="$PIPE" python3 -c \
    "import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)" 2>"$WORK/client.err") ||
    fail "client failed: $(cat "$WORK/client.err")"
  all=$(python3 -c "import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)")
  echo "client SMs with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25: $sms of $all"
  if [ "$sms" -ge "$all" ] || [ "$sms" -gt $(((all + 3) / 4 + 2)) ]; then
    fail "client saw $sms SMs of $all at 25%"
  fi
fi

"$D/stop.sh" >"$WORK/stop.log" 2>&1 || fail "stop.sh: $(cat "$WORK/stop.log")"
grep -q "stopped" "$WORK/stop.log" || fail "stop.sh did not see the daemon go"
if pgrep -f "nvidia-cuda-mps-control -d" >/dev/null; then
  for pid in $(pgrep -f "nvidia-cuda-mps-control -d"); do
    grep -qxF "CUDA_MPS_PIPE_DIRECTORY=$PIPE" < <(tr '\0' '\n' <"/proc/$pid/environ") && fail "daemon $pid still runs"
  done
fi
finish
