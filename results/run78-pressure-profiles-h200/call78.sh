#!/usr/bin/env bash
# run78: the launch pressure as `gpupack profile --sweep` now measures it (the reporter alone, then beside one
# copy at 100%), for five corpus programs, against run76's hand-run figures; then the GPU test of the standard
# neighbours (tests/e2e-gpu/standard_neighbour.sh, which checks the reporter by hand and in a profile). Only
# run.tgz is left under $OUT; a table is printed last.
set -u
G=$PWD/.device/gp
R=$OUT/r
mkdir -p "$R"
bash .device/mps_cleanup.sh >"$R/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$R/gpu.txt"
for w in resnet50_b32 dlrm_b4096 bert_base_b4 mobilenet_v3_b8 wav2vec_b8; do
  s=$(date +%s)
  timeout 150 "$G" profile --duration 4 --baseline-runs 1 --repeat 1 --sweep 100 --no-grid --no-neighbour \
    -o "$R/$w.json" -- python3 "examples/clients/$w.py" --duration 3600 >"$R/$w.out" 2>"$R/$w.txt"
  echo "$w rc $? in $(( $(date +%s) - s )) s" >>"$R/times.txt"
  bash .device/mps_cleanup.sh >>"$R/cleanup-between.txt" 2>&1
done
s=$(date +%s)
( OUT=$R timeout 240 bash tests/e2e-gpu/standard_neighbour.sh "$G" ) >"$R/standard-neighbour.log" 2>&1
echo "standard_neighbour.sh rc $? in $(( $(date +%s) - s )) s" >>"$R/times.txt"
bash .device/mps_cleanup.sh >"$R/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" r
cat "$R/gpu.txt"
grep -h "launch pressure:" "$R"/*.txt
tail -3 "$R/standard-neighbour.log"
cat "$R/times.txt"
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
