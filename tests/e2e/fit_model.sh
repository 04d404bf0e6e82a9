#!/usr/bin/env bash
# scripts/fit-model.py on five recorded runs (four in-sample, one held-out) and two rounds: it writes a model
# parameters file that `gpupack plan --model` reads, whose sources name the run set and the objective, and
# whose in-sample objective (recomputed here from gpupack model replay) is not worse than the start's.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }

jq '.runs = ([.runs[] | select(.set == "in-sample")][0:4] + [.runs[] | select(.set == "held-out")][0:1])' \
  "$ROOT/results/model-runs.json" >"$WORK/five.json"

LAST="scripts/fit-model.py"
python3 "$ROOT/scripts/fit-model.py" --gpupack "$GPUPACK" --manifest "$WORK/five.json" --root "$ROOT" --rounds 2 \
  -o "$WORK/fit.json" >"$WORK/fit.out" 2>&1 || fail "fit-model.py failed: $(tail -5 "$WORK/fit.out")"
OUT=$(cat "$WORK/fit.out")
expect_out "^round 2: objective"
expect_out "^mps_launch_cost_per_client +0.1 "
expect_out "^after \(fitted values\):"
expect_out "^  held-out: objective"

OUT=$(cat "$WORK/fit.json")
expect_json '.schema == "gpupack-model" and (.parameters | length) == 8'
expect_json '[.parameters[].source | test("fitted by scripts/fit-model.py on the in-sample runs of .*five.json \\(4 runs")] | all'

run plan "$ROOT/tests/planner/data/mixed-h100.yaml" --model "$WORK/fit.json" --format json
expect_rc 0
expect_json '.model.parameters.burst_wait.source | test("fit-model.py")'

# The objective as the script defines it, over the in-sample runs: not worse after the fit.
objective() {
  jq '[.summary[] | select(.set == "in-sample") | [.req_per_s.mean_abs, .p99.mean_abs] | map(select(. != null))
       | add / length] | add / length'
}
run model replay "$WORK/five.json" --root "$ROOT" --set in-sample --format json
BEFORE=$(objective <<<"$OUT")
run model replay "$WORK/five.json" --root "$ROOT" --set in-sample --format json --model "$WORK/fit.json"
AFTER=$(objective <<<"$OUT")
jq -ne "$AFTER <= $BEFORE" >/dev/null || fail "in-sample objective $AFTER after the fit, $BEFORE before"

# Its own bad input: one line, exit 2.
LAST="scripts/fit-model.py --parameters nonsense"
RC=0
python3 "$ROOT/scripts/fit-model.py" --gpupack "$GPUPACK" --manifest "$WORK/five.json" --root "$ROOT" \
  --parameters nonsense -o "$WORK/x.json" >"$WORK/out" 2>"$WORK/err" || RC=$?
ERR=$(cat "$WORK/err")
expect_rc 2
expect_err "unknown parameter 'nonsense'"

finish
