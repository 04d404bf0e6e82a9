#!/usr/bin/env bash
# The corpus scenarios (examples/corpus/*.yaml, issue 36) stay valid: every -h100 file has its -h200 twin
# (the same file with the fleet's model replaced), every workload names a client that exists
# (examples/clients/<name with '-' as '_'>.py, the name gpupack profile gives it), `gpupack plan` reads the
# file and asks only for the profiles it leaves to --profiles, and with a stand-in profile per workload (a
# real one of another program, renamed: this checks the input, not the predictions) it makes a plan.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS="$ROOT/examples/corpus"
STAND_IN="$ROOT/tests/planner/data/profiles-h100-2026-11-23/resnet18-b1.json"

# workload_names FILE: the names of the scenario's workloads, one a line (the corpus files' flow style).
workload_names() { sed -nE 's/^  - \{name: ([a-z0-9-]+),.*/\1/p' "$1"; }

scenarios=("$CORPUS"/*-h100.yaml)
[ "${#scenarios[@]}" -ge 4 ] || fail "examples/corpus has ${#scenarios[@]} H100 scenarios; issue 36 asks for at least four"
for h100 in "${scenarios[@]}"; do
  base=$(basename "$h100" -h100.yaml)
  LAST="examples/corpus/$base"
  h200="$CORPUS/$base-h200.yaml"
  if [ ! -f "$h200" ] || ! diff -q <(sed 's/H100-SXM5-80GB/H200-SXM-141GB/' "$h100") "$h200" >/dev/null; then
    fail "$base-h200.yaml is not $base-h100.yaml with the fleet's model H200-SXM-141GB"
  fi
  names=$(workload_names "$h100")
  [ "$(wc -l <<<"$names")" -ge 2 ] || fail "$base names fewer than two workloads"
  grep -q "\`$base\`" "$CORPUS/README.md" || fail "examples/corpus/README.md does not list $base"
  for w in $names; do
    [ -f "$ROOT/examples/clients/${w//-/_}.py" ] || fail "$base: workload $w has no client examples/clients/${w//-/_}.py"
  done
  for file in "$h100" "$h200"; do
    # Without profiles: the file reads, and the one thing missing is a profile for its first workload.
    run plan "$file"
    expect_usage_error "workload '$(head -n 1 <<<"$names")' needs 'memory', or a profile that supplies it"
    rm -rf "$WORK/profiles" && mkdir "$WORK/profiles"
    for w in $names; do cp "$STAND_IN" "$WORK/profiles/$w.json"; done
    run plan "$file" --profiles "$WORK/profiles" --format json
    [ "$RC" -eq 0 ] || [ "$RC" -eq 4 ] || fail "plan with stand-in profiles: exit code $RC, expected 0 or 4"
    expect_json '.placements | length >= 1'
  done
done
finish
