#!/usr/bin/env bash
# scripts/graft-compute-cells.py (results/run80-fma-cells-h200): a manifest's runs copied with a newer profile's
# compute-neighbour cells put into their profiles of the same GPU model, as the ratio to the program alone in
# the profile the cells came from, times its alone in the profile they go to (the co-location grid's one copy
# under MPS, else the MPS baseline, else the profile's req/s); a profile of another GPU model left as it was;
# no profile with cells refused.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
GRAFT="$ROOT/scripts/graft-compute-cells.py"
LAST="scripts/graft-compute-cells.py"

# The cells: prog alone under MPS at 400 req/s (p99 5 ms), beside the neighbour 100 req/s (p99 20 ms).
mkdir -p "$WORK/cells" "$WORK/repo/results/r1/profiles" "$WORK/repo/results/r2/profiles"
cat >"$WORK/cells/prog.json" <<'J'
{"device": {"model": "GPU-A"}, "sm_share_curve": [], "requests": {"req_per_s": 350, "p99_ms": 6},
 "baseline": {"mps": {"req_per_s": 400, "p99_ms": 5}},
 "compute_neighbour": {"cells": [
   {"k": 0, "mode": "mps", "with_neighbour": true, "gpu_sm_active": 0.9, "aggregate_req_per_s": null, "copies": []},
   {"k": 1, "mode": "mps", "with_neighbour": true, "aggregate_req_per_s": 100, "worst_p99_ms": 20,
    "copies": [{"req_per_s": 100, "p99_ms": 20}]}]}}
J
# Run 1: prog on GPU-A, its alone from its grid's one copy (200 req/s, p99 10 ms); run 2: prog on GPU-B.
cat >"$WORK/repo/results/r1/profiles/prog.json" <<'J'
{"device": {"model": "GPU-A"}, "sm_share_curve": [], "requests": {"req_per_s": 150, "p99_ms": 12},
 "colocation": {"cells": [{"k": 1, "mode": "mps", "with_neighbour": false, "error": "", "aggregate_req_per_s": 200,
   "worst_p99_ms": 10}]}}
J
sed 's/GPU-A/GPU-B/' "$WORK/repo/results/r1/profiles/prog.json" >"$WORK/repo/results/r2/profiles/prog.json"
for r in r1 r2; do echo "{}" >"$WORK/repo/results/$r/verify.json"; echo "workloads: []" >"$WORK/repo/results/$r/scenario.yaml"; done
cat >"$WORK/repo/results/m.json" <<'J'
{"profiles": [], "runs": [
  {"dir": "results/r1", "scenario": "results/r1/scenario.yaml", "profiles": "results/r1/profiles"},
  {"dir": "results/r2", "scenario": "results/r2/scenario.yaml", "profiles": "results/r2/profiles"}]}
J
OUT=$(python3 "$GRAFT" --cells "$WORK/cells" --manifest "$WORK/repo/results/m.json" -o "$WORK/out") || fail "it failed: $OUT"
expect_out "grafted the compute-neighbour cells of 1 programs into 1 profiles"
{ [ -f "$WORK/out/results/m.json" ] && [ -f "$WORK/out/results/r1/verify.json" ]; } || fail "the manifest or a run was not copied"
OUT=$(cat "$WORK/out/results/r1/profiles/prog.json")
# 100 / 400 of its alone, times 200; the p99 20 / 5 times 10; the neighbour alone as it was.
expect_json '.compute_neighbour.cells[1].aggregate_req_per_s == 50 and .compute_neighbour.cells[1].copies[0].req_per_s == 50'
expect_json '.compute_neighbour.cells[1].worst_p99_ms == 40 and .compute_neighbour.cells[0].gpu_sm_active == 0.9'
OUT=$(cat "$WORK/out/results/r2/profiles/prog.json")
expect_json 'has("compute_neighbour") | not'
grep -q compute_neighbour "$WORK/repo/results/r1/profiles/prog.json" && fail "the source profile was changed"
# --any-gpu grafts into the other model's profile too.
OUT=$(python3 "$GRAFT" --cells "$WORK/cells" --manifest "$WORK/repo/results/m.json" -o "$WORK/out2" --any-gpu) || fail "it failed: $OUT"
expect_out "into 2 profiles"
# No profile with cells: refused, nothing written.
mkdir -p "$WORK/empty"
OUT=$(python3 "$GRAFT" --cells "$WORK/empty" --manifest "$WORK/repo/results/m.json" -o "$WORK/out3" 2>&1) && fail "accepted a folder without cells"
expect_out "no profile with compute_neighbour"
[ -e "$WORK/out3" ] && fail "wrote $WORK/out3"
finish
