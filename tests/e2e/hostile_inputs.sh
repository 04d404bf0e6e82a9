#!/usr/bin/env bash
# Issue 12: the real binary on what a careless or hostile user hands it. Every case exits 2 with one line
# on stderr, writes nothing, and answers at once (no input is read past 4 MiB).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run plan --format json -o "$WORK/plan.json"
expect_rc 0

# Shell injection through the model of a hand-edited plan: refused at the reader, no directory written.
jq '.gpus[0].model = "H100\ntouch pwned\n#"' "$WORK/plan.json" >"$WORK/injected.json"
run render "$WORK/injected.json" -o "$WORK/out-injected"
expect_usage_error 'gpus\[0\]\.model: expected a GPU model of the catalog .*H100\\x0atouch pwned\\x0a#'
[ ! -e "$WORK/out-injected" ] || fail "render wrote files for an injected model"

# MIG profiles that are not the model's, and a schema version this gpupack does not read.
jq '(.gpus[0].slices[0].profile) = "4g.40gb/../../x"' "$WORK/plan.json" >"$WORK/profile.json"
run render "$WORK/profile.json" -o "$WORK/out-profile"
expect_usage_error 'slices\[0\]\.profile: expected a MIG profile of'
[ ! -e "$WORK/out-profile" ] || fail "render wrote files for a bogus MIG profile"
jq '.schema_version = 999' "$WORK/plan.json" >"$WORK/v999.json"
run render "$WORK/v999.json" -o "$WORK/out-v999"
expect_usage_error 'schema_version: expected 1'

# Numbers out of range: exit 2 naming the file (was an internal error, exit 70).
printf '{"calibration": {"mps_p99_inflation": 1e999}}' >"$WORK/overflow-cal.json"
run plan --calibration "$WORK/overflow-cal.json"
expect_usage_error 'overflow-cal.json: JSON value out of range'
sed 's/"schema_version": 1/"schema_version": 1e999/' "$WORK/plan.json" >"$WORK/overflow-plan.json"
run render "$WORK/overflow-plan.json" -o "$WORK/out-overflow"
expect_usage_error 'overflow-plan.json.* is not a plan: JSON value out of range'

# A calibration with a misspelt field, a duplicate key, an impossible fraction.
printf '{"calibration": {"mps_p99_inflaton": 1.2}}' >"$WORK/typo.json"
run plan --calibration "$WORK/typo.json"
expect_usage_error "unknown calibration field 'mps_p99_inflaton'"
printf '{"calibration": {"mps_p99_inflation": 1.2, "mps_p99_inflation": 1.3}}' >"$WORK/dup.json"
run plan --calibration "$WORK/dup.json"
expect_usage_error 'key "mps_p99_inflation" given twice'
printf '{"calibration": {"mps_capped_neighbour_throughput": {"50": 50}}}' >"$WORK/fraction.json"
run plan --calibration "$WORK/fraction.json"
expect_usage_error 'mps_capped_neighbour_throughput.50 must be a fraction'

# Unbounded input: /dev/zero as the scenario, the calibration and the plan; a 5 MiB scenario.
for args in "plan /dev/zero" "plan --calibration /dev/zero" "render /dev/zero -o $WORK/out-zero"; do
  # shellcheck disable=SC2086
  run $args
  expect_usage_error '/dev/zero is larger than 4MiB, the limit for input files'
done
# The node config too (the agent and `gpupack mps` read it before touching any GPU or daemon): only a
# regular file, opened without blocking, so that a FIFO (issue 38: the agent hung in open() at SIGHUP) or a
# device is refused at once.
mkfifo "$WORK/node-fifo.yaml"
for config in /dev/zero "$WORK/node-fifo.yaml"; do
  for args in "agent --config $config --port 0" "mps up --config $config" "run --config $config -- true"; do
    # shellcheck disable=SC2086
    GPUPACK_GPU_BACKEND="fake:$(dirname "$0")/../fakes/machines/two-gpus.json" run $args
    expect_usage_error "cannot read '?$config'?: not a regular file"
  done
done
head -c $((5 * 1024 * 1024)) /dev/zero | tr '\0' '#' >"$WORK/big.yaml"
run plan "$WORK/big.yaml"
expect_usage_error 'big.yaml is larger than 4MiB'

# Error lines quote input escaped and shortened: a 1 MB name with an ESC sequence.
{
  printf 'workloads:\n  - name: "\\e[2J'
  head -c 1000000 /dev/zero | tr '\0' 'a'
  printf '"\n    memory: 1GiB\n    compute: 0.1\n'
} >"$WORK/long-name.yaml"
run plan "$WORK/long-name.yaml"
expect_usage_error "got '\\\\x1b\[2Jaaa.*\.\.\. \(1000004 bytes\)"
[ "${#ERR}" -lt 600 ] || fail "the error line is ${#ERR} bytes"
grep -q $'\x1b' <<<"$ERR" && fail "ESC reached the terminal"

# Any error line, including those that quote an argument, leaves escape sequences escaped (main's backstop).
run mig validate A100-80GB "$(printf 'bo\x1b[2Jgus')"
expect_usage_error "bo\\\\x1b\\[2Jgus"
grep -q $'\x1b' <<<"$ERR" && fail "ESC reached the terminal"
[ ! -e "$WORK/out-zero" ] || fail "render of /dev/zero wrote a directory"

# Above the documented size (docs/workloads.md) a scenario is refused at once (it did not plan in 60 s).
printf 'fleet: [{model: H100-80GB, count: 100000}]\nworkloads: [{name: a, replicas: 100000, memory: 100MiB, compute: 0.01}]\n' \
  >"$WORK/huge.yaml"
run plan "$WORK/huge.yaml"
expect_usage_error "'count' must be between 1 and 10000"
finish
