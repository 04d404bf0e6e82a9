#!/usr/bin/env bash
# run100: dlrm-b4096's p99 as mobilenet-v3-b8 replicas are added beside it in the saturated scenario (3 dlrm,
# 1 wav2vec, 8-12 mobilenet at the plan's caps: dlrm 100%, mobilenet 10%, wav2vec 75%). The plans are the
# committed model's from run64's profiles with the SLOs relaxed so that every replica is placed
# (inputs/relaxed-N.yaml, inputs/plan-N.json); verify checks them against the real SLOs (inputs/scenario.yaml:
# dlrm 9 ms, mobilenet 27, wav2vec 24), two 6 s windows each. Only run.tgz is left under $OUT; a table last.
set -u
G=$PWD/.device/gp
I=results/run100-saturated-steps-h200/inputs
C=examples/clients
bash .device/mps_cleanup.sh >"$OUT/cleanup-before.txt" 2>&1
trap 'bash .device/mps_cleanup.sh >>"$OUT/cleanup-after.txt" 2>&1' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
"$G" --version >"$OUT/version.txt" 2>&1
for n in 8 10 12 9 11; do
  s=$(date +%s)
  timeout 110 "$G" verify "$I/plan-$n.json" --scenario "$I/scenario.yaml" \
    --run "dlrm-b4096=python3 $C/dlrm_b4096.py --duration 3600" \
    --run "mobilenet-v3-b8=python3 $C/mobilenet_v3_b8.py --duration 3600" \
    --run "wav2vec-b8=python3 $C/wav2vec_b8.py --duration 3600" \
    --duration 6 --repeat 2 --no-solo --json "$OUT/mobilenet-$n.json" >"$OUT/mobilenet-$n.txt" 2>&1
  echo "mobilenet $n rc $? in $(( $(date +%s)-s )) s"
  bash .device/mps_cleanup.sh >>"$OUT/cleanup-between.txt" 2>&1
done
tar czf "$OUT/run.tgz" -C "$OUT" --exclude=run.tgz . 2>/dev/null
for n in 8 9 10 11 12; do
  jq -r --arg n "$n" '.replicas | group_by(.workload)[] | "\($n) \(.[0].workload): p99 \([.[].p99_ms.runs[]] | map(. * 100 | round / 100) | sort | tostring) ms, req/s \([.[].req_per_s.mean] | add / length | round)"' \
    "$OUT/mobilenet-$n.json" 2>&1 | head -3
done
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.tgz -exec rm -rf {} +
