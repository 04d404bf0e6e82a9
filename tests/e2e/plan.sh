#!/usr/bin/env bash
# End-to-end: `gpupack plan` on the embedded default, the examples, calibration files and bad inputs.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The embedded default: the lab's question, answered with a comparison of modes and reasons.
run plan
expect_rc 0
expect_out "^Plan: 40 replicas of 40 workloads from 4 tenants on 1 x A100-SXM4-80GB"
expect_out "^chosen \(per GPU\) +1 +40 +0 "
expect_out "^time-slicing "
expect_out "^gpu0 +A100-SXM4-80GB .* mig\+mps "
expect_out "share this GPU only through separate MIG instances"
expect_out "^Summary: 1 GPU used of 1; lower bound 1"
DEFAULT_OUT=$OUT
# The example file is the same scenario.
run plan "$ROOT/examples/lab-40-models.yaml"
expect_rc 0
[ "$(tail -n +2 <<<"$OUT")" = "$(tail -n +2 <<<"$DEFAULT_OUT")" ] || fail "examples/lab-40-models.yaml plans differently"

run plan --explain
expect_rc 0
expect_out "not time-slicing: .*p99 grows with every busy neighbour.*nothing caps memory"
expect_out "not mps: .*fatal fault in one client"
expect_out "not mig: at most 7 instances"

# JSON: the documented fields.
run plan --format json
expect_rc 0
expect_json '.summary.gpus_used == 1 and .summary.gpus_available == 1 and .summary.lower_bound_gpus == 1'
expect_json '(.placements | length) == 40 and (.unplaced | length) == 0'
expect_json '.gpus[0].mode == "mig+mps" and (.gpus[0].mig | length) == (.gpus[0].slices | length)'
expect_json '[.gpus[0].slices[] | .sharing] | all(. == "mps")'
expect_json '[.placements[] | .mps_active_thread_percentage] | all(. >= 5 and . <= 100)'
expect_json '[.placements[] | select(.memory_limit_bytes < 536870912)] | length == 0'
expect_json '.gpus[0].slices[0] | has("id") and has("profile") and has("memory_bytes") and has("clients")'
expect_json '.placements[0] | has("workload") and has("replica") and has("tenant") and has("gpu") and has("slice")'
expect_json '(.comparison | map(.mode)) == ["chosen","exclusive","time-slicing","mps","mig","mig+mps","mig+time-slicing"]'
expect_json '.model.mps_p99_inflation == 1.74 and .model.timeslicing_p99_inflation == 8.4'

run plan --format yaml
expect_rc 0
expect_out '^gpus:'
expect_out '^summary:'
expect_out 'sharing: "mps"'

