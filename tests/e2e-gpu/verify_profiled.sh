#!/usr/bin/env bash
# GPU test (label gpu): a scenario planned from recorded workload profiles (tests/planner/data), run on the
# real GPU by `gpupack verify` with the example clients, predictions against measurements. The scenario is
# VERIFY_SCENARIO (a file name in tests/planner/data without .yaml; default mixed-h100: resnet18-b1, mlp-b8
# and the GEMM job on one GPU); VERIFY_EXPECT_PLACED, when set, is the number of replicas the plan must
# place. `gpupack plan` first, then `gpupack verify` of that plan under a private MPS daemon with the
# rendered limits: VERIFY_REPEAT runs (default 2) of VERIFY_WINDOW seconds (default 10); VERIFY_SEARCH=WORKLOAD
# adds the density search (VERIFY_SEARCH_MAX, default 16; VERIFY_SEARCH_STEP, default 1); VERIFY_MEASURE_ALONE=1
# runs the profiled workloads alone first (--measure-alone: this machine's drift, rebased errors);
# VERIFY_SAMPLE=S samples the GPU every S seconds (--sample-interval, default 0.5);
# VERIFY_GEMM_ARGS adds arguments to the GEMM client (e.g. --size 4096); VERIFY_KEEP_REPORTS=DIR keeps a copy of
# every replica's client report there (DIR/<replica>.<pid>.jsonl: each request's latency and end time, for
# studying the tail). Checks that the
# plan and verify ran end to end with every replica measured in every repeat and nothing left running; the
# SLO verdicts, errors and density are the figures it records (JSON, HTML, table under $OUT/<scenario>).
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
SCENARIO=${VERIFY_SCENARIO:-mixed-h100}
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/$SCENARIO}
RESULTS=${RESULTS:-$WORK/$SCENARIO}
mkdir -p "$RESULTS"
REPEAT=${VERIFY_REPEAT:-2}
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"
DATA="$(cd "$(dirname "${BASH_SOURCE[0]}")/../planner/data" && pwd)"
[ -f "$DATA/$SCENARIO.yaml" ] || fail "no scenario $DATA/$SCENARIO.yaml"

# The catalog model of GPU 0, as gpupack itself maps the NVML product name (the same mapping plan uses).
model=$(gpu0_catalog_model "$GPUPACK") || exit 1
sed "s/model: H100-SXM5-80GB/model: $model/; s|profile: profiles-h100|profile: $DATA/profiles-h100|" \
  "$DATA/$SCENARIO.yaml" >"$RESULTS/scenario.yaml"

run plan "$RESULTS/scenario.yaml" --format json
[ "$RC" -eq 0 ] || [ "$RC" -eq 4 ] || fail "exit code $RC, expected 0 or 4 (some replicas unplaced)"
echo "$OUT" >"$RESULTS/plan.json"
jq -e '(.gpus | length) == 1' "$RESULTS/plan.json" >/dev/null || fail "the plan does not use exactly one GPU"
placed=$(jq '.placements | length' "$RESULTS/plan.json")
if [ -n "${VERIFY_EXPECT_PLACED:-}" ] && [ "$placed" -ne "$VERIFY_EXPECT_PLACED" ]; then
  fail "the plan places $placed replicas, expected $VERIFY_EXPECT_PLACED"
fi

# One --run per workload the plan places, each an example client that serves until verify stops it.
RUNS=()
keep=""
if [ -n "${VERIFY_KEEP_REPORTS:-}" ]; then
  mkdir -p "$VERIFY_KEEP_REPORTS"
  # tail follows the report verify reads; verify stops it with the client's process group.
  keep="tail -n +1 -F \"\$GPUPACK_REPORT\" >\"$VERIFY_KEEP_REPORTS/\$GPUPACK_VERIFY_REPLICA.\$\$.jsonl\" 2>/dev/null & exec "
fi
for w in $(jq -r '[.placements[].workload] | unique | .[]' "$RESULTS/plan.json"); do
  case "$w" in
    resnet18-b1) RUNS+=(--run "$w=${keep}python3 $CLIENTS/resnet18_b1.py --duration 3600") ;;
    mlp-b8) RUNS+=(--run "$w=${keep}python3 $CLIENTS/mlp_b8.py --duration 3600") ;;
    gemm) RUNS+=(--run "$w=${keep}python3 $CLIENTS/gemm_batch.py --duration 3600 ${VERIFY_GEMM_ARGS:-}") ;;
    *) fail "no example client for workload $w" ;;
  esac
