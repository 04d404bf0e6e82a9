#!/usr/bin/env bash
# run92, fifth call: is resnet50-b32's miss (0.53-0.62 of its predicted req/s in the inference mixes) its old
# profile (run55, baseline spread 42%) or the model? The inference scenario (run85's file) with resnet50-b32
# profiled afresh on this machine by corpus_validate.sh (the other profiles run64's, as before), verified; then
# run83's mix b from the same profiles. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=$OUT/profiles-in; mkdir -p "$P"
cp .device/prev64/*.json "$P/" && rm -f "$P/resnet50-b32.json"
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
s=$(date +%s)
( OUT=$OUT CORPUS_SCENARIO=inference CORPUS_SOURCE=results/run85-slowest-run-margin-h200/inference-bert10-h200.yaml \
    PROFILES=$P TAG=fresh-resnet50 VERIFY_DURATION=6 timeout 470 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/inference.log" 2>&1
echo "inference rc $? in $(( $(date +%s)-s )) s"
bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
if [ -f "$OUT/corpus-inference-fresh-resnet50/profiles/resnet50-b32.json" ]; then
  cp "$OUT/corpus-inference-fresh-resnet50/profiles/resnet50-b32.json" "$P/"
  s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=mix-b CORPUS_SOURCE=results/run83-new-mixes-h200/mix-b-h200.yaml \
      PROFILES=$P TAG=fresh-resnet50 VERIFY_DURATION=6 timeout 90 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/mix-b.log" 2>&1
  echo "mix-b rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
fi
rm -rf "$P"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
grep -h "flag" "$OUT"/corpus-inference-fresh-resnet50/profiles/resnet50-b32.txt 2>/dev/null | head -3
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
