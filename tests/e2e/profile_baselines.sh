#!/usr/bin/env bash
# gpupack profile's repeatable baseline and measured sensitivity with no GPU (issue 36, items 2 and 3): the
# alone baseline over fresh runs (median, spread, the flag), the sweep's reference as the MPS baseline, the
# K-grid under the (fake) private MPS daemon and without it, the program beside a capped neighbour, and the
# bad options. The fake GPU's used memory rises every snapshot, so that each fresh run sees its own
# increase (the fake cannot free a program's memory when it exits as a real GPU does).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD="$(dirname "$GPUPACK")"
CLIENT="$BUILD/tests/measure/fake-client"
FAKE_MPS="$BUILD/tests/fakes/fake-mps-control"
NEIGHBOUR="$ROOT/tests/bench/fake-grid-client.sh"  # as the neighbour: serves its thread cap in req/s
if [ ! -x "$CLIENT" ] || [ ! -x "$FAKE_MPS" ]; then
  echo "fake-client or fake-mps-control not built" >&2
  exit 1
fi
jq -n '{devices: [{uuid: "GPU-11111111-2222-3333-4444-555555555555", name: "NVIDIA H100 80GB HBM3",
        memory_total_bytes: 85520809984, memory_used_samples: [range(0; 4000) | 1073741824 + . * 16777216]}]}' >"$WORK/rising.json"
export GPUPACK_GPU_BACKEND="fake:$WORK/rising.json"
export TMPDIR="$WORK/tmp" FAKE_CLIENT_STATE="$WORK/state"
mkdir -p "$TMPDIR" "$FAKE_CLIENT_STATE"
FAST=(--interval 0.05 --warmup 0.2 --duration 0.6)

# The default: three fresh runs alone, their medians the baseline. (The fake's latencies are the ones it
# models; its req/s is real pacing, which a loaded CI host can spread past 10%: only p50 is exact here.)
run profile "${FAST[@]}" --format json -- "$CLIENT" --startup-ms 100 --latency-us 5000
expect_rc 0
expect_json '.baseline.source == "median of 3 runs" and .baseline.setting == "alone" and (.baseline.runs | length) == 3
             and .baseline.p50_ms == 5 and .baseline.spread.p50_ms == 0 and .baseline.spread_limit == 0.1
             and (.baseline.flag == null or (.baseline.flag | test("p50") | not)) and .baseline.mps == null
             and .requests.p50_ms == 5 and .baseline.req_per_s > 100'
expect_err "baseline, alone, run 3 of 3"
expect_err "^  alone +3 +"
expect_err "planning baseline: median of 3 runs alone"
# --baseline-runs sets the count; the plan entry states what the figures are.
run profile "${FAST[@]}" --baseline-runs 2 -- "$CLIENT" --latency-us 5000
expect_rc 0
expect_out "^# requests, median of 2 runs: [0-9.]+ req/s, p50 5 ms, p99 5 ms"
[ "$(grep -c "baseline, alone, run" <<<"$ERR")" -eq 2 ] || fail "not two runs: $ERR"

# One slow start in three (its requests take 10 ms, the others 5): the median is the fast runs', and the
# baseline is flagged, in the summary, the entry and the JSON.
cat >"$WORK/slow-first.sh" <<EOF2
n=\$(cat "$WORK/starts" 2>/dev/null || echo 0); echo \$((n + 1)) >"$WORK/starts"
if [ "\$n" = 0 ]; then exec "$CLIENT" --latency-us 10000; else exec "$CLIENT" --latency-us 5000; fi
EOF2
run profile "${FAST[@]}" -o "$WORK/slow.json" -- sh "$WORK/slow-first.sh"
expect_rc 0
# The flag ends with how busy the whole host was over the runs (/proc/stat), which tells a noisy host apart.
# Then whether the host's cores kept their speed: a fixed piece of CPU work timed on them in each window.
host_note="; the host over the runs: [0-9.]+-[0-9.]+ cores busy in all(, up to [0-9]+% of its CPU time stolen by the hypervisor)?"
host_note+="; the host's cores (kept their speed: a fixed piece of CPU work took a median of [0-9.e+-]+-[0-9.e+-]+ ms a run \(samples [0-9.e+-]+-[0-9.e+-]+ ms\)|changed speed between runs: a fixed piece of CPU work took a median of [0-9.e+-]+(, [0-9.e+-]+)+ ms by run)"
expect_err "warning: baseline not repeatable: .*p50 spread 100% over 3 runs \(limit 10%\)$host_note$"
expect_out "^# baseline not repeatable: .*p50 spread 100% over 3 runs \(limit 10%\)$host_note$"
jq -e '.baseline.p50_ms == 5 and .baseline.repeatable == false and (.baseline.flag | test("p50 spread 100%"))
       and ([.baseline.runs[].p50_ms] == [10, 5, 5]) and .requests.p50_ms == 5
       and ([.baseline.runs[] | .host_busy_cores >= 0 and .host_steal_share >= 0] | all)
       and ([.baseline.runs[].host_core_work | .samples >= 1 and .low_ms > 0 and .low_ms <= .median_ms and .median_ms <= .high_ms] | all)
       and .host_core_work.samples >= 1 and .host_busy_cores >= 0' "$WORK/slow.json" >/dev/null \
  || fail "slow-first profile: $(jq -c .baseline "$WORK/slow.json")"
