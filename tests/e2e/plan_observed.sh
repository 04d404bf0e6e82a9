#!/usr/bin/env bash
# gpupack plan --observed (the closed loop, issue 36 item 5) on the command line: run54's round 2 planned
# again from round 1's verify keeps dlrm's faster correction beside bert, where it was measured, and leaves
# the triad out (with the correction carried beside it, the triad fitted and dlrm broke its SLO on the GPU); a
# faster correction measured without the GEMM is left out beside it, and the note and the JSON say so; a bad
# file is one line, exit 2, nothing on stdout.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
RUN="$ROOT/results/run54-memory-default-h200/h200"
DATA="$ROOT/tests/planner/data"

run plan "$RUN/corpus-memory-grid-r2/scenario.yaml" --observed "$RUN/corpus-memory-grid-r1/verify.json" --format json
expect_rc 4  # wav2vec and the triad unplaced
expect_json '[.placements[] | select(.workload == "stream-triad")] | length == 0'
expect_json '[.placements[] | select(.workload == "dlrm-b4096")] | length == 3'
run plan "$RUN/corpus-memory-grid-r2/scenario.yaml" --observed "$RUN/corpus-memory-grid-r1/verify.json" --explain
expect_out "dlrm-b4096#0 .*corrected by observation: p99 x0.87, req/s x1.07"
expect_out "bert-base-b4#0 .*corrected by observation: p99 x1.79, req/s x0.49"

# resnet18-b1 measured at half its predicted p99 with nothing beside it; the scenario puts the GEMM beside it.
python3 - "$WORK/alone.json" <<'PY'
import json, sys
doc = {"verify_version": 1, "slices": [{"slice": "gpu0/s0", "sharing": "mps", "gpu_model": "H100-SXM5-80GB"}],
       "replicas": [{"workload": "resnet18-b1", "replica": i, "slice": "gpu0/s0", "prediction_source": "profile",
                     "predicted_p99_ms": 6.0, "p99_ms": {"mean": 3.0}, "predicted_req_per_s": 200.0,
                     "req_per_s": {"mean": 200.0}, "observed_correction": None} for i in range(4)]}
json.dump(doc, open(sys.argv[1], "w"))
PY
cat >"$WORK/density.yaml" <<YAML
fleet: [{model: H100-SXM5-80GB, count: 1}]
workloads:
  - {name: resnet18-b1, replicas: 40, latency_slo_ms: 16.4, profile: $DATA/profiles-h100-2026-11-23/resnet18-b1.json}
  - {name: gemm, compute: 0.55, isolation: memory, profile: $DATA/profiles-h100-2026-11-23/gemm.json}
YAML
run plan "$WORK/density.yaml" --observed "$WORK/alone.json" --explain
expect_out "not its faster p99 x0.50: measured without gemm beside it"
run plan "$WORK/density.yaml" --observed "$WORK/alone.json" --format json
expect_json '[.gpus[].slices[].clients[].prediction | select(.observed) | .observed.p99 == null and .observed.req_per_s == 1] | (length > 0 and all)'

# Bad files: one line naming the file, exit 2, nothing on stdout.
run plan "$WORK/density.yaml" --observed "$WORK/missing.json"
expect_rc 2
expect_no_out
expect_err "missing.json"
[ "$(wc -l <<<"$ERR")" -eq 1 ] || fail "more than one line on stderr: $ERR"
echo '{"verify_version": 1, "slices": [], "replicas": [{"workload": "resnet18-b1", "slice": "gpu9/s0"}]}' >"$WORK/bad.json"
run plan "$WORK/density.yaml" --observed "$WORK/bad.json"
expect_rc 2
expect_no_out
expect_err "bad.json: .*a slice listed in"
finish
