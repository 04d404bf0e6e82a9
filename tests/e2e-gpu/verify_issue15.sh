#!/usr/bin/env bash
# GPU test (label gpu): issue 15's scenario end to end on the real GPU. `gpupack plan` reads the workload
# profiles recorded on an H100 (tests/planner/data/profiles-h100-2026-11-23: 6 x resnet18-b1 with an SLO of
# 3x its p99 alone, one GEMM batch job with isolation: memory, one tenant, one GPU); then `gpupack verify`
# runs that plan with the example clients under a private MPS daemon with the rendered limits (solo runs,
# 2 repeats) and compares every replica's measured p99 and req/s with the plan's predictions. Checks that
# the plan places all 7 on one GPU and that verify measured every replica in every repeat; the SLO verdicts
# and prediction errors are the figures it records (JSON, HTML, table under $OUT/verify15 when OUT is set).
# VERIFY_WINDOW (default 10 s) sets the window; VERIFY_SEARCH=1 adds the density search for resnet18-b1.
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/verify15}
RESULTS=${RESULTS:-$WORK/verify15}
mkdir -p "$RESULTS"
WINDOW=${VERIFY_WINDOW:-10}
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"
DATA="$(cd "$(dirname "${BASH_SOURCE[0]}")/../planner/data" && pwd)"

# The catalog model of GPU 0, as gpupack itself maps the NVML product name (the same mapping plan uses).
model=$(gpu0_catalog_model "$GPUPACK") || exit 1
sed "s/model: H100-SXM5-80GB/model: $model/; s|profile: profiles-h100|profile: $DATA/profiles-h100|" \
  "$DATA/issue15-one-h100.yaml" >"$RESULTS/scenario.yaml"

run plan "$RESULTS/scenario.yaml" --format json
expect_rc 0
echo "$OUT" >"$RESULTS/plan.json"
jq -e '(.placements | length) == 7 and (.gpus | length) == 1' "$RESULTS/plan.json" >/dev/null ||
  fail "the plan does not place all 7 replicas on one GPU"

SEARCH=()
[ "${VERIFY_SEARCH:-0}" != 1 ] || SEARCH=(--search resnet18-b1 --search-max 16)
run verify "$RESULTS/plan.json" --scenario "$RESULTS/scenario.yaml" \
  --run resnet18-b1="python3 $CLIENTS/resnet18_b1.py --duration 3600" \
  --run gemm="python3 $CLIENTS/gemm_batch.py --duration 3600" \
  --duration "$WINDOW" --warmup 3 --repeat 2 --format json --report "$RESULTS/verify.html" "${SEARCH[@]}"
echo "$OUT" >"$RESULTS/verify.json"
echo "$ERR" >"$RESULTS/verify.stderr"
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "verify did not run to its end (exit $RC)"
expect_json '(.replicas | length) == 7'
expect_json '[.replicas[] | .p99_ms.runs | length == 2] | all'
jq -r '.replicas[] | "\(.workload)-\(.replica): p99 \(.p99_ms.mean) ms vs predicted \(.predicted_p99_ms) (error \(.p99_error), spread \(.p99_ms.spread)); req/s \(.req_per_s.mean) vs \(.predicted_req_per_s) (error \(.throughput_error)); SLO met \(.slo_met)"' \
  <<<"$OUT" | tee "$RESULTS/summary.txt"

for pid in $(pgrep -f "examples/clients" || true) $(pgrep -f nvidia-cuda-mps || true); do
  if { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -q "$WORK"; then fail "process $pid left running"; fi
done
finish
