#!/usr/bin/env bash
# DCGM exporter and the agent side by side (issue 33): a real Prometheus scrapes the agent (fake two-GPU
# machine, fake MPS control program) with the GPU Operator overlay's relabelling
# (deploy/overlays/gpu-operator/servicemonitor.yaml, its relabelings and metricRelabelings as a plain scrape
# job), and a DCGM-exporter-shaped target (tests/e2e/data/dcgm-exporter-metrics.txt, served over HTTP). The
# agent's series must carry DCGM exporter's label names (Hostname, gpu, UUID, modelName) and every PromQL
# join that docs/gpu-operator.md shows must return a series per GPU.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tests/prometheus_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../prometheus_lib.sh"
# shellcheck source=tests/agent_port.sh
source "$(dirname "${BASH_SOURCE[0]}")/../agent_port.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
for tool in prometheus node python3 curl jq; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (scripts/setup-deps.sh installs it)" >&2; exit 1; }
done
[ -d "$ROOT/tests/k8s-validate/node_modules" ] ||
  { echo "tests/k8s-validate/node_modules is missing (scripts/setup-deps.sh installs it)" >&2; exit 1; }
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
DCGM=""
stop_all() {
  [ -n "$PROM" ] && kill "$PROM" 2>/dev/null
  [ -n "$DCGM" ] && kill "$DCGM" 2>/dev/null
  kill -TERM "$AGENT" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap stop_all EXIT
PORT=$(agent_port "$WORK/agent.log")
LAST="agent"
[ -n "$PORT" ] || { fail "agent did not start: $(cat "$WORK/agent.log")"; finish; }

# DCGM exporter's side: its exposition served as /metrics by a plain HTTP server.
mkdir -p "$WORK/dcgm"
cp "$ROOT/tests/e2e/data/dcgm-exporter-metrics.txt" "$WORK/dcgm/metrics"
DCGM_PORT=$(free_port)
python3 -m http.server "$DCGM_PORT" --bind 127.0.0.1 --directory "$WORK/dcgm" >"$WORK/dcgm.log" 2>&1 &
DCGM=$!

# The overlay's ServiceMonitor rules, as Prometheus runs them for it: relabelings on the target,
# metricRelabelings on each series (camelCase keys as snake_case).
RULES=$(cd "$ROOT/tests/k8s-validate" && node --input-type=module -e '
  import { parse } from "yaml";
  import { readFileSync } from "node:fs";
  const sm = parse(readFileSync(process.argv[1], "utf8"));
  const snake = (k) => k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
  const rules = (list) => (list || []).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [snake(k), v])));
  const ep = sm.spec.endpoints[0];
  console.log(JSON.stringify({ target: rules(ep.relabelings), series: rules(ep.metricRelabelings) }));' \
  "$ROOT/deploy/overlays/gpu-operator/servicemonitor.yaml")
[ "$(jq '.target | length' <<<"$RULES")" -ge 1 ] || { LAST="servicemonitor"; fail "no relabelings read: $RULES"; }

PROM_PORT=$(free_port)
# The pod's node as Kubernetes service discovery gives it (__meta_kubernetes_pod_node_name), on a static
# target; DCGM exporter's series keep their own labels (its ServiceMonitor honours them).
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: gpupack-agent
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
        labels: {__meta_kubernetes_pod_node_name: gpu-node-a}
    honor_labels: true
    relabel_configs: $(jq -c .target <<<"$RULES")
    metric_relabel_configs: $(jq -c .series <<<"$RULES")
  - job_name: dcgm-exporter
    honor_labels: true
    static_configs:
      - targets: ["127.0.0.1:$DCGM_PORT"]
YAML
start_prometheus
UUID0=GPU-11111111-2222-3333-4444-555555555555
UUID1=GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee
wait_for 'up' '.data.result | length == 2 and all(.[]; .value[1] == "1")'
# The agent's series under DCGM exporter's names: Hostname (the pod's node), gpu, UUID, modelName.
wait_for "gpupack_gpu_info{job=\"gpupack-agent\",gpu=\"0\"}" \
  ".data.result | length == 1 and .[0].metric.Hostname == \"gpu-node-a\" and .[0].metric.UUID == \"$UUID0\"
   and .[0].metric.modelName == \"NVIDIA H100 80GB HBM3\""
wait_for "gpupack_gpu_memory_total_bytes{job=\"gpupack-agent\",gpu=\"1\"}" \
  ".data.result[0].metric.Hostname == \"gpu-node-a\" and .data.result[0].metric.UUID == \"$UUID1\""
# Joins with DCGM exporter's series, one per GPU, on each pair of label names the two share.
wait_for 'DCGM_FI_DEV_GPU_UTIL * on (Hostname, UUID) group_left (model) gpupack_gpu_info' \
  ".data.result | length == 2 and (map(.metric.UUID) | sort) == [\"$UUID0\", \"$UUID1\"] and all(.[]; .metric.model != null)"
wait_for 'DCGM_FI_DEV_FB_USED * on (Hostname, gpu) group_left () (gpupack_gpu_memory_total_bytes / 2^20)' \
  '.data.result | length == 2'
wait_for 'gpupack_gpu_info * on (Hostname, UUID, modelName) group_left () DCGM_FI_DEV_GPU_UTIL' \
  '.data.result | length == 2'
# Every PromQL example of docs/gpu-operator.md returns a series (the docs show what a user types).
EXAMPLES=$(awk '/^```promql/{on=1; next} /^```/{on=0} on' "$ROOT/docs/gpu-operator.md" | grep -v '^#' |
  awk '/^[^ ]/{if (q) print q; q=$0; next} {q = q " " $0} END {if (q) print q}')
[ -n "$EXAMPLES" ] || { LAST="docs/gpu-operator.md"; fail "no promql examples found"; }
while IFS= read -r expr; do
  wait_for "$expr" '.status == "success" and (.data.result | length) >= 1'
done <<<"$EXAMPLES"
[ "$FAILURES" -eq 0 ] || tail -5 "$WORK/prometheus.log" >&2
finish
