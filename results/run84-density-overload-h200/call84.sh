#!/usr/bin/env bash
# run84: how many copies really fit where the wait for SMs binds, against the plan of the overload rule:
# the saturated scenario with `verify --search mobilenet-v3-b8` (SEARCH, steps of 2) and the inference scenario
# with `--search bert-base-b4`, planned from run64's profiles. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
T0=$(date +%s)
val() { # scenario search budget
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 PROFILES=$P TAG=search SEARCH=$2 SEARCH_MAX=${4:-16} SEARCH_STEP=2 VERIFY_DURATION=6 \
      timeout "$3" bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1-search.log" 2>&1
  echo "$1 search $2 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val saturated mobilenet-v3-b8 280 12
val inference bert-base-b4 $(( 560 - ($(date +%s)-T0) )) 12
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
