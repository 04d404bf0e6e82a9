#!/usr/bin/env bash
# Issue 20: fleets of priced `count: auto` GPU types. The example plans with a cost and a cost lower bound,
# the JSON's chosen comparison row agrees with its summary, and bad fleets exit 2 with one line.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
EXAMPLE="$(dirname "${BASH_SOURCE[0]}")/../../examples/priced-gpu-types.yaml"

run plan "$EXAMPLE"
expect_rc 0
expect_out 'cost: \$[0-9.]+/h; no plan costs less than \$[0-9.]+/h \(lower bound\)'
run plan "$EXAMPLE" --format json
expect_rc 0
jq -e '[.comparison[] | select(.mode == "chosen" and .gpu_type == null)] as $c | ($c | length == 1) and
       $c[0].gpus_used == .summary.gpus_used and $c[0].cost_per_hour == .summary.cost_per_hour and
       .summary.lower_bound_cost_per_hour <= .summary.cost_per_hour' <<<"$OUT" >/dev/null ||
  fail "the chosen comparison row does not agree with the summary"

bad() {  # name yaml-fleet expected-stderr
  printf 'fleet:\n%s\nworkloads:\n  - {name: a, memory: 1GiB, compute: 0.1}\n' "$2" >"$WORK/$1.yaml"
  run plan "$WORK/$1.yaml"
  expect_usage_error "$3"
}
bad no-such-fraction '  - {model: L4-5Q, count: auto, cost_per_hour: 1}' "L4-5Q"
bad zero-price '  - {model: L4-3Q, count: auto, cost_per_hour: 0}
  - {model: L4-24GB, count: auto, cost_per_hour: 1}' "cost_per_hour"
bad negative-price '  - {model: L4-3Q, count: auto, cost_per_hour: -1}
  - {model: L4-24GB, count: auto, cost_per_hour: 1}' "cost_per_hour"
bad missing-price '  - {model: L4-3Q, count: auto, cost_per_hour: 0.2}
  - {model: L4-24GB, count: auto}' "cost_per_hour"
finish
