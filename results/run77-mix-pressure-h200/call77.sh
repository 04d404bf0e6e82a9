#!/usr/bin/env bash
# run77: the reporter (`gpupack neighbour --kind reporter`) and three programs beside mixes of neighbours: do
# the neighbours' pressures add up, and does the reporter's growth follow the programs' in a mix? As run76
# (one MPS daemon with private pipe and log folders, quit on exit), each condition's neighbours start
# together, then the reporter (4 s), bert-base-b4, mobilenet-v3-b8 and resnet50-b32 (3 s each) run beside
# them one after another. Only run.tgz is left under $OUT; the table is printed last.
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
  [triad]="$G neighbour --duration 300"
  [dlrm]="python3 $C/dlrm_b4096.py --duration 300"
  [resnet50]="python3 $C/resnet50_b32.py --duration 300"
  [bert]="python3 $C/bert_base_b4.py --duration 300"
  [mobilenet]="python3 $C/mobilenet_v3_b8.py --duration 300"
  [wav2vec]="python3 $C/wav2vec_b8.py --duration 300"
)
declare -A MIX=(
  [none]=""
  [resnet50x2]="resnet50 resnet50"
  [launch6]="bert bert bert mobilenet mobilenet mobilenet"
  [infer8]="resnet50 resnet50 bert bert bert mobilenet mobilenet mobilenet"
  [dlrmx2]="dlrm dlrm"
  [dlrm_resnet50]="dlrm resnet50"
  [sat4]="dlrm dlrm dlrm wav2vec"
  [none2]=""
)
ORDER="none resnet50x2 launch6 infer8 dlrmx2 dlrm_resnet50 sat4 none2"
for cond in $ORDER; do
  s=$(date +%s)
  PIDS=""
  i=0
  for kind in ${MIX[$cond]}; do
    i=$((i + 1))
    GPUPACK_REPORT=$R/$cond-nb$i-$kind.jsonl ${NB[$kind]} >"$R/$cond-nb$i-$kind.out" 2>&1 &
    PIDS="$PIDS $!"
  done
  for f in $(seq 1 $i); do
    for _ in $(seq 1 120); do grep -q '"ready"' "$R/$cond-nb$f-"*.jsonl 2>/dev/null && break; sleep 0.5; done
  done
  [ $i -gt 0 ] && sleep 1
  GPUPACK_REPORT=$R/$cond-reporter.jsonl timeout 60 "$G" neighbour --kind reporter --duration 4 >"$R/$cond-reporter.out" 2>&1
  for v in bert_base_b4:bert mobilenet_v3_b8:mobilenet resnet50_b32:resnet50; do
    GPUPACK_REPORT=$R/$cond-${v#*:}.jsonl timeout 60 python3 "$C/${v%:*}.py" --duration 3 >"$R/$cond-${v#*:}.out" 2>&1
  done
  # shellcheck disable=SC2086
  [ -n "$PIDS" ] && kill $PIDS 2>/dev/null
  wait 2>/dev/null
  echo "$cond $(( $(date +%s) - s )) s" >>"$R/times.txt"
done
quit_mps
trap - EXIT
tar czf "$OUT/run.tgz" -C "$OUT" r
python3 - "$R" "$ORDER" <<'P'
import glob, json, sys, statistics as st
R, order = sys.argv[1], sys.argv[2].split()
def lat(path):
    try:
        v = [json.loads(l)["latency_ms"] for l in open(path) if '"request"' in l]
    except OSError:
        return None
    return v or None
def rate(path):  # requests a second over the condition's victims' windows, from the report's times
    try:
        t = [json.loads(l)["t"] for l in open(path) if '"request"' in l]
    except OSError:
        return 0
    return len(t) / (t[-1] - t[0]) if len(t) > 2 else 0
print(open(R + "/gpu.txt").read().strip())
base = {}
vs = ("reporter", "bert", "mobilenet", "resnet50")
print(f"{'mix':14} " + " ".join(f"{v+' ms':>12} {'+ms':>6}" for v in vs) + "  neighbours' req/s")
for c in order:
    row = {}
    for v in vs:
        x = lat(f"{R}/{c}-{v}.jsonl")
        row[v] = st.mean(x) if x else float('nan')
        if c == "none": base[v] = row[v]
    nb = " ".join(f"{f.split('-')[-1][:-6]}:{rate(f):.0f}" for f in sorted(glob.glob(f"{R}/{c}-nb*.jsonl")))
    print(f"{c:14} " + " ".join(f"{row[v]:12.3f} {row[v]-base[v]:6.2f}" for v in vs) + "  " + nb)
print(open(R + "/times.txt").read())
P
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
