#!/usr/bin/env bash
# run72: the Python loop on vCPU 14 beside the C probes on vCPU 15 (now with an 8 MiB mmap, touch and munmap:
# page faults), 45 s, nothing on the GPU: which of them moves like the interpreter loop?
set -u
mkdir -p "$OUT/r"
.device/exp/probes 15 45 >"$OUT/r/probes.txt" &
taskset -c 14 python3 - >"$OUT/r/pyloop.txt" <<'P'
import time
end=time.time()+45
while time.time()<end:
    t=time.perf_counter(); x=0
    for i in range(300000): x+=i*i
    print(f"{time.time():.3f} {1e3*(time.perf_counter()-t):.2f}", flush=True)
    time.sleep(0.3)
P
wait
tar czf "$OUT/run.tgz" -C "$OUT" r
python3 - "$OUT/r" <<'P'
import sys,statistics as s
d=sys.argv[1]
v=[float(l.split()[1]) for l in open(d+'/pyloop.txt')]; print('py',len(v),min(v),s.median(v),max(v))
p=[l.split() for l in open(d+'/probes.txt')]
for k,i in (('alu',2),('l2',4),('mem',6),('fault',8)):
  v=[float(x[i]) for x in p]; print(k,len(v),min(v),round(s.median(v),3),max(v))
P
rm -rf "$OUT/r"
