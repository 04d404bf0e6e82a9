#!/usr/bin/env bash
# run92, third call: does the GPU's or the host's clock follow the load? bert-base-b4 profiled (3 runs alone,
# then its MPS grid at 1 and 8 copies) while nvidia-smi logs the SM and memory clocks, the GPU's utilisation
# and power every 200 ms (read-only queries) and /proc/cpuinfo's core clocks are sampled every second; each
# progress line of the profile is stamped with the time, so the clocks can be read per run.
set -u
G=$PWD/.device/gp
C=examples/clients
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
"$G" --version >"$OUT/version.txt" 2>&1
export TMPDIR=$OUT/tmp; mkdir -p "$TMPDIR"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw,clocks_throttle_reasons.active \
  --format=csv,noheader -lms 200 >"$OUT/gpu-clocks.csv" 2>&1 &
smi=$!
( while sleep 1; do echo "$(date +%s.%N) $(awk '/^cpu MHz/ {s+=$4; n++; if ($4>m) m=$4} END {printf "%.0f %.0f", s/n, m}' /proc/cpuinfo)"; done ) >"$OUT/cpu-mhz.txt" &
cpu=$!
trap 'kill $smi $cpu 2>/dev/null; bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
s=$(date +%s)
timeout 200 "$G" profile --name bert-base-b4 --duration 6 --baseline-runs 3 --grid 8 --format json \
  -o "$OUT/bert-clocks.json" -- python3 "$C/bert_base_b4.py" --duration 3600 2>&1 >/dev/null |
  while IFS= read -r l; do echo "$(date +%s.%N) $l"; done >"$OUT/profile.log"
echo "profile rc ${PIPESTATUS[0]} in $(( $(date +%s)-s )) s"
kill $smi $cpu 2>/dev/null
rm -rf "$TMPDIR"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
python3 - "$OUT" <<'PY'
import json, sys, datetime
o = sys.argv[1]
marks = []
for l in open(o + "/profile.log"):
    t, _, msg = l.partition(" ")
    marks.append((float(t), msg.strip()))
rows = []
for l in open(o + "/gpu-clocks.csv"):
    f = [x.strip() for x in l.split(",")]
    try:
        t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        rows.append((t, float(f[1].split()[0]), float(f[3].split()[0]), float(f[4].split()[0])))
    except Exception: pass
cpu = []
for l in open(o + "/cpu-mhz.txt"):
    p = l.split()
    if len(p) == 3: cpu.append((float(p[0]), float(p[1]), float(p[2])))
for (t0, m), (t1, _) in zip(marks, marks[1:] + [(1e18, "")]):
    r = [x for x in rows if t0 <= x[0] < t1 and x[2] > 0]
    c = [x for x in cpu if t0 <= x[0] < t1]
    if not r: continue
    sm = sorted(x[1] for x in r); ut = sorted(x[2] for x in r)
    print(f"{m[:60]:60s} n={len(r):3d} sm MHz median {sm[len(sm)//2]:.0f} min {sm[0]:.0f}  util {ut[len(ut)//2]:.0f}%  cpu MHz {sorted(x[1] for x in c)[len(c)//2] if c else 0:.0f}")
try:
    b = json.load(open(o + "/bert-clocks.json"))
    print("baseline runs", [r["req_per_s"] for r in b["baseline"]["runs"]])
    for c in b["colocation"]["cells"]:
        if c["mode"] == "mps": print("mps K", c["k"], round(c["aggregate_req_per_s"] / c["k"], 1), "per copy")
except Exception as e: print(e)
PY
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
