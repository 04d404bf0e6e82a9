#!/usr/bin/env bash
# GPU test (label gpu): a `gpupack profile --sweep` killed with SIGKILL while its private MPS daemon runs
# leaves that daemon behind (nothing can quit it then: seen on the device machine on 2026-11-26, when the
# next profile refused the GPU as owned by "an MPS daemon not started by gpupack"). The next
# `gpupack profile --sweep` must quit it (its pipe directory is marked temporary and its lock is free:
# mps/orphaned_daemons.hpp), say so, and measure; nothing of this test may be left running at the end.
# Real nvidia-cuda-mps-control; every daemon here is gpupack's own, on private directories under $WORK.
# Outputs under $OUT/killed-profile when OUT is set. About 1 minute on an H100.
RESULTS_ROOT=${OUT:-}  # lib.sh uses OUT for a command's stdout
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# shellcheck source=tests/example_clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/../example_clients.sh"
RESULTS=${RESULTS_ROOT:+$RESULTS_ROOT/killed-profile}
RESULTS=${RESULTS:-$WORK/killed-profile}
mkdir -p "$RESULTS"
unset GPUPACK_GPU_BACKEND
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

# Processes of this test (by their environment): MPS daemons and servers on a pipe directory under
# $TMPDIR, or anything else started with this TMPDIR (the example client).
ours() {
  local pid
  for pid in $(pgrep -f "${1:-.}" || true); do
    if { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -q "${2:-^TMPDIR=$TMPDIR\$}"; then echo "$pid"; fi
  done
}
our_daemons() { ours nvidia-cuda-mps "^CUDA_MPS_PIPE_DIRECTORY=$TMPDIR/"; }
cleanup() {
  local pid pipe
  for pid in $(our_daemons); do
    pipe=$({ tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | sed -n 's/^CUDA_MPS_PIPE_DIRECTORY=//p')
    [ -z "$pipe" ] || echo quit | CUDA_MPS_PIPE_DIRECTORY=$pipe nvidia-cuda-mps-control >/dev/null 2>&1
  done
  for pid in $(ours mlp_b8.py); do kill -9 "$pid" 2>/dev/null; done
}
trap 'cleanup; rm -rf "$WORK"' EXIT

PROFILE=(profile --name mlp-b8 --warmup 1 --duration 2 --sweep)
CLIENT=(python3 "$CLIENTS/mlp_b8.py" --duration 600)
"$GPUPACK" "${PROFILE[@]}" -o "$WORK/first.json" -- "${CLIENT[@]}" >"$RESULTS/first.txt" 2>&1 &
FIRST=$!
for _ in $(seq 1 600); do
  [ -z "$(our_daemons)" ] || break
  sleep 0.1
done
[ -n "$(our_daemons)" ] || fail "the first profile's MPS daemon did not start within 60 s"
sleep 2
kill -9 "$FIRST"
wait "$FIRST" 2>/dev/null || true  # 137: killed, as meant
for pid in $(ours mlp_b8.py); do kill -9 "$pid" 2>/dev/null; done
left=$(our_daemons)
echo "left by the killed profile: ${left:-nothing}" >>"$RESULTS/first.txt"
[ -n "$left" ] || fail "the killed profile left no MPS daemon: nothing to recover from"

set +e
timeout 300 "$GPUPACK" "${PROFILE[@]}" -o "$WORK/second.json" -- "${CLIENT[@]}" >"$WORK/out" 2>"$WORK/err"
RC=$?
set -e
LAST="gpupack ${PROFILE[*]} (after the kill)"
OUT=$(cat "$WORK/out")
ERR=$(cat "$WORK/err")
printf 'exit %s\n--- stdout\n%s\n--- stderr\n%s\n' "$RC" "$OUT" "$ERR" >"$RESULTS/second.txt"
expect_rc 0
expect_err "quit an MPS daemon left by a gpupack command that was killed \(pid [0-9]+, pipe directory $TMPDIR/"
jq -e '(.sm_share_curve | length) == 4' "$WORK/second.json" >/dev/null || fail "the second profile has no SM-share curve"
[ -z "$(our_daemons)" ] || fail "MPS daemons left running: $(our_daemons)"
finish
