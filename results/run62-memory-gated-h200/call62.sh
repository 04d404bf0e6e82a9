#!/usr/bin/env bash
# run62: with the wait gated to programs whose kernels do not fill the GPU, run61's profiles: the memory
# scenario (round 1) and three dlrm beside two bert (bert's SLO at 40 ms, so that it is placed).
set -u
G=$PWD/.device/gp
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
( OUT=$OUT CORPUS_SCENARIO=memory PROFILES=.device/prev62 TAG=gated-r1 timeout 100 \
    bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/memory.log" 2>&1
echo "memory rc $?"
( OUT=$OUT CORPUS_SCENARIO=memory CORPUS_SOURCE=$PWD/.device/memory-bert-loose-h100.yaml PROFILES=.device/prev62 TAG=bert-loose-r1 \
    timeout 100 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/bert-loose.log" 2>&1
echo "bert-loose rc $?"
bash .device/mps_cleanup.sh >"$OUT/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
cat "$OUT"/corpus-*/table.txt 2>/dev/null
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
