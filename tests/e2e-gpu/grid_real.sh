#!/usr/bin/env bash
# GPU test (label gpu): `gpupack bench --client-cmd` co-location grids of two real example clients
# (examples/clients: resnet18 at batch 1, launch-bound; an MLP at batch 8, GPU-bound) under time-slicing
# and MPS, resnet18 also beside a saturating GEMM job (uncapped and capped), then the same K copies
# started by hand in the same run (each copy's own request count, released together the same way) to
# check that gpupack's aggregate req/s is within 10% of the hand-made one. Needs python3 with torch and
# torchvision and a CUDA GPU. Outputs (JSON, HTML, tables, the comparison) go to $OUT/grid when OUT is set.
# GRID_KS (default 1,2,4,8), GRID_WINDOW (default 8 s), GRID_HAND_S (default 12 s) change the sizes.
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/grid}
RESULTS=${RESULTS:-$WORK/grid}
mkdir -p "$RESULTS"
KS=${GRID_KS:-1,2,4,8}
WINDOW=${GRID_WINDOW:-8}
HAND_S=${GRID_HAND_S:-12}
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

# K copies by hand, without gpupack's grid: each its own report file (only for the ready line) and one go
# file, released together once all said ready; each prints "<n> requests in <s> s: <r> req/s" at its end.
by_hand() {
  local name=$1 k=$2 dir="$WORK/hand-$1-$2" i pids=()
  mkdir -p "$dir"
  for ((i = 0; i < k; i++)); do
    GPUPACK_REPORT="$dir/r$i" GPUPACK_GO="$dir/go" python3 "$CLIENTS/$name.py" --duration "$HAND_S" >"$dir/out$i" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < k; i++)); do
    for _ in $(seq 600); do grep -q '"ready"' "$dir/r$i" 2>/dev/null && break; sleep 0.5; done
  done
  touch "$dir/go"
  wait "${pids[@]}" || true
  cat "$dir"/out* | awk '/ req\/s$/ {sum += $(NF - 1); n++} END {if (n) printf "%.1f %d\n", sum, n; else print "0 0"}'
}

grid resnet18_b1 --neighbour-cmd "python3 $CLIENTS/gemm_batch.py --duration 3600"
grid mlp_b8

summary="$RESULTS/comparison.txt"
: >"$summary"
for name in resnet18_b1 mlp_b8; do
  for k in 1 "$MAX_K"; do
    read -r hand copies < <(by_hand "$name" "$k")
    grid_rate=$(jq -r --argjson k "$k" \
      '.colocation.cells[] | select(.mode == "timeslicing" and .k == $k and (.with_neighbour | not)) | .aggregate_req_per_s' \
      "$RESULTS/$name.json")
    line="$name timeslicing K=$k: gpupack grid $grid_rate req/s, by hand $hand req/s ($copies copies reported)"
    echo "$line" | tee -a "$summary"
    [ "$copies" -eq "$k" ] || fail "$name K=$k by hand: only $copies of $k copies finished"
    awk -v g="$grid_rate" -v h="$hand" 'BEGIN {exit !(h > 0 && g / h > 0.9 && g / h < 1.1)}' ||
      fail "$line: not within 10%"
  done
done
finish
