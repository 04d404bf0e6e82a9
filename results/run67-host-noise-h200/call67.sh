#!/usr/bin/env bash
# run67: where the alone baselines' spread comes from (issue 36, target 3). Per program, fresh runs alone
# (gpupack profile --baseline-runs 4, no MPS), unpinned and pinned to one core with one CPU thread, while
# nvidia-smi samples clocks, power and throttle reasons every 250 ms; and the FMA and triad neighbours alone
# 4 times each (GPU-only work: their spread is the GPU's own).
set -u
G=$PWD/.device/gp
mkdir -p "$OUT/r"
bash .device/mps_cleanup.sh >"$OUT/r/cleanup-before.txt" 2>&1
{ nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER; lscpu; uptime; nproc; cat /proc/cpuinfo | grep MHz | head -20; } >"$OUT/r/machine.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_event_reasons.active --format=csv -lms 250 >"$OUT/r/smi.csv" 2>&1 &
SMI=$!
stamp() { echo "$(date +%s.%N) $*" >>"$OUT/r/stamps.txt"; }
for i in 1 2 3 4; do
  stamp fma $i; $G neighbour --kind compute --duration 3 --warmup 200 >>"$OUT/r/fma.txt" 2>&1
  stamp triad $i; $G neighbour --duration 3 --warmup 200 >>"$OUT/r/triad.txt" 2>&1
done
prof() { # name pin script
  stamp "$1 start"
  if [ "$2" = pinned ]; then
    timeout 150 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $G profile --duration 5 --warmup 2 --baseline-runs 4 --name "$1" -o "$OUT/r/$1-$2.json" -- taskset -c 6 python3 "examples/clients/$3" >"$OUT/r/$1-$2.txt" 2>&1
  else
    timeout 150 $G profile --duration 5 --warmup 2 --baseline-runs 4 --name "$1" -o "$OUT/r/$1-$2.json" -- python3 "examples/clients/$3" >"$OUT/r/$1-$2.txt" 2>&1
  fi
  echo "$1 $2 rc $?" >>"$OUT/r/rc.txt"; stamp "$1 end"
}
prof resnet50-b32 plain resnet50_b32.py
prof resnet50-b32 pinned resnet50_b32.py
prof bert-base-b4 plain bert_base_b4.py
prof bert-base-b4 pinned bert_base_b4.py
prof mobilenet-v3-b8 plain mobilenet_v3_b8.py
prof mobilenet-v3-b8 pinned mobilenet_v3_b8.py
kill $SMI
bash .device/mps_cleanup.sh >>"$OUT/r/cleanup-after.txt" 2>&1
tar czf "$OUT/run.tgz" -C "$OUT" r
cat "$OUT/r/rc.txt"; grep -h "req/s" "$OUT/r/fma.txt" "$OUT/r/triad.txt" | tail -8
python3 - "$OUT/r" <<'P'
import json,sys,glob,os
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    j=json.load(open(f)); b=j.get('baseline') or {}
    print(os.path.basename(f), [round(r.get('req_per_s',0)) for r in b.get('runs',[])], [round(r.get('p50_ms',0),2) for r in b.get('runs',[])])
P
rm -rf "$OUT/r"
