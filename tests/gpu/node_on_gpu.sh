#!/usr/bin/env bash
# The node side on a real GPU (label gpu; run on the device machine): NVML values against nvidia-smi,
# `gpupack mps up` with the real nvidia-cuda-mps-control on PRIVATE pipe/log directories, a client
# started with `gpupack run --sm 50` sees half the SMs, the agent restores a kill -9'd MPS server and
# daemon, SIGTERM makes it quit MPS, and `gpupack profile` measures a real CUDA program. It never
# changes the card's settings, and always sends quit to its own daemon, also on failure.
# Usage: node_on_gpu.sh path/to/gpupack [nvml-test-binary]. Logs go to $OUT (or a temp dir).
set -uo pipefail
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"
GPUPACK=$(realpath "${1:?usage: $0 path/to/gpupack [nvml-test-binary]}")
NVML_TESTS=${2:-}
LOGS=${OUT:-$(mktemp -d)}
WORK=$(mktemp -d /tmp/gpupack-gpu-XXXXXX)
UUID=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -1)
PIPE="$WORK/mps/$UUID/pipe"
LOG="$WORK/mps/$UUID/log"
AGENT=""
RESULTS=()
FAILED=0

record() {  # record NAME ok|FAIL DETAIL
  RESULTS+=("$(printf '%-34s %-4s %s' "$1" "$2" "$3")")
  [ "$2" = ok ] || FAILED=$((FAILED + 1))
}
ctl() { CUDA_MPS_PIPE_DIRECTORY="$PIPE" CUDA_MPS_LOG_DIRECTORY="$LOG" timeout 10 nvidia-cuda-mps-control; }
cleanup() {
  [ -n "$AGENT" ] && kill -TERM "$AGENT" 2>/dev/null && sleep 2
  echo quit | ctl >/dev/null 2>&1
  sleep 1
  cp -f "$WORK"/*.log "$WORK"/*.txt "$LOGS"/ 2>/dev/null
  cat "$LOG"/control.log "$LOG"/server.log >"$LOGS/mps-logs.txt" 2>/dev/null
}
trap cleanup EXIT

# 1. NVML through gpupack vs nvidia-smi.
nvidia-smi >"$WORK/nvidia-smi.txt" 2>&1
nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,compute_mode --format=csv,noheader,nounits >"$WORK/smi.txt"
"$GPUPACK" gpus --format json >"$WORK/gpus.txt" 2>&1
if python3 - "$WORK/smi.txt" "$WORK/gpus.txt" >"$WORK/compare.txt" 2>&1 <<'PY'
import json, sys
smi = [l.split(", ") for l in open(sys.argv[1]).read().strip().splitlines()]
devs = json.load(open(sys.argv[2]))["devices"]
assert len(smi) == len(devs), ("device count", len(smi), len(devs))
mib = 1024 * 1024
for row, d in zip(smi, devs):
    idx, uuid, name, total, used, mode = row
    checks = [("index", int(idx), d["index"]), ("uuid", uuid, d["uuid"]), ("name", name, d["name"]),
              ("memory.total MiB", int(total), d["memory_total_bytes"] // mib),
              ("compute mode", mode.replace(" ", "_").lower(), (d["compute_mode"] or "").lower())]
    for what, a, b in checks:
        print(what, "nvidia-smi:", a, "gpupack:", b)
        assert a == b, what
    print("memory.used MiB nvidia-smi:", used, "gpupack:", d["memory_used_bytes"] // mib)
    assert abs(int(used) - d["memory_used_bytes"] // mib) <= 64, "memory.used"
print("model", devs[0]["model"], "utilization", devs[0]["utilization_gpu"])
PY
then record "NVML matches nvidia-smi" ok "$(tail -1 "$WORK/compare.txt")"; else record "NVML matches nvidia-smi" FAIL "$(tail -2 "$WORK/compare.txt" | tr '\n' ' ')"; fi
if [ -n "$NVML_TESTS" ]; then
  if "$NVML_TESTS" >"$WORK/nvml-tests.txt" 2>&1; then record "gpupack_gpu_nvml_tests" ok ""; else record "gpupack_gpu_nvml_tests" FAIL "see nvml-tests.txt"; fi
fi

# 2. The probe.
if nvcc -O2 -o "$WORK/probe" "$(dirname "$0")/probe.cu" >"$WORK/nvcc.txt" 2>&1; then record "nvcc probe" ok ""; else record "nvcc probe" FAIL "$(head -3 "$WORK/nvcc.txt")"; fi
ALONE=$("$WORK/probe" sms 2>&1)

# 3. MPS up on private directories.
cat >"$WORK/node.yaml" <<YAML
mps_root: $WORK/mps
metrics_address: 127.0.0.1:0
check_interval_seconds: 0.1
gpus:
  - {gpu: "$UUID", mode: mps, clients: 4}
YAML
if timeout 60 "$GPUPACK" mps up --config "$WORK/node.yaml" >"$WORK/mps-up.txt" 2>&1; then record "gpupack mps up" ok "$(head -1 "$WORK/mps-up.txt")"; else record "gpupack mps up" FAIL "$(cat "$WORK/mps-up.txt")"; fi
timeout 30 "$GPUPACK" mps status --config "$WORK/node.yaml" --format json >"$WORK/mps-status.txt" 2>&1
SERVER=$(echo get_server_list | ctl | head -1)
echo "get_server_status $SERVER" | ctl >"$WORK/server-status-reply.txt" 2>&1
record "server state (get_server_status)" "$( [ -n "$SERVER" ] && echo ok || echo FAIL)" "pid ${SERVER:-none}: $(tr '\n' ' ' <"$WORK/server-status-reply.txt")"

# 4. Clients through gpupack run.
FULL=$(timeout 60 "$GPUPACK" run --config "$WORK/node.yaml" --gpu 0 -- "$WORK/probe" sms 2>"$WORK/run-full.txt")
HALF=$(timeout 60 "$GPUPACK" run --config "$WORK/node.yaml" --gpu 0 --sm 50 -v -- "$WORK/probe" sms 2>"$WORK/run-half.txt")
if [ -n "$FULL" ] && [ -n "$HALF" ] && [ $((HALF * 2)) -le "$FULL" ] && [ $((HALF * 2)) -ge $((FULL - 4)) ]; then
  record "run --sm 50 sees half the SMs" ok "alone $ALONE, MPS client $FULL, --sm 50: $HALF"
else
  record "run --sm 50 sees half the SMs" FAIL "alone $ALONE, full '$FULL', half '$HALF' $(tr '\n' ' ' <"$WORK/run-half.txt")"
fi

# 5. The agent: metrics from NVML, restores a killed server and a killed daemon.
"$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
AGENT=$!
PORT=$(agent_port "$WORK/agent.log" 100)
python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$PORT/metrics').read().decode())" >"$WORK/metrics.txt" 2>&1
if grep -q "^gpupack_mps_daemon_up{.*} 1" "$WORK/metrics.txt" && grep -q "^gpupack_gpu_memory_total_bytes" "$WORK/metrics.txt"; then
  record "agent /metrics" ok "$(grep -c '^gpupack_' "$WORK/metrics.txt") samples; $(grep '^gpupack_mps_server_state.*ACTIVE' "$WORK/metrics.txt" | head -1)"
else
  record "agent /metrics" FAIL "port '$PORT' $(tail -2 "$WORK/agent.log" | tr '\n' ' ')"
fi
restored_after() {  # restored_after OLD_PID COMMAND: seconds until get_server_list (or the pid file) names another pid
  local old=$1 what=$2 start now pid
  start=$(date +%s.%N)
  for _ in $(seq 1 200); do
    if [ "$what" = server ]; then pid=$(echo get_server_list | ctl 2>/dev/null | head -1); else pid=$(cat "$PIPE/nvidia-cuda-mps-control.pid" 2>/dev/null); fi
    if [ -n "$pid" ] && [ "$pid" != "$old" ] && { [ "$what" = server ] || echo get_server_list | ctl >/dev/null 2>&1; }; then
      now=$(date +%s.%N)
      echo "$pid $(python3 -c "print(round($now - $start, 2))")"
      return 0
    fi
    sleep 0.05
  done
  echo "none timeout"
}
SERVER=$(echo get_server_list | ctl | head -1)
if [ -n "$SERVER" ]; then
  kill -9 "$SERVER"
  read -r NEWPID SECS <<<"$(restored_after "$SERVER" server)"
  if [ "$NEWPID" != none ] && python3 -c "import sys; sys.exit(0 if $SECS <= 2.0 else 1)"; then
    record "kill -9 server -> restored" ok "server $SERVER -> $NEWPID in $SECS s"
  else
    record "kill -9 server -> restored" FAIL "server $SERVER -> $NEWPID in $SECS s"
  fi
else
  record "kill -9 server -> restored" FAIL "no server listed"
fi
DAEMON=$(cat "$PIPE/nvidia-cuda-mps-control.pid" 2>/dev/null)
ls -la "$PIPE" >"$WORK/pipe-dir.txt" 2>&1
if [ -n "$DAEMON" ]; then
  kill -9 "$DAEMON"
  read -r NEWPID SECS <<<"$(restored_after "$DAEMON" daemon)"
  record "kill -9 daemon -> restored" "$( [ "$NEWPID" != none ] && echo ok || echo FAIL)" "daemon $DAEMON -> $NEWPID in $SECS s"
else
  record "kill -9 daemon -> restored" FAIL "no pid file in $PIPE (see pipe-dir.txt)"
fi
AFTER=$(timeout 60 "$GPUPACK" run --config "$WORK/node.yaml" --gpu 0 --sm 50 -- "$WORK/probe" sms 2>>"$WORK/run-half.txt")
record "client after restarts (--sm 50)" "$( [ "$AFTER" = "$HALF" ] && echo ok || echo FAIL)" "SMs $AFTER"

# 6. SIGTERM: the agent quits MPS.
kill -TERM "$AGENT"
wait "$AGENT"
RC=$?
AGENT=""
if [ "$RC" = 0 ] && ! echo get_server_list | ctl >/dev/null 2>&1; then record "SIGTERM -> MPS quit" ok "agent exit 0, daemon gone"; else record "SIGTERM -> MPS quit" FAIL "agent exit $RC"; fi

# 7. profile a real CUDA program (alone: no MPS variables).
timeout 120 "$GPUPACK" profile --interval 0.2 --name probe-busy -- "$WORK/probe" busy 4 2048 >"$WORK/profile.txt" 2>&1
record "profile (2 GiB, 4 s busy)" "$(grep -q 'memory: ' "$WORK/profile.txt" && echo ok || echo FAIL)" "$(grep -E 'memory:|compute:|peak' "$WORK/profile.txt" | tr -s ' ' | tr '\n' ' ')"

echo
echo "== gpupack node side on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
printf '%s\n' "${RESULTS[@]}"
[ "$FAILED" -eq 0 ]
