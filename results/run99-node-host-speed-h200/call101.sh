#!/usr/bin/env bash
# run99, third call: is bert-base-b4's run-to-run level (one host, plain runs 209, 327 and 223 req/s in the
# first call's profile, p50 2.5 ms or 4.7 ms) the core its client runs on? The machine's CPU and GPU topology,
# then bert-base-b4 alone (plain, one 4 s window, `gpupack profile --baseline-runs 1`, no sweep) three times
# unpinned and once pinned (`taskset -c CORE`) to each even core. Only run.tgz is left under $OUT; a table last.
set -u
G=$PWD/.device/gp
C=examples/clients
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
trap 'bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
{ nvidia-smi --query-gpu=name,pci.bus_id --format=csv,noheader; nvidia-smi topo -m; lscpu; numactl -H 2>&1;
  grep MHz /proc/cpuinfo; } >"$OUT/topology.txt" 2>&1
one() {  # TAG [CORE]
  local pin=()
  [ -n "${2:-}" ] && pin=(taskset -c "$2")
  timeout 45 "$G" profile --name bert-base-b4 --duration 4 --baseline-runs 1 --format json -o "$OUT/bert-$1.json" \
    -- "${pin[@]}" python3 $C/bert_base_b4.py --duration 3600 >/dev/null 2>"$OUT/bert-$1.log"
  echo "$1 rc $?"
}
for i in 1 2 3; do one "free$i"; done
for c in 0 2 4 6 8 10 12 14; do one "core$c" "$c"; done
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
grep -E "^NUMA|^Model name|^CPU\(s\)|Socket" "$OUT/topology.txt"
python3 - "$OUT" <<'PY'
import glob, json, os, sys
for f in sorted(glob.glob(f"{sys.argv[1]}/bert-*.json")):
    try:
        d = json.load(open(f)); r = d["requests"]; w = (d.get("host_core_work") or {}).get("median_ms")
        print(f"{os.path.basename(f)[5:-5]:8} {r['req_per_s']:7.1f} req/s  p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  host work {w}")
    except Exception as e:
        print(f, e)
PY
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
