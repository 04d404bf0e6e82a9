#!/usr/bin/env bash
# GPU test (label gpu), issue 37: a host-CPU-bound client (examples/clients/decode_b1.py, a batch-1 decode
# loop sampling each token in Python) profiled on this machine with an MPS co-location grid reaching past
# the host's cores (--grid nproc/2,nproc,1.5 nproc: 8,16,24 on 16 cores; CPU_BOUND_GRID overrides it), so
# the plan reads the knee of the host's cores and the wait for a core from it (docs/decisions.md, "Host CPU
# from the grid"); 40 replicas planned on one GPU of a node of this host's cores (fleet cpu_cores = nproc,
# gpus_per_node 1, MIG off), then `gpupack verify` of the plan and `verify --search` on the same workload.
# Checks that the plan places no more than the host's cores drive (plan / searched density <= 1) and that
# verify holds every SLO; writes profile, plan, verify JSON and a summary to $OUT/cpu-bound (CPU_BOUND_SLO_MS
# overrides the SLO, CPU_BOUND_SLO_X its multiple of the profiled p99 alone, default 2.2; CPU_BOUND_PROFILE
# reuses a profile of decode_b1.py with its grid measured before on this machine).
RESULTS_ROOT=${OUT:-}
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
R=${RESULTS_ROOT:-$WORK}/cpu-bound
mkdir -p "$R"
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"
model=$(gpu0_catalog_model "$GPUPACK") || exit 1
cores=$(nproc)
client=(python3 "$CLIENTS/decode_b1.py" --duration 3600)

grid=${CPU_BOUND_GRID:-$((cores / 2)),$cores,$((cores * 3 / 2))}

if [ -n "${CPU_BOUND_PROFILE:-}" ]; then  # a profile measured before on this machine (with its grid)
  cp "$CPU_BOUND_PROFILE" "$R/decode-b1.json"
else
  run profile --name decode-b1 --duration 10 --sweep 100,50,25 --grid "$grid" -o "$R/decode-b1.json" -- "${client[@]}"
  expect_rc 0
  echo "$ERR" >"$R/profile.log"
fi
p99=$(jq -r '.requests.p99_ms // empty' "$R/decode-b1.json")
[ -n "$p99" ] || { fail "the profile has no p99 (requests)"; finish; }
slo=${CPU_BOUND_SLO_MS:-$(python3 -c "print(round(${CPU_BOUND_SLO_X:-2.2} * $p99, 1))")}
cat >"$R/scenario.yaml" <<YAML
fleet:
  - {model: $model, count: 1, gpus_per_node: 1, cpu_cores: $cores, mig: off}
workloads:
  - {name: decode-b1, replicas: 40, latency_slo_ms: $slo, profile: $R/decode-b1.json}
YAML
run plan "$R/scenario.yaml" --format json -o "$R/plan.json" --explain
[ "$RC" -eq 0 ] || [ "$RC" -eq 4 ] || fail "plan exit code $RC"
placed=$(jq '.placements | length' "$R/plan.json")
jq -r '.unplaced[0].reason // "none unplaced"' "$R/plan.json" >"$R/unplaced-reason.txt"
[ "$placed" -le "$cores" ] || fail "the plan places $placed CPU-bound replicas on $cores host cores"

run verify "$R/plan.json" --scenario "$R/scenario.yaml" --run "decode-b1=${client[*]}" --duration 8 --repeat 1 \
  --json "$R/verify.json" --search decode-b1 --search-max 40 --search-step 4
echo "$OUT" >"$R/verify.txt"
echo "$ERR" >"$R/verify.log"
# 0: every SLO held (prediction errors are warnings); 1: an SLO broke, a crash, memory over its limit.
[ "$RC" -le 1 ] || fail "verify exit code $RC"
broken=$(jq '[.replicas[] | select(.slo_met == false)] | length' "$R/verify.json" 2>/dev/null || echo "?")
density=$(jq -r '.search | "most that fit \(.most_that_fit) (capped: \(.capped)), planned / most = \(.planned_share)"' "$R/verify.json" 2>/dev/null)
# The grid as the planner read it: per K the aggregate req/s, the worst p99 and the copies' host cores.
mps_grid=$(jq -c '.colocation.curves.mps | {aggregate_req_per_s, p99_ms, host_cpu_cores}' "$R/decode-b1.json" 2>/dev/null)
measured=no
grep -q "measured: decode-b1's MPS co-location grid" "$R/unplaced-reason.txt" && measured=yes
{
  echo "host cores $cores, p99 alone ${p99} ms, SLO ${slo} ms, MPS grid K=1,$grid: ${mps_grid:-none}"
  echo "the plan's host-CPU bound from the grid's knee: $measured"
  echo "plan placed $placed of 40; unplaced reason: $(cat "$R/unplaced-reason.txt")"
  echo "verify --search density: ${density:-see verify.txt}; SLO verdicts false: $broken; verify exit $RC"
} | tee "$R/summary.txt"
finish
