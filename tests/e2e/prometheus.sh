#!/usr/bin/env bash
# End-to-end: a real Prometheus server on loopback scrapes the agent (fake GPU machine, fake MPS control
# program) and a series comes back through Prometheus's HTTP API with the value the machine describes.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tests/prometheus_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../prometheus_lib.sh"
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
command -v prometheus >/dev/null || { echo "prometheus is not installed (scripts/setup-deps.sh installs it)" >&2; exit 1; }
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/two-gpus.json"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cat >"$WORK/node.yaml" <<YAML
mps_root: $WORK/mps
control_binary: $FAKE_MPS
metrics_address: 127.0.0.1:0
check_interval_seconds: 0.5
gpus:
  - {gpu: "0", mode: mps, clients: 4, limits: {sm_percent: 25}}
YAML
"$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
AGENT=$!
PROM=""
stop_all() {
  [ -n "$PROM" ] && kill "$PROM" 2>/dev/null
  kill -TERM "$AGENT" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap stop_all EXIT
PORT=$(agent_port "$WORK/agent.log")
LAST="agent"
[ -n "$PORT" ] || { fail "agent did not start: $(cat "$WORK/agent.log")"; finish; }

PROM_PORT=$(free_port)
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: gpupack
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
YAML
start_prometheus
wait_for 'gpupack_gpu_memory_total_bytes{gpu="0"}' '.status == "success" and .data.result[0].value[1] == "85520809984"'
expect_json '.data.result[0].metric.uuid == "GPU-11111111-2222-3333-4444-555555555555"'
wait_for 'up{job="gpupack"}' '.data.result[0].value[1] == "1"'
wait_for 'gpupack_mps_daemon_up' '.data.result[0].value[1] == "1"'
# GPM activity (the fake machine's series settle on their last sample) and the slice it feeds.
wait_for 'gpupack_gpu_sm_active_ratio{gpu="0"}' '.data.result[0].value[1] == "0.875"'
wait_for 'gpupack_mig_instance_sm_active_ratio' '.data.result[0].value[1] == "0.625"'
wait_for 'gpupack_slice_sm_active_ratio' '.data.result[0].value[1] == "0.875" and .data.result[0].metric.target == "GPU-11111111-2222-3333-4444-555555555555"'
# Every query of the Grafana dashboard is valid PromQL that Prometheus evaluates ($node: every agent).
# Polled like the others: PromQL that Prometheus rejects fails on every try, while a query that found the
# server briefly unable to answer (CI once saw all 21 fail within one second, the rest of the test passing)
# is asked again. The failure message carries Prometheus's error or curl's exit code.
DASHBOARD="$ROOT/deploy/grafana/gpupack-utilisation.json"
EXPRS=()
while IFS= read -r expr; do EXPRS+=("$expr"); done < <(jq -r '.. | objects | select(has("expr")) | .expr' "$DASHBOARD")
[ "${#EXPRS[@]}" -ge 20 ] || { LAST="dashboard"; fail "only ${#EXPRS[@]} queries in $DASHBOARD"; }
for expr in "${EXPRS[@]}"; do
  wait_for "${expr//\$node/.*}" '.status == "success"'
done
# The two MPS clients of the machine at the configured 25% each: the slice allots half its SMs, and with
# 87.5% busy none of that is idle.
wait_for 'gpupack_slice_sm_allotted_ratio{job="gpupack",instance=~".*"}' '.data.result | length == 1 and .[0].value[1] == "0.5"'
wait_for 'gpupack_process_sm_allocated_ratio{pid="4242"}' '.data.result[0].value[1] == "0.25"'
wait_for 'gpupack_slice_sm_allotted_unused_ratio' '.data.result[0].value[1] == "0"'
# The GPU Operator overlay's relabelling to DCGM exporter's label names, and joins with its series:
# tests/e2e/dcgm_join.sh.
[ "$FAILURES" -eq 0 ] || tail -5 "$WORK/prometheus.log" >&2
finish
