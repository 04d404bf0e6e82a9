#!/usr/bin/env bash
# End-to-end: `gpupack plan` on many distinct workloads (issue 19), the instance written by
# build/bench/many_workloads_yaml (bench/many_workloads.hpp, the generator bench_plan times). Checks what
# the output says, not how fast it is (bench_plan times it): the comparison's chosen row is the plan, the
# plan is near its lower bound, stdout is JSON only and stderr stays empty off a terminal.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
GENERATOR=$(dirname "$GPUPACK")/bench/many_workloads_yaml
[ -x "$GENERATOR" ] || { echo "FAIL: $GENERATOR not built (target many_workloads_yaml)" >&2; exit 1; }

"$GENERATOR" 300 8 >"$WORK/many.yaml"
[ "$(grep -c 'name: svc-' "$WORK/many.yaml")" -eq 300 ] || { echo "FAIL: generator wrote no 300 workloads" >&2; exit 1; }
run plan "$WORK/many.yaml" --gpu H100-80GB --format json
expect_rc 0
[ -z "$ERR" ] || fail "stderr not empty off a terminal"
expect_json '.summary.replicas == 2400 and .summary.placed == 2400 and (.unplaced | length) == 0'
expect_json '.comparison[0].mode == "chosen" and .comparison[0].gpus_used == .summary.gpus_used'
expect_json '.comparison[0].placed == .summary.placed'
expect_json '.summary.gpus_used <= 1.05 * .summary.lower_bound_gpus'
expect_json '[.comparison[] | .unplaced] | all(. == 0)'
# The same instance twice: the same plan (the generator and the planner are deterministic).
FIRST=$OUT
run plan "$WORK/many.yaml" --gpu H100-80GB --format json
[ "$OUT" = "$FIRST" ] || fail "two runs on the same file planned differently"

# The table's chosen row shows the summary's GPU count.
run plan "$WORK/many.yaml" --gpu H100-80GB
expect_rc 0
USED=$(sed -nE 's/^Summary: ([0-9]+) GPUs? used.*/\1/p' <<<"$OUT")
[ -n "$USED" ] || fail "no summary line"
expect_out "^chosen \(per GPU\) +$USED +2400 +0 "
finish
