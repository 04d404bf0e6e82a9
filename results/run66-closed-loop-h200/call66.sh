#!/usr/bin/env bash
# run66: round 2 of run64's inference and memory scenarios (`plan --observed` round 1's verify.json, the same
# profiles), then tests/e2e-gpu/standard_neighbour.sh (both neighbour kinds). Only run.tgz is left under $OUT.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
val() { # scenario tag observed
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 PROFILES=$P TAG=$2 OBSERVED=$3 timeout 120 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-$2.log" 2>&1
  echo "$1 $2 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val inference r2 "$PWD/.device/r64/inference-r1.json"
val memory r2 "$PWD/.device/r64/memory-r1.json"
s=$(date +%s)
( OUT=$OUT timeout 240 bash tests/e2e-gpu/standard_neighbour.sh "$G" ) >"$OUT/standard-neighbour.log" 2>&1
echo "standard_neighbour.sh rc $? in $(( $(date +%s)-s )) s"
tail -5 "$OUT/standard-neighbour.log"
bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
cat "$OUT"/standard-neighbour/table.txt 2>/dev/null
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
