#!/usr/bin/env bash
# run91: the inference scenario asking for 10 bert-base-b4 (run85's file) planned by the committed model from
# run64's profiles (out of sample: nothing was fitted or changed in the model since run86), verified with the
# new check of each miss against its profile's baseline runs alone (miss_within_profile_runs and its note).
# One round, 6 s windows, within the little device time left. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
D=results/run85-slowest-run-margin-h200
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
s=$(date +%s)
( OUT=$OUT CORPUS_SCENARIO=inference CORPUS_SOURCE=$D/inference-bert10-h200.yaml PROFILES=$P TAG=r1 VERIFY_DURATION=6 \
    timeout 150 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/inference-r1.log" 2>&1
echo "inference r1 rc $? in $(( $(date +%s)-s )) s"
bash .device/mps_cleanup.sh >"$OUT/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
grep -h "baseline runs alone were apart" "$OUT"/corpus-*/verify.txt
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
