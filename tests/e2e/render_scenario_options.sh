#!/usr/bin/env bash
# `gpupack render scenario.yaml` plans with plan's options (--profiles, --model or its alias --calibration, --gpu): it renders
# exactly what `gpupack plan scenario.yaml <same options> --render DIR` renders, and the options matter (the
# profiles place fewer resnets: their host cores bound them). A plan JSON is already planned: the options are
# refused with it.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PROFILES="$ROOT/tests/planner/data/profiles-h100-2026-11-23"
cat >"$WORK/dense.yaml" <<YAML
fleet: [{model: H100-SXM5-80GB, count: 1, cpu_cores: 16}]
workloads:
  - {name: resnet18-b1, replicas: 30, memory: 1GiB, compute: 0.02, latency_slo_ms: 16.4}
  - {name: mlp-b8, replicas: 4, memory: 1GiB, compute: 0.05, latency_slo_ms: 5}
YAML

# The replicas of the first resnet Deployment rendered into a directory.
deployed_resnets() { grep -A8 "name: resnet18-b1" "$1/k8s-workloads/deployments.yaml" | grep -Eo "replicas: [0-9]+" | head -1; }

run plan "$WORK/dense.yaml" --profiles "$PROFILES" --format json --render "$WORK/planned"
expect_rc 4  # the host cores leave resnets unplaced
run render "$WORK/dense.yaml" --profiles "$PROFILES" -o "$WORK/rendered"
expect_rc 0
diff -r "$WORK/planned" "$WORK/rendered" >"$WORK/diff" || fail "render --profiles differs from plan --profiles --render: $(head -20 "$WORK/diff")"
run render "$WORK/dense.yaml" -o "$WORK/unprofiled"
expect_rc 0
if diff -rq "$WORK/rendered" "$WORK/unprofiled" >/dev/null; then fail "render without --profiles rendered the same files"; fi
[ "$(deployed_resnets "$WORK/rendered")" != "$(deployed_resnets "$WORK/unprofiled")" ] ||
  fail "the profiles did not change how many resnets deploy"

# --model (here by its alias --calibration) and --gpu: the same files as plan's.
run plan "$ROOT/examples/no-fleet.yaml" --gpu A100-80GB --model "$ROOT/examples/bench-calibration.json" \
  --format json --render "$WORK/planned-cal"
expect_rc 0
run render "$ROOT/examples/no-fleet.yaml" --gpu A100-80GB --calibration "$ROOT/examples/bench-calibration.json" \
  -o "$WORK/rendered-cal"
expect_rc 0
diff -r "$WORK/planned-cal" "$WORK/rendered-cal" >"$WORK/diff" || fail "render --calibration --gpu differs from plan --model --gpu: $(head -20 "$WORK/diff")"

# Bad input: one line, exit 2.
run render "$ROOT/examples/no-fleet.yaml" -o "$WORK/none"
expect_usage_error "no-fleet.yaml has no 'fleet'; add one or pass --gpu MODEL"
run render "$WORK/dense.yaml" --profiles "$WORK/nonexistent" -o "$WORK/none"
expect_usage_error "--profiles .*nonexistent: not a directory"
run plan "$WORK/dense.yaml" --format json -o "$WORK/plan.json"
run render "$WORK/plan.json" --profiles "$PROFILES" -o "$WORK/none"
expect_usage_error "--profiles .*: only with a scenario .yaml to plan; .*plan.json is a plan, already planned"
run render "$WORK/plan.json" --model "$ROOT/examples/bench-calibration.json" -o "$WORK/none"
expect_usage_error "--model .*: only with a scenario .yaml to plan"

finish
