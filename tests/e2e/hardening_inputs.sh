#!/usr/bin/env bash
# Issue 38 (items 8, 9, 10, 12, 14): the real binary on what a careless operator or a hostile local user
# hands it: a fake machine out of the input-file rules, output that cannot be written, a node_prefix that
# makes too long a node name, a render directory that holds the working directory or the input, a
# workload profile the strict reader refuses. Every refusal is one line and leaves nothing behind.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
GPUPACK=$(realpath "$GPUPACK")  # the render cases run it from another directory
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MACHINES="$ROOT/tests/fakes/machines"
PROFILES="$ROOT/tests/planner/data/profiles-h100-2026-11-23"

# Item 9: output that cannot be written is noticed: stdout (exit 1, the shell named the file), a path the
# user gave (exit 2), never exit 0 with truncated output, never 70.
if [ -w /dev/full ]; then
  set +e
  "$GPUPACK" plan --format json >/dev/full 2>"$WORK/full.err"
  RC=$?
  set -e
  ERR=$(cat "$WORK/full.err")
  expect_rc 1
  expect_err "^gpupack: cannot write to standard output: No space left on device$"
  run plan --format json -o /dev/full
  expect_usage_error "cannot write /dev/full: No space left on device"
fi
run plan --format json -o "$WORK/plan.json"
expect_rc 0
run render "$WORK/plan.json" -o /proc/gpupack-x
expect_usage_error "cannot write output directory '/proc/gpupack-x': "

# Item 12: render -o never replaces the working directory, a parent of it, or a directory holding the input;
# --force replaces only what a render wrote.
mkdir -p "$WORK/proj/sub"
cp "$WORK/plan.json" "$WORK/proj/plan.json"
for out in "$WORK/proj" "../proj" "." "$WORK"; do
  LAST="render -o $out --force (in $WORK/proj)"
  set +e
  (cd "$WORK/proj" && "$GPUPACK" render plan.json -o "$out" --force) >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
  expect_usage_error "output directory '.*' is the current directory or one of its parents"
done
run render "$WORK/proj/plan.json" -o "$WORK/proj" --force
expect_usage_error "output directory '.*/proj' contains the input '.*/proj/plan.json'"
{ [ -f "$WORK/proj/plan.json" ] && [ -d "$WORK/proj/sub" ]; } || fail "render --force removed the working directory"
mkdir -p "$WORK/mine" && echo precious >"$WORK/mine/notes.txt"
run render "$WORK/plan.json" -o "$WORK/mine" --force
expect_usage_error "was not written by gpupack render \(no .gpupack-rendered in it\)"
[ -f "$WORK/mine/notes.txt" ] || fail "render --force removed a directory no render wrote"
run render "$WORK/plan.json" -o "$WORK/rendered"
expect_rc 0
[ -f "$WORK/rendered/.gpupack-rendered" ] || fail "no marker in the rendered directory"
run render "$WORK/plan.json" --target mps -o "$WORK/rendered" --force
expect_rc 0
[ ! -e "$WORK/rendered/node-template" ] || fail "--force did not replace the rendered directory"
[ -z "$(find "$WORK" -maxdepth 1 -name '.*tmp*')" ] || fail "a staging directory was left behind"

# Item 10: a node_prefix that is a valid 62-character label makes node names of 64 characters: plan refuses
# it (render would), naming node_prefix; a 60-character one plans and renders up to node 10 (63 characters).
long=$(printf 'n%.0s' {1..62})
cat >"$WORK/long-prefix.yaml" <<YAML
fleet:
  - model: H100-80GB
    count: 11
    gpus_per_node: 1
    node_prefix: $long
workloads:
  - name: big
    replicas: 11
    memory: 60GiB
    compute: 0.5
YAML
run plan "$WORK/long-prefix.yaml" --format json
expect_usage_error "node_prefix '$long' makes the node name '$long-0' of 64 characters; node names are at most 63"
sed "s/$long/${long:0:60}/" "$WORK/long-prefix.yaml" >"$WORK/ok-prefix.yaml"
run plan "$WORK/ok-prefix.yaml" --render "$WORK/ok-prefix"
expect_rc 0

# Item 8: the fake machine under the input-file rules: 1e999 (was exit 70), a negative memory (wrapped to
# 2^64-5), /dev/zero (read without bound), a UUID that escapes a path.
printf '{"devices": [{"uuid": "GPU-1", "name": "n", "memory_total_bytes": 1e999}]}' >"$WORK/overflow.json"
printf '{"devices": [{"uuid": "GPU-1", "name": "n", "memory_total_bytes": -5}]}' >"$WORK/negative.json"
printf '{"devices": [{"uuid": "../../tmp/x", "name": "n"}]}' >"$WORK/escape.json"
GPUPACK_GPU_BACKEND="fake:$WORK/overflow.json" run gpus
expect_usage_error "fake GPU machine '.*overflow.json': JSON value out of range"
GPUPACK_GPU_BACKEND="fake:$WORK/negative.json" run gpus
expect_usage_error "devices\[0\]\.memory_total_bytes must be a whole number >= 0"
GPUPACK_GPU_BACKEND="fake:/dev/zero" run gpus
expect_usage_error "/dev/zero is larger than 4MiB"
GPUPACK_GPU_BACKEND="fake:$WORK/escape.json" run gpus
expect_usage_error "devices\[0\]\.uuid must be a GPU or MIG UUID"
GPUPACK_GPU_BACKEND="fake:$MACHINES/two-gpus.json" run gpus
expect_rc 0

# Items 7 and 14: plan reads a workload profile with the strict, range-checked reader.
mkdir -p "$WORK/profiles"
jq '.memory.with_headroom_bytes = 1e30' "$PROFILES/resnet18-b1.json" >"$WORK/profiles/huge.json"
jq '.activity.sm_active = 2' "$PROFILES/resnet18-b1.json" >"$WORK/profiles/busy.json"
sed '0,/"name"/s//"name": "x", "name"/' "$PROFILES/resnet18-b1.json" >"$WORK/profiles/twice.json"
for case in "huge:memory.with_headroom_bytes must be a whole number of bytes" "busy:activity.sm_active must be a number from 0 to 1" \
  'twice:key "name" given twice'; do
  printf 'fleet:\n  - model: H100-SXM5-80GB\n    count: 1\nworkloads:\n  - name: w\n    profile: profiles/%s.json\n' \
    "${case%%:*}" >"$WORK/uses-${case%%:*}.yaml"
  run plan "$WORK/uses-${case%%:*}.yaml"
  expect_usage_error "profiles/${case%%:*}.json: not a gpupack workload profile .*${case#*:}"
done

finish
