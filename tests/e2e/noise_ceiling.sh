#!/usr/bin/env bash
# scripts/noise-ceiling.py: each baseline run against the median of its profile's other runs, counted
# against issue 36's targets (req/s +-15%, p99 +-25%); a profile copied into two directories counts once;
# bad arguments and directories without such profiles exit 2 with one line.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
SCRIPT="$ROOT/scripts/noise-ceiling.py"

# profile NAME REQS P99S: a profile whose plain baseline has these runs (space-separated lists).
profile() {
  jq -n --arg name "$1" --arg reqs "$2" --arg p99s "$3" '
    ($reqs | split(" ") | map(tonumber)) as $r | ($p99s | split(" ") | map(tonumber)) as $p |
    {name: $name, baseline: {runs: [range(0; $r | length) | {req_per_s: $r[.], p99_ms: $p[.]}]}}'
}
mkdir -p "$WORK/a/run1" "$WORK/a/run2" "$WORK/empty"
# Steady: every run within both of the others' median.
profile steady "100 102 98" "5.0 5.1 4.9" >"$WORK/a/run1/steady.json"
cp "$WORK/a/run1/steady.json" "$WORK/a/run2/steady.json"  # the same runs again: counted once
# Noisy (error = predicted / measured - 1, as everywhere): 100 against median(150, 160) = 155, +55%: out;
# 150 against median(100, 160) = 130, -13.3%: within; 160 against median(100, 150) = 125, -21.9%: out.
# p99 all within.
profile noisy "100 150 160" "5.0 5.0 5.0" >"$WORK/a/run2/noisy.json"
# Two runs only: not a baseline to judge.
profile short "100 300" "5 5" >"$WORK/a/run2/short.json"
echo '{"not": "a profile"}' >"$WORK/a/run2/other.json"

LAST="table"
OUT=$(python3 "$SCRIPT" "$WORK/a") || fail "exit $?"
expect_out "^steady +- +alone +1 +3 +3 +3/3 +3$"
expect_out "^noisy +- +alone +1 +3 +1 +3/3 +1$"
expect_out "puts 4 of 6 within both targets \(67%\)"
grep -q short <<<"$OUT" && fail "a two-run baseline was counted"

LAST="json"
OUT=$(python3 "$SCRIPT" "$WORK/a" --format json) || fail "exit $?"
expect_json '.noise_ceiling_version == 1 and .total.runs == 6 and .total.req == 4 and .total.both == 4'
expect_json '[.rows[] | .workload] == ["noisy", "steady"]'

run_cmd python3 "$SCRIPT" "$WORK/missing"
expect_usage_error "is not a directory"
run_cmd python3 "$SCRIPT" "$WORK/empty"
expect_rc 2
expect_err "no profile with a baseline of three runs"
run_cmd python3 "$SCRIPT" "$WORK/a" --format xml
expect_rc 2
finish
