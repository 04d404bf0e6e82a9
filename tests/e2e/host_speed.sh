#!/usr/bin/env bash
# scripts/host-speed.py: the slope of log(req/s) on log(the host's fixed CPU work time) over a program's
# baseline runs, on every profile found; a profile copied into two directories counts once; fewer than three
# timed runs make no row; bad arguments and directories without such profiles exit 2 with one line.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
SCRIPT="$ROOT/scripts/host-speed.py"

# profile NAME WORK_MS REQS: a profile whose plain baseline has these runs (space-separated lists).
profile() {
  jq -n --arg name "$1" --arg ms "$2" --arg reqs "$3" '
    ($ms | split(" ") | map(tonumber)) as $m | ($reqs | split(" ") | map(tonumber)) as $r |
    {name: $name, baseline: {runs: [range(0; $r | length) |
      {req_per_s: $r[.], p99_ms: 5, host_core_work: {median_ms: $m[.]}}]}}'
}
mkdir -p "$WORK/a/m1" "$WORK/a/m2" "$WORK/empty"
# Host-bound: req/s = 600 / work ms exactly, on two machines: slope -1, correlation -1.
profile hostbound "1.5 1.5 2.0" "400 400 300" >"$WORK/a/m1/hostbound.json"
profile hostbound "3.0" "200" >"$WORK/a/m2/hostbound.json"
cp "$WORK/a/m1/hostbound.json" "$WORK/a/m2/hostbound-copy.json"  # the same runs again: counted once
# GPU-bound: the same rate whatever the host: slope 0, no correlation (its req/s does not move).
profile gpubound "1.5 2.0 3.0" "410 410 410" >"$WORK/a/m1/gpubound.json"
# Two timed runs only: no row.
profile short "1.5 3.0" "400 200" >"$WORK/a/m2/short.json"
# Runs without the timing (profiles before run67) are not counted.
jq -n '{name: "untimed", baseline: {runs: [{req_per_s: 1}, {req_per_s: 2}, {req_per_s: 3}]}}' >"$WORK/a/m2/untimed.json"

LAST="table"
OUT=$(python3 "$SCRIPT" "$WORK/a") || fail "exit $?"
expect_out "^hostbound +alone +2 +4 +1.50-3.00 +200-400 +-1.00 +-1.00$"
expect_out "^gpubound +alone +1 +3 +1.50-3.00 +410-410 +\+0.00 +-$"
grep -q "short\|untimed" <<<"$OUT" && fail "a row from fewer than three timed runs"

LAST="json"
OUT=$(python3 "$SCRIPT" "$WORK/a" --format json) || fail "exit $?"
expect_json '.host_speed_version == 1 and (.rows | length) == 2'
expect_json '(.rows[] | select(.workload == "hostbound") | (.slope + 1 | fabs) < 1e-9 and .runs == 4 and .profiles == 2)'
expect_json '(.rows[] | select(.workload == "gpubound") | (.slope | fabs) < 1e-9 and .correlation == null)'

run_cmd python3 "$SCRIPT" "$WORK/missing"
expect_usage_error "is not a directory"
run_cmd python3 "$SCRIPT" "$WORK/empty"
expect_rc 2
expect_err "no program with 3 or more baseline runs"
run_cmd python3 "$SCRIPT" "$WORK/a" --format xml
expect_rc 2
finish
