#!/usr/bin/env bash
# run101: the mean-request rule with both of its cell's tails (2026-11-29: beside neighbours that fill the SMs, a
# request's mean no shorter than its p99 less its cell's tail in ms or over its cell's tail ratio, whichever is
# longer) on a GPU measured after it: run85's saturated and inference files and run83's mix a, planned from
# run64's profiles (another H200) and verified, 6 s windows. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
trap 'bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
run() {  # NAME SOURCE
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$2 PROFILES=$P TAG=r1 VERIFY_DURATION=6 \
      timeout 100 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1.log" 2>&1
  echo "$1 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
run saturated results/run85-slowest-run-margin-h200/saturated-12-h200.yaml
run inference results/run85-slowest-run-margin-h200/inference-bert10-h200.yaml
run mix-a results/run83-new-mixes-h200/mix-a-h200.yaml
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
