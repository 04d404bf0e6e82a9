#!/usr/bin/env bash
# End-to-end: `gpupack verify` on a fake machine (GPUPACK_GPU_BACKEND=fake:...) with the fake MPS control
# program and fake client programs that speak the client report (tests/fakes/fake_report_client.sh):
# start, ready/go, the window, the stop on success, failure and SIGINT, an SLO breach (exit 1), bad input
# (exit 2), and that nothing is left running afterwards. Windows are short (0.3 s after a 0.5 s warm-up).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FAKE_MPS="$(dirname "$GPUPACK")/tests/fakes/fake-mps-control"
[ -x "$FAKE_MPS" ] || { echo "fake-mps-control not built at $FAKE_MPS" >&2; exit 1; }
CLIENT="$ROOT/tests/fakes/fake_report_client.sh"
# The fake GPU lists processes by PID (4242, 4343, 5151); verify counts a process's GPU memory against the
# replica whose process tree holds that PID, so a fake client that happened to get one of those PIDs on the
# test machine was "over its memory limit" (CI, 2026-11-26). Here they are moved past PID_MAX_LIMIT
# (4194304), where no process can be.
jq '(.devices[].processes[]?.pid) |= . + 4194304' "$ROOT/tests/fakes/machines/two-gpus.json" >"$WORK/two-gpus.json"
export GPUPACK_GPU_BACKEND="fake:$WORK/two-gpus.json"
# gpupack's scratch directories land here, so leftovers can be told apart from other tests' processes.
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR" "$WORK/env"

cat >"$WORK/s.yaml" <<'EOF'
fleet:
  - model: H100-80GB
    count: 1
    node_prefix: node
workloads:
  - name: fast
    replicas: 3
    memory: 1GiB
    compute: 0.2
    latency_slo_ms: 30
    p99_alone_ms: 10
    isolation: memory
  - name: batch
    replicas: 1
    memory: 2GiB
    compute: 0.3
    isolation: memory
EOF
run plan "$WORK/s.yaml" --format json
expect_rc 0
echo "$OUT" >"$WORK/plan.json"
expect_json '.gpus[0].mode == "mps" and (.placements | length) == 4'

