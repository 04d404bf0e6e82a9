#!/usr/bin/env bash
# End-to-end: AWS fractional L4s (G6f) in the catalog and in a plan (docs/fractional-gpus.md).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run catalog
expect_rc 0
expect_out "^L4-3Q +L4-1/8 .* 3 GB +no +1/8 L4-24GB +no +-$"
expect_out "^L4-6Q +L4-1/4 .* 6 GB +no +1/4 L4-24GB "
expect_out "^L4-12Q +L4-1/2 .* 12 GB +no +1/2 L4-24GB "
expect_out "^L4-24GB .* 24 GB +no +no +48 / 60 "

run catalog --format json
expect_rc 0
expect_json '[.models[] | select(.fraction != null) | [.name, .fraction.denominator, .memory_gib]]
  == [["L4-3Q", 8, 3], ["L4-6Q", 4, 6], ["L4-12Q", 2, 12]]'
expect_json '.models[] | select(.name == "L4-3Q") | .fraction.instance_types == ["g6f.large", "g6f.xlarge"]
  and .fraction.mps_inside == false and .fraction.compute_fraction == 0.125 and .mig == null'
expect_json '.models[] | select(.name == "L4-24GB") | .fraction == null'

run catalog show g6f.large
expect_rc 0
expect_out "^model: +L4-3Q$"
expect_out "^fractional: +1/8 L4-24GB \(AWS instances g6f.large, g6f.xlarge; time-slicing inside, no MPS"

# A small scenario on a fleet of 1/8 L4s: time-slicing (or one replica alone) only; MPS and MIG rejected.
cat >"$WORK/eighth.yaml" <<'YAML'
cuda: "13.0"
fleet:
  - model: L4-1/8
    count: 6
    node_prefix: g6f-node
workloads:
  - name: tiny-embedder
    replicas: 2
    memory: 1GiB
    compute: 0.01
  - name: notebook
    replicas: 4
    memory: 512MiB
    compute: 0.005
    pattern: intermittent
YAML
run plan "$WORK/eighth.yaml" --format json --explain
expect_rc 0
expect_json '.summary.placed == 6 or ([.placements[]] | length) == 6'
expect_json '[.gpus[] | .model] | unique == ["L4-3Q"]'
expect_json '[.gpus[] | .mode] | all(. == "time-slicing" or . == "exclusive")'
expect_json '[.gpus[] | .mode] | any(. == "time-slicing")'
expect_json '[.gpus[].rejected[] | select(.mode == "mps") | .breaks] | unique
  == ["MPS is not documented inside an AWS fractional GPU (vGPU guest)"]'
expect_json '[.gpus[].rejected[] | select(.mode == "mig") | .breaks] | unique == ["this GPU has no MIG"]'
expect_json '.unplaced | length == 0'

run plan "$WORK/eighth.yaml"
expect_rc 0
expect_out "^gpu0 +L4-3Q +g6f-node-0 "

# The node-template target on a 1/8 L4 fleet: the Fractional GPUs instance constraint, no minimum GPU count,
# time-slicing; golden files in tests/render/golden/fractional-node-template (regenerate with UPDATE_GOLDEN=1
# bash tests/e2e/fractional.sh build/gpupack, and review the diff like code).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GOLDEN="$ROOT/tests/render/golden/fractional-node-template"
run plan "$ROOT/tests/render/data/fractional-l4.yaml" --format json -o "$WORK/fractional.json"
expect_rc 0
run render "$WORK/fractional.json" --target node-template -o "$WORK/node-template"
expect_rc 0
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
  rm -rf "$GOLDEN"
  cp -r "$WORK/node-template" "$GOLDEN"
fi
diff -r "$GOLDEN" "$WORK/node-template" >"$WORK/golden.diff" || fail "node-template differs from $GOLDEN: $(head -40 "$WORK/golden.diff")"
jq -e '.constraints.gpu.fractionalGPUs == "ENABLED" and (.constraints.gpu | has("minCount") | not)
  and .gpu.sharingStrategy == "GPU_SHARING_STRATEGY_TIME_SLICING"' "$WORK/node-template/node-template/node-template.json" \
  >/dev/null || fail "node-template.json lacks the fractional constraint or time-slicing"
grep -q 'fractional_gpus = "enabled"' "$WORK/node-template/node-template/gpu.tf" || fail "gpu.tf lacks fractional_gpus"
if grep -Eq '^ *min_count *=' "$WORK/node-template/node-template/gpu.tf"; then fail "gpu.tf sets min_count"; fi
# Pods keep requesting one nvidia.com/gpu, whatever the fraction's size.
run render "$WORK/fractional.json" --target k8s-workloads -o "$WORK/workloads"
expect_rc 0
grep -rqE 'nvidia.com/gpu: "?1"?$' "$WORK/workloads" || fail "workloads do not request nvidia.com/gpu: 1"
if grep -rqE 'nvidia.com/gpu: "?([2-9]|[0-9]{2,})' "$WORK/workloads"; then fail "a workload requests more than 1 GPU"; fi

# Bad input: a fraction that does not exist.
run plan "$WORK/eighth.yaml" --gpu L4-1/16
expect_usage_error "unknown GPU model 'L4-1/16'"
run catalog show L4-1/3
expect_usage_error "unknown GPU model 'L4-1/3'"

finish
