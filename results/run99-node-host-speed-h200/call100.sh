#!/usr/bin/env bash
# run99, second call (on another machine than the first): the profiles with their hosts timed, verified where
# they were not measured. bert-base-b4 from the first call (h200-r1), resnet50-b32 from run92 (another H200),
# mobilenet-v3-b8, dlrm-b4096 and wav2vec-b8 from run64 (no host timing). run85's inference file and run83's
# mix a, planned and verified here (6 s windows); verify times this node's cores, and `gpupack model replay`
# rebases the timed profiles on it. Only run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
D=results/run99-node-host-speed-h200
P=$OUT/profiles-in; mkdir -p "$P"
cp .device/prev64/*.json "$P/"
cp $D/h200-r1/corpus-inference-r1/profiles/bert-base-b4.json "$P/"
cp results/run92-model-changes-h200/h200-fresh-resnet50/corpus-inference-fresh-resnet50/profiles/resnet50-b32.json "$P/"
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
trap 'bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
run() {  # NAME SOURCE
  local s; s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$2 PROFILES=$P TAG=r2 VERIFY_DURATION=6 \
      timeout 150 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1.log" 2>&1
  echo "$1 rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
run inference results/run85-slowest-run-margin-h200/inference-bert10-h200.yaml
run mix-a results/run83-new-mixes-h200/mix-a-h200.yaml
rm -rf "$P"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
jq -c '.host_core_work' "$OUT"/corpus-*/verify.json 2>/dev/null
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
