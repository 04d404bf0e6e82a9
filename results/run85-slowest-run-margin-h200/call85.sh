#!/usr/bin/env bash
# run85: plan / `verify --search` density where the plan places as many as it judges fit, with the SLO
# margin from the slowest baseline run (commit after e18d021): the saturated scenario asking for 12
# mobilenet-v3-b8 (searched from the plan's count to 20, steps of 2), and the inference scenario with 10
# bert-base-b4 (searched to 12, steps of 1), from run64's profiles. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
D=results/run85-slowest-run-margin-h200
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
T0=$(date +%s)
val() { # name source search budget max step
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$D/$2 PROFILES=$P TAG=search SEARCH=$3 SEARCH_MAX=$5 SEARCH_STEP=$6 \
      VERIFY_DURATION=6 timeout "$4" bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-search.log" 2>&1
  echo "$1 search $3 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val saturated saturated-12-h200.yaml mobilenet-v3-b8 360 20 2
val inference inference-bert10-h200.yaml bert-base-b4 $(( 550 - ($(date +%s)-T0) )) 12 1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