# plan reads it (the new fields are optional to the reader).
printf 'workloads:\n  - name: slow\n    profile: "slow.json"\n' >"$WORK/slow.yaml"
run plan "$WORK/slow.yaml" --gpu H100-80GB
expect_rc 0
# A wider limit passes the same runs.
rm -f "$WORK/starts"
run profile "${FAST[@]}" --baseline-spread-limit 1.5 --format json -- sh "$WORK/slow-first.sh"
expect_rc 0
expect_json '.baseline.repeatable == true and .baseline.spread_limit == 1.5'

# --sweep: its reference (100%) runs as often as the baseline, and is the MPS baseline.
run profile "${FAST[@]}" --sweep 100,25 --baseline-spread-limit 0.9 --mps-control "$FAKE_MPS" --format json -- "$CLIENT" --latency-us 5000
expect_rc 0
expect_json '[.sm_share_curve[].runs | length] == [3, 1] and .baseline.mps.setting == "mps-100"
             and (.baseline.mps.runs | length) == 3 and .baseline.mps.p50_ms == 5 and .baseline.mps.repeatable == true'
expect_err "^  MPS 100% +3 +"
# --sweep without --grid also runs the short grid: K = 1 and min(4, usable cores / 2) copies, none below 2
# (the fake GPU's free memory holds them all), without MPS (time-slicing) first, then under the daemon. Which
# branch runs depends on this machine's cores: CI's 2 take the second (the cells: unit tests, ShortGrid.*).
usable=$(nproc)
if [ "$usable" -ge 4 ]; then
  k=$((usable / 2 < 4 ? usable / 2 : 4))
  expect_json "[.colocation.cells[] | [.mode, .k]] == [[\"timeslicing\", 1], [\"timeslicing\", $k], [\"mps\", 1], [\"mps\", $k]]"
  expect_err "co-location, mps K=$k"
else
  expect_json '.colocation == null'
  expect_err "no short co-location grid: 2 copies need 4 usable host cores"
fi
# --sweep also runs beside the standard neighbour (gpupack neighbour) where it can: on NVML with CUDA built in.
# The fake GPU has no CUDA device, so the profile says why it left it out (its command: unit tests,
# StandardNeighbour.*; on a GPU: tests/e2e-gpu/standard_neighbour.sh).
expect_err "no standard neighbour or reporter: the GPU backend is fake, not NVML \\(--neighbour-cmd, --pressure-cmd run yours\\)"
expect_json '.launch_pressure == null'
[[ "$ERR" != *"launch pressure"* ]] || fail "a launch pressure line without the reporter"
run profile "${FAST[@]}" --sweep 100 --no-grid --baseline-runs 1 --mps-control "$FAKE_MPS" --format json -- "$CLIENT" --latency-us 5000
expect_rc 0
expect_json '.colocation == null and (.sm_share_curve | length) == 1'

# --grid: K copies at once (K = 1 added) under the daemon and, with --grid-timeslicing, without it. The fake
# slows x K without MPS and x (K + 3) / 4 under MPS; each copy's host CPU and the node's cores recorded.
run profile "${FAST[@]}" --baseline-runs 1 --grid 2,4 --grid-timeslicing --mps-control "$FAKE_MPS" -o "$WORK/grid.json" \
  --format json -- "$CLIENT" --latency-us 4000
