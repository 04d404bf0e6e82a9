#!/usr/bin/env bash
# Load test of the agent's HTTP endpoint on loopback (issue 16), a fake node of 8 GPUs x 48 MPS clients:
#   1. one keep-alive connection (wrk -t1 -c1):           target p50 <= 2 ms
#   2. 50 keep-alive connections (wrk -t2 -c50):          target >= 5,000 requests/s, p99 <= 20 ms
#   3. a slowloris of 64 connections (one header line a second, from this script) while /healthz is
#      fetched 50 times on fresh connections:              target: /healthz answers as fast as without it
#   4. the agent's resident memory after all that:         target <= 25 MB
# Usage: bench/agent_load.sh build/gpupack [SECONDS per wrk run, default 10]   (needs wrk, curl, python3)
set -euo pipefail
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/agent_port.sh"
GPUPACK=$(realpath "${1:?usage: $0 path/to/gpupack [seconds]}")
DURATION=${2:-10}
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
URL="http://127.0.0.1:$PORT"
echo "agent pid $AGENT; /metrics is $(curl -sf "$URL/metrics" | wc -c) bytes, $(curl -sf "$URL/metrics" | grep -c '^gpupack_') samples"
echo "resident memory before load: $(grep VmRSS /proc/$AGENT/status | tr -s ' ')"

echo "== 1. one keep-alive connection"
wrk -t1 -c1 -d"${DURATION}s" --latency "$URL/metrics" | grep -E "Latency|50%|99%|Requests/sec|Non-2xx|errors"
echo "== 2. 50 keep-alive connections"
wrk -t2 -c50 -d"${DURATION}s" --latency "$URL/metrics" | grep -E "Latency|50%|99%|Requests/sec|Non-2xx|errors"

# /healthz on a fresh connection each time: the slowest of 50, in ms.
healthz_worst() {
  for _ in $(seq 1 50); do
    curl -s -o /dev/null -w '%{time_total}\n' --max-time 10 "$URL/healthz"
  done | sort -n | tail -1 | awk '{printf "%.1f", $1 * 1000}'
}
echo "== 3. slowloris: 64 connections sending one header line a second (reconnecting when dropped)"
echo "/healthz without the slowloris: slowest of 50: $(healthz_worst) ms"
python3 - "$PORT" "$WORK/slowloris.ready" "$WORK/slowloris.stop" <<'PY' &
import os, socket, sys, time
port, ready, stop = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def slow():
    s = socket.create_connection(("127.0.0.1", port))
    s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    return s
conns = [slow() for _ in range(64)]
open(ready, "w").close()
dropped, i = 0, 0
while not os.path.exists(stop):
    time.sleep(1)
    i += 1
    for k, s in enumerate(conns):
        try:
            s.send(b"X-Slow-%d: %d\r\n" % (i, i))
        except OSError:
            dropped += 1
            conns[k] = slow()
print(f"slowloris: the agent closed {dropped} slow connections in {i} s (header deadline 5 s); 64 kept open")
PY
LORIS=$!
while [ ! -e "$WORK/slowloris.ready" ]; do sleep 0.1; done
echo "/healthz with 64 slow connections open: slowest of 50: $(healthz_worst) ms"
touch "$WORK/slowloris.stop"
wait "$LORIS"
echo "== 4. memory"
echo "resident memory after load: $(grep VmRSS /proc/$AGENT/status | tr -s ' '); peak: $(grep VmHWM /proc/$AGENT/status | tr -s ' ')"
kill -TERM "$AGENT"
wait "$AGENT" && echo "agent exited 0 after SIGTERM"
AGENT=""
