#!/usr/bin/env bash
# run81: run64's scenarios again from the same profiles, verify with --measure-alone (MEASURE_ALONE=1), so each
# workload's drift from its profile is measured on this machine and the errors rebased on it separate the
# baseline's drift from the model's own miss; then the inference scenario planned again from the first
# round's verify (--observed, the closed loop). Only run.tgz is left under $OUT; tables printed last.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
T0=$(date +%s)
val() { # scenario tag [observed]
  local s; s=$(date +%s)
  [ $(( s-T0 )) -gt 480 ] && { echo "$1 $2 skipped (time)"; return; }
  ( OUT=$OUT CORPUS_SCENARIO=$1 PROFILES=$P TAG=$2 OBSERVED=${3:-} MEASURE_ALONE=1 timeout 150 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-$2.log" 2>&1
  echo "$1 $2 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val inference r1
val inference r2 "$OUT/corpus-inference-r1/verify.json"
val saturated r1
val memory r1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
