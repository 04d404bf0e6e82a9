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
expect_usage_error "invalid output directory|contains the input"

# 2. profile's entry is one plan accepts: --name is checked, and the default comes from the script.
CLIENT="$BUILD/tests/measure/fake-client"
[ -x "$CLIENT" ] || { echo "fake-client not built" >&2; exit 1; }
export GPUPACK_GPU_BACKEND="fake:$ROOT/tests/measure/machines/growing-h100.json"
run profile --name bert_b4 -- "$CLIENT"
expect_usage_error "--name 'bert_b4' is not a valid Kubernetes name"
printf 'exec "%s" "$@"\n' "$CLIENT" >"$WORK/My_Client.sh"
run profile --interval 0.05 --warmup 0.2 --duration 0.6 --baseline-runs 1 -- sh "$WORK/My_Client.sh" --startup-ms 200 --latency-us 5000
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

# 5. A fleet entry's mig: off keeps its GPUs out of MIG; a configured layout is used exactly, never the whole GPU.
cat >"$WORK/tenants.yaml" <<'YAML'
fleet: [{model: H200, count: 2, mig: off}]
workloads:
  - {name: a, replicas: 2, memory: 10GiB, compute: 0.2, tenant: red}
  - {name: b, replicas: 2, memory: 10GiB, compute: 0.2, tenant: blue}
YAML
run plan "$WORK/tenants.yaml" --format json
expect_rc 0
expect_json '(.gpus | length) == 2 and ([.gpus[].mig | length] | all(. == 0)) and ([.gpus[].mode] | all(startswith("mig") | not))'
sed 's/count: 2, mig: off/count: 1/' "$WORK/tenants.yaml" >"$WORK/tenants-mig.yaml"
run plan "$WORK/tenants-mig.yaml" --format json
expect_rc 0
expect_json '(.gpus[0].mig | length) >= 2'  # without mig: off the two tenants share one H200 through MIG
sed 's/count: 1/count: 1, mig: off/' "$WORK/tenants-mig.yaml" >"$WORK/tenants-one-off.yaml"
run plan "$WORK/tenants-one-off.yaml"
expect_rc 4  # one H200 not in MIG mode holds one tenant only
cat >"$WORK/configured.yaml" <<'YAML'
fleet: [{model: A100-80GB, count: 1, mig: "3g.40gb,2g.20gb,2x1g.10gb"}]
workloads:
  - {name: a, replicas: 3, memory: 4GiB, compute: 0.05, tenant: red}
YAML
run plan "$WORK/configured.yaml" --format json
expect_rc 0
expect_json '[.gpus[0].mig[].profile] == ["3g.40gb","2g.20gb","1g.10gb","1g.10gb"]'
expect_json '[.gpus[0].slices[].profile] | all(. != null)'
printf '%s\n' "$OUT" >"$WORK/configured.json"
run render "$WORK/configured.json" --target mig-parted -o "$WORK/configured-out"
expect_rc 0
printf 'fleet: [{model: A100-80GB, mig: "7g.80gb,1g.10gb"}]\nworkloads: [{name: a, memory: 1GiB, compute: 0.1}]\n' >"$WORK/bad-mig.yaml"
run plan "$WORK/bad-mig.yaml"
expect_usage_error "bad-mig.yaml:1:.*'mig' layout .* does not fit one A100-SXM4-80GB"

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

# 10. A fixed fleet with prices: the plan minimises cost (the small replicas on an L4 at a fifth of an A100's
# price), says what the fewest-GPUs plan would cost, and prices one replica per GPU on the type each needs.
cat >"$WORK/priced-fixed.yaml" <<'YAML'
fleet:
  - {model: A100-80GB, count: 3, cost_per_hour: 4.0}
  - {model: L4, count: 2, cost_per_hour: 0.8}
workloads:
  - {name: llm, replicas: 2, memory: 30GiB, compute: 0.4, latency_slo_ms: 50}
  - {name: vision, replicas: 8, memory: 2GiB, compute: 0.05, latency_slo_ms: 20}
YAML
run plan "$WORK/priced-fixed.yaml" --format json
expect_rc 0
expect_json '.summary.cost_per_hour < 8 and ([.gpus[].model] | any(. == "L4-24GB"))'
expect_json '[.placements[] | select(.workload == "llm") | .gpu] | length == 2'
expect_json '(.summary.one_replica_per_gpu_cost_per_hour - (2 * 4.0 + 8 * 0.8)) | fabs < 1e-6'
run plan "$WORK/priced-fixed.yaml"
expect_rc 0
expect_out "^Summary: .* lower bound [0-9]+ \(no plan uses fewer GPUs\); chosen for the lowest cost: [$]4.80/h against [$]8.00/h for the plan found with the fewest GPUs \(2\)"
if grep -q "this count is optimal" <<<"$OUT"; then fail "the old, ambiguous wording"; fi
expect_out "against one replica per GPU: .* [$]14.40/h"

# 11. --explain counts a lone replica's neighbours right.
printf 'fleet: [{model: H100-80GB, count: 1}]\nworkloads: [{name: solo, memory: 1GiB, compute: 0.1}]\n' >"$WORK/lone.yaml"
run plan "$WORK/lone.yaml" --explain
expect_rc 0
if grep -Eq "all 1 clients|the other 0|1 trusted clients" <<<"$OUT"; then fail "--explain miscounts a lone replica"; fi

# 12. The client .env files work as their own comment says.
env_file=$(find "$WORK/rendered/mps" -name '*.env' | head -1)
[ -n "$env_file" ] || fail "no client .env rendered"
# shellcheck disable=SC2016  # the backquotes and $ are the comment's text, not to expand here
usage=$(head -1 "$env_file" | sed -n 's/.*pass with `\(.*\)` or systemd.*/\1/p')
[ -n "$usage" ] || fail "no usage in the .env comment: $(head -1 "$env_file")"
command=${usage//FILE/$env_file}
# shellcheck disable=SC2016  # $CUDA_MPS_PIPE_DIRECTORY expands in the probe's shell, under env
probe='sh -c '\''echo "$CUDA_MPS_PIPE_DIRECTORY"'\'
command="${command%cmd}$probe"
got=$(bash -c "$command") || fail "the .env usage failed: $command"
[ "$got" = "$(sed -n 's/^CUDA_MPS_PIPE_DIRECTORY=//p' "$env_file")" ] || fail "the .env usage set '$got'"

finish
