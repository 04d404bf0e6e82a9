#!/usr/bin/env bash
# fake-grid-client.sh: stands in for a user's program under `gpupack bench --client-cmd` in tests without
# a GPU. Speaks the client report (docs/client-report.md): a ready line, waits for GPUPACK_GO, then one
# request line per request, with synthetic times (so the figures do not depend on this machine's load)
# and a latency shaped by the environment the copy was given:
#   alone FAKE_CLIENT_LATENCY_MS (default 2); time-slicing (no CUDA_MPS_PIPE_DIRECTORY): x K
#   (GPUPACK_BENCH_CLIENTS), so the aggregate stays flat; MPS: x (1 + (K-1)/4), so it grows;
#   beside the neighbour (its marker in FAKE_CLIENT_STATE): x 3 without MPS, x (1 + its cap/100) with MPS;
#   under a thread cap below 50% (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE): x 50/cap (it needs half the SMs).
# The neighbour (GPUPACK_BENCH_CLIENT=neighbour) serves CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (100) req/s.
# Faults, for one copy or all:
#   FAKE_CLIENT_FAIL=i         copy i exits 3 after the release
#   FAKE_CLIENT_NEVER_READY=i  copy i never writes its ready line
#   FAKE_CLIENT_SILENT=1       no report at all: runs 0.1 s and exits 0; with FAKE_CLIENT_GPU_DIR set, it
#                              first starts up for FAKE_CLIENT_STARTUP_S, then "uses the GPU" (creates
#                              $FAKE_CLIENT_GPU_DIR/<its pid>, which the test's GPU backend lists) for
#                              FAKE_CLIENT_GPU_S, and exits
#   FAKE_CLIENT_GARBAGE=1      a malformed line before every 10th request, and lines written in two pieces
#   FAKE_CLIENT_REQUESTS=N     exits 0 by itself after N requests
#   FAKE_CLIENT_PIDS=dir       each copy writes its pid there (tests check that none survives)
#   FAKE_CLIENT_INTERRUPT=pid  under MPS, copy 0 sends SIGINT to pid after the release (Ctrl-C)
set -uo pipefail
me=${GPUPACK_BENCH_CLIENT:-0}
k=${GPUPACK_BENCH_CLIENTS:-1}
state=${FAKE_CLIENT_STATE:-/tmp}
mps=${CUDA_MPS_PIPE_DIRECTORY:+1}
pct=${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-100}
[ -n "${FAKE_CLIENT_PIDS:-}" ] && echo $$ >"$FAKE_CLIENT_PIDS/$me-$$"
exec {nap}<> <(:)  # `read -t` on a pipe nobody writes: a sleep without a process per nap
nap() { read -r -t "$1" -u "$nap" _ || true; }
# No command substitution in the request loop: each would fork a subshell.
now_us() { local t=$EPOCHREALTIME; now=$((10#${t/./})); }
seconds() { printf -v secs '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }

if [ "${FAKE_CLIENT_SILENT:-0}" = 1 ]; then
  if [ -n "${FAKE_CLIENT_GPU_DIR:-}" ]; then
    nap "${FAKE_CLIENT_STARTUP_S:-0.5}"
    : >"$FAKE_CLIENT_GPU_DIR/$$"
    nap "${FAKE_CLIENT_GPU_S:-0.5}"
    rm -f "$FAKE_CLIENT_GPU_DIR/$$"
    exit 0
  fi
  nap 0.1
  exit 0
fi
exec {report}>>"$GPUPACK_REPORT"
line() {
  if [ "${FAKE_CLIENT_GARBAGE:-0}" = 1 ]; then
    printf '%s' "${1:0:10}" >&"$report"
    printf '%s\n' "${1:10}" >&"$report"
  else
    printf '%s\n' "$1" >&"$report"
  fi
}

if [ "$me" = neighbour ]; then
  echo "$pct" >"$state/neighbour"
  trap 'rm -f "$state/neighbour"; exit 0' TERM
  latency_us=$((1000000 / pct))
else
  [ "${FAKE_CLIENT_NEVER_READY:-x}" = "$me" ] && { nap 3600; exit 0; }
  latency_us=$((${FAKE_CLIENT_LATENCY_MS:-2} * 1000))
fi
now_us
seconds "$now"
line "{\"v\": 1, \"event\": \"ready\", \"t\": $secs}"
while [ ! -e "$GPUPACK_GO" ]; do nap 0.005; done

if [ "$me" != neighbour ]; then
  if [ -z "$mps" ]; then
    latency_us=$((latency_us * k))
  else
    latency_us=$((latency_us * (k + 3) / 4))
  fi
  if [ -e "$state/neighbour" ]; then
    if [ -z "$mps" ]; then latency_us=$((latency_us * 3)); else latency_us=$((latency_us * (100 + $(<"$state/neighbour")) / 100)); fi
  fi
  [ "$pct" -lt 50 ] && latency_us=$((latency_us * 50 / pct))
  [ "${FAKE_CLIENT_FAIL:-x}" = "$me" ] && { echo "fake failure of copy $me" >&2; exit 3; }
  [ -n "${FAKE_CLIENT_INTERRUPT:-}" ] && [ -n "$mps" ] && [ "$me" = 0 ] && kill -INT "$FAKE_CLIENT_INTERRUPT"
fi

now_us
start=$now
printf -v latency_ms '%d.%03d' $((latency_us / 1000)) $((latency_us % 1000))
n=0
while :; do
  now_us
  due=$(((now - start) / latency_us))
  while [ "$n" -lt "$due" ]; do
    n=$((n + 1))
    [ "${FAKE_CLIENT_GARBAGE:-0}" = 1 ] && [ $((n % 10)) = 0 ] && line "not json {"
    seconds $((start + n * latency_us))
    line "{\"v\": 1, \"event\": \"request\", \"t\": $secs, \"latency_ms\": $latency_ms}"
    [ -n "${FAKE_CLIENT_REQUESTS:-}" ] && [ "$n" -ge "$FAKE_CLIENT_REQUESTS" ] && exit 0
  done
  nap 0.005
done