done
SEARCH=()
[ -z "${VERIFY_SEARCH:-}" ] ||
  SEARCH=(--search "$VERIFY_SEARCH" --search-max "${VERIFY_SEARCH_MAX:-16}" --search-step "${VERIFY_SEARCH_STEP:-1}")
[ "${VERIFY_MEASURE_ALONE:-0}" != 1 ] || SEARCH+=(--measure-alone)
[ -z "${VERIFY_SAMPLE:-}" ] || SEARCH+=(--sample-interval "$VERIFY_SAMPLE")
run verify "$RESULTS/plan.json" --scenario "$RESULTS/scenario.yaml" "${RUNS[@]}" --duration "${VERIFY_WINDOW:-10}" \
  --warmup 3 --repeat "$REPEAT" --json "$RESULTS/verify.json" --report "$RESULTS/verify.html" "${SEARCH[@]}"
echo "$OUT" >"$RESULTS/verify.txt"
echo "$ERR" >"$RESULTS/verify.stderr"
# 0: every SLO held, no crash, no memory over its limit (predictions off by more than the tolerance are
# warnings); 1: an SLO broke, a replica crashed or used more memory than its limit. Both are results.
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "verify did not run to its end (exit $RC)"
# The checks below read the JSON report of the same run; the table people read is verify.txt.
OUT=$(cat "$RESULTS/verify.json" 2>/dev/null || true)
# The exit code answers the JSON's verdict (no --strict here): 0 exactly when the plan held.
expect_json "(.passed == ($RC == 0)) and (.verdict == \"fail\") == ($RC == 1) and .strict == false"
expect_json "(.replicas | length) == $placed"
expect_json "[.replicas[] | .p99_ms.runs | length == $REPEAT] | all"
{
  echo "plan: $placed replicas placed; verify exit $RC"
  jq -r '"verdict \(.verdict): passed \(.passed), \(.warnings) replica(s) off the prediction beyond the tolerance"' <<<"$OUT"
  jq -r '.replicas[] | "\(.workload)-\(.replica): p99 \(.p99_ms.mean) ms vs predicted \(.predicted_p99_ms) (error \(.p99_error), spread \(.p99_ms.spread)); req/s \(.req_per_s.mean) vs \(.predicted_req_per_s) (error \(.throughput_error)); SLO met \(.slo_met)"' <<<"$OUT"
  jq -r '.alone[] | select(.p99_drift != null) | "alone here: \(.workload): p99 \(.p99_ms.mean) ms, \(.req_per_s.mean) req/s; profile \(.profile_p99_ms) ms, \(.profile_req_per_s) req/s; drift p99 \(.p99_drift), req/s \(.req_per_s_drift)"' <<<"$OUT"
  jq -r '.replicas[] | select(.rebased_p99_error != null) | "rebased \(.workload)-\(.replica): p99 error \(.rebased_p99_error), req/s error \(.rebased_throughput_error)"' <<<"$OUT"
  jq -r '.slices[] | select(.shared_stalls.events > 0) | "shared stalls on \(.slice): \(.shared_stalls.events) in \(.shared_stalls.seconds) s, \(.shared_stalls.mean_ms) ms each, in step with \(.shared_stalls.aligned_with // "no client")"' <<<"$OUT"
  jq -r '.replicas[] | select(.stalls_named) | "  \(.workload)-\(.replica): \(.stall_hit_fraction.mean) of its requests met one; p99 \(.p99_ms.mean) ms, \(.p99_without_stalls_ms.mean) ms without them (error \(.p99_error_without_stalls))"' <<<"$OUT"
  jq -r 'if .search then "search: \(.search.workload): planned \(.search.planned), most that fit \(.search.most_that_fit) (capped \(.search.capped)), plan / density \(.search.planned_share); steps: \([.search.steps[] | "\(.replicas):\(.fits)/\(.worst_p99_ms)"] | join(" "))" else empty end' <<<"$OUT"
} | tee "$RESULTS/summary.txt"

for pid in $(pgrep -f "examples/clients" || true) $(pgrep -f nvidia-cuda-mps || true); do
  if { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -q "$WORK"; then fail "process $pid left running"; fi
done
finish
