#!/usr/bin/env bash
# scripts/summarize-mixes.py and scripts/fit-launch-pressure.py (docs/decisions.md, "What a neighbour's blocks
# cost a launch-bound program, measured from the neighbour's side"): the summary of a raw folder as
# tests/e2e-gpu/launch_pressure_mixes.sh writes it; the fit on mixes made with a known b gives that b back;
# and the committed fit on runs 76-77, checked on run79, gives what docs/decisions.md quotes.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
FIT="$ROOT/scripts/fit-launch-pressure.py"

# 1. The summary: a condition without neighbours and one with two, the reporter at 0.2 and 0.5 ms, one
# neighbour's requests 0.01 s apart (100 req/s).
raw="$WORK/raw"
mkdir -p "$raw"
printf '1 none\n2 dlrm_b4096+bert_base_b4\n' >"$raw/conditions.txt"
echo "Fake GPU" >"$raw/gpu.txt"
report() { # file latency_ms count [t_step]
  for i in $(seq 0 $(($3 - 1))); do
    printf '{"v":1,"event":"request","latency_ms":%s,"t":%s}\n' "$2" "$(awk -v i="$i" -v s="${4:-0.001}" 'BEGIN { print 100 + i * s }')"
  done >"$1"
}
report "$raw/c1-reporter.jsonl" 0.2 100
report "$raw/c2-reporter.jsonl" 0.5 100
report "$raw/c2-nb1-dlrm_b4096.jsonl" 2.3 51 0.01
report "$raw/c2-nb2-bert_base_b4.jsonl" 4.0 11 0.1
LAST="scripts/summarize-mixes.py"
python3 "$ROOT/scripts/summarize-mixes.py" "$raw" >"$WORK/summary.json" || fail "it failed"
OUT=$(cat "$WORK/summary.json")
expect_json '.gpu == "Fake GPU" and [.conditions[] | .condition] == ["none", "dlrm_b4096+bert_base_b4"]'
expect_json '.conditions[0].neighbours == [] and .conditions[0].programs.reporter.mean_ms == 0.2 and .conditions[1].programs.reporter.requests == 100'
expect_json '[.conditions[1].neighbours[] | [.kind, .req_per_s]] == [["dlrm_b4096", 100], ["bert_base_b4", 10]]'

# 2. The fit gives back the b the mixes were made with: profiles with known P and u, and each mix's R from the
# form at b = 0.5.
prof="$WORK/profiles"
mkdir -p "$prof"
profile() { # file P_ms u
  jq -n --argjson p "$2" --argjson u "$3" '{activity: {sm_active: $u}, launch_pressure: {cells: [
         {k: 0, neighbour: {req_per_s: (1000 / 0.2)}}, {k: 1, neighbour: {req_per_s: (1000 / (0.2 + $p))}}]}}' >"$prof/$1.json"
}
profile dlrm_b4096 0.3 0.8
profile bert_base_b4 0.05 0.1
profile resnet50_b32 0.25 0.4
mix() { # condition R_ms kinds...
  local c=$1 r=$2
  shift 2
  jq -n --arg c "$c" --argjson r "$r" --args '{condition: $c, neighbours: [$ARGS.positional[] | {kind: .}],
         programs: {reporter: {mean_ms: (0.2 + $r)}}}' "$@"
}
# R = sum_i P_i (1 + 0.5 sum_{j != i} u_j)
{
  echo '{"gpu": "x", "conditions": ['
  mix none 0 | jq -c '.programs.reporter.mean_ms = 0.2'
  echo ,; mix two-dlrm "$(awk 'BEGIN { print 2 * 0.3 * (1 + 0.5 * 0.8) }')" dlrm_b4096 dlrm_b4096
  echo ,; mix dlrm-bert "$(awk 'BEGIN { print 0.3 * (1 + 0.5 * 0.1) + 0.05 * (1 + 0.5 * 0.8) }')" dlrm_b4096 bert_base_b4
  echo ,; mix three "$(awk 'BEGIN { print 0.3 * (1 + 0.5 * 0.5) + 0.05 * (1 + 0.5 * 1.2) + 0.25 * (1 + 0.5 * 0.9) }')" dlrm_b4096 bert_base_b4 resnet50_b32
  echo ']}'
} >"$WORK/mixes.json"
LAST="scripts/fit-launch-pressure.py (mixes made at b = 0.5)"
OUT=$(python3 "$FIT" --profiles "$prof" --fit "$WORK/mixes.json") || fail "it failed: $OUT"
expect_out "^b = 0.50$"
expect_out "mixes of 2 or more: 3, \|error\| median 0%, worst [+-]0%"
# At b = 0 (plain addition) the same mixes are predicted low.
OUT=$(python3 "$FIT" --profiles "$prof" --fit "$WORK/mixes.json" --b 0) || fail "it failed: $OUT"
expect_out "^b = 0.00$"
expect_out "worst -[1-9][0-9]%"

# 3. The committed fit: b on runs 76-77, checked on run79's held-out mixes (docs/decisions.md).
LAST="scripts/fit-launch-pressure.py (runs 76-79)"
R="$ROOT/results"
OUT=$(python3 "$FIT" --profiles "$R/run78-pressure-profiles-h200/h200" --fit "$R/run77-mix-pressure-h200/summary.json" \
  "$R/run76-neighbour-pressure-h200/summary.json" --check "$R/run79-mix-pressure-check-h200/summary.json") || fail "it failed: $OUT"
[ "$OUT" = "$(cat "$R/run79-mix-pressure-check-h200/fit.txt")" ] || fail "not what results/run79-mix-pressure-check-h200/fit.txt holds"
expect_out "^b = 0.80$"
expect_out "mixes of 2 or more: 6, \|error\| median 18%, worst -41%"
finish
