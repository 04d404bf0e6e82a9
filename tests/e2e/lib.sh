#!/usr/bin/env bash
# Helpers for end-to-end tests: run the real gpupack binary and check exit code, stdout and stderr.
# Usage in a test: source lib.sh; run <args...>; expect_rc N; expect_out PATTERN; expect_err PATTERN.
set -euo pipefail

GPUPACK=${1:?usage: $0 path/to/gpupack}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FAILURES=0
OUT=""
ERR=""
RC=0
LAST=""

run() {
  LAST="gpupack $*"
  set +e
  "$GPUPACK" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
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
