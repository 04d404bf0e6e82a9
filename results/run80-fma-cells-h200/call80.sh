#!/usr/bin/env bash
# run80: (1) tests/e2e-gpu/launch_pressure_mixes.sh with its defaults (its first run on a GPU); (2) short
# profiles of five corpus programs beside FMA kernels of 0.046 ms (`neighbour --kind compute --iters 500`,
# no DRAM): the program's wait for SMs a neighbour holds, without the triad's DRAM. Only run.tgz is left.
set -u
G=$PWD/.device/gp
R=$OUT/r
mkdir -p "$R/profiles"
bash .device/mps_cleanup.sh >"$R/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$R/gpu.txt"
s=$(date +%s)
( OUT=$R timeout 200 bash tests/e2e-gpu/launch_pressure_mixes.sh "$G" ) >"$R/mixes.log" 2>&1
echo "launch_pressure_mixes rc $? in $(( $(date +%s)-s )) s" | tee "$R/mixes-rc.txt"
bash .device/mps_cleanup.sh >>"$R/cleanup-between.txt" 2>&1
for w in ${PROGRAMS:-bert_base_b4 mobilenet_v3_b8 resnet50_b32 wav2vec_b8 dlrm_b4096}; do
  [ $(( $(date +%s)-s )) -gt ${BUDGET_S:-540} ] && { echo "skip $w (time)"; continue; }
  n=${w//_/-}
  t=$(date +%s)
  timeout 120 "$G" profile --name "$n" --duration 4 --baseline-runs 1 --repeat 1 --sweep 100 --no-grid \
    --no-neighbour --no-pressure --compute-neighbour-cmd "exec $G neighbour --kind compute --iters 500" \
    -o "$R/profiles/$n.json" -- python3 examples/clients/$w.py --duration 3600 >"$R/profiles/$n.txt" 2>&1
  echo "profile $n rc $? in $(( $(date +%s)-t )) s"
  bash .device/mps_cleanup.sh >>"$R/cleanup-between.txt" 2>&1
done
tar czf "$OUT/run.tgz" -C "$OUT" r 2>/dev/null
cat "$R/launch-pressure-mixes/table.txt" 2>/dev/null; tail -3 "$R/mixes.log"
for f in "$R"/profiles/*.txt; do echo "== $f"; grep -iE "compute neighbour|alone" "$f" | head -6; done
rm -rf "$R"
