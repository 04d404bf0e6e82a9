#!/usr/bin/env bash
# run92, sixth call: does dlrm-b4096's tail grow when every host core is busy? dlrm-b4096 profiled alone (one
# 6 s window, no sweep) beside N processes that spin on a core each (`yes >/dev/null`), N = 0, 13, 15, 16 on
# the 16-core host (dlrm itself is one more). Only run.tgz is left under $OUT; a table last.
set -u
G=$PWD/.device/gp
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
"$G" --version >"$OUT/version.txt" 2>&1
nproc >"$OUT/nproc.txt"
for n in 0 13 15 16; do
  pids=()
  for _ in $(seq 1 "$n"); do yes >/dev/null & pids+=($!); done
  timeout 60 "$G" profile --name dlrm-b4096 --duration 6 --baseline-runs 1 --format json -o "$OUT/dlrm-busy$n.json" \
    -- python3 examples/clients/dlrm_b4096.py --duration 3600 >/dev/null 2>"$OUT/dlrm-busy$n.log"
  echo "busy $n rc $?"
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
done
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
python3 - "$OUT" <<'PY'
import json, sys
for n in (0, 13, 15, 16):
    try:
        r = json.load(open(f"{sys.argv[1]}/dlrm-busy{n}.json"))["requests"]
        print(f"spinning {n:2d}: {r['req_per_s']:.1f} req/s, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms")
    except Exception as e:
        print(n, e)
PY
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
