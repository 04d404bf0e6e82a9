#!/usr/bin/env bash
# run64: the committed model on profiles measured with the default sweep: the saturated scenario (mobilenet and
# wav2vec from run63, dlrm from run61) in two rounds (the second with --observed), the memory scenario (bert and
# the triad from run61/62, wav2vec from run63) and the inference scenario (mobilenet from run63, bert run61,
# resnet50 run55). Only run.tgz is left under $OUT.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
val() { # scenario tag [observed]
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 PROFILES=$P TAG=$2 OBSERVED=${3:-} timeout 120 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-$2.log" 2>&1
  echo "$1 $2 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val saturated r1
val saturated r2 "$OUT/corpus-saturated-r1/verify.json"
val memory r1
val inference r1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
