#!/usr/bin/env bash
# GPU test (label gpu): `gpupack verify` on the real GPU with the example clients (examples/clients):
# plan 3 x resnet18 at batch 1 (launch-bound, SLO 3x a 5 ms p99 alone) + 1 MLP at batch 8 (GPU-bound) on
# one GPU of this machine's model, then verify the plan: solo runs, the plan's MPS placement under a
# private MPS daemon with the rendered limits, 2 repeats. It checks that verify ran everything end to end
# (every replica measured in every repeat, the prediction errors and spreads reported, nothing left
# running); whether the predictions hold is the figure it records (JSON, HTML and table under
# $OUT/verify when OUT is set), not a pass/fail gate. VERIFY_WINDOW (default 10 s) sets the window;
# VERIFY_SEARCH=1 adds the density search for resnet.
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/verify}
RESULTS=${RESULTS:-$WORK/verify}
mkdir -p "$RESULTS"
WINDOW=${VERIFY_WINDOW:-10}
export TMPDIR="$WORK/tmp"  # gpupack's scratch (private MPS directories): leftovers are easy to find
mkdir -p "$TMPDIR"

# The catalog model of GPU 0, as gpupack itself maps the NVML product name (the same mapping plan uses).
model=$(gpu0_catalog_model "$GPUPACK") || exit 1

cat >"$RESULTS/scenario.yaml" <<EOF
fleet:
  - model: $model
    count: 1
    node_prefix: gpu-host
workloads:
  - name: resnet
    replicas: 3
    memory: 2GiB
    compute: 0.1
    latency_slo_ms: 15
    p99_alone_ms: 5
    isolation: memory
  - name: mlp
    replicas: 1
    memory: 2GiB
    compute: 0.3
    isolation: memory
EOF
run plan "$RESULTS/scenario.yaml" --format json
expect_rc 0
echo "$OUT" >"$RESULTS/plan.json"
jq -e '(.placements | length) == 4 and (.gpus | length) == 1' "$RESULTS/plan.json" >/dev/null || fail "the plan does not place all 4 on one GPU"

SEARCH=()
[ "${VERIFY_SEARCH:-0}" != 1 ] || SEARCH=(--search resnet --search-max 12)
run verify "$RESULTS/plan.json" --scenario "$RESULTS/scenario.yaml" \
  --run resnet="python3 $CLIENTS/resnet18_b1.py --duration 3600" --run mlp="python3 $CLIENTS/mlp_b8.py --duration 3600" \
  --duration "$WINDOW" --warmup 3 --repeat 2 --format json --report "$RESULTS/verify.html" "${SEARCH[@]}"
echo "$OUT" >"$RESULTS/verify.json"
echo "$ERR" >"$RESULTS/verify.stderr"
# 0: every SLO held, no crash, no memory over its limit (predictions off by more than the tolerance are
# warnings); 1: an SLO broke, a replica crashed or used more memory than its limit. Both are results.
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "verify did not run to its end (exit $RC)"
# The exit code answers the JSON's verdict (no --strict here): 0 exactly when the plan held.
expect_json "(.passed == ($RC == 0)) and (.verdict == \"fail\") == ($RC == 1) and .strict == false"
expect_json '.verify_version == 1 and (.replicas | length) == 4'
expect_json '[.alone[] | .p99_ms.runs | length == 2] | all'
expect_json '[.replicas[] | .p99_ms.runs | length == 2] | all'
expect_json '[.replicas[] | .p99_error != null and .throughput_error != null] | all'
jq -r '.replicas[] | "\(.workload)-\(.replica): p99 \(.p99_ms.mean) ms vs predicted \(.predicted_p99_ms) (error \(.p99_error), spread \(.p99_ms.spread)); req/s \(.req_per_s.mean) vs \(.predicted_req_per_s) (error \(.throughput_error)); SLO met \(.slo_met)"' \
  <<<"$OUT" | tee "$RESULTS/summary.txt"
jq -r '"verdict \(.verdict): passed \(.passed), \(.warnings) replica(s) off the prediction beyond the tolerance"' <<<"$OUT" |
  tee -a "$RESULTS/summary.txt"

# Nothing of ours left: no client, no MPS daemon or server started from gpupack's scratch.
for pid in $(pgrep -f "examples/clients" || true) $(pgrep -f nvidia-cuda-mps || true); do
  if { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -q "$WORK"; then fail "process $pid left running"; fi
done
! compgen -G "$TMPDIR/gpupack-verify-*" >/dev/null || fail "gpupack scratch left behind in $TMPDIR"

finish
