#!/usr/bin/env bash
# README.md's quick-start block ("Some commands") run as written (issue 32), one line at a time, from a
# scratch directory that looks like the repository root after the build: build/gpupack, examples/, and the
# files the block names as the user's own: my.yaml (a small scenario of two workloads on one H100) and
# profiles/ (the profiles recorded on an H100, tests/planner/data/profiles-h100-2026-11-23).
#
# The rule for what is skipped: a line whose command is one of the node commands that read the GPUs
# (docs/cli.md: bench, gpus, profile, verify, agent, run, mps) needs a GPU and is skipped, by name; every
# other line must exit 0. A line with a command in neither list fails the test, so a new README line is
# either run or skipped on purpose.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

GPU_COMMANDS=" bench gpus profile verify agent run mps "
RUN_COMMANDS=" plan render catalog mig labels check "

# The block: the first ```sh fence after the line that says "Some commands".
block=$(awk '/Some commands/ {found = 1; next}
             found && /^```sh$/ {inside = 1; next}
             inside && /^```$/ {exit}
             inside {print}' "$ROOT/README.md")
[ -n "$block" ] || { echo "README.md has no 'Some commands' sh block" >&2; exit 1; }

SCRATCH="$WORK/repo"
mkdir -p "$SCRATCH/build"
ln -s "$(cd "$(dirname "$GPUPACK")" && pwd)/$(basename "$GPUPACK")" "$SCRATCH/build/gpupack"
ln -s "$ROOT/examples" "$SCRATCH/examples"
cp -r "$ROOT/tests/planner/data/profiles-h100-2026-11-23" "$SCRATCH/profiles"
cat >"$SCRATCH/my.yaml" <<'YAML'
fleet: [{model: H100-SXM5-80GB, count: 1}]
workloads:
  - {name: resnet18-b1, replicas: 2, memory: 2GiB, compute: 0.1}
  - {name: mlp-b8, replicas: 2, memory: 1GiB, compute: 0.05}
YAML

ran=0
skipped=0
while IFS= read -r line; do
  [ -n "${line// /}" ] || continue
  read -r program verb _ <<<"$line"
  [ "$program" = build/gpupack ] || { LAST="$line"; fail "a README command that is not build/gpupack"; continue; }
  if [[ "$GPU_COMMANDS" == *" $verb "* ]]; then
    echo "skipped (needs a GPU): $line"
    skipped=$((skipped + 1))
    continue
  fi
  if [[ "$RUN_COMMANDS" != *" $verb "* ]]; then
    LAST="$line"
    fail "command '$verb' is in neither list of this test: decide whether it needs a GPU"
    continue
  fi
  LAST="$line"
  set +e
  (cd "$SCRATCH" && bash -c "$line") >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
  expect_rc 0
  ran=$((ran + 1))
done <<<"$block"

# What the lines promise: the files they write.
[ -f "$SCRATCH/out/README.txt" ] || fail "no out/README.txt after the render lines"
[ -d "$SCRATCH/out/mps" ] || fail "no out/mps after render --target mps,k8s-workloads"
jq -e '.schema_version == 1 and (.unplaced | length) == 0' "$SCRATCH/plan.json" >/dev/null || fail "plan.json is not a full plan"
jq -e '[.placements[].prediction_source] | any(. == "profile")' "$SCRATCH/plan.json" >/dev/null ||
  fail "plan --profiles profiles/ predicted nothing from the profiles"
grep -q '^version: v1' "$SCRATCH/mig-parted.yaml" || fail "mig-parted.yaml is not a mig-parted config"
[ "$ran" -ge 8 ] || fail "only $ran README commands ran"
[ "$skipped" -ge 1 ] || fail "no GPU command was skipped (the rule above is stale)"
echo "README commands: $ran run, $skipped skipped (need a GPU)"
finish