expect_rc 0
expect_json '[.colocation.cells[] | [.mode, .k]] == [["timeslicing", 1], ["timeslicing", 2], ["timeslicing", 4], ["mps", 1], ["mps", 2], ["mps", 4]]'
expect_json '[.colocation.cells[] | .median_p50_ms] == [4, 8, 16, 4, 5, 7] and [.colocation.cells[] | .worst_p99_ms] == [4, 8, 16, 4, 5, 7]'
expect_json '[.colocation.cells[] | .error] == ["", "", "", "", "", ""] and (.colocation.cells[5].copies | length) == 4
             and ([.colocation.cells[] | .host_cpu_cores | type] | unique) == ["number"] and .colocation.node_cores >= 1
             and (.colocation.curves.mps.host_cpu_cores | keys) == ["1", "2", "4"] and .colocation.curves.mps.aggregate_req_per_s["4"] > 0'
expect_err "co-location, mps K=4"
expect_err "^  mps K=4 +[0-9.]+ +7/7 +7/7 +"
# plan predicts from the grid (the existing reader, unchanged).
printf 'workloads:\n  - name: gridded\n    replicas: 4\n    profile: "grid.json"\n' >"$WORK/grid.yaml"
run plan "$WORK/grid.yaml" --gpu H100-80GB --format json
expect_rc 0

# --neighbour-cmd: the program at 100% beside the neighbour alone, then capped at each --neighbour-caps (by
# default 25, 50 and 100: the cell at 100% is where a neighbour can hold every SM, model/saturation_wait.hpp).
run profile "${FAST[@]}" --baseline-runs 1 --neighbour-cmd "$NEIGHBOUR" --mps-control "$FAKE_MPS" \
  --format json -- "$CLIENT" --latency-us 4000
expect_rc 0
expect_json '[.colocation.cells[] | [.k, .with_neighbour, .neighbour_cap]] == [[0, true, null], [1, true, 25], [1, true, 50], [1, true, 100]]'
expect_json '[.colocation.cells[1:3][] | .copies[0].p50_ms] == [5, 6] and .colocation.neighbour_command != null'
expect_json '.colocation.cells[0].neighbour.req_per_s > 60 and .colocation.cells[1].neighbour_fraction < 0.4
             and .colocation.cells[2].neighbour_fraction > 0.35 and .colocation.cells[2].neighbour_fraction < 0.65'
# The GPU's GPM shares over each cell (what the plan reads the others' DRAM draw from): this fake machine's
# GPU has no GPM, so none, and the table says so.
expect_json '[.colocation.cells[] | has("gpu_dram_bw") and .gpu_dram_bw == null and .gpu_sm_active == null
             and has("gpu_sm_occupancy") and .gpu_sm_occupancy == null] | all'
expect_err "GPU SM/DRAM"
[ -z "$(ls -A "$TMPDIR")" ] || fail "scratch directory left behind: $(ls "$TMPDIR")"

# --compute-neighbour-cmd: the program beside the compute-bound neighbour, uncapped, after that neighbour alone,
# in a grid of its own (the wait for SMs a neighbour holds apart from the DRAM; model/saturation_wait.hpp). With
# the standard neighbours (--sweep on NVML) it is `gpupack neighbour --kind compute`.
run profile "${FAST[@]}" --baseline-runs 1 --compute-neighbour-cmd "$NEIGHBOUR" --mps-control "$FAKE_MPS" \
  --format json -- "$CLIENT" --latency-us 4000
expect_rc 0
expect_json '.colocation == null and [.compute_neighbour.cells[] | [.mode, .k, .with_neighbour, .neighbour_cap]] == [["mps", 0, true, null], ["mps", 1, true, null]]'
expect_json '.compute_neighbour.neighbour_command != null and .compute_neighbour.cells[0].neighbour.req_per_s > 0
             and .compute_neighbour.cells[1].copies[0].p50_ms >= 4 and ([.compute_neighbour.cells[] | .error] | unique) == [""]'
expect_err "co-location, mps neighbour alone"
expect_err "^  compute neighbour +req/s"
# The plan reads it back (the profile reader checks the grid).
jq '.compute_neighbour.cells[1].k = "one"' <<<"$OUT" >"$WORK/bad-compute.json"
printf 'workloads:\n  - name: bad\n    profile: "bad-compute.json"\n' >"$WORK/bad-compute.yaml"
run plan "$WORK/bad-compute.yaml" --gpu H100-80GB
expect_usage_error "compute_neighbour"

# --pressure-cmd: the launch-bound reporter alone, then beside one copy uncapped, in a grid of its own; the
# summary gives its request alone and beside (1000 / its req/s: it sends them back to back) and the growth.
# With --sweep on NVML it is `gpupack neighbour --kind reporter` (tests/e2e-gpu/standard_neighbour.sh).
run profile "${FAST[@]}" --baseline-runs 1 --pressure-cmd "$NEIGHBOUR" --mps-control "$FAKE_MPS" \
  --format json -- "$CLIENT" --latency-us 4000
