#!/usr/bin/env bash
# Issue 32, "the first hour of a new user": each item as a new user met it, run with the real binary.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD="$(dirname "$GPUPACK")"
DATA="$ROOT/tests/planner/data"

# 1. Output directories written as the docs write them, with a trailing slash.
run plan "$ROOT/examples/mixed-fleet.yaml" --render "$WORK/deploy/"
expect_rc 0
[ -f "$WORK/deploy/README.txt" ] || fail "plan --render out/ wrote no README.txt"
run plan "$ROOT/examples/mixed-fleet.yaml" -o "$WORK/plan.json"
expect_rc 0
run render "$WORK/plan.json" --target mps,k8s-workloads -o "$WORK/deploy/" --force
expect_rc 0
[ -d "$WORK/deploy/mps" ] || fail "render -o out/ --force wrote no mps/"
run render "$WORK/plan.json" -o "$WORK/." --force
expect_usage_error "invalid output directory"

# 2. profile's entry is one plan accepts: --name is checked, and the default comes from the script.
CLIENT="$BUILD/tests/measure/fake-client"
[ -x "$CLIENT" ] || { echo "fake-client not built" >&2; exit 1; }
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/measure/machines/growing-h100.json"
run profile --name bert_b4 -- "$CLIENT"
expect_usage_error "--name 'bert_b4' is not a valid Kubernetes name"
printf 'exec "%s" "$@"\n' "$CLIENT" >"$WORK/My_Client.sh"
run profile --interval 0.05 --warmup 0.2 --duration 0.6 -- sh "$WORK/My_Client.sh" --startup-ms 200 --latency-us 5000
expect_rc 0
expect_out "^  - name: my-client$"
printf '%s\n' "$OUT" >"$WORK/entry.yaml"
run plan "$WORK/entry.yaml" --gpu H100-80GB
expect_rc 0
unset GPUPACK_GPU_BACKEND

# 3. --profiles DIR fills memory and compute of entries matched by name (docs/workloads.md).
printf 'fleet: [{model: H100-SXM5-80GB, count: 1}]\nworkloads: [{name: mlp-b8, replicas: 2}]\n' >"$WORK/profiled.yaml"
run plan "$WORK/profiled.yaml" --profiles "$DATA/profiles-h100-2026-11-23" --format json
expect_rc 0
expect_json '(.placements | length) == 2 and .placements[0].memory_limit_bytes > 536870912'
printf 'workloads: [{name: other, replicas: 2}]\n' >"$WORK/unmatched.yaml"
run plan "$WORK/unmatched.yaml" --gpu H100-80GB --profiles "$DATA/profiles-h100-2026-11-23"
expect_usage_error "workload 'other' needs 'memory', or a profile that supplies it: 'profile: FILE' or .*/other.json"

# 4. count: 1 with cpu_cores: 16 is 16 cores per GPU (gpus_per_node defaults to the count, at most 8), and
# the reason for replicas the cores bound shows the arithmetic.
grep -v gpus_per_node "$DATA/issue15-density-h100.yaml" | sed "s|profile: profiles|profile: $DATA/profiles|" >"$WORK/one-node.yaml"
run plan "$WORK/one-node.yaml" --format json
expect_rc 0
expect_json '[.placements[] | select(.workload == "resnet18-b1")] | length == 24'
sed "s/cpu_cores: 16/cpu_cores: 4/" "$WORK/one-node.yaml" >"$WORK/four-cores.yaml"
run plan "$WORK/four-cores.yaml"
expect_rc 4
expect_out "cpu_cores 4 per node / 1 GPU per node \(gpus_per_node\) = 4 cores per GPU"

# 6. Kubernetes quantity suffixes.
printf 'fleet: [{model: H100-80GB, count: 1}]\nworkloads: [{name: a, memory: 20Gi, compute: 0.1}]\n' >"$WORK/gi.yaml"
run plan "$WORK/gi.yaml" --format json
expect_rc 0
expect_json '.placements[0].memory_limit_bytes == (20 * 1073741824 + 536870912)'

# 7. Work that cannot be placed exits 4, and the table says so on its first line.
cat >"$WORK/unplaceable.yaml" <<'YAML'
fleet: [{model: L4, count: 1}]
workloads:
  - {name: fast, memory: 1GiB, compute: 0.1, latency_slo_ms: 5, p99_alone_ms: 10}
  - {name: huge, memory: 500GiB, compute: 0.1}
