#!/usr/bin/env bash
# run65: how long a neighbour's blocks hold their SMs, and the launch-bound program's wait. mobilenet-v3-b8 beside
# `gpupack neighbour --kind compute --iters N` for N = 40000, 4500 and 500 (about 3.3, 0.37 and 0.04 ms a
# kernel); bert-base-b4 and wav2vec-b8 beside the triad at 100% and beside the compute kind at 4500 (kernels as
# long as the triad's). Only run.tgz is left under $OUT.
set -u
G=$PWD/.device/gp
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
for n in 40000 4500 500; do
  timeout 20 "$G" neighbour --kind compute --iters $n --duration 3 >"$OUT/neighbour-$n.txt" 2>&1
  echo "compute --iters $n: $(cat "$OUT/neighbour-$n.txt")"
done
probe() { # name file iters [triad]
  local s; s=$(date +%s)
  local extra=(--compute-neighbour-cmd "exec $G neighbour --kind compute --iters $3")
  if [ "${4:-}" = triad ]; then extra+=(--sweep 100 --no-grid --neighbour-caps 100); else extra+=(--sweep 100 --no-grid --no-neighbour); fi
  timeout 150 "$G" profile --name "$1" --duration 5 --baseline-runs 1 "${extra[@]}" -o "$OUT/$1-$3.json" \
    -- python3 "examples/clients/$2" --duration 3600 >"$OUT/$1-$3.txt" 2>&1
  echo "$1 iters $3 ${4:-}: rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
for n in 40000 4500 500; do probe mobilenet-v3-b8 mobilenet_v3_b8.py $n; done
probe bert-base-b4 bert_base_b4.py 4500 triad
probe wav2vec-b8 wav2vec_b8.py 4500 triad
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for f in "$OUT"/*-[0-9]*.txt; do echo "== $(basename "$f")"; grep -E "^  alone  |^  mps neighbour alone|^  mps K=1 \+|^  MPS 100%" "$f"; done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
