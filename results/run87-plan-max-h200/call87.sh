#!/usr/bin/env bash
# run87: the plan at its own most, from run64's profiles (the committed model and margin): the inference
# scenario asking for 16 mobilenet-v3-b8 with `verify --search mobilenet-v3-b8` (to 16, steps of 2); then the
# inference scenario asking for 12 bert-base-b4 (the plan places 12 and leaves 2 mobilenet unplaced), verified,
# and planned again with `--observed` that verify (the closed loop) and verified. Verify prints each slice's SM
# activity beside the plan's prediction. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
S=results/run87-plan-max-h200
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
T0=$(date +%s)
val() { # name source tag budget [search max step] [observed]
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$S/$2 PROFILES=$P TAG=$3 SEARCH=${5:-} SEARCH_MAX=${6:-16} SEARCH_STEP=${7:-2} \
      OBSERVED=${8:-} VERIFY_DURATION=6 timeout "$4" bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-$3.log" 2>&1
  echo "$1 $3 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val inference-mobilenet16 inference-mobilenet16-h200.yaml search 240 mobilenet-v3-b8 16 2
val inference-bert12 inference-bert12-h200.yaml r1 120
[ -f "$OUT/corpus-inference-bert12-r1/verify.json" ] && \
  val inference-bert12 inference-bert12-h200.yaml r2-observed $(( 560 - ($(date +%s)-T0) )) "" 16 2 "$OUT/corpus-inference-bert12-r1/verify.json"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
grep -h "GPU activity" "$OUT"/corpus-*/verify.txt
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
