#!/usr/bin/env bash
# gpupack model replay (docs/model-parameters.md, "Replay and fit"): the recorded verify runs of
# results/model-runs.json predicted again, with the built-in parameters or a file's; the manifest's paths
# relative to the repository root (--root, by default the parent of the manifest's folder); a bad manifest
# is one line and exit 2.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MANIFEST="$ROOT/results/model-runs.json"

run model replay "$MANIFEST"
expect_rc 0
expect_out "^results/verify-profiled-h100/run1/mixed-h100 +in-sample +resnet18-b1 "
expect_out "^all +resnet18-b1 +1021 "
expect_out "^held-out +gemm "

run model replay "$MANIFEST" --set held-out --format json
expect_rc 0
expect_json '.replay_version == 1 and .set == "held-out" and .model.name == "built-in"'
expect_json '(.runs | length) > 0 and ([.runs[].set] | unique) == ["held-out"]'
expect_json '[.summary[].set] | unique == ["all", "held-out"]'
expect_json '[.model.parameters[] | select(.name == "burst_wait") | .value == 2 and .min == 0 and .max == 100] == [true]'
HELD_OUT_MEAN=$(jq '.summary[] | select(.set == "all" and .workload == "resnet18-b1") | .req_per_s.mean_abs' <<<"$OUT")

# The corpus set (issue 36): its runs only, each predicted from its own profiles; none of its programs is one
# the constants were fitted on.
run model replay "$MANIFEST" --set corpus --format json
expect_rc 0
expect_json '(.runs | length) >= 10 and ([.runs[].set] | unique) == ["corpus"]'
expect_json '[.summary[] | select(.set == "corpus") | .workload] | (length >= 9) and (index("resnet18-b1") == null)'
expect_json '[.runs[] | select(.dir == "results/run37-closed-loop-h100/corpus-memory-r2")] | length == 1'

# A parameters file moves the predictions; the report names it.
printf '%s' '{"schema": "gpupack-model", "version": 1, "parameters": {"mps_launch_cost_per_client": {"value": 0.3}}}' \
  >"$WORK/slow.json"
run model replay "$MANIFEST" --set held-out --format json --model "$WORK/slow.json"
expect_rc 0
expect_json ".model.name == \"$WORK/slow.json\""
expect_json "[.summary[] | select(.set == \"all\" and .workload == \"resnet18-b1\") | .req_per_s.mean_abs != $HELD_OUT_MEAN] == [true]"

# A manifest elsewhere: its paths are relative to --root.
jq '.runs |= .[:2]' "$MANIFEST" >"$WORK/two.json"
run model replay "$WORK/two.json" --root "$ROOT" --format json
expect_rc 0
expect_json '(.runs | length) == 2'
run model replay "$WORK/two.json"
expect_usage_error "cannot read $(dirname "$WORK")/tests/planner/data/issue15-one-h100.yaml"
run model replay "$WORK/two.json" --root "$WORK/nonexistent"
expect_usage_error "--root .*nonexistent: not a directory"

# Bad manifests and options: one line, exit 2.
printf '{' >"$WORK/broken.json"
run model replay "$WORK/broken.json" --root "$ROOT"
expect_usage_error "broken.json: "
jq '.runs[0].set = "training"' "$MANIFEST" >"$WORK/set.json"
run model replay "$WORK/set.json" --root "$ROOT"
expect_usage_error "runs\[0\]: \"set\" must be in-sample, held-out or corpus, got 'training'"
jq '.runs[0].scenario = "../../etc/passwd"' "$MANIFEST" >"$WORK/climb.json"
run model replay "$WORK/climb.json" --root "$ROOT"
expect_usage_error "must be a path relative to the root without '..'"
# The first run placed the GEMM beside the resnets; a scenario of resnets alone cannot predict it.
jq '.runs[0].scenario = "tests/planner/data/probe-r4-h100.yaml"' "$MANIFEST" >"$WORK/wrong-scenario.json"
run model replay "$WORK/wrong-scenario.json" --root "$ROOT"
expect_usage_error "plan.json: its slice runs gemm, which the scenario lacks"
run model replay "$MANIFEST" --set training
expect_usage_error "--set"
run model replay "$WORK/nonexistent.json"
expect_usage_error "cannot read .*nonexistent.json"

finish
