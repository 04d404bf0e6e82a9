#!/usr/bin/env bash
# Does our own monitoring lengthen the clients' tails? One scenario's plan verified once per configuration
# on the GPU machine (not a ctest test: the driver of results/verify-profiled-h100/run27). Usage:
#   AB_CONFIGS="tag:dmon:sample[:query] ..." [AB_SCENARIO=density-r40-h100] [AB_BUDGET=540] \
#     bash tests/e2e-gpu/monitoring_ab.sh path/to/gpupack
# dmon: 1 runs `nvidia-smi dmon` beside verify, 0 not; sample: verify's --sample-interval; query=1 also runs
# `nvidia-smi --query-compute-apps` once a second and times each call (<tag>-query.txt). Run 27 used
# AB_CONFIGS="C:0:5 A:1:0.5 B:0:0.5 E:0:5:1 D:1:5". Each configuration's verify_batch.sh folder goes to
# $OUT/<tag>-run; prints per configuration the shared stalls and the resnets' p99, last.
set -u
GPUPACK=$(realpath "${1:?usage: $0 path/to/gpupack}")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
R=${OUT:-$(mktemp -d)}
mkdir -p "$R"
start=$(date +%s)
for c in ${AB_CONFIGS:?give AB_CONFIGS=\"tag:dmon:sample[:query] ...\"}; do
  IFS=: read -r tag dmon sample query <<<"$c"
  el=$(($(date +%s) - start))
  if [ "$el" -gt $((${AB_BUDGET:-540} - 75)) ]; then
    echo "skip $tag at ${el}s" >>"$R/skipped.txt"
    continue
  fi
  QP=
  if [ "${query:-0}" = 1 ]; then
    (
      while :; do
        s=$(date +%s.%N)
        nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader >/dev/null 2>&1
        e=$(date +%s.%N)
        awk -v s="$s" -v e="$e" 'BEGIN{print s, (e-s)*1000}'
        sleep 1
      done
    ) >"$R/$tag-query.txt" &
    QP=$!
  fi
  OUT="$R/$tag-run" VERIFY_DMON=$dmon VERIFY_BATCH="$tag:${AB_SCENARIO:-density-r40-h100}:VERIFY_SAMPLE=$sample" \
    VERIFY_WINDOW=${VERIFY_WINDOW:-8} timeout -s INT $((${AB_BUDGET:-540} - el)) \
    bash "$HERE/verify_batch.sh" "$GPUPACK" >"$R/$tag.out" 2>&1
  [ -z "$QP" ] || kill "$QP"
  echo "$tag $(($(date +%s) - start))s" >>"$R/times.txt"
done
python3 - "$R" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-run/*/verify.json")):
    v = json.load(open(f)); tag = f.split("/")[-2]
    st = v["slices"][0].get("shared_stalls") or {}
    rs = [r for r in v["replicas"] if r["workload"] == "resnet18-b1"]
    if not rs: continue
    p99 = sorted(r["p99_ms"]["mean"] for r in rs)
    worst = max(max(r["p99_ms"]["runs"]) for r in rs)
    broke = sum(1 for r in rs if r.get("slo_met") is False)
    print(f"{tag:5s} n={len(rs)} stalls={st.get('events')} p99 median {p99[len(p99)//2]:.2f} max {p99[-1]:.2f} "
          f"worst window {worst:.2f} SLO broken {broke}")
for q in sorted(glob.glob(sys.argv[1] + "/*-query.txt")):
    ms = sorted(float(l.split()[1]) for l in open(q) if len(l.split()) == 2)
    if ms: print(q.split("/")[-1], "calls", len(ms), "median %.1f ms, max %.1f" % (ms[len(ms) // 2], ms[-1]))
PY
cat "$R/times.txt" "$R/skipped.txt" 2>/dev/null
