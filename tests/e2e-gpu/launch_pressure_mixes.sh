#!/usr/bin/env bash
# GPU test (label gpu), issue 36: the launch-bound reporter (`gpupack neighbour --kind reporter`) beside
# neighbours and mixes of them, under one private MPS daemon (quit on exit), as runs 76, 77 and 79 measured
# (results/run76-neighbour-pressure-h200). For each condition its neighbours start together and say ready,
# then the reporter (3 s) and each of PROGRAMS (3 s each, example clients) run beside them one after another.
# Conditions: none, each of MIXES, none again. MIXES: space-separated mixes of kinds joined by "+"; a kind is
# triad, fma4500 or fma500 (`gpupack neighbour`) or an example client's file name (dlrm_b4096, ...).
# Checks: the reporter alone repeats within 10%; beside FMA kernels of 0.38 ms it grows at least 10 times as
# much as beside the triad (which SM activity, 0.98 against 0.95, does not tell apart: run76); beside two
# dlrm-b4096 more than beside one. Writes raw/, summary.json (scripts/summarize-mixes.py) and table.txt under
# $OUT/launch-pressure-mixes when OUT is set. About 15 s a condition plus the programs' start-ups.
#   MIXES="resnet50_b32+bert_base_b4+bert_base_b4" PROGRAMS="bert_base_b4 wav2vec_b8" bash THIS build/gpupack
RESULTS_ROOT=${OUT:-}
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
R=${RESULTS_ROOT:+$RESULTS_ROOT/launch-pressure-mixes}
R=${R:-$WORK/launch-pressure-mixes}
MIXES=${MIXES:-"triad fma4500 dlrm_b4096 dlrm_b4096+dlrm_b4096"}
PROGRAMS=${PROGRAMS:-}
mkdir -p "$R/raw"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$R/raw/gpu.txt"

export CUDA_MPS_PIPE_DIRECTORY="$WORK/mps-pipe" CUDA_MPS_LOG_DIRECTORY="$WORK/mps-log"
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
PIDS=""
stop_all() {
  # shellcheck disable=SC2086
  [ -z "$PIDS" ] || kill $PIDS 2>/dev/null || true
  wait 2>/dev/null || true
  PIDS=""
}
quit_mps() { stop_all; echo quit | timeout 10 nvidia-cuda-mps-control >/dev/null 2>&1 || true; }
trap 'quit_mps; rm -rf "$WORK"' EXIT
nvidia-cuda-mps-control -d || { echo "FAIL: the MPS daemon did not start" >&2; exit 1; }

# start KIND REPORT LOG: one neighbour of that kind in the background, its client report to REPORT.
start() {
  case $1 in
    triad) GPUPACK_REPORT=$2 "$GPUPACK" neighbour --duration 900 >"$3" 2>&1 & ;;
    fma4500) GPUPACK_REPORT=$2 "$GPUPACK" neighbour --kind compute --duration 900 >"$3" 2>&1 & ;;
    fma500) GPUPACK_REPORT=$2 "$GPUPACK" neighbour --kind compute --iters 500 --duration 900 >"$3" 2>&1 & ;;
    *) GPUPACK_REPORT=$2 python3 "$CLIENTS/$1.py" --duration 900 >"$3" 2>&1 & ;;
  esac
  PIDS="$PIDS $!"
}
for kind in ${MIXES//+/ } $PROGRAMS; do
  case $kind in
    triad | fma4500 | fma500) ;;
    *) [ -f "$CLIENTS/$kind.py" ] || { echo "FAIL: $kind is not triad, fma4500, fma500 or an example client" >&2; exit 2; } ;;
  esac
done

condition() { # index mix
  local i=$1 mix=$2 j=0 kind
  echo "$i $mix" >>"$R/raw/conditions.txt"
  if [ "$mix" != none ]; then
    for kind in ${mix//+/ }; do
      j=$((j + 1))
      start "$kind" "$R/raw/c$i-nb$j-$kind.jsonl" "$R/raw/c$i-nb$j-$kind.out"
    done
    for f in $(seq 1 "$j"); do
      for _ in $(seq 1 240); do grep -qs '"ready"' "$R/raw/c$i-nb$f-"*.jsonl && break; sleep 0.5; done
    done
    sleep 1
  fi
  GPUPACK_REPORT="$R/raw/c$i-reporter.jsonl" timeout 60 "$GPUPACK" neighbour --kind reporter --duration 3 >"$R/raw/c$i-reporter.out" 2>&1
  for p in $PROGRAMS; do
    GPUPACK_REPORT="$R/raw/c$i-$p.jsonl" timeout 120 python3 "$CLIENTS/$p.py" --duration 3 >"$R/raw/c$i-$p.out" 2>&1
  done
  stop_all
}

n=0
for mix in none $MIXES none; do
  n=$((n + 1))
  condition "$n" "$mix"
done
quit_mps
python3 "$ROOT/scripts/summarize-mixes.py" "$R/raw" >"$R/summary.json"
s="$R/summary.json"
LAST="launch pressure mixes ($MIXES)"
# The reporter's growth over the first condition (none), per condition, and the table people read.
jq -r '.conditions[0].programs as $b | .conditions[] | [.condition] + [.programs | to_entries[] |
       "\(.key) \(.value.mean_ms // "-") ms (+\(if .value and $b[.key] then (.value.mean_ms - $b[.key].mean_ms) * 1000 | round / 1000 else "-" end))"] | join("  ")' "$s" |
  tee "$R/table.txt"
growth() { jq -r --arg m "$1" '(.conditions[0].programs.reporter.mean_ms) as $b | [.conditions[] | select(.condition == $m) | .programs.reporter.mean_ms - $b][0] // empty' "$s"; }
jq -e '(.conditions[0].programs.reporter.mean_ms) as $a | (.conditions[-1].programs.reporter.mean_ms) as $z |
       $a > 0 and $z > 0 and ($a - $z | fabs) <= 0.1 * $a' "$s" >/dev/null ||
  fail "the reporter alone did not repeat within 10%: $(jq -c '[.conditions[0], .conditions[-1]] | map(.programs.reporter)' "$s")"
if [[ " $MIXES " == *" triad "* && " $MIXES " == *" fma4500 "* ]]; then
  awk -v t="$(growth triad)" -v f="$(growth fma4500)" 'BEGIN { exit !(f >= 10 * t && f > 0) }' ||
    fail "beside FMA kernels of 0.38 ms the reporter grew $(growth fma4500) ms, beside the triad $(growth triad): not 10 times as much"
fi
if [[ " $MIXES " == *" dlrm_b4096 "* && " $MIXES " == *" dlrm_b4096+dlrm_b4096 "* ]]; then
  awk -v one="$(growth dlrm_b4096)" -v two="$(growth dlrm_b4096+dlrm_b4096)" 'BEGIN { exit !(two > one && one > 0) }' ||
    fail "beside two dlrm-b4096 the reporter grew $(growth dlrm_b4096+dlrm_b4096) ms, beside one $(growth dlrm_b4096)"
fi
finish
