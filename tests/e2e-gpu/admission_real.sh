#!/usr/bin/env bash
# GPU test (label gpu): admission of `gpupack run` against the real MPS daemon (issue 16). The agent
# (real NVML backend) supervises nvidia-cuda-mps-control for GPU 0 with clients: 6; 8 concurrent
# `gpupack run` start a CUDA client each (a context through MPS, held until released): exactly 6 are
# admitted, 2 refused; the agent's gpupack_sharing_clients_admitted says 6 and MPS lists 6 clients; a
# SIGKILLed run's slot goes to the next run. Needs python3 with torch for the clients (a CUDA context);
# ADMISSION_GPU (default 0) picks the GPU.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"
# shellcheck source=tests/concurrent_runs.sh
source "$(dirname "${BASH_SOURCE[0]}")/../concurrent_runs.sh"

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU here" >&2
  exit 1
fi
if ! python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  echo "python3 with torch and CUDA is needed for the clients" >&2
  exit 1
fi
GPU=${ADMISSION_GPU:-0}
unset GPUPACK_GPU_BACKEND
export CUDA_DEVICE_ORDER=PCI_BUS_ID
MPS_ROOT="$WORK/mps"
AGENT=""
cleanup() {
  [ -f "$WORK/go" ] || touch "$WORK/go"
  if [ -n "$AGENT" ]; then kill -TERM "$AGENT" 2>/dev/null || true; wait "$AGENT" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

cat >"$WORK/node.yaml" <<YAML
mps_root: $MPS_ROOT
metrics_address: 127.0.0.1:0
check_interval_seconds: 0.5
gpus:
  - {gpu: "$GPU", mode: mps, clients: 6}
YAML
# The client: a CUDA context through MPS, then wait for the release file.
cat >"$WORK/client.py" <<'PY'
import os, sys, time, torch
work, i = sys.argv[1], sys.argv[2]
torch.zeros(1, device="cuda")
torch.cuda.synchronize()
open(os.path.join(work, "started." + i), "w").close()
while not os.path.exists(os.path.join(work, "go")):
    time.sleep(0.05)
PY

"$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
AGENT=$!
PORT=$(agent_port "$WORK/agent.log" 600)
[ -n "$PORT" ] || { cat "$WORK/agent.log" >&2; exit 1; }
metric() { curl -sf "http://127.0.0.1:$PORT/metrics" | awk -v m="$1" '$1 ~ "^"m"[{]" {print $2; exit}'; }
# wait_metric NAME VALUE: polls for up to 20 s (the agent refreshes every check interval).
wait_metric() {
  for _ in $(seq 1 200); do [ "$(metric "$1")" = "$2" ] && return 0; sleep 0.1; done
  return 1
}

start_runs 8 --config "$WORK/node.yaml" -- python3 "$WORK/client.py"
settle_runs 8
started=$(count_started)
refused=$(count_refused)
echo "8 concurrent runs with clients: 6: $started started a CUDA context, $refused refused"
LAST="8 concurrent runs, clients: 6"
[ "$started" -eq 6 ] || fail "$started runs started, expected 6"
[ "$refused" -eq 2 ] || fail "$refused refused, expected 2: $(cat "$WORK"/run.*.err)"
wait_metric gpupack_sharing_clients_admitted 6 || true
wait_metric gpupack_mps_clients 6 || true
admitted=$(metric gpupack_sharing_clients_admitted)
mps_clients=$(metric gpupack_mps_clients)
echo "agent: gpupack_sharing_clients_admitted $admitted, gpupack_mps_clients $mps_clients"
[ "$admitted" = 6 ] || fail "gpupack_sharing_clients_admitted is '$admitted', expected 6"
[ "$mps_clients" = 6 ] || fail "gpupack_mps_clients is '$mps_clients', expected 6"

kill_one_admitted
run run --config "$WORK/node.yaml" -- true
expect_rc 3  # the SIGKILLed wrapper's program runs on and keeps the slot it inherited
wait_metric gpupack_sharing_clients_admitted 6 || true
admitted=$(metric gpupack_sharing_clients_admitted)
[ "$admitted" = 6 ] || fail "gpupack_sharing_clients_admitted is '$admitted' with 6 programs running, expected 6"
release_runs
wait_metric gpupack_sharing_clients_admitted 0 || true
admitted=$(metric gpupack_sharing_clients_admitted)
echo "after release: gpupack_sharing_clients_admitted $admitted"
[ "$admitted" = 0 ] || fail "gpupack_sharing_clients_admitted is '$admitted' after every client ended"
kill -TERM "$AGENT"
wait "$AGENT" || fail "agent did not exit 0 after SIGTERM"
AGENT=""
finish
