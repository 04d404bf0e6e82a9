#!/usr/bin/env bash
# GPU test (label gpu), issue 36: out-of-sample validation on one corpus scenario (examples/corpus/). Every
# workload of the scenario is profiled on this GPU (`profile --baseline-runs --sweep`), the scenario is
# planned from those profiles on this GPU's catalog model and this host's cores, and `gpupack verify` runs
# the plan's placements. Prints per workload the prediction errors (measured / predicted - 1, as verify reports them) of p99 and
# req/s and how many replicas are within issue 36's targets (p99 within 25%, req/s within 15%), and fails
# when an SLO broke. None of the corpus programs was used to fit the model's constants (examples/corpus).
#   CORPUS_SCENARIO=inference (a NAME of examples/corpus/NAME-h100.yaml), PROFILE_WINDOW=6 (seconds a
#   window), BASELINE_RUNS=3, SWEEP=100,50,25, VERIFY_DURATION=8, VERIFY_REPEAT=1, SEARCH=WORKLOAD (adds
#   `verify --search WORKLOAD --search-max SEARCH_MAX --search-step SEARCH_STEP`), PROFILES=DIR (reuse
#   profiles measured before: DIR/<workload>.json; missing ones are measured), OBSERVED=verify.json (plan
#   with `--observed`: the closed loop), TAG=NAME (results under corpus-<scenario>-NAME), NEIGHBOUR="CMD"
#   (profiles every other workload beside it too: `--neighbour-cmd CMD --neighbour-caps NEIGHBOUR_CAPS`,
#   default 30; e.g. the STREAM triad, so each workload's own slowdown beside a DRAM-heavy neighbour is
#   measured; a workload whose client CMD runs is profiled without it), GRID=K,K (the MPS co-location grid,
#   `--grid GRID`, for the workloads named in GRID_FOR, default the SEARCH workload, `GRID_FOR=all` for every
#   one: copies past the host's cores measured, so the plan reads the wait for a core from the program's own
#   grid, and its launch path's cost from its largest K). MEASURE_ALONE=1 (`verify --measure-alone`: each
#   workload alone first, so the table also gives this machine's drift from the profiles and the errors
#   rebased on it: what is left to the model once the baseline's drift is taken out).
# Writes profiles/, scenario.yaml, plan.json, plan.txt, verify.json, verify.html and table.txt under
# $OUT/corpus-<scenario> when OUT is set (else a temp dir).
RESULTS_ROOT=${OUT:-}
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
NAME=${CORPUS_SCENARIO:-inference}
SOURCE=${CORPUS_SOURCE:-"$CLIENTS/../corpus/$NAME-h100.yaml"}  # CORPUS_SOURCE: a scenario file of its own
[ -f "$SOURCE" ] || { echo "no corpus scenario $NAME (examples/corpus/$NAME-h100.yaml)" >&2; exit 2; }
R=${RESULTS_ROOT:-$WORK}/corpus-$NAME${TAG:+-$TAG}
mkdir -p "$R/profiles"
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"
model=$(gpu0_catalog_model "$GPUPACK") || exit 1
cores=$(nproc)

# The scenario on this GPU model and this host's cores, its profiles beside it.
# (each workload names its profile: verify reads the scenario, and has no --profiles).
sed -E "s/model: [A-Za-z0-9-]+/model: $model/; s/cpu_cores: [0-9]+/cpu_cores: $cores/;
        s/^(  - \{name: ([a-z0-9-]+),.*)\}$/\1, profile: profiles\/\2.json}/" "$SOURCE" >"$R/scenario.yaml"
mapfile -t workloads < <(sed -nE 's/^  - \{name: ([a-z0-9-]+),.*/\1/p' "$R/scenario.yaml")

for w in "${workloads[@]}"; do
  if [ -n "${PROFILES:-}" ] && [ -f "$PROFILES/$w.json" ]; then
    cp "$PROFILES/$w.json" "$R/profiles/$w.json"
    continue
  fi
  echo "== profile $w" >&2
  beside=()
  if [ -n "${NEIGHBOUR:-}" ] && [[ "$NEIGHBOUR" != *"${w//-/_}.py"* ]]; then
    beside=(--neighbour-cmd "$NEIGHBOUR" --neighbour-caps "${NEIGHBOUR_CAPS:-30}")
  fi
  grid=()
  if [ -n "${GRID:-}" ] && { [ "${GRID_FOR:-}" = all ] || [[ " ${GRID_FOR:-${SEARCH:-}} " == *" $w "* ]]; }; then
    grid=(--grid "$GRID")
  fi
  run profile --name "$w" --duration "${PROFILE_WINDOW:-6}" --baseline-runs "${BASELINE_RUNS:-3}" \
    --sweep "${SWEEP:-100,50,25}" "${beside[@]}" "${grid[@]}" -o "$R/profiles/$w.json" -- python3 "$CLIENTS/${w//-/_}.py" --duration 3600
  echo "$ERR" >"$R/profiles/$w.txt"
  expect_rc 0
done

observed=()
[ -n "${OBSERVED:-}" ] && observed=(--observed "$OBSERVED")
run plan "$R/scenario.yaml" "${observed[@]}" --format json -o "$R/plan.json" --explain
echo "$OUT" >"$R/plan.txt"
echo "$ERR" >>"$R/plan.txt"
[ "$RC" -eq 0 ] || [ "$RC" -eq 4 ] || { fail "plan exit code $RC: $ERR"; finish; }

