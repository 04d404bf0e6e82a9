#!/usr/bin/env bash
# gpupack profile end to end with no GPU: the fake GPU backend replays a machine whose memory grows, a
# fake client (tests/measure/fake_client.cpp) speaks the client report, the fake MPS control program
# stands in for nvidia-cuda-mps-control in --sweep. Covers the robustness cases: a program that never
# uses the GPU, one that exits during warm-up, one that writes garbage, one that reports nothing.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BUILD="$(dirname "$GPUPACK")"
CLIENT="$BUILD/tests/measure/fake-client"
FAKE_MPS="$BUILD/tests/fakes/fake-mps-control"
MACHINES="$(cd "$(dirname "${BASH_SOURCE[0]}")/../measure/machines" && pwd)"
if [ ! -x "$CLIENT" ] || [ ! -x "$FAKE_MPS" ]; then
  echo "fake-client or fake-mps-control not built" >&2
  exit 1
fi
export GPUPACK_GPU_BACKEND="fake:$MACHINES/growing-h100.json"
# One run each: this fake machine's memory grows once and stays (a second run would see no increase);
# the baseline over several runs is tested in profile_baselines.sh.
FAST=(--interval 0.05 --warmup 0.2 --duration 0.6 --baseline-runs 1)
export TMPDIR="$WORK/tmp"  # gpupack's scratch directories go here, so the test can see they are removed
mkdir -p "$TMPDIR"

# A reporting client: the entry on stdout, the profile JSON in the file, the summary on stderr.
run profile "${FAST[@]}" --name ranker -o "$WORK/ranker.json" -- "$CLIENT" --startup-ms 200 --latency-us 5000
expect_rc 0
expect_out "^  - name: ranker$"
expect_out "^    memory: 2.3GiB$"
expect_out "^    compute: 0.35  # GPM SM activity"
expect_err "window 0.6 s from its ready line"
expect_err "requests: [0-9.]+ req/s, p50 [0-9.]+ ms"
jq -e '.schema_version == 1 and .device.model == "H100-SXM5-80GB" and .memory.peak_bytes == 2147483648
       and .activity.source == "gpm" and .requests.req_per_s > 100 and .requests.p99_ms >= 5
       and .window.start == "ready-line" and .compute_demand.method == "gpm" and .colocation == null' \
  "$WORK/ranker.json" >/dev/null || fail "profile JSON: $(cat "$WORK/ranker.json")"
# -o: the entry names the profile it wrote, so `gpupack plan` accepts the entry and predicts from the profile.
expect_out "^    profile: \"$WORK/ranker.json\"  # relative to the scenario file$"
printf '%s\n' "$OUT" >"$WORK/scenario.yaml"
run plan "$WORK/scenario.yaml" --gpu H100-80GB
expect_rc 0
run plan "$WORK/scenario.yaml" --gpu H100-80GB --explain
expect_rc 0
expect_out "ranker#0 .*from its profile"
# A relative -o path is written as given: plan reads it beside the scenario file.
(cd "$WORK" && "$GPUPACK" profile "${FAST[@]}" --name ranker -o rel.json -- "$CLIENT" --startup-ms 200 --latency-us 5000 \
  >"$WORK/rel.yaml" 2>/dev/null) || fail "profile -o rel.json failed"
grep -q '^    profile: "rel.json"  # relative to the scenario file$' "$WORK/rel.yaml" || fail "entry: $(cat "$WORK/rel.yaml")"
run plan "$WORK/rel.yaml" --gpu H100-80GB --explain
expect_rc 0
expect_out "ranker#0 .*from its profile"

# --colocation embeds the grid of a `gpupack bench --client-cmd --json` file.
echo '{"colocation": {"command": "infer", "neighbour_command": null, "window_s": 5, "cells": []}}' >"$WORK/bench.json"
run profile "${FAST[@]}" --colocation "$WORK/bench.json" --format json -- "$CLIENT"
expect_rc 0
expect_json '.colocation.command == "infer" and .colocation.cells == []'
echo '{"colocation": null}' >"$WORK/nogrid.json"
run profile --colocation "$WORK/nogrid.json" -- "$CLIENT"
expect_usage_error "no co-location grid"

# --format json prints the profile itself; summary lines instead of request lines work too.
run profile "${FAST[@]}" --format json -- "$CLIENT" --mode summary --latency-us 5000
expect_rc 0
expect_json '.name == "fake-client" and .requests.req_per_s > 100 and .requests.p99_ms == 5'

