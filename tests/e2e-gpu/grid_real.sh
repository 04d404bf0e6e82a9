#!/usr/bin/env bash
# GPU test (label gpu): `gpupack bench --client-cmd` co-location grids of two real example clients
# (examples/clients: resnet18 at batch 1, launch-bound; an MLP at batch 8, GPU-bound) under time-slicing
# and MPS, resnet18 also beside a saturating GEMM job (uncapped and capped), then the same K copies
# started by hand in the same run (released together the same way; their request lines counted by this
# script over the same window), to check that gpupack's aggregate req/s is within 10% of the hand-made one.
# Needs python3 with torch and torchvision and a CUDA GPU. Outputs (JSON, HTML, tables, the comparison) go to $OUT/grid when OUT is set.
# GRID_KS (default 1,2,4,8) and GRID_WINDOW (default 8 s, whole seconds) change the sizes. About 8 minutes
# on an H100 with the defaults.
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
# shellcheck source=tests/grid_by_hand.sh
source "$(dirname "${BASH_SOURCE[0]}")/../grid_by_hand.sh"
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/grid}
RESULTS=${RESULTS:-$WORK/grid}
mkdir -p "$RESULTS"
KS=${GRID_KS:-1,2,4,8}
WINDOW=${GRID_WINDOW:-8}
MAX_K=${KS##*,}

# The grid of one client: every cell measured from the copies' reports, none failed.
grid() {
  local name=$1
  shift
  run bench --only client --client-cmd "python3 $CLIENTS/$name.py --duration 3600" --ks "$KS" --window "$WINDOW" \
    --json "$RESULTS/$name.json" --report "$RESULTS/$name.html" "$@"
  printf '%s\n%s\n' "$OUT" "$ERR" >"$RESULTS/$name.txt"
  expect_rc 0
  jq -e '.colocation.cells | length > 0 and all(.error == "")' "$RESULTS/$name.json" >/dev/null ||
    fail "$name: a grid cell failed (see $RESULTS/$name.txt)"
  jq -e '.colocation.cells | map(select(.k > 0)) | all(.latency_reported)' "$RESULTS/$name.json" >/dev/null ||
    fail "$name: a cell without request latency"
}

grid resnet18_b1 --neighbour-cmd "python3 $CLIENTS/gemm_batch.py --duration 3600"
grid mlp_b8

summary="$RESULTS/comparison.txt"
: >"$summary"
for name in resnet18_b1 mlp_b8; do
  for k in 1 "$MAX_K"; do
    read -r hand copies own _ < <(by_hand "$name" "$k" "$WINDOW")
    grid_rate=$(jq -r --argjson k "$k" \
      '.colocation.cells[] | select(.mode == "timeslicing" and .k == $k and (.with_neighbour | not)) | .aggregate_req_per_s' \
      "$RESULTS/$name.json")
    line="$name timeslicing K=$k: gpupack grid $grid_rate req/s, by hand $hand req/s in the same window ($copies copies; their own whole-run rates sum to $own)"
    echo "$line" | tee -a "$summary"
    [ "$copies" -eq "$k" ] || fail "$name K=$k by hand: only $copies of $k copies counted"
    # Checked at the largest K, the co-location figure. One process alone varied by up to +-15% from one
    # start to the next on the H100 test machine (launch-bound: CPU placement), in the grid and by hand
    # alike, so K=1 is printed, not checked; with 4 copies the two agreed within 2%.
    [ "$k" -eq 1 ] && [ "$MAX_K" -ne 1 ] && continue
    awk -v g="$grid_rate" -v h="$hand" 'BEGIN {exit !(h > 0 && g / h > 0.9 && g / h < 1.1)}' ||
      fail "$line: not within 10%"
  done
done
finish
