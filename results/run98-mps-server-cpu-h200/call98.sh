#!/usr/bin/env bash
# run98: what the MPS server and the clients take of the host's cores in the mixes, and whether dlrm-b4096's
# tail in the saturated mix follows the count of busy processes. All planned from run64's profiles (another
# H200) with the committed model, 6 s windows, cpu_sampler.py sampling every process's CPU every 0.5 s:
#  1. run85's saturated file (12 mobilenet asked): the mean-request rule of 2026-11-29 on a GPU, and verify's
#     timing of the node's cores;
#  2. that plan verified again beside N processes spinning on a core each (`yes`), N = cores - placed - 1,
#     cores - placed, cores - placed + 1: the busy client processes 15, 16, 17 on 16 cores (the server apart);
#  3. run85's inference file (10 bert asked).
# Only run.tgz is left under $OUT; tables printed last.
set -u
G=$PWD/.device/gp
P=.device/prev64
D=results/run98-mps-server-cpu-h200
C=examples/clients
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
nproc >"$OUT/nproc.txt"
python3 $D/cpu_sampler.py "$OUT/cpu.tsv" 0.5 & sampler=$!
trap 'kill $sampler 2>/dev/null; pkill -f "^yes$" 2>/dev/null; bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
phase() { echo "$1 $2 $(date +%s.%N)" >>"$OUT/phases.txt"; }
corpus() {  # NAME SOURCE
  local s; s=$(date +%s.%N)
  ( OUT=$OUT CORPUS_SCENARIO=$1 CORPUS_SOURCE=$2 PROFILES=$P TAG=r1 VERIFY_DURATION=6 \
      timeout 150 bash tests/e2e-gpu/corpus_validate.sh "$G" ) >"$OUT/$1.log" 2>&1
  echo "$1 rc $?"
  phase "$1" "$s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
}
corpus saturated results/run85-slowest-run-margin-h200/saturated-12-h200.yaml
R=$OUT/corpus-saturated-r1
placed=$(jq '[.gpus[0].slices[].clients[].replicas[]] | length' "$R/plan.json")
runs=()
while read -r w; do runs+=(--run "$w=python3 $C/${w//-/_}.py --duration 3600"); done \
  < <(jq -r '[.gpus[].slices[].clients[].replicas[].workload] | unique | .[]' "$R/plan.json")
for n in $(( $(nproc) - placed - 1 )) $(( $(nproc) - placed )) $(( $(nproc) - placed + 1 )); do
  s=$(date +%s.%N)
  pids=()
  for _ in $(seq 1 "$n"); do yes >/dev/null & pids+=($!); done
  timeout 100 "$G" verify "$R/plan.json" --scenario "$R/scenario.yaml" "${runs[@]}" --duration 6 --repeat 1 \
    --no-solo --json "$OUT/saturated-spin$n.json" >"$OUT/saturated-spin$n.txt" 2>&1
  echo "spin $n (placed $placed) rc $?"
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  wait "${pids[@]}" 2>/dev/null
  phase "saturated-spin$n" "$s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
done
corpus inference results/run85-slowest-run-margin-h200/inference-bert10-h200.yaml
kill $sampler; wait $sampler 2>/dev/null
awk '{print $1, $2, $3}' "$OUT/phases.txt" >"$OUT/phases2.txt"
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for t in "$OUT"/corpus-*/table.txt; do echo "== $t"; grep -v "^  " "$t"; done
for f in "$OUT"/saturated-spin*.json; do
  jq -r --arg f "${f##*/}" '.replicas | group_by(.workload)[] | "\($f) \(.[0].workload) x\(length): worst p99 \(map(.p99_ms) | max) ms, req/s \(map(.req_per_s) | add / length)"' "$f"
done
python3 $D/cpu_summary.py "$OUT/cpu.tsv" "$OUT/phases2.txt"
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
