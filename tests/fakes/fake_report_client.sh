#!/bin/sh
# fake-report-client: a stand-in for a user's program that speaks the client report (docs/client-report.md),
# for `gpupack verify` tests without a GPU. It appends a ready line to $GPUPACK_REPORT, waits for $GPUPACK_GO,
# then reports one request per 10 ms until it is stopped.
#   FAKE_LATENCY_MS  base latency of a request (default 2)
#   FAKE_SCALE=1     latency = base x the number of clients sharing its run (report files beside its own):
#                    co-location slows it down, so more replicas eventually break an SLO
#   FAKE_SHARED_MS   latency when other clients share its run (default: FAKE_LATENCY_MS)
#   FAKE_STALL_EVERY_CS, FAKE_STALL_MS
#                    a request that ends on a multiple of this many centiseconds of /proc/uptime takes
#                    FAKE_STALL_MS (default 60), and none ends in the stall before it (as a program that
#                    waits): every client given the same setting is slow at the same moments, the shared
#                    stalls verify reports
#   FAKE_MODE        ok (default) | crash-before-ready | crash-after-go | never-ready | plain (no report)
#   FAKE_ENV_DIR     writes its CUDA_* and GPUPACK_* environment to $FAKE_ENV_DIR/$GPUPACK_VERIFY_REPLICA.env
#                    (and its MPS daemon's defaults to .mps-defaults)
#   FAKE_STARTED     touches this file once it started
set -eu

now() { read -r up _ </proc/uptime; echo "$up"; }

[ -z "${FAKE_STARTED:-}" ] || : >"$FAKE_STARTED"
if [ -n "${FAKE_ENV_DIR:-}" ]; then
  env | grep -E '^(CUDA_|GPUPACK_)' | sort >"$FAKE_ENV_DIR/${GPUPACK_VERIFY_REPLICA:-client}.env"
  # The defaults fake-mps-control's daemon was given (set_default_*), when it runs under one.
  defaults=${CUDA_MPS_PIPE_DIRECTORY:-/nonexistent}/fake-defaults
  [ ! -f "$defaults" ] || cp "$defaults" "$FAKE_ENV_DIR/${GPUPACK_VERIFY_REPLICA:-client}.mps-defaults"
fi
mode=${FAKE_MODE:-ok}
if [ "$mode" = plain ]; then
  while :; do sleep 0.05; done
fi
[ "$mode" != crash-before-ready ] || { echo "fake client: failing before ready" >&2; exit 3; }
[ "$mode" != never-ready ] || while :; do sleep 0.05; done

echo "{\"v\":1,\"event\":\"ready\",\"t\":$(now)}" >>"$GPUPACK_REPORT"
while [ ! -e "$GPUPACK_GO" ]; do sleep 0.01; done
[ "$mode" != crash-after-go ] || { echo "fake client: crashing after go" >&2; exit 4; }

latency=${FAKE_LATENCY_MS:-2}
clients=$(find "$(dirname "$GPUPACK_REPORT")" -maxdepth 1 -name '*.jsonl' | wc -l)
[ "$clients" -le 1 ] || latency=${FAKE_SHARED_MS:-$latency}
[ "${FAKE_SCALE:-0}" != 1 ] || latency=$((latency * clients))
# One request per 10 ms of its own clock (centiseconds of /proc/uptime), written in bursts: the rate is
# exactly 100 req/s however busy the machine is, so tests can predict it.
cs() { read -r up _ </proc/uptime; echo "${up%.*}${up#*.}"; }
next=$(cs)
while :; do
  now=$(cs)
  while [ "$next" -le "$now" ]; do
    this=$latency
    if [ -n "${FAKE_STALL_EVERY_CS:-}" ]; then
      phase=$((next % FAKE_STALL_EVERY_CS))
      [ "$phase" -ne 0 ] || this=${FAKE_STALL_MS:-60}
      # inside the stall before the slow request: nothing ends
      if [ "$phase" -gt $((FAKE_STALL_EVERY_CS - ${FAKE_STALL_MS:-60} / 10)) ]; then
        next=$((next + 1))
        continue
      fi
    fi
    echo "{\"v\":1,\"event\":\"request\",\"t\":$((next / 100)).$(printf %02d $((next % 100))),\"latency_ms\":$this}" >>"$GPUPACK_REPORT"
    next=$((next + 1))
  done
  sleep 0.02
done
