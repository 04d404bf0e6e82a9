#!/usr/bin/env bash
# End-to-end: the argument errors of `gpupack bench --client-cmd`'s co-location grid (docs/bench.md): each
# is one line naming the input, exit 2, before anything runs.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run bench --ks 1,2
expect_usage_error "need --client-cmd"

run bench --neighbour-cmd 'sleep 1'
expect_usage_error "need --client-cmd"

run bench --sweep
expect_usage_error "need --client-cmd"

run bench --client-cmd true --ks 1,x
expect_usage_error "--ks: 'x' is not a copy count"

run bench --client-cmd true --ks 0,2
expect_usage_error "--ks: '0' is not a copy count"

run bench --client-cmd true -n 4 --ks 1,4
expect_usage_error "give one of them"

run bench --client-cmd true --sweep 100,0
expect_usage_error "--sweep '100,0'"

run bench --client-cmd true --window 0
expect_rc 2
expect_no_out
expect_err "window"

finish
