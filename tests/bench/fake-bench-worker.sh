#!/usr/bin/env bash
# fake-bench-worker.sh bench-worker MODE [--sync] [options]: stands in for `gpupack bench-worker` in tests
# without a GPU. Speaks the same protocol (ready, go, one JSON line) and shapes its numbers by the
# environment it was given, so tests can see which mode each worker ran in:
#   under MPS (CUDA_MPS_PIPE_DIRECTORY set) clients are not slowed; without it, K-fold (GPUPACK_BENCH_CLIENTS);
#   CUDA_MPS_ACTIVE_THREAD_PERCENTAGE scales the SMs seen and the throughput;
#   FAKE_WORKER_STATE: a directory where the neighbour marks that it runs;
#   FAKE_WORKER_FAIL_UNDER_MPS=1 makes every worker under MPS fail (an experiment that throws).
set -euo pipefail
[ "${1:-}" = bench-worker ] || { echo "usage: $0 bench-worker MODE ..." >&2; exit 2; }
mode=$2
shift 2
sync=0
for a in "$@"; do [ "$a" = --sync ] && sync=1; done
mps=${CUDA_MPS_PIPE_DIRECTORY:+1}
if [ -n "$mps" ] && [ "${FAKE_WORKER_FAIL_UNDER_MPS:-0}" = 1 ]; then
  echo '{"error": "fake failure under MPS"}'
  exit 1
fi
pct=${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-100}
sms=$((132 * pct / 100))
# The neighbour marks that it runs before it says ready: the parent starts the latency client only after.
[ "$mode" = neighbour ] && touch "$FAKE_WORKER_STATE/neighbour"
echo ready
if [ "$sync" = 1 ]; then
  read -r line
  [ "$line" = go ] || exit 1
fi
case $mode in
  info)
    echo '{"name": "Fake GPU", "uuid": "GPU-fake", "compute_capability": "9.0", "sm_count": 132, "memory_bytes": 1000,'\
      '"cuda_driver_version": "13.0", "cuda_runtime_version": "13.0", "compute_mode": "Default", "calibration":'\
      '{"client_iters_per_ms": 1000, "latency_iters_per_ms": 1000, "saturating_iters_per_ms": 100, "gemm_n": 64, "gemm_ms": 1}}' ;;
  streams)
    echo '{"kernels": [{"k": 2, "blocks_per_kernel": 16, "serial_ms": [2, 2], "concurrent_ms": [1, 1]}],'\
      '"copy_overlap": {"chunks": 8, "streams": 4, "rounds_per_element": 10, "chunk_bytes": 16, "serial_ms": [3], "overlapped_ms": [2]}}' ;;
  fma)
    # Time-slicing: each process takes K times as long; MPS: no slowdown.
    k=${GPUPACK_BENCH_CLIENTS:-1}
    [ -n "$mps" ] && k=1
    echo "{\"seconds\": $k.0, \"sm_count\": $sms, \"flops\": 100, \"gflops\": $pct.0}" ;;
  latency)
    # Beside a running neighbour (its marker file exists) the tail grows, more without MPS.
    tail=300
    if [ -e "$FAKE_WORKER_STATE/neighbour" ]; then tail=900; [ -z "$mps" ] && tail=3000; fi
    echo "{\"seconds\": 1, \"sm_count\": $sms, \"samples_us\": [200, 200, 200, 200, $tail]}" ;;
  neighbour)
    while read -r line; do [ "$line" = stop ] && break; done
    rm -f "$FAKE_WORKER_STATE/neighbour"
    echo "{\"seconds\": 1, \"kernels\": $pct, \"kernels_per_s\": $pct.0, \"gflops\": 1, \"sm_count\": $sms}" ;;
  memlimit)
    if [ -n "${CUDA_MPS_PINNED_DEVICE_MEM_LIMIT:-}" ]; then beyond=false; else beyond=true; fi
    echo "{\"memory_free_bytes\": 1, \"memory_total_bytes\": 1, \"within\": {\"mib\": 1, \"ok\": true, \"error\": \"\"},"\
      "\"beyond\": {\"mib\": 2, \"ok\": $beyond, \"error\": \"cudaErrorMemoryAllocation\"}}" ;;
  *) echo "{\"error\": \"unknown mode $mode\"}"; exit 2 ;;
esac
