#!/usr/bin/env bash
# run71: which kind of CPU work moves with bert's modes? An ALU chain, a pointer chase over 1 MiB and over
# 64 MiB timed on vCPU 15 (probes.c), a Python loop on vCPU 14, each every 0.3 s, while bert runs alone
# 4 times (the profile's stderr lines timestamped).
set -u
G=$PWD/.device/gp
mkdir -p "$OUT/r"
.device/exp/probes 15 80 >"$OUT/r/probes.txt" &
P1=$!
taskset -c 14 python3 - >"$OUT/r/pyloop.txt" <<'P' &
import time
end=time.time()+80
while time.time()<end:
    t=time.perf_counter(); x=0
    for i in range(300000): x+=i*i
    print(f"{time.time():.3f} {1e3*(time.perf_counter()-t):.2f}", flush=True)
    time.sleep(0.3)
P
P2=$!
sleep 2
timeout 100 $G profile --duration 8 --warmup 2 --baseline-runs 4 --name bert-base-b4 -o "$OUT/r/bert.json" -- python3 examples/clients/bert_base_b4.py 2> >(while IFS= read -r l; do echo "$(date +%s.%N) $l"; done >"$OUT/r/bert.err") >"$OUT/r/bert.out"
sleep 1
kill $P1 $P2 2>/dev/null
tar czf "$OUT/run.tgz" -C "$OUT" r
grep -E "alone  |host cores" "$OUT/r/bert.err" | cut -c1-200
python3 - "$OUT/r" <<'P'
import sys,statistics as st
d=sys.argv[1]
pr=[l.split() for l in open(d+'/probes.txt')]
py=[l.split() for l in open(d+'/pyloop.txt')]
runs=[float(l.split()[0]) for l in open(d+'/bert.err') if 'baseline, alone, run' in l]
import json
b=json.load(open(d+'/bert.json'))['baseline']['runs']
ends=runs[1:]+[float(pr[-1][0])]
for i,(a,e) in enumerate(zip(runs,ends)):
    s=[x for x in pr if a<=float(x[0])<e]; q=[x for x in py if a<=float(x[0])<e]
    med=lambda v: round(st.median(v),2) if v else None
    print(f"run {i+1} req/s {b[i]['req_per_s']:.0f}: alu {med([float(x[2]) for x in s])} l2 {med([float(x[4]) for x in s])} mem {med([float(x[6]) for x in s])} py {med([float(x[1]) for x in q])}")
P
rm -rf "$OUT/r"