# Processes this test started that still run: fake clients, or fake MPS daemons of gpupack's scratch.
leftovers() {
  local pid found=""
  for pid in $(pgrep -f "$CLIENT" || true) $(pgrep -f "$FAKE_MPS" || true); do
    if { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -q "$WORK"; then found="$found $pid"; fi
  done
  echo "$found"
}
expect_nothing_left() {
  local left
  left=$(leftovers)
  [ -z "$left" ] || fail "processes left running:$left"
  [ -z "$(ls -A "$TMPDIR")" ] || fail "scratch left behind: $(ls -A "$TMPDIR")"
}

FAST="FAKE_LATENCY_MS=10 FAKE_SHARED_MS=17 FAKE_ENV_DIR=$WORK/env sh $CLIENT"
BATCH="FAKE_LATENCY_MS=5 FAKE_SHARED_MS=8 sh $CLIENT"
BASE=("$WORK/plan.json" --scenario "$WORK/s.yaml" --warmup 0.5 --mps-control "$FAKE_MPS")
COMMON=("${BASE[@]}" --duration 0.3)

# Success: solo runs, two repeats of the plan under a private MPS daemon, predictions within tolerance.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --repeat 2 --format json --report "$WORK/r.html"
expect_rc 0
expect_json '.verify_version == 1 and .ok == true and .repeat == 2 and (.replicas | length) == 4'
expect_json '.verdict == "pass" and .passed == true and .warnings == 0 and .strict == false and ([.replicas[] | .verdict == "pass"] | all)'
expect_json '[.alone[] | select(.source == "solo run")] | length == 2'
expect_json '.alone[] | select(.workload == "fast") | .p99_ms.mean == 10'
expect_json '.replicas[] | select(.workload == "fast" and .replica == 0) | .predicted_p99_ms == 17.4 and .p99_ms.mean == 17 and .slo_met == true and (.p99_ms.runs | length) == 2'
expect_json '[.replicas[] | .p99_error | fabs < 0.1] | all'
expect_json '.slices[0].sharing == "mps" and .slices[0].slo_met == true'
expect_err 'run 6: the plan'
grep -q '<svg' "$WORK/r.html" || fail "the HTML report has no chart"
# Each replica got the rendered limits, its device and a private MPS pipe; the daemon the rendered defaults.
grep -qx 'CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=40' "$WORK/env/fast-0.env" || fail "fast-0: thread percentage"
grep -qx 'CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=1536M' "$WORK/env/fast-0.env" || fail "fast-0: pinned memory limit"
grep -qx 'CUDA_VISIBLE_DEVICES=GPU-11111111-2222-3333-4444-555555555555' "$WORK/env/fast-0.env" || fail "fast-0: device"
grep -q "^CUDA_MPS_PIPE_DIRECTORY=$TMPDIR/" "$WORK/env/fast-0.env" || fail "fast-0: private pipe directory"
grep -qx 'default_active_thread_percentage 40' "$WORK/env/fast-0.mps-defaults" || fail "daemon default thread percentage"
grep -qx 'default_device_pinned_mem_limit 0 2560M' "$WORK/env/fast-0.mps-defaults" || fail "daemon default memory limit"
expect_nothing_left

# The table for people; one repeat, no solo runs: no predictions, only measurements. --json writes the
# JSON report of the same run beside it.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --repeat 1 --no-solo --json "$WORK/table-run.json"
expect_rc 0
expect_out 'fast-2 +gpu0/s0'
expect_out '^verify: PASSED: every SLO held and every prediction within the tolerance$'
jq -e '.verify_version == 1 and (.replicas | length) == 4 and .repeat == 1' "$WORK/table-run.json" >/dev/null ||
  fail "--json did not write the run's JSON report"
# The GPU's own activity over the window (GPM; the fake GPU 0 reads SM 0.5, then 0.875, DRAM 0.375 of its
# peak, tensor 0.125), per slice: the table's line, the JSON and the HTML report.
run verify "${BASE[@]}" --duration 1.6 --run fast="$FAST" --run batch="$BATCH" --repeat 1 --no-solo --json "$WORK/activity.json" \
  --report "$WORK/activity.html"
expect_rc 0
expect_out '^GPU activity on gpu0/s0 in the window \(GPM, of the whole\): SM active 0.88, DRAM bandwidth 0.38, tensor 0.12$'
jq -e '.slices[0].gpu_activity | (.dram_bw.mean - 0.375 | fabs) < 1e-9 and (.sm_active.runs | length) == 1 and (.sm_active.runs[0] - 0.875 | fabs) < 1e-9' "$WORK/activity.json" >/dev/null ||
  fail "the JSON report lacks the slice's GPU activity"
grep -q '<td>SM active 0.88, DRAM bandwidth 0.38, tensor 0.12</td>' "$WORK/activity.html" || fail "the HTML report lacks the GPU activity"
expect_nothing_left
# --sample-interval: one GPU read at the release (it only starts GPM) and none in the 1.6 s window, so no
# activity is measured; below 0.1 s it is refused.
run verify "${BASE[@]}" --duration 1.6 --run fast="$FAST" --run batch="$BATCH" --repeat 1 --no-solo --sample-interval 60 \
  --json "$WORK/sparse.json"
expect_rc 0
echo "$OUT" | grep -q '^GPU activity' && fail "--sample-interval 60 still sampled the GPU in the window"
jq -e '.slices[0].gpu_activity == null and .sample_interval_s == 60' "$WORK/sparse.json" >/dev/null ||
  fail "--sample-interval 60: activity in the JSON, or the interval not recorded"
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --sample-interval 0.01
expect_usage_error '--sample-interval: Value 0.01 not in range'
expect_nothing_left
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --repeat 1 --no-solo --json /nonexistent/dir/r.json
expect_usage_error '--json /nonexistent/dir/r.json: cannot write it: no folder /nonexistent/dir'
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --report "$WORK"
expect_usage_error "--report $WORK: is a folder"

# A plan with profile predictions for fast (gpupack plan --profiles): they are fast's predictions as they
# are, fast gets no solo run (2 runs of batch alone, then 2 of the plan: "run 4" is the last), batch keeps
# inflation x its solo run.
jq '(.placements[] | select(.workload == "fast")) += {predicted_p99_ms: 16.5, predicted_req_per_s: 100,
  prediction_source: "profile", extrapolated: true}' "$WORK/plan.json" >"$WORK/profiled.json"
