#!/usr/bin/env bash
# run92: the two model changes of 2026-11-29 (a launch cost within the baseline's noise is not counted; the
# DRAM cells' req/s slowdowns pooled) on a GPU run measured after them: four mixed scenarios of three workloads
# or more planned by the committed model from run64's profiles (another H200) and verified, 6 s windows:
# run85's inference file (10 bert asked), run85's saturated file (12 mobilenet asked), run83's mixes a and b.
# Only run.tgz is left under $OUT; tables printed last.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
run() {  # NAME SOURCE
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$2 PROFILES=$P TAG=r1 VERIFY_DURATION=6 \
      timeout 140 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1.log" 2>&1
  echo "$1 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
run inference results/run85-slowest-run-margin-h200/inference-bert10-h200.yaml
run saturated results/run85-slowest-run-margin-h200/saturated-12-h200.yaml
run mix-a results/run83-new-mixes-h200/mix-a-h200.yaml
run mix-b results/run83-new-mixes-h200/mix-b-h200.yaml
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
grep -h "baseline runs alone were apart" "$OUT"/corpus-*/verify.txt
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
