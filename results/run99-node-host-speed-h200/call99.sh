#!/usr/bin/env bash
# run99, first call: profiles that time their host for the two launch-bound programs of the inference
# scenario. bert-base-b4 and mobilenet-v3-b8 profiled afresh on this machine by corpus_validate.sh (its
# defaults: 6 s windows, 3 baseline runs, sweep 100,50,25), resnet50-b32 from run92 (another H200, its host
# timed), then run85's inference file planned from them and verified here (6 s windows). The second call
# verifies these profiles on another machine. Only run.tgz is left under $OUT; the table last.
set -u
G=$PWD/.device/gp
P=$OUT/profiles-in; mkdir -p "$P"
cp .device/prev64/*.json "$P/" && rm -f "$P/bert-base-b4.json" "$P/mobilenet-v3-b8.json"
cp results/run92-model-changes-h200/h200-fresh-resnet50/corpus-inference-fresh-resnet50/profiles/resnet50-b32.json "$P/"
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
trap 'bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
s=$(date +%s)
( OUT=$OUT CORPUS_SCENARIO=inference CORPUS_SOURCE=results/run85-slowest-run-margin-h200/inference-bert10-h200.yaml \
    PROFILES=$P TAG=r1 VERIFY_DURATION=6 timeout 540 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/inference.log" 2>&1
echo "inference rc $? in $(( $(date +%s)-s )) s"
rm -rf "$P"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
jq -c '.host_core_work' "$OUT"/corpus-inference-r1/verify.json 2>/dev/null
for f in "$OUT"/corpus-inference-r1/profiles/*.txt; do echo "${f##*/}: $(grep -m1 -i "host" "$f")"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