run verify "$WORK/profiled.json" "${COMMON[@]:1}" --run fast="$FAST" --run batch="$BATCH" --tolerance 100 --format json
expect_rc 0
expect_json '[.alone[] | {workload, source}] == [{"workload":"batch","source":"solo run"},{"workload":"fast","source":"profile"}]'
expect_json '[.replicas[] | select(.workload == "fast") | .predicted_p99_ms == 16.5 and .predicted_req_per_s == 100 and .prediction_source == "profile" and .extrapolated and .slo_met] | all'
expect_json '.replicas[] | select(.workload == "batch") | .prediction_source == "inflation x solo" and .extrapolated == false'
expect_err 'run 4: the plan'
# fast's worst window (17 ms) ran 3% above its predicted 16.5, and s.yaml gives it no profile, so its plan
# kept no SLO margin: the margin this machine needed, per workload with an SLO.
expect_json '[.slo_margins[] | select(.workload == "fast") | .kept == 0 and (.needed | . > 0.02 and . < 0.04)] == [true]'
# The node's cores timed on the fixed CPU work a profile times, before the runs (this machine's real cores).
expect_json '.host_core_work.samples == 32 and .host_core_work.median_ms > 0 and .host_core_work.low_ms <= .host_core_work.median_ms'
expect_json '[.alone[] | .profile_host_core_work_ms] == [null, null]'
run verify "$WORK/profiled.json" "${COMMON[@]:1}" --run fast="$FAST" --run batch="$BATCH" --tolerance 100 --repeat 1
expect_rc 0
expect_out 'fast-0 +gpu0/s0 +profile \(extrapolated\) +16.50 +17.00'
expect_out 'alone: fast not run'
expect_out "note: fast's worst window ran 3% above its predicted p99 \(fast-[01]: 17.00 ms against 16.50\), more than the 0% SLO margin its plan kept: on this machine a plan needs slo_margin: 0.04 or more for it"
expect_nothing_left

# --measure-alone with a profile measured on another GPU model (an A100, 108 SMs, 2039 GB/s): this machine's
# drift is from the profile scaled to the plan's H100 (132 SMs, 3350 GB/s), as the plan's predictions are,
# not from the A100's own figures.
jq '.name = "fast" | .device.model = "A100-SXM4-80GB" | .requests.req_per_s = 100 | .requests.p99_ms = 10 |
  .activity.sm_active = 0.5 | .activity.dram_bw = 0.5 | .sm_share_curve = [] | .colocation = null' \
  "$ROOT/tests/planner/data/profiles-h100-2026-11-23/mlp-b8.json" >"$WORK/fast-a100.json"
sed 's|  - name: fast|  - name: fast\n    profile: fast-a100.json|' "$WORK/s.yaml" >"$WORK/s-profiled.yaml"
run verify "$WORK/plan.json" --scenario "$WORK/s-profiled.yaml" "${COMMON[@]:3}" --run fast="$FAST" --run batch="$BATCH" \
  --repeat 1 --tolerance 100 --measure-alone --format json
expect_rc 0
# Half its time SM-busy, half of that memory-bound: 1 / (0.5 + 0.25 x 108/132 + 0.25 x 2039/3350) = 1.17x.
expect_json '.alone[] | select(.workload == "fast") | .source == "solo run" and .profile_scaled_from == "A100-SXM4-80GB"
  and (.profile_req_per_s | . > 116 and . < 117.5) and (.profile_p99_ms | . > 8.5 and . < 8.6)'
