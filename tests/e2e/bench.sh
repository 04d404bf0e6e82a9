#!/usr/bin/env bash
# End-to-end: `gpupack bench` argument errors, and exit 3 where no GPU can be measured (CI: no driver,
# or a build without CUDA). On a machine with a GPU the exit-3 case is not checked (label gpu runs there).
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run bench --only streams,mpss
expect_usage_error "unknown part 'mpss'"

run bench -n 4
expect_usage_error "need --client-cmd"

run bench --only client
expect_usage_error "need --client-cmd"

run bench-worker spin
expect_usage_error "unknown bench-worker mode 'spin'"

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  run bench --quick --only streams
  expect_rc 3
  expect_err "built without CUDA|no usable CUDA driver or GPU|no CUDA GPU"
fi

finish
