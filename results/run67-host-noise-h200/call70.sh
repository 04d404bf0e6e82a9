#!/usr/bin/env bash
# run70: on one machine, bert alone 4 runs (the profile's ALU probe in each window) while a Python loop is
# timed on core 15 every 0.3 s: does the interpreter loop move where the ALU chain does not?
set -u
G=$PWD/.device/gp
mkdir -p "$OUT/r"
taskset -c 15 python3 - >"$OUT/r/cpuloop.txt" <<'P' &
import time
end=time.time()+75
while time.time()<end:
    t=time.perf_counter(); x=0
    for i in range(300000): x+=i*i
    print(f"{time.time():.3f} {1e3*(time.perf_counter()-t):.2f}", flush=True)
    time.sleep(0.3)
P
S2=$!
timeout 100 $G profile --duration 5 --warmup 2 --baseline-runs 4 --name bert-base-b4 -o "$OUT/r/bert.json" -- python3 examples/clients/bert_base_b4.py >"$OUT/r/bert.txt" 2>&1
kill $S2
tar czf "$OUT/run.tgz" -C "$OUT" r
grep -E "^  (alone|host cores|warning)" "$OUT/r/bert.txt"
python3 -c "
import statistics as s
v=[float(l.split()[1]) for l in open('$OUT/r/cpuloop.txt')]
print('python loop ms: n',len(v),'min',min(v),'median',s.median(v),'max',max(v), 'share>1.5x min', sum(x>1.5*min(v) for x in v)/len(v))"
rm -rf "$OUT/r"
