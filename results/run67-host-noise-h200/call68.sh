#!/usr/bin/env bash
# run68: does the host's CPU speed move with the launch-bound programs' req/s? /proc/stat (steal) sampled
# every 0.5 s, and a fixed CPU loop timed every 0.5 s on another core, while bert runs alone 4 times.
set -u
G=$PWD/.device/gp
mkdir -p "$OUT/r"
( while :; do echo "$(date +%s.%N) $(head -1 /proc/stat)"; sleep 0.5; done ) >"$OUT/r/stat.txt" &
S1=$!
taskset -c 15 python3 - >"$OUT/r/cpuloop.txt" <<'P' &
import time
end=time.time()+100
while time.time()<end:
    t=time.perf_counter(); x=0
    for i in range(300000): x+=i*i
    print(f"{time.time():.3f} {1e3*(time.perf_counter()-t):.2f}", flush=True)
    time.sleep(0.3)
P
S2=$!
echo "$(date +%s.%N) start" >"$OUT/r/stamps.txt"
timeout 100 $G profile --duration 5 --warmup 2 --baseline-runs 4 --name bert-base-b4 -o "$OUT/r/bert.json" -- python3 examples/clients/bert_base_b4.py >"$OUT/r/bert.txt" 2>&1
echo "$(date +%s.%N) end" >>"$OUT/r/stamps.txt"
kill $S1 $S2
tar czf "$OUT/run.tgz" -C "$OUT" r
grep -A3 "baseline  runs" "$OUT/r/bert.txt"; tail -3 "$OUT/r/stat.txt"
rm -rf "$OUT/r"
