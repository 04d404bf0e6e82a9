#!/usr/bin/env bash
# End-to-end: the Kubernetes side on a fake machine. `gpupack labels` (and its errors), the agent serving
# one device-plugin socket per resource in a temporary plugin directory and writing the NFD feature file
# and the CDI spec, its sockets gone after SIGTERM; and deploy/ (the base and both overlays) built with
# `kubectl kustomize` and validated against the Kubernetes schemas (skipped, saying so, without kubectl or
# node).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
[ -x "$FAKE_MPS" ] || { echo "fake-mps-control not built at $FAKE_MPS" >&2; exit 1; }
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/two-gpus.json"
GPU0=GPU-11111111-2222-3333-4444-555555555555
MIG2=MIG-00000000-0000-0000-0000-000000000002
mkdir -p "$WORK/plugins"

write_config() {  # write_config <extra device_plugin lines>
  cat >"$WORK/node.yaml" <<YAML
mps_root: $WORK/mps
control_binary: $FAKE_MPS
metrics_address: 127.0.0.1:0
check_interval_seconds: 0.2
gpus:
  - {gpu: "0", mode: mps, clients: 3}
  - gpu: "1"
    mig:
      - {instance: "3g.40gb@0", mode: time-slicing, clients: 2}
      - {instance: "2g.20gb@4", mode: mps, clients: 2, limits: {sm_percent: 50, memory: 8GiB}}
device_plugin:
  directory: $WORK/plugins
  cdi: true
  cdi_directory: $WORK/cdi
  features_file: $WORK/features.d/gpupack
  cast_ai_labels: true
$1
YAML
}
write_config '  mps_slices: {"0": [{sm_percent: 50, memory: 40GiB}, {sm_percent: 25, count: 2}]}'

run labels --config "$WORK/node.yaml"
expect_rc 0
expect_out '^gpupack.io/gpu.product=NVIDIA-H100-80GB-HBM3$'
expect_out '^gpupack.io/gpu.count=2$'
expect_out '^gpupack.io/resource.mps-25.replicas=2$'
expect_out '^gpupack.io/resource.mps-50.sharing-strategy=mps$'
expect_out '^gpupack.io/resource.mig-3g.40gb.sharing-strategy=time-slicing$'
expect_out '^gpupack.io/resource.mig-2g.20gb-mps-50.count=2$'
expect_out '^scheduling.cast.ai/gpu-sharing-strategy=mps$'
expect_out '^scheduling.cast.ai/gpu-shared=4$'
run labels --config "$WORK/node.yaml" --format json --write
expect_rc 0
expect_json '."gpupack.io/resource.mig-3g.40gb.replicas" == "2"'
grep -qx 'gpupack.io/gpu.count=2' "$WORK/features.d/gpupack" || fail "feature file not written"

write_config '  mps_slices: {"7": [{sm_percent: 50}]}'
run labels --config "$WORK/node.yaml"
expect_usage_error 'device_plugin.mps_slices.7: not a GPU or MIG instance in mode mps'
write_config '  allocation_policy: random'
run labels --config "$WORK/node.yaml"
expect_usage_error 'device_plugin.allocation_policy'

# The agent: a socket per resource, the CDI spec and the labels; nothing left after SIGTERM.
write_config '  mps_slices: {"0": [{sm_percent: 50, memory: 40GiB}, {sm_percent: 25, count: 2}]}'
"$GPUPACK" agent --config "$WORK/node.yaml" --port 0 2>"$WORK/agent.log" &
AGENT=$!
LAST="agent"
for _ in $(seq 1 600); do  # up to 60 s: CI runs this on 2 loaded cores
  [ "$(find "$WORK/plugins" -name 'gpupack-*.sock' | wc -l)" -eq 4 ] && break
  sleep 0.1
done
for r in gpupack.io-mps-50 gpupack.io-mps-25 nvidia.com-mig-3g.40gb gpupack.io-mig-2g.20gb-mps-50; do
  [ -S "$WORK/plugins/gpupack-$r.sock" ] || fail "no socket for $r: $(cat "$WORK/agent.log")"
done
jq -e '.kind == "gpupack.io/gpu" and (.devices | length == 7)' "$WORK/cdi/gpupack.io-gpu.json" >/dev/null ||
  fail "CDI spec missing or wrong"
for id in "$GPU0-0" "$GPU0-2" "$MIG2-1"; do
  jq -e --arg id "$id" '[.devices[].name] | index($id) != null' "$WORK/cdi/gpupack.io-gpu.json" >/dev/null ||
    fail "CDI spec lacks $id"
done
# The fake machine reports XID 79 on GPU 1 at its third snapshot: its instances' devices turn Unhealthy.
for _ in $(seq 1 100); do
  grep -q "nvidia.com/mig-3g.40gb: health changed (unhealthy: GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee XID 79)" "$WORK/agent.log" && break
  sleep 0.1