expect_json '.alone[] | select(.workload == "batch") | .profile_scaled_from == null'
# A profile from a GPU the catalog does not know is not scaled (its figures as measured), and not named so.
jq '.device.model = ""' "$WORK/fast-a100.json" >"$WORK/fast-unknown.json"
sed 's|fast-a100.json|fast-unknown.json|' "$WORK/s-profiled.yaml" >"$WORK/s-unknown.yaml"
run verify "$WORK/plan.json" --scenario "$WORK/s-unknown.yaml" "${COMMON[@]:3}" --run fast="$FAST" --run batch="$BATCH" \
  --repeat 1 --tolerance 100 --measure-alone --format json
expect_rc 0
expect_json '.alone[] | select(.workload == "fast") | .profile_scaled_from == null and .profile_req_per_s == 100'
run verify "$WORK/plan.json" --scenario "$WORK/s-profiled.yaml" "${COMMON[@]:3}" --run fast="$FAST" --run batch="$BATCH" \
  --repeat 1 --tolerance 100 --measure-alone
expect_out 'alone: fast .*its profile \(measured on A100-SXM4-80GB, scaled to this GPU\): p99 8.5[0-9] ms, 11[67].[0-9] req/s: this machine \+17% p99, -14% req/s'
expect_nothing_left

# An SLO breach: exit 1, the replica's verdict says so.
run verify "${COMMON[@]}" --run fast="FAKE_LATENCY_MS=10 FAKE_SHARED_MS=40 sh $CLIENT" --run batch="$BATCH" --repeat 1 --tolerance 10
expect_rc 1
expect_out 'fast-0 .* 30.0 BROKEN'
expect_out 'verify: FAILED: 3 of 3 replicas with an SLO broke it; 0 of 4 replicas failed a check'
expect_out 'fast-0 .* 30.0 BROKEN +FAIL'
# 0.3 s windows of 10 ms requests: each p99 rests on a few requests, and a note says so.
expect_out '^note: fewer than 1000 requests in a window \(the fewest in brackets\), so a p99 rests on the slowest 1% of them: batch-0 \([0-9]+\), fast-0 \([0-9]+\), '
expect_nothing_left

# A prediction error over the tolerance, every SLO held (28 ms against 30): the model's miss, not the
# plan's: a warning per replica and in the last line, exit 0; with --strict exit 1.
SLOW="FAKE_LATENCY_MS=10 FAKE_SHARED_MS=28 sh $CLIENT"
run verify "${COMMON[@]}" --run fast="$SLOW" --run batch="$BATCH" --repeat 1 --format json
expect_rc 0
expect_json '.ok == false and (.replicas[1].problems[0] | test("p99 \\+61% off the prediction"))'
expect_json '.verdict == "warn" and .passed == true and .warnings == 3 and .strict == false'
expect_json '.targets.p99 == 0.25 and .targets.req_per_s == 0.15 and .targets.judged == 4 and .targets.within_both <= 1'
expect_json '.replicas[1] | .verdict == "warn" and .failures == [] and (.warnings[0] | test("p99 \\+61% off the prediction")) and .slo_met'
expect_json '.replicas[0] | .workload == "batch" and .verdict == "pass" and .problems == []'
run verify "${COMMON[@]}" --run fast="$SLOW" --run batch="$BATCH" --repeat 1 --report "$WORK/warn.html"
expect_rc 0
expect_out 'fast-0 .* 30.0 met +WARN; p99 \+61% off the prediction \(tolerance 25%\)'
expect_out '^verify: PASSED: every SLO held; 3 of 4 replicas ran off the prediction beyond 25% \(warnings in the verdicts\)$'
grep -q '<tr class="warn"><td>fast-0</td>' "$WORK/warn.html" || fail "the HTML report does not mark the warnings"
grep -q 'Verdict: <b>PASSED: every SLO held; 3 of 4 replicas' "$WORK/warn.html" || fail "the HTML report's verdict"
expect_out '^predictions: [01] of 4 replicas within p99 25% and req/s 15% of measured$'
grep -q '<p>predictions: [01] of 4 replicas within p99 25% and req/s 15% of measured.</p>' "$WORK/warn.html" ||
  fail "the HTML report does not count the replicas within the targets"
