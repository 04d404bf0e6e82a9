#!/usr/bin/env bash
# GPU diagnosis (label gpu), issue 36 item 2: why a program's baseline alone varies from run to run. Profiles
# one example client alone (no sweep) in three ways, each `--baseline-runs RUNS`:
#   free:   as gpupack runs it (the scheduler picks its cores);
#   pinned: the same under `taskset -c PIN_CORE` (one core of its own for the whole process);
#   long:   free, with a window LONG_WINDOW seconds long;
#   clocks: the program run directly RUNS times for LONG_WINDOW seconds each, its client report kept, while
#           nvidia-smi samples the GPU's SM clock, power and P-state every 200 ms (read only): per second of
#           each run its median latency beside the GPU's median SM clock, to tell whether a slow run is a
#           slow GPU clock.
# and prints per run its req/s, p50, the host cores its process tree used and how busy the whole host was
# (host_busy_cores, host_steal_share: /proc/stat over the window), then each way's spread. With it the
# host's CPU and NUMA layout and its GPU's CPU affinity. A spread gone when pinned names the scheduler's core
# choice; a spread that stays names the program or the GPU. Never changes the GPU's settings.
#   CLIENT=bert_base_b4.py, PROFILE_WINDOW=6, LONG_WINDOW=20, RUNS=5, PIN_CORE=2, WAYS="free pinned long"
# Writes <way>.json, <way>.txt, host.txt and table.txt under $OUT/baseline-noise when OUT is set (else a temp dir).
RESULTS="${OUT:-}"  # the device machine's output folder; lib.sh reuses the name OUT for stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
CLIENTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../examples/clients" && pwd)"
SCRIPT=${CLIENT:-bert_base_b4.py}
WINDOW=${PROFILE_WINDOW:-6}
RUNS=${RUNS:-5}
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU here" >&2; exit 1; }
DEST="${RESULTS:-$WORK}/baseline-noise"
mkdir -p "$DEST"
{
  lscpu
  echo "== numa"; (numactl --hardware 2>/dev/null || ls /sys/devices/system/node/)
  echo "== gpu topology"; nvidia-smi topo -m 2>&1
  echo "== cpu MHz"; grep MHz /proc/cpuinfo | sort | uniq -c
  echo "== governor"; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>&1 || true
} >"$DEST/host.txt" 2>&1 || true

read -ra ways <<<"${WAYS:-free pinned long}"
for way in "${ways[@]}"; do
  if [ "$way" = clocks ]; then
    for n in $(seq "$RUNS"); do
      nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu --format=csv,noheader,nounits \
        -lms 200 >"$DEST/clocks-$n.csv" 2>/dev/null &
      smi=$!
      GPUPACK_REPORT="$DEST/report-$n.jsonl" timeout $((${LONG_WINDOW:-20} + 60)) \
        python3 "$CLIENTS/$SCRIPT" --duration "${LONG_WINDOW:-20}" >/dev/null 2>&1 || true
      kill "$smi" 2>/dev/null || true
      wait "$smi" 2>/dev/null || true
    done
    continue
  fi
  cmd=(python3 "$CLIENTS/$SCRIPT" --duration 3600)
  window=$WINDOW
  case $way in
    pinned) cmd=(taskset -c "${PIN_CORE:-2}" "${cmd[@]}") ;;
    long) window=${LONG_WINDOW:-20} ;;
  esac
  echo "== $way" >&2
  run profile --name noise --duration "$window" --baseline-runs "$RUNS" -o "$DEST/$way.json" -- "${cmd[@]}"
  printf '%s\n%s\n' "$ERR" "$OUT" >"$DEST/$way.txt"
  expect_rc 0
done

python3 - "$DEST" "${ways[@]}" >"$DEST/table.txt" <<'PY'
import datetime, glob, json, os, statistics, sys
dest, ways = sys.argv[1], sys.argv[2:]
def spread(values):
    values = sorted(values)
    return (values[-1] - values[0]) / values[len(values) // 2]
print("way     run  req/s   p50 ms  p99 ms  own cores  host busy cores  stolen")
def clocks_table():
    # Per run and second of its requests: the median latency and the GPU's median SM clock then.
    print("clocks: run, second: median latency ms, requests, GPU SM clock MHz (median), P-state, GPU util %")
    for n in range(1, 100):
        rpath, cpath = f"{dest}/report-{n}.jsonl", f"{dest}/clocks-{n}.csv"
        if not os.path.exists(rpath):
            break
        lines = [json.loads(l) for l in open(rpath) if l.strip()]
        reqs = [l for l in lines if l.get("event") == "request"]
        if not reqs:
            print(f"  run {n}: no request reported")
            continue
        samples = []
        for row in open(cpath):
            f = [x.strip() for x in row.split(",")]
            try:
                samples.append((datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp(), float(f[1]), f[4], f[5]))
            except (ValueError, IndexError):
                pass
        # The report's clock is monotonic: align its last request with the last clock sample (both stop together).
        shift = samples[-1][0] - reqs[-1]["t"] if samples else 0
        t0 = reqs[0]["t"]
        by_second = {}
        for r in reqs:
            by_second.setdefault(int(r["t"] - t0), []).append(r["latency_ms"])
        all_lat = statistics.median(r["latency_ms"] for r in reqs)
        print(f"  run {n}: {len(reqs)} requests, median {all_lat:.3f} ms")
        for sec, lat in sorted(by_second.items()):
            lo, hi = t0 + sec + shift, t0 + sec + 1 + shift
            s = [x for x in samples if lo <= x[0] < hi]
            clock = statistics.median(x[1] for x in s) if s else float("nan")
            print(f"    {sec:>3}s {statistics.median(lat):7.3f} {len(lat):5d} {clock:7.0f} {s[0][2] if s else '-':>4} {s[0][3] if s else '-':>4}")
for way in ways:
    if way == "clocks":
        clocks_table()
        continue
    path = f"{dest}/{way}.json"
    if not os.path.exists(path):
        continue
    b = json.load(open(path))["baseline"]
    for n, r in enumerate(b["runs"], 1):
        busy, steal = r.get("host_busy_cores"), r.get("host_steal_share")
        print(f"{way:<8}{n:<5}{r['req_per_s']:<8.1f}{r['p50_ms']:<8.3f}{r['p99_ms']:<8.3f}{r.get('host_cpu_cores') or 0:<11.2f}"
              f"{'-' if busy is None else f'{busy:.2f}':<17}{'-' if steal is None else f'{100 * steal:.1f}%'}")
    print(f"{way:<8}spread req/s {100 * spread([r['req_per_s'] for r in b['runs']]):.0f}%, "
          f"p50 {100 * spread([r['p50_ms'] for r in b['runs']]):.0f}%")
PY
cat "$DEST/table.txt"
finish
