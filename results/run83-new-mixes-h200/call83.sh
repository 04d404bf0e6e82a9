#!/usr/bin/env bash
# run83: two mixes no run had measured (mix-a-h200.yaml, mix-b-h200.yaml here), planned by the committed model
# (the wait carried on the SMs' overload) from run64's profiles and verified; the first with MEASURE_ALONE=1.
# Only run.tgz is left under $OUT; tables printed last.
set -u
G=$PWD/.device/gp
P=.device/prev64
D=results/run83-new-mixes-h200
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
for m in a b; do
  s=$(date +%s)
  ( OUT=$OUT CORPUS_SCENARIO=mix-$m CORPUS_SOURCE=$D/mix-$m-h200.yaml PROFILES=$P TAG=r1 MEASURE_ALONE=$([ $m = a ] && echo 1) \
      timeout 200 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/mix-$m.log" 2>&1
  echo "mix-$m rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
done
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
tail -3 "$OUT"/mix-*.log
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