# --sweep: the program alone under the (fake) MPS daemon at each share; it needs 25% of the SMs.
# The reference (100%) runs twice (--repeat 2, the default): its spread is in the profile, each share's verdict too.
# The fake reports the latency it models; its req/s is real and noisy on a busy CI host: wide tolerances keep
# 50% and 25% passing.
run profile "${FAST[@]}" --sweep 100,50,25,12 --tolerance 0.3 --p99-tolerance 0.6 --mps-control "$FAKE_MPS" --format json -- \
  "$CLIENT" --latency-us 10000 --needs-pct 25
expect_rc 0
expect_json '[.sm_share_curve[].pct] == [100, 50, 25, 12] and .compute_demand.share == 0.25 and .compute_demand.method == "sweep"
             and .compute_demand.tolerance == 0.3 and .compute_demand.p99_tolerance == 0.6 and .compute_demand.p99_limit >= 0.6'
expect_json '.sm_share_curve[3].p99_ms > 1.5 * .sm_share_curve[0].p99_ms'
expect_json '[.sm_share_curve[].runs | length] == [2, 1, 1, 1] and (.sm_share_curve[0].spread.p99_ms | type) == "number"
             and .sm_share_curve[1].spread.p99_ms == null'
expect_json '[.sm_share_curve[].verdict.counted] == [true, true, true, false] and (.sm_share_curve[3].verdict.why | test("^req/s -[0-9.]+% over the limit -30.0%"))'
expect_err "sweep, alone under MPS at 12% threads"
expect_err "sweep, alone under MPS at 100% threads, run 2"
expect_err "^  12% +1 +.*fail: "
run profile --sweep --repeat 0 -- "$CLIENT"
expect_usage_error "--repeat"
[ -z "$(ls -A "$TMPDIR")" ] || fail "scratch directory left behind: $(ls "$TMPDIR")"

# Robustness: never uses the GPU (its memory never grows) -> one line, exit 1, nothing on stdout.
GPUPACK_GPU_BACKEND="fake:$MACHINES/idle-a100.json" run profile "${FAST[@]}" -- "$CLIENT" --run-ms 300
expect_rc 1
expect_no_out
expect_err "never used the GPU"
[ "$(wc -l <<<"$ERR")" -eq 1 ] || fail "more than one line"
# ... and never exits either: stopped at --startup-timeout.
GPUPACK_GPU_BACKEND="fake:$MACHINES/idle-a100.json" run profile "${FAST[@]}" --startup-timeout 1 -- sleep 30
expect_rc 1
expect_err "had not used the GPU after 1.0 s"
# Exits during the warm-up: no entry.
run profile --interval 0.05 --warmup 5 --duration 1 -- "$CLIENT" --exit-after-ms 400
expect_rc 1
expect_no_out
expect_err "exited with 3 after .* before the measurement window began"
# Garbage reports: measured all the same, malformed lines counted, latency said to be missing.
run profile "${FAST[@]}" -- "$CLIENT" --mode garbage
expect_rc 0
expect_out "^    memory: "
expect_err "request latency not reported"
expect_err "malformed line\(s\) ignored, the first: not a JSON object"
# Issue 38, item 11: the first malformed line's ESC and BEL are escaped, never echoed raw to a terminal.
expect_err 'the first: not a JSON object: this is not json \\x1b\[2J\\x07$'
! grep -q $'[\x1b\x07]' <<<"$ERR" || fail "a control character of the report reached stderr raw"
# Reports nothing: the same, said plainly.
run profile "${FAST[@]}" -- "$CLIENT" --mode silent
expect_rc 0
expect_err "request latency not reported \(no client report"
# --sweep cannot compare a program that reports no requests.
run profile "${FAST[@]}" --sweep --mps-control "$FAKE_MPS" -- "$CLIENT" --mode silent --run-ms 5000
expect_rc 1
expect_err "client report"
# Bad input: one line, exit 2.
run profile --sweep 100,0 -- "$CLIENT"
expect_usage_error "--sweep '100,0'"
run profile --duration 0 -- "$CLIENT"
expect_rc 2
# An -o it could not write at the end of a long sweep is refused before the program starts.
run profile "${FAST[@]}" -o /nonexistent/dir/p.json -- "$CLIENT" --startup-ms 200 --latency-us 5000
expect_usage_error '-o /nonexistent/dir/p.json: cannot write it: no folder /nonexistent/dir'
run profile -- /nonexistent/program
expect_rc 127
finish
