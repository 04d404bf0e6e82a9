#!/usr/bin/env bash
# run82: the wait for SMs carried on the SMs' overload (contention::sm_overload), out of sample: the
# inference scenario twice, the saturated and the memory scenario once, planned by the new rule from run64's
# profiles and verified on this machine (MEASURE_ALONE=1 in the first inference round only). Only run.tgz is
# left under $OUT; tables printed last.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
T0=$(date +%s)
val() { # scenario tag measure_alone
  local s; s=$(date +%s)
  [ $(( s-T0 )) -gt 450 ] && { echo "$1 $2 skipped (time)"; return; }
  ( OUT=$OUT CORPUS_SCENARIO=$1 PROFILES=$P TAG=$2 MEASURE_ALONE=$3 timeout 150 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-$2.log" 2>&1
  echo "$1 $2 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val inference r1 1
val saturated r1 ""
val memory r1 ""
val inference r2 ""
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