# Examples: every one plans, every replica placed.
for example in "$ROOT"/examples/*.yaml; do
  if [ "$(basename "$example")" = no-fleet.yaml ]; then
    run plan "$example" --gpu H200 --format json
  else
    run plan "$example" --format json
  fi
  expect_rc 0
  expect_json '(.unplaced | length) == 0 and .summary.gpus_used >= .summary.lower_bound_gpus'
done
run plan "$ROOT/examples/mixed-fleet.yaml" --format json
expect_json '[.placements[] | select(.workload == "fraud-check")] | length == 2'
# Notebooks (intermittent) time-slice, or sit alone on a MIG instance; never under MPS. (The fleet has
# prices: the plan is the cheapest, issue 32.)
expect_json '[.gpus[].slices[] | select(.clients[].replicas[].workload == "notebook") | .sharing] | (any(. == "time-slicing") and all(. != "mps"))'
expect_json '.summary.cost_per_hour < 20.94'
expect_json '[.gpus[].slices[] | select(.sharing == "streams")] | length >= 1'
run plan "$ROOT/examples/no-fleet.yaml" --gpu H200 --format json
expect_json '.summary.gpus_available == null and .gpus[0].model == "H200-SXM-141GB"'

# Calibration from gpupack bench replaces the model's constants.
run plan --calibration "$ROOT/examples/bench-calibration.json" --format json
expect_rc 0
expect_json '.model.timeslicing_p99_inflation == 6.2 and .model.mps_p99_inflation == 1.9 and .model.mps_slowdown["8"] == 1.1'
# ... including the whole JSON of a real `gpupack bench` run (H200, results/).
run plan --calibration "$ROOT/results/bench-h200.json" --format json
expect_rc 4  # the H200's measured MPS inflation leaves some of the 40 unplaced on the one A100 (docs/cli.md)
expect_json '.model.mps_p99_inflation > 10 and .model.timeslicing_slowdown["8"] > 8'

# -o writes the file (atomically) and prints one line.
run plan --format json -o "$WORK/plan.json"
expect_rc 0
expect_out "^wrote $WORK/plan.json: 1 GPUs, 0 replicas unplaced$"
jq -e '.summary.gpus_used == 1' "$WORK/plan.json" >/dev/null || fail "plan.json is not the plan"
ls "$WORK"/plan.json.tmp.* >/dev/null 2>&1 && fail "a temporary file was left behind"

# Unplaced replicas are a result, written in full, with exit 4 (issue 32; --strict is still accepted).
cat >"$WORK/too-many.yaml" <<'YAML'
fleet: [{model: L4, count: 1}]
workloads:
  - {name: big, replicas: 3, memory: 10GiB, compute: 0.5}
  - {name: huge, memory: 500GiB, compute: 0.1}
YAML
run plan "$WORK/too-many.yaml" --format json
expect_rc 4
expect_json '(.unplaced | length) == 2 and (.unplaced | map(.code) | sort) == ["no_gpu_left","too_large"]'
run plan "$WORK/too-many.yaml" --strict
expect_rc 4
expect_out "^UNPLACED: 2 of 4 replicas could not be placed"
expect_out "too large for any slice"

# Bad input: exit 2, one line naming the place and the fix, nothing on stdout, no output file.
bad() {  # bad <yaml text> <expected stderr pattern>
  printf '%s\n' "$1" >"$WORK/bad.yaml"
  rm -f "$WORK/out.json"
  run plan "$WORK/bad.yaml" -o "$WORK/out.json"
  expect_usage_error "$2"
  [ ! -e "$WORK/out.json" ] || fail "an output file was written for bad input"
}
bad 'workloads: [{name: a, memory: 1GiB' "bad.yaml:2:1: YAML syntax error"
bad $'workloads:\n  - name: a\n    memory: 1GiB\n    compute: 0.1\n    replica: 2' \
  "bad.yaml:5:5: unknown key 'replica' in a workload; did you mean 'replicas'\?"
bad 'workloads: [{name: a, memory: 9TiB, compute: 0.1}]' "'memory' of 9TiB is absurd"
bad 'workloads: [{name: a, memory: 0GiB, compute: 0.1}]' "must be positive"
bad 'workloads: [{name: a, memory: -2GiB, compute: 0.1}]' "invalid size '-2GiB'"
bad 'workloads: [{name: a, memory: 2GiB, compute: 0}]' "'compute' must be above 0"
bad 'workloads: [{name: a, memory: 2GiB, compute: "lots"}]' "'compute' must be a number"
bad 'workloads: [{name: a, replicas: two, memory: 2GiB, compute: 0.1}]' "'replicas' must be a whole number"
bad $'workloads:\n  - {name: a, memory: 1GiB, compute: 0.1}\n  - {name: a, memory: 1GiB, compute: 0.1}' \
  "bad.yaml:3:12: duplicate workload name 'a'"
bad $'fleet: [{model: H300, count: 2}]\nworkloads: [{name: a, memory: 1GiB, compute: 0.1}]' \
  "bad.yaml:1:17: unknown GPU model 'H300'"
bad 'workloads: [{name: a, memory: 1GiB, compute: 0.1}]' "has no 'fleet'; add one or pass --gpu MODEL"
run plan --gpu H300
expect_usage_error "unknown GPU model 'H300'"
run plan "$WORK/missing.yaml"
expect_usage_error "cannot read $WORK/missing.yaml"
printf '{"results": []}\n' >"$WORK/nocal.json"
run plan --calibration "$WORK/nocal.json"
expect_usage_error "no \"calibration\" object"
printf '{"calibration": {"mps_p99_inflation": "fast"}}\n' >"$WORK/badcal.json"
run plan --calibration "$WORK/badcal.json"
expect_usage_error "mps_p99_inflation must be a ratio of a time beside neighbours over the time alone"
run plan --format xml
expect_rc 2

# The model's parameters (docs/model-parameters.md): `model show` writes a file `plan --model` reads; the plan
# records every parameter it used, and a file naming a few changes only those.
run model show
expect_rc 0
expect_out "^mps_launch_cost_per_client +0.1 +fitted"
run model show --format json
expect_rc 0
expect_json '.schema == "gpupack-model" and .version == 1 and .parameters.core_wait_ms.value == 4'
printf '%s\n' "$OUT" >"$WORK/model.json"
run plan --format json
expect_json '.model.parameters.profiled_slo_margin == {"value": 0.12, "source": .model.parameters.profiled_slo_margin.source}'
BUILT_IN_PLAN=$OUT
run plan --model "$WORK/model.json" --format json
expect_rc 0
[ "$OUT" = "$BUILT_IN_PLAN" ] || fail "plan --model with the built-in parameters plans differently"
MIXED="$ROOT/tests/planner/data/mixed-h100.yaml"
printf '{"schema": "gpupack-model", "version": 1, "parameters": {"dram_queueing": {"value": 2, "source": "a test"}}}\n' \
  >"$WORK/dram.json"
run plan "$MIXED" --model "$WORK/dram.json" --format json
expect_rc 0
expect_json '.model.parameters.dram_queueing == {"value": 2, "source": "a test"} and .model.parameters.burst_wait.value == 2'
DRAM_PLAN=$OUT
run plan "$MIXED" --format json
[ "$(jq -c '[.placements[].predicted_req_per_s]' <<<"$OUT")" != "$(jq -c '[.placements[].predicted_req_per_s]' <<<"$DRAM_PLAN")" ] ||
  fail "dram_queueing from --model changed no prediction"
printf '{"schema": "gpupack-model", "version": 1, "parameters": {"tail_cap_max_clients": {"value": 2.5}}}\n' >"$WORK/badmodel.json"
run plan --model "$WORK/badmodel.json"
expect_usage_error "badmodel.json: parameter tail_cap_max_clients must be a whole number of clients from 1 to 10000, got 2.5"

finish