run verify "${COMMON[@]}" --run fast="$SLOW" --run batch="$BATCH" --repeat 1 --strict --json "$WORK/strict.json"
expect_rc 1
expect_out '^verify: FAILED \(--strict\): every SLO held, but 3 of 4 replicas ran off the prediction beyond 25% \(see the verdicts\)$'
jq -e '.strict == true and .verdict == "warn" and .passed == true' "$WORK/strict.json" >/dev/null || fail "--strict: $(jq -c '{strict, verdict, passed}' "$WORK/strict.json")"
expect_nothing_left

# Shared stalls: every client slow (60 ms) on the same tenth of a second; verify counts them per slice, and
# fast's p99 miss says it owes them; without them its p99 is its own 17 ms.
STALL="FAKE_STALL_EVERY_CS=10 FAKE_STALL_MS=60"
run verify "${BASE[@]}" --duration 0.8 --run fast="$STALL $FAST" --run batch="$STALL $BATCH" --repeat 1 --no-solo --tolerance 100 --format json \
  --report "$WORK/stalls.html"
expect_rc 1
grep -q '<td>[0-9]* ([0-9.]*/s, [0-9.]* ms each)</td>' "$WORK/stalls.html" || fail "the HTML report does not show the shared stalls"
expect_json '.slices[0].shared_stalls.events >= 2 and .slices[0].shared_stalls.aligned_with == null'
expect_json '.slices[0].shared_stalls.mean_ms > 35 and .slices[0].shared_stalls.mean_ms < 55'
expect_json '[.replicas[] | select(.workload == "fast") | .stall_hit_fraction.runs[0] > 0.05 and (.p99_without_stalls_ms.runs[0] - 17 | fabs) < 0.01] | all'
run verify "${BASE[@]}" --duration 0.8 --run fast="$STALL $FAST" --run batch="$BATCH" --repeat 1 --no-solo --tolerance 100
expect_out 'shared stalls on gpu0/s0: [0-9]+ in '
expect_out '  fast-0: [0-9.]+% of its requests met one; p99 60.00 ms, 17.00 ms without them'
expect_nothing_left
# With a prediction (the profile's 16.5 ms): the p99 misses by far, but without the stalls' requests it is
# within the tolerance, and the verdicts, the stall lines, the JSON and the last line say so.
run verify "$WORK/profiled.json" "${BASE[@]:1}" --duration 0.8 --run fast="$STALL $FAST" --run batch="$BATCH" --repeat 1 --tolerance 0.25 \
  --report "$WORK/stalls-profiled.html"
expect_rc 1
grep -q '<td>17.00 (+3%)</td>' "$WORK/stalls-profiled.html" || fail "the HTML report lacks the p99 error without the stalls"
expect_out 'fast-0 .*p99 \+[0-9]+% off the prediction \(tolerance 25%\); [0-9.]+% of its requests met stalls .*: p99 17.00 ms without them, \+3% off the prediction'
expect_out '  fast-0: [0-9.]+% of its requests met one; p99 60.00 ms, 17.00 ms without them \(\+3% off the prediction\)'
expect_out 'verify: FAILED: .*; 3 of the 3 p99 misses within the tolerance without the requests shared stalls met'
expect_nothing_left
run verify "$WORK/profiled.json" "${BASE[@]:1}" --duration 0.8 --run fast="$STALL $FAST" --run batch="$BATCH" --repeat 1 --tolerance 0.25 \
  --format json