done
grep -q "mig-3g.40gb: health changed (unhealthy: GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee XID 79)" "$WORK/agent.log" ||
  fail "XID 79 did not mark the MIG devices unhealthy: $(cat "$WORK/agent.log")"
# SIGHUP with other slice sizes: the plugins follow the config.
write_config '  mps_slices: {"0": [{sm_percent: 30, count: 3}]}'
kill -HUP "$AGENT"
for _ in $(seq 1 100); do
  [ -S "$WORK/plugins/gpupack-gpupack.io-mps-30.sock" ] && [ ! -e "$WORK/plugins/gpupack-gpupack.io-mps-50.sock" ] && break
  sleep 0.1
done
[ -S "$WORK/plugins/gpupack-gpupack.io-mps-30.sock" ] || fail "no mps-30 plugin after the reload: $(cat "$WORK/agent.log")"
[ -e "$WORK/plugins/gpupack-gpupack.io-mps-50.sock" ] && fail "mps-50 still served after the reload"
kill -TERM "$AGENT"
wait "$AGENT" || fail "agent exit code $?"
[ "$(find "$WORK/plugins" -name 'gpupack-*.sock' | wc -l)" -eq 0 ] || fail "sockets left behind"
grep -q "device plugin gpupack.io/mps-25 serving on" "$WORK/agent.log" || fail "serving not logged"

# deploy/: kustomize builds, every object passes the Kubernetes schemas; the ServiceMonitor selects
# the metrics Service; the agent accepts the ConfigMap's node config.
if kustomize_checks_possible "$ROOT"; then
  kustomize_validated "$ROOT" "$ROOT/deploy/base" "$WORK/base.yaml"
  grep -q '^5 objects valid, 0 invalid' "$WORK/validate.out" || fail "expected 5 objects: $(cat "$WORK/validate.out")"
  # The ServiceMonitor is a CRD's (no schema in kubernetes-models): the other objects validate.
  kustomize_validated "$ROOT" "$ROOT/deploy/overlays/prometheus-operator" "$WORK/overlay.yaml" --skip-kind ServiceMonitor
  grep -q '^5 objects valid, 0 invalid, 1 skipped' "$WORK/validate.out" || fail "expected 5 objects and a ServiceMonitor: $(cat "$WORK/validate.out")"
  # Beside NVIDIA's GPU Operator (docs/gpu-operator.md): the same objects, scheduled by the operator's
  # GPU label, run by its RuntimeClass, and a ServiceMonitor relabelling to DCGM exporter's names.
  kustomize_validated "$ROOT" "$ROOT/deploy/overlays/gpu-operator" "$WORK/gpu-operator.yaml" --skip-kind ServiceMonitor
  grep -q '^5 objects valid, 0 invalid, 1 skipped' "$WORK/validate.out" || fail "expected 5 objects and a ServiceMonitor: $(cat "$WORK/validate.out")"
  grep -q '^      runtimeClassName: nvidia$' "$WORK/gpu-operator.yaml" || fail "no RuntimeClass nvidia"
  grep -A3 '^      nodeSelector:' "$WORK/gpu-operator.yaml" | grep -q 'nvidia.com/gpu.present: "true"' || fail "not on the operator's GPU nodes"
  for label in Hostname UUID modelName; do
    grep -q "targetLabel: $label\$" "$WORK/gpu-operator.yaml" || fail "no relabelling to DCGM exporter's $label"
  done
  for built in overlay gpu-operator; do
    grep -q '^kind: ServiceMonitor' "$WORK/$built.yaml" || fail "no ServiceMonitor in $built"
    grep -q 'app.kubernetes.io/component: metrics' "$WORK/$built.yaml" || fail "the ServiceMonitor selects no metrics Service in $built"
  done
  # The agent's port is 9410 everywhere; 9400 is DCGM exporter's.
  grep -q 'containerPort: 9410$' "$WORK/base.yaml" || fail "the agent's container port is not 9410"
  grep -q '9400' "$WORK/base.yaml" && fail "deploy/base still uses DCGM exporter's port 9400"
  grep -q '^    privileged: true' "$WORK/base.yaml" && fail "the DaemonSet must not be privileged"
  for p in /var/lib/kubelet/device-plugins /var/lib/kubelet/pod-resources /run/gpupack/mps /dev/shm; do
    grep -q "path: $p\$" "$WORK/base.yaml" || fail "no hostPath $p"
  done
  cp "$ROOT/deploy/base/node.yaml" "$WORK/deploy-node.yaml"
  export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/fakes/machines/two-gpus.json"
  run labels --config "$WORK/deploy-node.yaml"
  expect_rc 0
  expect_out '^gpupack.io/resource.mps-50.count=1$'
fi

finish
