#!/usr/bin/env bash
# run58: bert-base-b4 beside 1, 2 and 3 saturating neighbours at 100% of the threads (dlrm-b4096 copies and
# copies of the standard neighbour), and mobilenet-v3-b8 beside 1 and 3 dlrm (a second launch-bound program).
set -u
G=$PWD/.device/gp
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
trap 'bash .device/mps_cleanup.sh >"$OUT/cleanup-after.txt" 2>&1' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
DL="python3 examples/clients/dlrm_b4096.py --duration 3600"
ST="$G neighbour --duration 3600"
copies() { local n=$1 c=$2 s="" i; for ((i=0;i<n;i++)); do s+="$c & "; done; echo "${s}wait"; }
probe() { # name program neighbour-kind n
  local name=$1 prog=$2 kind=$3 n=$4 cmd s
  if [ "$kind" = dlrm ]; then cmd=$(copies "$n" "$DL"); else cmd=$(copies "$n" "$ST"); fi
  s=$(date +%s)
  timeout 100 "$G" profile --name "$name" --duration 5 --baseline-runs 1 --sweep 100 --no-grid --neighbour-caps 100 \
    --neighbour-cmd "$cmd" -o "$OUT/$name-$kind$n.json" -- python3 "examples/clients/$prog" --duration 3600 \
    >"$OUT/$name-$kind$n.txt" 2>&1
  echo "$name beside $n $kind: rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
for n in 1 2 3; do probe bert-base-b4 bert_base_b4.py dlrm $n; done
for n in 1 2 3; do probe bert-base-b4 bert_base_b4.py std $n; done
for n in 1 3; do probe mobilenet-v3-b8 mobilenet_v3_b8.py dlrm $n; done
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for f in "$OUT"/*-*[0-9].txt; do echo "== $(basename "$f")"; grep -hE "^  alone  |mps neighbour alone|mps K=1 \+" "$f"; done
