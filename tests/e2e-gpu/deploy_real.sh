#!/usr/bin/env bash
# GPU test (label gpu), issue 31: a plan with unequal MPS limits on this machine's GPU 0 (MIG off), rendered;
# the rendered node config, picked from a ConfigMap-like directory by node name, is checked by `gpupack
# labels` against the real GPU through NVML (the memory the driver reports, as the agent checks it at
# start), and the resources it advertises equal what the rendered workloads request.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU here" >&2; exit 1; }
model=$("$GPUPACK" gpus --format json | jq -r '.devices[0].model // empty')
[ -n "$model" ] || { echo "GPU 0 is not a catalog model" >&2; exit 1; }
cat >"$WORK/scenario.yaml" <<YAML
fleet:
  - {model: $model, count: 1, gpus_per_node: 1, mig: off, node_names: [gpu-node-real]}
workloads:
  - {name: chat, tenant: shared, replicas: 3, memory: 4GiB, compute: 0.05, latency_slo_ms: 40}
  - {name: embed, tenant: shared, replicas: 4, memory: 2GiB, compute: 0.03}
  - {name: batch, tenant: shared, replicas: 1, memory: 8GiB, compute: 0.2, isolation: memory}
YAML
run plan "$WORK/scenario.yaml" --format json -o "$WORK/plan.json" --render "$WORK/rendered"
[ "$RC" -eq 0 ] || [ "$RC" -eq 4 ] || fail "plan exit code $RC"
jq -r '"placed \(.placements | length), unplaced \(.unplaced | length)"' "$WORK/plan.json"
mkdir -p "$WORK/configmap"
cp "$WORK/rendered/gpupack-agent/gpu-node-real/node.yaml" "$WORK/configmap/gpu-node-real.yaml"
cat "$WORK/configmap/gpu-node-real.yaml"
run labels --config "$WORK/configmap" --node-name gpu-node-real --format json
expect_rc 0
echo "$OUT" >"$WORK/labels.json"
python3 - "$WORK/labels.json" "$WORK/rendered/k8s-workloads/deployments.yaml" <<'PY' || fail "advertised != requested"
import json, re, sys, collections
labels = json.load(open(sys.argv[1]))
adv = {k[len("gpupack.io/resource."):-len(".count")]: int(v) for k, v in labels.items()
       if k.startswith("gpupack.io/resource.") and k.endswith(".count")}
want = collections.Counter()
for d in open(sys.argv[2]).read().split("\n---\n"):
    m = re.search(r"limits:\n\s+(\S+): 1", d)
    if not m:
        continue
    pods = int(re.search(r"^  (?:replicas|parallelism): (\d+)", d, re.M).group(1))
    want[m.group(1).split("/", 1)[1]] += pods
adv = {k: v for k, v in adv.items() if k in want or k.startswith("mps")}
print("advertised", adv, "requested", dict(want))
sys.exit(0 if adv == dict(want) else 1)
PY
finish