runs=()
# Only the workloads the plan places (verify refuses a --run for a workload it does not place).
mapfile -t placed < <(jq -r '[.gpus[].slices[].clients[].replicas[].workload] | unique | .[]' "$R/plan.json")
for w in "${placed[@]}"; do runs+=(--run "$w=python3 $CLIENTS/${w//-/_}.py --duration 3600"); done
alone=()
[ -n "${MEASURE_ALONE:-}" ] && alone=(--measure-alone)
search=()
[ -n "${SEARCH:-}" ] && search=(--search "$SEARCH" --search-max "${SEARCH_MAX:-32}" --search-step "${SEARCH_STEP:-4}")
run verify "$R/plan.json" --scenario "$R/scenario.yaml" "${runs[@]}" --duration "${VERIFY_DURATION:-8}" \
  --repeat "${VERIFY_REPEAT:-1}" --json "$R/verify.json" --report "$R/verify.html" "${alone[@]}" "${search[@]}"
echo "$OUT" >"$R/verify.txt"
echo "$ERR" >"$R/verify.log"
# 0: every SLO held (prediction errors are warnings); 1: an SLO broke, a crash, memory over its limit.
[ "$RC" -eq 0 ] || fail "verify exit code $RC (an SLO broke, a crash or memory over its limit): $R/verify.txt"

python3 - "$R" "$model" "$NAME" >"$R/table.txt" <<'PY'
import json, sys
r, model, name = sys.argv[1:4]
v = json.load(open(f"{r}/verify.json"))
plan = json.load(open(f"{r}/plan.json"))
by = {}
for x in v["replicas"]:
    by.setdefault(x["workload"], []).append(x)
print(f"corpus scenario {name} on {model}: {len(plan.get('placements', []))} placed, "
      f"{len(plan.get('unplaced', []))} unplaced")
print("errors: measured / predicted - 1 (positive p99 error: slower than predicted)")
print(f"{'workload':22} {'n':>3} {'p99 err range':>17} {'req/s err range':>17} {'in targets':>10} {'SLO met':>8}")
# Issue 36's targets as verify states them ($.targets: p99 and req/s bounds, the replicas within both).
targets = v["targets"]
rng = lambda e: f"{100*min(e):+5.0f}..{100*max(e):+4.0f}%" if e else "-"
total = within = 0
for w, xs in sorted(by.items()):
    p = [x["p99_error"] for x in xs if x.get("p99_error") is not None]
    q = [x["throughput_error"] for x in xs if x.get("throughput_error") is not None]
    ok = sum(1 for x in xs if x.get("p99_error") is not None and x.get("throughput_error") is not None
             and abs(x["p99_error"]) <= targets["p99"] and abs(x["throughput_error"]) <= targets["req_per_s"])
    met = sum(1 for x in xs if x.get("slo_met") is not False)
    total += len(xs)
    within += ok
    print(f"{w:22} {len(xs):>3} {rng(p):>17} {rng(q):>17} {ok:>6}/{len(xs):<3} {met:>4}/{len(xs)}")
print(f"replicas within both targets: {within} of {total}")
# With --measure-alone: each workload's drift from its profile alone, and the errors rebased on it.
drift = {a["workload"]: a for a in v.get("alone", []) if a.get("req_per_s_drift") is not None}
if drift:
    rebased_within = 0
    for w, xs in sorted(by.items()):
        p = [x["rebased_p99_error"] for x in xs if x.get("rebased_p99_error") is not None]
        q = [x["rebased_throughput_error"] for x in xs if x.get("rebased_throughput_error") is not None]
        rebased_within += sum(1 for x in xs if x.get("rebased_p99_error") is not None
                              and x.get("rebased_throughput_error") is not None
                              and abs(x["rebased_p99_error"]) <= targets["p99"]
                              and abs(x["rebased_throughput_error"]) <= targets["req_per_s"])
        a = drift.get(w)
        d = f"drift alone req/s {100*a['req_per_s_drift']:+.0f}%, p99 {100*(a.get('p99_drift') or 0):+.0f}%" if a else "no drift"
        print(f"rebased {w:22} p99 {rng(p):>13} req/s {rng(q):>13} ({d})")
    print(f"replicas within both targets once rebased on the drift: {rebased_within} of {total}")
s = v.get("search")
if s:
    print(f"search: most that fit {s.get('most_that_fit')} (capped: {s.get('capped')}), "
          f"planned / most = {s.get('planned_share')}")
    kn = s.get("knee")
    if kn:
        after = "grew to the most that fit" if kn["next_replicas"] is None else \
            f"stopped growing ({kn['next_aggregate_req_per_s']:.0f} at {kn['next_replicas']})"
        print(f"search: req/s together {after} after {kn['replicas']} ({kn['aggregate_req_per_s']:.0f} req/s), "
              f"planned / knee = {kn['planned_share']:.2f}")
    for st in s.get("steps", []):
        agg = st.get("aggregate_req_per_s")
        print(f"  {st['replicas']:>3} replicas: {'fits' if st['fits'] else 'breaks'}, worst p99 {st.get('worst_p99_ms')}, "
              f"req/s together {agg if agg is None else round(agg)}")
PY
cat "$R/table.txt"
finish
