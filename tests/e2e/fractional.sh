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

# Bad input: a fraction that does not exist.
run plan "$WORK/eighth.yaml" --gpu L4-1/16
expect_usage_error "unknown GPU model 'L4-1/16'"
run catalog show L4-1/3
expect_usage_error "unknown GPU model 'L4-1/3'"

finish
