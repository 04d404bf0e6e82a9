#!/usr/bin/env bash
# run60: the saturated scenario with mobilenet's SLO loosened to 60 ms (placed beside the three dlrm), planned
# from run59's profiles, verified; round 2 with plan --observed. Only run.tgz is left under $OUT.
set -u
G=$PWD/.device/gp
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
S=$PWD/.device/saturated-loose-h100.yaml
( OUT=$OUT CORPUS_SCENARIO=saturated CORPUS_SOURCE=$S PROFILES=.device/prev60 TAG=loose-r1 timeout 200 \
    bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/r1.log" 2>&1
echo "round 1 rc $?"
R1=$OUT/corpus-saturated-loose-r1
( OUT=$OUT CORPUS_SCENARIO=saturated CORPUS_SOURCE=$S PROFILES=.device/prev60 OBSERVED=$R1/verify.json TAG=loose-r2 \
    timeout 200 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/r2.log" 2>&1
echo "round 2 rc $?"
bash .device/mps_cleanup.sh >"$OUT/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
cat "$OUT"/corpus-*-r1/table.txt "$OUT"/corpus-*-r2/table.txt 2>/dev/null
tail -3 "$OUT/r1.log"
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
