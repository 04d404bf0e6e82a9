#!/usr/bin/env bash
# run86: run85 again on another H200 (the SLO margin from the slowest baseline run, out of sample): the
# saturated scenario asking for 12 mobilenet-v3-b8 with `verify --search` (to 16, steps of 2), then the same
# scenario planned with `--observed` from that verify (the closed loop) and searched again, then the inference
# scenario with 10 bert-base-b4 searched to 12. run64's profiles. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
S=results/run85-slowest-run-margin-h200
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
T0=$(date +%s)
val() { # name source tag search budget max step [observed]
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$S/$2 PROFILES=$P TAG=$3 SEARCH=$4 SEARCH_MAX=$6 SEARCH_STEP=$7 \
      OBSERVED=${8:-} VERIFY_DURATION=6 timeout "$5" bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-$3.log" 2>&1
  echo "$1 $3 search $4 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val saturated saturated-12-h200.yaml r1 mobilenet-v3-b8 190 16 2
[ -f "$OUT/corpus-saturated-r1/verify.json" ] && \
  val saturated saturated-12-h200.yaml r2-observed mobilenet-v3-b8 190 16 2 "$OUT/corpus-saturated-r1/verify.json"
val inference inference-bert10-h200.yaml r1 bert-base-b4 $(( 560 - ($(date +%s)-T0) )) 12 1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
