#!/usr/bin/env bash
# run76: does a launch-bound probe (`gpupack neighbour --kind reporter`, 32 short kernels a request) feel a
# neighbour the way launch-bound programs do? Under one MPS daemon (private pipe and log folders, quit on
# exit), each neighbour runs on its own while the reporter (4 s), bert-base-b4 (4 s) and mobilenet-v3-b8 (4 s)
# run beside it one after another; every request's latency comes from the client report. Only run.tgz is
# left under $OUT; the table is printed last.
set -u
G=$PWD/.device/gp
R=$OUT/r
mkdir -p "$R"
bash .device/mps_cleanup.sh >"$R/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$R/gpu.txt"
M=$(mktemp -d)
export CUDA_MPS_PIPE_DIRECTORY=$M/mps-pipe CUDA_MPS_LOG_DIRECTORY=$M/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
quit_mps() { echo quit | timeout 10 nvidia-cuda-mps-control >/dev/null 2>&1; bash .device/mps_cleanup.sh >"$R/cleanup-after.txt" 2>&1; }
trap quit_mps EXIT
nvidia-cuda-mps-control -d
C=examples/clients
declare -A NB=(
  [none]=""
  [triad]="$G neighbour --duration 300"
  [fma4500]="$G neighbour --kind compute --duration 300"
  [fma500]="$G neighbour --kind compute --iters 500 --duration 300"
  [dlrm]="python3 $C/dlrm_b4096.py --duration 300"
  [resnet50]="python3 $C/resnet50_b32.py --duration 300"
  [bert]="python3 $C/bert_base_b4.py --duration 300"
  [mobilenet]="python3 $C/mobilenet_v3_b8.py --duration 300"
)
ORDER="none triad fma4500 fma500 dlrm dlrm3 resnet50 bert mobilenet none2"
start_neighbour() { # kind cond copy
  local cmd=${NB[$1]}
  GPUPACK_REPORT=$R/$2-nb$3.jsonl $cmd >"$R/$2-nb$3.out" 2>&1 &
  PIDS="$PIDS $!"
}
for cond in $ORDER; do
  s=$(date +%s)
  PIDS=""
  case $cond in dlrm3) base=dlrm ;; none2) base=none ;; *) base=$cond ;; esac
  n=1; [ "$cond" = dlrm3 ] && n=3
  if [ -n "${NB[$base]}" ]; then
    for i in $(seq 1 $n); do start_neighbour "$base" "$cond" "$i"; done
    for i in $(seq 1 $n); do
      for _ in $(seq 1 120); do grep -q '"ready"' "$R/$cond-nb$i.jsonl" 2>/dev/null && break; sleep 0.5; done
    done
    sleep 1
  fi
  GPUPACK_REPORT=$R/$cond-reporter.jsonl timeout 60 "$G" neighbour --kind reporter --duration 4 >"$R/$cond-reporter.out" 2>&1
  GPUPACK_REPORT=$R/$cond-bert.jsonl timeout 60 python3 $C/bert_base_b4.py --duration 4 >"$R/$cond-bert.out" 2>&1
  GPUPACK_REPORT=$R/$cond-mobilenet.jsonl timeout 60 python3 $C/mobilenet_v3_b8.py --duration 4 >"$R/$cond-mobilenet.out" 2>&1
  # shellcheck disable=SC2086
  [ -n "$PIDS" ] && kill $PIDS 2>/dev/null; wait 2>/dev/null
  echo "$cond $(( $(date +%s) - s )) s" >>"$R/times.txt"
done
quit_mps
trap - EXIT
tar czf "$OUT/run.tgz" -C "$OUT" r
python3 - "$R" <<'P'
import json, sys, statistics as st
R = sys.argv[1]
def lat(path):
    try:
        v = [json.loads(l)["latency_ms"] for l in open(path) if '"request"' in l]
    except OSError:
        return None
    return v or None
order = "none triad fma4500 fma500 dlrm dlrm3 resnet50 bert mobilenet none2".split()
base = {}
print(open(R + "/gpu.txt").read().strip())
print(f"{'neighbour':10} {'reporter ms':>12} {'+ms':>7} {'bert ms':>8} {'+ms':>7} {'p99':>6} {'mobilenet ms':>12} {'+ms':>7} {'p99':>6} {'bert/rep':>8} {'mob/rep':>8}")
for c in order:
    row = {}
    for v in ("reporter", "bert", "mobilenet"):
        x = lat(f"{R}/{c}-{v}.jsonl")
        row[v] = (st.mean(x), sorted(x)[int(0.99 * (len(x) - 1))]) if x else (float('nan'), float('nan'))
        if c == "none": base[v] = row[v][0]
    ex = {v: row[v][0] - base[v] for v in row}
    r = ex["reporter"]
    print(f"{c:10} {row['reporter'][0]:12.3f} {ex['reporter']:7.3f} {row['bert'][0]:8.2f} {ex['bert']:7.2f} {row['bert'][1]:6.1f} {row['mobilenet'][0]:12.2f} {ex['mobilenet']:7.2f} {row['mobilenet'][1]:6.1f} "
          f"{ex['bert']/r if abs(r) > 1e-3 else float('nan'):8.1f} {ex['mobilenet']/r if abs(r) > 1e-3 else float('nan'):8.1f}")
print(open(R + "/times.txt").read())
P
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
