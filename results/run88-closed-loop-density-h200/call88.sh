#!/usr/bin/env bash
# run88: the closed loop where the plan stopped short of the density (run87's inference-mobilenet16: 10
# mobilenet-v3-b8 placed, 16 fit, held back by bert-base-b4's over-predicted p99): the same scenario planned
# with `--observed` run87's verify.json and searched again (to 16, steps of 2), from run64's profiles. Only
# run.tgz is left under $OUT; tables last.
set -u
G=$PWD/.device/gp
P=.device/prev64
S=results/run87-plan-max-h200
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
s=$(date +%s)
( OUT=$OUT CORPUS_SCENARIO=inference-mobilenet16 CORPUS_SOURCE=$S/inference-mobilenet16-h200.yaml PROFILES=$P \
    TAG=r2-observed SEARCH=mobilenet-v3-b8 SEARCH_MAX=16 SEARCH_STEP=2 VERIFY_DURATION=6 \
    OBSERVED=$S/h200/corpus-inference-mobilenet16-search/verify.json \
    timeout 400 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/inference-mobilenet16-r2-observed.log" 2>&1
echo "inference-mobilenet16 r2-observed rc $? in $(( $(date +%s)-s )) s"
bash .device/mps_cleanup.sh >"$OUT/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; cat "$t"; done
grep -h "GPU activity\|density search" "$OUT"/corpus-*/verify.txt
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