expect_json '[.replicas[] | select(.workload == "fast") | .stalls_named and (.p99_error_without_stalls - 0.0303 | fabs) < 0.001] | all'
# batch waited in 60% of its requests (the stalls are longer than its own), but its p99 is its own either way.
expect_json '[.replicas[] | select(.workload == "batch") | .stalls_named and (.p99_error_without_stalls - .p99_error | fabs) < 0.001] | all'
expect_nothing_left

# A crash in the window: exit 1, named with its exit code; everything else stopped.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="FAKE_MODE=crash-after-go sh $CLIENT" --repeat 1 --no-solo
expect_rc 1
expect_out 'batch-0 .*crashed \(exit code 4\)'
expect_out 'verify: FAILED: 0 of 3 replicas with an SLO broke it; 1 of 4 replicas failed a check'
expect_out 'batch-0 .*FAIL; crashed'
expect_nothing_left

# A replica that never gets ready: one line naming it after --ready-timeout, exit 1, nothing left.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="FAKE_MODE=never-ready sh $CLIENT" --repeat 1 --ready-timeout 0.5
expect_rc 1
expect_no_out
expect_err 'batch-0 wrote no ready line to GPUPACK_REPORT within 0 s|batch-0 wrote no ready line'
expect_nothing_left

# A replica that dies before its ready line.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="FAKE_MODE=crash-before-ready sh $CLIENT" --repeat 1
expect_rc 1
expect_err 'batch-0 exited with code 3 before it wrote its ready line.*failing before ready'
expect_nothing_left

# A program that does not speak the client report still runs (--plain); verify says what it checked.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="FAKE_MODE=plain sh $CLIENT" --plain batch --repeat 1
expect_rc 0
expect_out 'batch-0 .*no client report: memory, crashes, GPU activity only'
expect_nothing_left

# Density search: latency grows with the clients on the slice (8 ms x clients; SLO 30 ms): the plan's
# 3 fast + 1 batch break it (32 ms), 2 fast + 1 batch fit (24 ms).
run verify "${COMMON[@]}" --run fast="FAKE_SCALE=1 FAKE_LATENCY_MS=8 sh $CLIENT" --run batch="$BATCH" --repeat 1 --no-solo \
  --tolerance 10 --search fast --format json
expect_rc 1
expect_json '.search.workload == "fast" and .search.planned == 3 and .search.most_that_fit == 2 and .search.planned_share == 1.5'
expect_json '[.search.steps[] | {replicas, fits}] == [{"replicas":3,"fits":false},{"replicas":2,"fits":true}]'
expect_json '.search.knee.replicas == 2 and .search.knee.planned_share == 1.5 and .search.knee.next_replicas == null and (.search.steps | all(.aggregate_req_per_s > 0))'
expect_nothing_left
run verify "${COMMON[@]}" --run fast="FAKE_SCALE=1 FAKE_LATENCY_MS=8 sh $CLIENT" --run batch="$BATCH" --repeat 1 --no-solo \
  --tolerance 10 --search fast --report "$WORK/search.html"
expect_out '^density search: fast on gpu0/s0: the plan placed 3, at most 2 fit; plan / density 1.50; its req/s together grew to 2 replicas \([0-9]+ req/s\): plan / knee 1.50$'
expect_out '^  2 replica\(s\): fits \([0-9]+ req/s of fast together\)$'
grep -Eq '<p>The plan placed 3; at most 2 fit; plan / density 1.50; its req/s together grew to 2 replicas \([0-9]+ req/s\): plan / knee 1.50.</p>' \
  "$WORK/search.html" || fail "the HTML report lacks plan / density and the knee"
expect_nothing_left
# A plan that left replicas of the searched workload out says why beside the density found (5 fast asked
# for, 3 placed: the fleet's one GPU is full).
sed 's/replicas: 3/replicas: 5/' "$WORK/s.yaml" >"$WORK/s5.yaml"
run plan "$WORK/s5.yaml" --format json
echo "$OUT" >"$WORK/plan5.json"
run verify "$WORK/plan5.json" --scenario "$WORK/s5.yaml" --warmup 0.5 --mps-control "$FAKE_MPS" --duration 0.3 \
  --run fast="$FAST" --run batch="$BATCH" --repeat 1 --no-solo --tolerance 100 --search fast --search-max 3 \
  --json "$WORK/search5.json" --report "$WORK/search5.html"
