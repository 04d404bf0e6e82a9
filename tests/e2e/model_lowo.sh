#!/usr/bin/env bash
# scripts/fit-model.py --leave-one-workload-out (docs/model-parameters.md, "Leave one workload out") on a
# small manifest (three corpus runs, two in-sample ones) and one round: for each workload asked for, the
# constants are fitted on the runs without it and its errors are those of the runs with it; its errors
# with the built-in values are gpupack model replay's own; bad input is one line and exit 2.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }

jq '.runs = ([.runs[] | select(.set == "in-sample")][0:2] + [.runs[] | select(.dir == "results/run33-corpus-h100/corpus-inference"
      or .dir == "results/run34-corpus-h100/corpus-neighbour" or .dir == "results/run36-corpus-h100/corpus-inference")])' \
  "$ROOT/results/model-runs.json" >"$WORK/small.json"

LAST="scripts/fit-model.py --leave-one-workload-out"
python3 "$ROOT/scripts/fit-model.py" --gpupack "$GPUPACK" --manifest "$WORK/small.json" --root "$ROOT" --rounds 1 \
  --leave-one-workload-out --workloads unet-step-b4,bert-base-b4 -o "$WORK/lowo.json" --table "$WORK/lowo.txt" \
  >"$WORK/lowo.out" 2>&1 || fail "fit-model.py --leave-one-workload-out failed: $(tail -5 "$WORK/lowo.out")"
OUT=$(cat "$WORK/lowo.out")
expect_out "^unet-step-b4: fitting on 4 runs without it, predicting 1 with it"
expect_out "^bert-base-b4: fitting on 3 runs without it, predicting 2 with it"
grep -q "^unet-step-b4 " "$WORK/lowo.txt" || fail "the table lacks unet-step-b4: $(cat "$WORK/lowo.txt")"

OUT=$(cat "$WORK/lowo.json")
expect_json '.schema == "gpupack-lowo" and (.workloads | length) == 2 and .sets == ["in-sample", "held-out", "corpus"]'
expect_json '.workloads[0].workload == "unet-step-b4" and .workloads[0].runs == ["results/run34-corpus-h100/corpus-neighbour"]'
expect_json '.workloads[0].replicas == 1 and .workloads[0].fitted_on.runs == 4'
expect_json '(.workloads[0].fitted_on.workloads | index("unet-step-b4")) == null'
expect_json '(.workloads[1].parameters | length) == 8 and .workloads[1].out_of_sample.replicas == 8'
UNET_BUILT_IN=$(jq '.workloads[0].built_in.req_per_s.worst' <<<"$OUT")

# The built-in column is the replay's: unet-step-b4's one replica in run34's neighbour scenario.
run model replay "$WORK/small.json" --root "$ROOT" --set corpus --format json
expect_rc 0
REPLAY=$(jq '.runs[] | select(.dir == "results/run34-corpus-h100/corpus-neighbour") | .workloads[]
             | select(.workload == "unet-step-b4") | .replicas[0].req_per_s_error' <<<"$OUT")
jq -ne "$UNET_BUILT_IN == $REPLAY" >/dev/null || fail "built-in req/s error $UNET_BUILT_IN, the replay's $REPLAY"

# Its own bad input: one line, exit 2.
LAST="scripts/fit-model.py --leave-one-workload-out --workloads nonsense"
RC=0
python3 "$ROOT/scripts/fit-model.py" --gpupack "$GPUPACK" --manifest "$WORK/small.json" --root "$ROOT" \
  --leave-one-workload-out --workloads nonsense -o "$WORK/x.json" >"$WORK/out" 2>"$WORK/err" || RC=$?
ERR=$(cat "$WORK/err")
expect_rc 2
expect_err "--workloads: no run of in-sample, held-out, corpus contains 'nonsense'"
[[ ! -e "$WORK/x.json" ]] || fail "wrote $WORK/x.json after refusing"

finish