YAML
run plan "$WORK/unplaceable.yaml"
expect_rc 4
[ "$(head -1 <<<"$OUT")" = 'UNPLACED: 2 of 2 replicas could not be placed (reasons under "Unplaced" below); exit code 4' ] ||
  fail "first line: $(head -1 <<<"$OUT")"
run plan "$WORK/unplaceable.yaml" --format json
expect_rc 4
expect_json '(.unplaced | length) == 2'
run plan "$WORK/unplaceable.yaml" --strict
expect_rc 4

# 8. stdout for programs: -o FILE's name decides its format; the render list stays off a JSON stdout.
run plan "$ROOT/examples/mixed-fleet.yaml" -o "$WORK/p.json"
expect_rc 0
jq -e '.schema_version == 1' "$WORK/p.json" >/dev/null || fail "-o p.json is not JSON"
run plan "$ROOT/examples/mixed-fleet.yaml" -o "$WORK/p.yaml"
expect_rc 0
grep -q '^summary:' "$WORK/p.yaml" || fail "-o p.yaml is not YAML"
run plan "$ROOT/examples/mixed-fleet.yaml" -o "$WORK/p.txt"
expect_usage_error "name the file .json or .yaml, or give --format table\|json\|yaml"
run plan "$ROOT/examples/mixed-fleet.yaml" --format table -o "$WORK/q.json"
expect_usage_error "the name says JSON but --format says otherwise"
[ ! -e "$WORK/q.json" ] || fail "a refused -o still wrote a file"
run plan "$ROOT/examples/mixed-fleet.yaml" --format table -o "$WORK/p.txt"
expect_rc 0
grep -q '^Plan: ' "$WORK/p.txt" || fail "--format table -o p.txt is not the table"
run plan "$ROOT/examples/mixed-fleet.yaml" --render "$WORK/rendered" --format json
expect_rc 0
jq -e '.schema_version == 1' <<<"$OUT" >/dev/null || fail "stdout of plan --render --format json is not one JSON document"
expect_err "^rendered [0-9]+ files into"

# 9. --help: no CLI11 internals, an example in every visible command, no hidden command offered.
help_paths=(plan render verify bench gpus profile run agent labels catalog "catalog show" mig "mig profiles"
  "mig validate" "mig layouts" "mig capacity" mps "mps up" "mps down" "mps status")
for path in "${help_paths[@]}"; do
  # shellcheck disable=SC2086
  run $path --help
  expect_rc 0
  expect_out "^Example:"
  if grep -Eq -- '->[0-9]|\{false\}|\{true\}|ENUM:' <<<"$OUT"; then fail "CLI11 internals in '$path --help'"; fi
done
run plan --help
expect_out "--format table\|json\|yaml"
if grep -q "profile --json" <<<"$OUT"; then fail "plan --help names gpupack profile --json"; fi
run verify --help
expect_out "--no-solo"
run nosuchcommand
expect_usage_error "unknown command 'nosuchcommand'"
if grep -q "bench-worker" <<<"$ERR"; then fail "the hidden bench-worker is offered"; fi

# 11. --explain counts a lone replica's neighbours right.
printf 'fleet: [{model: H100-80GB, count: 1}]\nworkloads: [{name: solo, memory: 1GiB, compute: 0.1}]\n' >"$WORK/lone.yaml"
run plan "$WORK/lone.yaml" --explain
expect_rc 0
if grep -Eq "all 1 clients|the other 0|1 trusted clients" <<<"$OUT"; then fail "--explain miscounts a lone replica"; fi

# 12. The client .env files work as their own comment says.
env_file=$(find "$WORK/rendered/mps" -name '*.env' | head -1)
[ -n "$env_file" ] || fail "no client .env rendered"
usage=$(head -1 "$env_file" | sed -n 's/.*pass with `\(.*\)` or systemd.*/\1/p')
[ -n "$usage" ] || fail "no usage in the .env comment: $(head -1 "$env_file")"
command=${usage//FILE/$env_file}
probe='sh -c '\''echo "$CUDA_MPS_PIPE_DIRECTORY"'\'
command="${command%cmd}$probe"
got=$(bash -c "$command") || fail "the .env usage failed: $command"
[ "$got" = "$(sed -n 's/^CUDA_MPS_PIPE_DIRECTORY=//p' "$env_file")" ] || fail "the .env usage set '$got'"

finish
