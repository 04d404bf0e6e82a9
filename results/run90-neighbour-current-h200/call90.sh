#!/usr/bin/env bash
# run90: the neighbour scenario (a training job beside wav2vec, mobilenet and a diffusion UNet step), last run
# in run56, planned by the committed model (the wait carried on the SMs' overload, the SLO margin from the
# slowest baseline run, the predicted SM activity) from run56's profiles, verified with --measure-alone; then
# planned again with `--observed` that verify (the closed loop) and verified. Only run.tgz is left under $OUT.
set -u
G=$PWD/.device/gp
P=results/run56-neighbour-recheck-h200/h200/corpus-neighbour-recheck54/profiles
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
val() { # tag budget [measure_alone] [observed]
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=neighbour PROFILES=$P TAG=$1 MEASURE_ALONE=${3:-} OBSERVED=${4:-} VERIFY_DURATION=8 \
      timeout "$2" bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/neighbour-$1.log" 2>&1
  echo "neighbour $1 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
val r1 200 1
[ -f "$OUT/corpus-neighbour-r1/verify.json" ] && val r2-observed 150 "" "$OUT/corpus-neighbour-r1/verify.json"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
grep -h "GPU activity\|kept .* of its SMs" "$OUT"/corpus-*/verify.txt
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
