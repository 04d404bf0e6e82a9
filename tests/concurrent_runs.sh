#!/usr/bin/env bash
# shellcheck disable=SC2034  # RC and LAST belong to lib.sh, which reads them
# Sourced by the admission tests (tests/e2e/node.sh, tests/e2e-gpu/admission_real.sh, after lib.sh):
# N concurrent `gpupack run`, each client given "$WORK" and its number i, expected to touch
# $WORK/started.<i> once it runs and to hold its slot until $WORK/go exists.

# start_runs N RUN-ARGS... -- CLIENT...: run i is `gpupack run RUN-ARGS -- CLIENT "$WORK" i`; pids in RUNS.
start_runs() {
  local n=$1 i
  shift
  RUNS=()
  for i in $(seq 1 "$n"); do
    "$GPUPACK" run "$@" "$WORK" "$i" 2>"$WORK/run.$i.err" &
    RUNS+=($!)
  done
}
count_started() { find "$WORK" -maxdepth 1 -name 'started.*' | wc -l; }
count_refused() { grep -l 'refused' "$WORK"/run.*.err 2>/dev/null | wc -l; }
# settle_runs N: waits up to 60 s until each of the N runs started its client or was refused.
settle_runs() {
  for _ in $(seq 1 600); do
    [ $(($(count_started) + $(count_refused))) -ge "$1" ] && return 0
    sleep 0.1
  done
}
# kill_one_admitted: SIGKILLs the first run whose client started; its number in KILLED.
kill_one_admitted() {
  for KILLED in $(seq 1 "${#RUNS[@]}"); do [ -e "$WORK/started.$KILLED" ] && break; done
  kill -KILL "${RUNS[$((KILLED - 1))]}"
  wait "${RUNS[$((KILLED - 1))]}" 2>/dev/null || true
}
# run_until_admitted RUN-ARGS...: `gpupack run RUN-ARGS` again every 0.1 s for up to 20 s until admitted
# (a client that just ended may still hold its slot for a moment).
run_until_admitted() {
  for _ in $(seq 1 200); do
    run run "$@"
    [ "$RC" -eq 0 ] && return 0
    sleep 0.1
  done
}
# release_runs: lets the clients end; every run but the killed one exits 0 if admitted, 3 if refused.
release_runs() {
  local j
  touch "$WORK/go"
  for j in $(seq 1 "${#RUNS[@]}"); do
    [ "$j" -eq "${KILLED:-0}" ] && continue
    set +e
    wait "${RUNS[$((j - 1))]}"
    RC=$?
    set -e
    LAST="concurrent run $j"
    if [ -e "$WORK/started.$j" ]; then expect_rc 0; else expect_rc 3; fi
  done
}
