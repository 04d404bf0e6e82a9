#!/usr/bin/env bash
# Helpers for end-to-end tests: run the real gpupack binary and check exit code, stdout and stderr.
# Usage in a test: source lib.sh; run <args...>; expect_rc N; expect_out PATTERN; expect_err PATTERN.
set -euo pipefail

GPUPACK=${1:?usage: $0 path/to/gpupack}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Killed (timeout, Ctrl-C): with a trap set, bash runs it only once the command it waits for has ended, so a
# gpupack that got the same signal quits its private MPS daemon, whose pipe directory is under $WORK, before
# the EXIT trap removes it (without these traps the shell removed it first, and the daemon was left running
# where nothing could reach it: results/run46-inference-grid/README.md).
trap 'exit 143' TERM
trap 'exit 130' INT
FAILURES=0
OUT=""
ERR=""
RC=0
LAST=""

# Any command, its stdout in OUT, stderr in ERR, exit code in RC (the expect_* checks read them).
run_cmd() {
  LAST="$*"
  set +e
  "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
}

run() {
  run_cmd "$GPUPACK" "$@"
  LAST="gpupack $*"
}

fail() {
  echo "FAIL: $LAST: $*" >&2
  echo "  stdout: ${OUT:0:2000}" >&2
  echo "  stderr: ${ERR:0:2000}" >&2
  FAILURES=$((FAILURES + 1))
}

expect_rc() { [ "$RC" -eq "$1" ] || fail "exit code $RC, expected $1"; }
expect_out() { grep -Eq -- "$1" <<<"$OUT" || fail "stdout lacks /$1/"; }
expect_no_out() { [ -z "$OUT" ] || fail "expected no stdout"; }
expect_err() { grep -Eq -- "$1" <<<"$ERR" || fail "stderr lacks /$1/"; }
# A usage error: exit 2, one line on stderr naming the token, nothing on stdout, no stack trace.
expect_usage_error() {
  expect_rc 2
  expect_no_out
  expect_err "$1"
  [ "$(wc -l <<<"$ERR")" -eq 1 ] || fail "stderr is not one line"
}
expect_json() {
  jq -e "$1" <<<"$OUT" >/dev/null 2>&1 || fail "JSON check failed: $1"
}

finish() {
  if [ "$FAILURES" -gt 0 ]; then
    echo "$FAILURES check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}

# kustomize_checks_possible ROOT: true where `kubectl kustomize` and the schema validator (node and
# tests/k8s-validate/node_modules, installed by scripts/setup-deps.sh) are here; else says SKIP and why.
kustomize_checks_possible() {
  if command -v kubectl >/dev/null && command -v node >/dev/null && [ -d "$1/tests/k8s-validate/node_modules" ]; then
    return 0
  fi
  echo "SKIP kustomize checks: kubectl, node or tests/k8s-validate/node_modules missing (scripts/setup-deps.sh installs node's)"
  return 1
}

# kustomize_validated ROOT DIR OUT [validate.mjs options]: `kubectl kustomize DIR` into OUT, every object
# checked against the Kubernetes schemas; the validator's summary line in $WORK/validate.out.
kustomize_validated() {
  local root=$1 dir=$2 out=$3
  shift 3
  LAST="kubectl kustomize $dir"
  kubectl kustomize "$dir" >"$out" || fail "kustomize failed"
  node "$root/tests/k8s-validate/validate.mjs" "$@" "$out" >"$WORK/validate.out" 2>&1 ||
    fail "schema validation: $(cat "$WORK/validate.out")"
}
