#!/usr/bin/env bash
# Load test of the agent's /metrics on loopback: a fake node of 8 GPUs x 48 MPS clients, wrk for
# DURATION seconds (default 30) with 2 threads and 8 connections, then the agent's resident memory.
# Targets: >= 1,000 requests/s without errors; resident memory <= 25 MB.
# Usage: bench/agent_load.sh build/gpupack [DURATION]   (needs wrk and python3; Debian packages)
set -euo pipefail
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/agent_port.sh"
GPUPACK=$(realpath "${1:?usage: $0 path/to/gpupack [seconds]}")
DURATION=${2:-30}
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
WORK=$(mktemp -d)
AGENT=""
trap '[ -n "$AGENT" ] && kill -TERM "$AGENT" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT

python3 - "$WORK/machine.json" <<'PY'
import json, sys
devices = []
for g in range(8):
    procs = [{"pid": 100000 + g * 100 + c, "used_memory_bytes": 700 << 20, "mps_client": True} for c in range(48)]
    devices.append({"uuid": f"GPU-00000000-0000-0000-0000-00000000000{g}", "name": "NVIDIA H100 80GB HBM3",
                    "memory_total_bytes": 85520809984, "memory_used_bytes": 40 << 30, "compute_mode": "Default",
                    "mig_enabled": False, "utilization_gpu": [0.8, 0.85], "utilization_memory": 0.4, "processes": procs})
json.dump({"driver_version": "580.159.04", "devices": devices}, open(sys.argv[1], "w"))
PY
{
  echo "mps_root: $WORK/mps"
  echo "control_binary: $FAKE_MPS"
  echo "metrics_address: 127.0.0.1:0"
  echo "check_interval_seconds: 1"
  echo "gpus:"
  for g in 0 1 2 3 4 5 6 7; do echo "  - {gpu: \"$g\", mode: mps, clients: 48, limits: {sm_percent: 2, memory: 1GiB}}"; done
} >"$WORK/node.yaml"

GPUPACK_GPU_BACKEND="fake:$WORK/machine.json" "$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
AGENT=$!
PORT=$(agent_port "$WORK/agent.log")
[ -n "$PORT" ] || { cat "$WORK/agent.log" >&2; exit 1; }
SIZE=$(curl -sf "http://127.0.0.1:$PORT/metrics" | wc -c)
echo "agent pid $AGENT, /metrics is $SIZE bytes ($(curl -sf "http://127.0.0.1:$PORT/metrics" | grep -c '^gpupack_') samples)"
echo "resident memory before load: $(grep VmRSS /proc/$AGENT/status | tr -s ' ')"
wrk -t2 -c8 -d"${DURATION}s" --latency "http://127.0.0.1:$PORT/metrics" | tee "$WORK/wrk.txt"
echo "resident memory after load: $(grep VmRSS /proc/$AGENT/status | tr -s ' '); peak: $(grep VmHWM /proc/$AGENT/status | tr -s ' ')"
kill -TERM "$AGENT"
wait "$AGENT" && echo "agent exited 0 after SIGTERM"
AGENT=""