expect_out '^density search: fast on gpu0/s0: the plan placed 3, at most 3 \(or more: --search-max reached\) fit; plan / density at most 1.00; its req/s together grew to 3 replicas \([0-9]+ req/s\): plan / knee 1.00$'
expect_out '^  the plan left 2 more of fast unplaced \(no_gpu_left\): no GPU left: all 1 GPUs of the fleet are used$'
jq -e '.search.unplaced == {"count": 2, "code": "no_gpu_left", "reason": "no GPU left: all 1 GPUs of the fleet are used"}' \
  "$WORK/search5.json" >/dev/null || fail "the JSON report lacks the plan's reason: $(jq -c .search "$WORK/search5.json")"
grep -q '<p>the plan left 2 more of fast unplaced (no_gpu_left): no GPU left: all 1 GPUs of the fleet are used.</p>' \
  "$WORK/search5.html" || fail "the HTML report lacks the plan's reason"
expect_nothing_left

# Ctrl-C in the middle of a long window: exit 130, every client and the daemon stopped.
rm -f "$WORK/started"
"$GPUPACK" verify "${BASE[@]}" --duration 60 --repeat 1 --no-solo --run fast="FAKE_STARTED=$WORK/started $FAST" \
  --run batch="$BATCH" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 100); do [ -e "$WORK/started" ] && break; sleep 0.05; done
sleep 0.3
kill -INT "$pid"
set +e
wait "$pid"
RC=$?
set -e
LAST="gpupack verify (SIGINT)"
OUT=$(cat "$WORK/out")
ERR=$(cat "$WORK/err")
expect_rc 130
expect_err 'interrupted; everything was stopped'
expect_nothing_left

# Bad input: one line, exit 2, nothing started.
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --run ghost="$FAST"
expect_usage_error "--run ghost=...: the plan places no workload named 'ghost'"
run verify "${COMMON[@]}" --run fast="$FAST"
expect_usage_error 'give its command with --run batch=COMMAND'
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="no-such-program-xyz --flag"
expect_usage_error "command 'no-such-program-xyz' not found"
run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH" --node node-9
expect_usage_error '--node node-9: the plan has no such node'
run verify "$WORK/plan.json" --run fast="$FAST" --run batch="$BATCH" --mps-control /nonexistent/mps-control
expect_usage_error '--mps-control /nonexistent/mps-control: not found'
echo '{"devices": []}' >"$WORK/no-gpus.json"
GPUPACK_GPU_BACKEND="fake:$WORK/no-gpus.json" run verify "${COMMON[@]}" --run fast="$FAST" --run batch="$BATCH"
expect_usage_error 'GPU gpu0 \(index 0 on node node-0, H100-SXM5-80GB\) is not here'
run verify "$WORK/s.yaml" --run fast="$FAST"
expect_usage_error 'not a plan JSON'
# A number out of range is the plan's fault (exit 2), not an internal error (70).
sed -E 's/("predicted_p99_inflation": *)[0-9.eE+-]+/\1 1e999/' "$WORK/plan.json" >"$WORK/huge.json"
grep -q 1e999 "$WORK/huge.json" || fail "the plan has no predicted_p99_inflation to replace"
run verify "$WORK/huge.json" --run fast="$FAST" --run batch="$BATCH"
expect_usage_error 'huge.json: not a plan JSON: JSON value out of range'
run verify "$WORK/plan.json" --run fast="$FAST" --run batch="$BATCH" --search fast
expect_usage_error '--search fast: needs --scenario'
run verify "$WORK/plan.json" --run fast="$FAST" --run batch="$BATCH" --measure-alone
expect_usage_error '--measure-alone: needs --scenario'
expect_nothing_left

finish