expect_rc 0
expect_json '.compute_neighbour == null and [.launch_pressure.cells[] | [.mode, .k, .with_neighbour, .neighbour_cap, .error]]
             == [["mps", 0, true, null, ""], ["mps", 1, true, null, ""]] and .launch_pressure.cells[1].copies[0].p50_ms >= 4'
alone=$(jq -r '1000 / .launch_pressure.cells[0].neighbour.req_per_s' <<<"$OUT")
beside=$(jq -r '1000 / .launch_pressure.cells[1].neighbour.req_per_s' <<<"$OUT")
line=$(grep "^  launch pressure: " <<<"$ERR") || fail "no launch pressure line: $ERR"
awk -v a="$alone" -v b="$beside" -v l="$line" 'BEGIN {
  n = split(l, w, " "); got_a = w[11]; got_b = w[15]; got_d = w[n - 1]
  if (got_a - a > 0.01 * a || a - got_a > 0.01 * a || got_b - b > 0.01 * b || b - got_b > 0.01 * b) exit 1
  d = b - a; if (got_d - d > 0.01 + 0.01 * (d < 0 ? -d : d) || d - got_d > 0.01 + 0.01 * (d < 0 ? -d : d)) exit 1 }' ||
  fail "the launch pressure line does not give the reporter's request alone ($alone ms), beside ($beside ms) and their difference: $line"
expect_err "^  launch pressure +req/s"
jq '.launch_pressure.cells[0].neighbour.req_per_s = "fast"' <<<"$OUT" >"$WORK/bad-pressure.json"
printf 'workloads:\n  - name: bad\n    profile: "bad-pressure.json"\n' >"$WORK/bad-pressure.yaml"
run plan "$WORK/bad-pressure.yaml" --gpu H100-80GB
expect_usage_error "launch_pressure"
run profile "${FAST[@]}" --sweep 100 --no-pressure --pressure-cmd "$NEIGHBOUR" --mps-control "$FAKE_MPS" -- "$CLIENT"
expect_usage_error "--no-pressure: .* cannot go with --pressure-cmd"

# A program without a client report cannot be gridded.
run profile "${FAST[@]}" --grid 2 --mps-control "$FAKE_MPS" -- "$CLIENT" --mode silent --run-ms 5000
expect_rc 1
expect_err "--grid compares .*client report"
run profile "${FAST[@]}" --pressure-cmd "$NEIGHBOUR" --mps-control "$FAKE_MPS" -- "$CLIENT" --mode silent --run-ms 5000
expect_rc 1
expect_err "--pressure-cmd compares .*client report"

# Bad options: one line, exit 2, before anything runs.
run profile --baseline-runs 0 -- "$CLIENT"
expect_usage_error "--baseline-runs"
run profile --baseline-spread-limit -0.1 -- "$CLIENT"
expect_usage_error "--baseline-spread-limit"
run profile --grid 0,2 -- "$CLIENT"
expect_usage_error "--grid: '0' is not a copy count"
run profile --grid-timeslicing -- "$CLIENT"
expect_usage_error "--grid-timeslicing: .*give --grid"
run profile --sweep --no-grid --grid 2,4 -- "$CLIENT"
expect_usage_error "--no-grid: .*cannot go with --grid 2,4"
run profile --sweep --grid 2,4 --grid-timeslicing --no-grid-timeslicing -- "$CLIENT"
expect_usage_error "--no-grid-timeslicing: .*cannot go with --grid-timeslicing"
run profile --neighbour-caps 25 -- "$CLIENT"
expect_usage_error "--neighbour-caps: .*--neighbour-cmd .*or the standard neighbour --sweep runs"
run profile --sweep --no-neighbour --neighbour-caps 25 -- "$CLIENT"
expect_usage_error "--neighbour-caps: .*--neighbour-cmd"
run profile --sweep --no-neighbour --neighbour-cmd "$NEIGHBOUR" -- "$CLIENT"
expect_usage_error "--no-neighbour: .*cannot go with --neighbour-cmd"
run profile --neighbour-cmd "$NEIGHBOUR" --neighbour-caps 0,50 -- "$CLIENT"
expect_usage_error "--neighbour-caps '0,50'"
echo '{"colocation": {"command": "infer", "neighbour_command": null, "window_s": 5, "cells": []}}' >"$WORK/bench.json"
run profile --grid --colocation "$WORK/bench.json" -- "$CLIENT"
expect_usage_error "--colocation .*give one or the other"
finish
