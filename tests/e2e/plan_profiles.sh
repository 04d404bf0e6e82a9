#!/usr/bin/env bash
# gpupack plan with workload profiles recorded on an H100 (tests/planner/data): the issue-15 scenario
# packs on one GPU with predictions from the profiles; bad profile paths are one-line input errors.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../planner/data" && pwd)"

run plan "$DATA/issue15-one-h100.yaml" --format json
expect_rc 0
expect_json '.summary.gpus_used == 1 and (.unplaced | length) == 0 and (.placements | length) == 7'
expect_json '[.placements[] | select(.workload == "resnet18-b1") | .prediction_source == "profile" and .extrapolated == false and .predicted_p99_ms < 16.4] | all'
expect_json '[.placements[] | select(.workload == "gemm") | .extrapolated] == [true]'
expect_json '[.gpus[].slices[].clients[].prediction.notes | length > 0] | all'

run plan "$DATA/issue15-one-h100.yaml" --explain
expect_rc 0
expect_out "from its profile: p99 [0-9.]+ ms"
# Its profiles have no MPS grid: the launch path's cost is the fitted one, and the risks say so (7 replicas
# share the GPU). Four copies of a program whose profile has a grid do not.
expect_out "MPS launch path: profiled replicas beside other clients whose profile has no MPS grid .* .7.$"
cat >"$WORK/gridded.yaml" <<YAML
fleet: [{model: H100-SXM5-80GB, count: 1, cpu_cores: 16}]
workloads:
  - {name: resnet18-b1, replicas: 4, latency_slo_ms: 50, profile: $DATA/profiles-timeslicing-h100/resnet18-b1.json}
YAML
run plan "$WORK/gridded.yaml"
expect_rc 0
if grep -q "MPS launch path:" <<<"$OUT"; then fail "fitted launch-path risk for a profile with an MPS grid"; fi

# Density: profiled resnets with an SLO share the SMs past their count; beside the GEMM all 24 asked fit the
# node's 16 cores at their predicted request rates, and their predicted p99 counts the wait for a core (25
# client processes on 16 cores).
run plan "$DATA/issue15-density-h100.yaml" --format json
expect_rc 0
expect_json '[.placements[] | select(.workload == "resnet18-b1")] | length == 24'
expect_json '.gpus[0].slices[0].clients | map(.compute) | add > 1'
expect_json '[.gpus[0].slices[0].clients[].prediction.notes | any(test("25 client processes on 16 host cores: [+]4.00 ms"))] | all'
# A node of 4 cores drives 3 of them beside the GEMM (5 until issue 37: their cores now count their rate
# before the MPS launch path's wait); the 21 left say the host bound them, not the GPU.
sed "s/cpu_cores: 16/cpu_cores: 4/; s|profile: profiles|profile: $DATA/profiles|" "$DATA/issue15-density-h100.yaml" >"$WORK/four.yaml"
run plan "$WORK/four.yaml" --format json
expect_rc 4  # replicas unplaced (docs/cli.md)
expect_json '[.placements[] | select(.workload == "resnet18-b1")] | length == 3'
expect_json '[.unplaced[] | .code] | length == 21 and all(. == "no_host_cores")'
expect_json '.unplaced[0].reason | test("bound by 4 host cores, not by the GPU: at most 3 of resnet18-b1 on a GPU [(]cpu_cores 4 per node / 1 GPU per node [(]gpus_per_node[)] = 4 cores per GPU; .* at their predicted request rates, one of resnet18-b1 used 1.00 cores alone in its profile")'
run plan "$DATA/issue15-density-h100.yaml"
expect_rc 0
if grep -q "host CPU: profiled replicas use" <<<"$OUT"; then fail "unbounded host CPU risk with cpu_cores stated"; fi
expect_out "host CPU: more client processes on a GPU than its host cores; each tail waits for a core .in the predicted p99. .1."
grep -v cpu_cores "$DATA/issue15-density-h100.yaml" | sed "s|profile: profiles|profile: $DATA/profiles|" >"$WORK/nocpu.yaml"
run plan "$WORK/nocpu.yaml"
expect_rc 4  # 5 of the resnets miss their SLO beside the others (unplaced, docs/cli.md)
expect_out "host CPU: profiled replicas use host cores on nodes without .cpu_cores."

# An entry without a profile keeps the synthetic model and says so.
cat >"$WORK/mixed.yaml" <<YAML
fleet: [{model: H100-SXM5-80GB, count: 1}]
workloads:
  - {name: ranker, memory: 2GiB, compute: 0.2, latency_slo_ms: 10}
  - {name: mlp-b8, memory: 1GiB, compute: 0.3, latency_slo_ms: 5}
YAML
run plan "$WORK/mixed.yaml" --profiles "$DATA/profiles-h100-2026-11-23" --explain
expect_rc 0
expect_out "ranker#0 .*no profile: predictions from the synthetic model"
expect_out "mlp-b8#0 .*from its profile"

# Bad input: exit 2, one line naming the file.
cat >"$WORK/missing.yaml" <<YAML
fleet: [{model: H100-SXM5-80GB, count: 1}]
workloads:
  - {name: a, profile: profiles/none.json}
YAML
run plan "$WORK/missing.yaml"
expect_usage_error "profiles/none.json"
cat >"$WORK/notprofile.yaml" <<YAML
fleet: [{model: H100-SXM5-80GB, count: 1}]
workloads:
  - {name: a, profile: mixed.yaml}
YAML
run plan "$WORK/notprofile.yaml"
expect_usage_error "mixed.yaml: not a gpupack workload profile"
run plan "$WORK/mixed.yaml" --profiles "$WORK/nonexistent"
expect_usage_error "--profiles .*nonexistent: not a directory"

finish
