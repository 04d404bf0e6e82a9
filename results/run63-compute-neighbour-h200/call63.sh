#!/usr/bin/env bash
# run63: the compute-bound standard neighbour (gpupack neighbour --kind compute) by hand, then the saturated
# scenario with mobilenet and wav2vec profiled by the new default (triad at 25/50/100% and the compute
# neighbour), dlrm's profile from run61. Only run.tgz is left under $OUT.
set -u
G=$PWD/.device/gp
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
GPUPACK_REPORT="$OUT/compute.jsonl" timeout 30 "$G" neighbour --kind compute --duration 3 >"$OUT/neighbour-compute.txt" 2>&1
echo "compute neighbour rc $?: $(cat "$OUT/neighbour-compute.txt")"
timeout 30 "$G" neighbour --duration 3 >"$OUT/neighbour-dram.txt" 2>&1
echo "dram neighbour rc $?: $(cat "$OUT/neighbour-dram.txt")"
s=$(date +%s)
( OUT=$OUT CORPUS_SCENARIO=saturated PROFILES=.device/prev63 TAG=compute-r1 timeout "${BUDGET_S:-520}" \
    bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/saturated.log" 2>&1
echo "saturated rc $? in $(( $(date +%s)-s )) s"
bash .device/mps_cleanup.sh >"$OUT/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
cat "$OUT"/corpus-*/table.txt 2>/dev/null
for f in "$OUT"/corpus-*/profiles/*.txt; do echo "== $f"; grep -E "neighbour alone|K=1 \+" "$f" | head; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
