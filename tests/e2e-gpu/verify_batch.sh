#!/usr/bin/env bash
# Several verify_profiled.sh scenarios in one go on the GPU machine (not a ctest test: the driver of the
# recorded runs under results/). Usage:
#   VERIFY_BATCH="tag:scenario[:VAR=VALUE,VAR=VALUE] ..." [VERIFY_WINDOW=8] bash tests/e2e-gpu/verify_batch.sh path/to/gpupack
# e.g. VERIFY_BATCH="mixed:mixed-h100:VERIFY_MEASURE_ALONE=1 one:issue15-one-h100:VERIFY_EXPECT_PLACED=7".
# Each scenario's files (scenario.yaml, plan.json, verify.json, verify.txt, verify.html, summary.txt and the
# log) go to $OUT/<tag>/ (OUT defaults to a temporary folder), with host.txt (nvidia-smi -q, lscpu),
# vmstat.txt and dmon.txt (`vmstat 1`, `nvidia-smi dmon -s pucm` during the runs) and times.txt beside them.
# Prints each scenario's summary last.
set -u
GPUPACK=$(realpath "${1:?usage: $0 path/to/gpupack}")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
R=${OUT:-$(mktemp -d)}
mkdir -p "$R"
{ date -u; nvidia-smi -q | head -60; lscpu | head -20; } >"$R/host.txt" 2>&1
vmstat 1 >"$R/vmstat.txt" 2>&1 &
VM=$!
DM=
# VERIFY_DMON=0: no `nvidia-smi dmon` beside the runs (its NVML reads take the driver's lock every second).
if [ "${VERIFY_DMON:-1}" != 0 ]; then
  nvidia-smi dmon -s pucm >"$R/dmon.txt" 2>&1 &
  DM=$!
fi
trap 'kill $VM $DM 2>/dev/null' EXIT
for spec in ${VERIFY_BATCH:?give VERIFY_BATCH=\"tag:scenario[:VAR=VALUE,...] ...\"}; do
  IFS=: read -r tag scenario extra <<<"$spec"
  echo "$(date -u +%T) start $tag $scenario ${extra:-}" >>"$R/times.txt"
  mkdir -p "$R/$tag"
  envs=()
  [ -z "${extra:-}" ] || IFS=, read -r -a envs <<<"$extra"
  (
    export OUT="$R/$tag.tmp"
    env "${envs[@]}" VERIFY_SCENARIO="$scenario" VERIFY_WINDOW="${VERIFY_WINDOW:-8}" bash "$HERE/verify_profiled.sh" "$GPUPACK"
  ) >"$R/$tag/verify_profiled.log" 2>&1
  echo "exit $?" >>"$R/$tag/verify_profiled.log"
  cp -r "$R/$tag.tmp/$scenario/." "$R/$tag/" 2>/dev/null
  rm -rf "$R/$tag.tmp"
  echo "$(date -u +%T) end $tag" >>"$R/times.txt"
done
for spec in $VERIFY_BATCH; do
  tag=${spec%%:*}
  echo "== $tag"
  cat "$R/$tag/summary.txt" 2>/dev/null || tail -5 "$R/$tag/verify_profiled.log"
done
