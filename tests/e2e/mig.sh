#!/usr/bin/env bash
# End-to-end: `gpupack mig profiles|validate|layouts|capacity`.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run mig profiles H100-80GB
expect_rc 0
expect_out "^1g.20gb +15 +1 +2 +19.5 +26 "
run mig profiles A30 --format json
expect_rc 0
expect_json '.memory_slices == 4 and (.profiles | map(.name) == ["1g.6gb","1g.6gb+me","2g.12gb","2g.12gb+me","4g.24gb"])'

# validate: exit 0 with placements, 1 with a reason, 2 for bad input.
run mig validate A100-80GB 3g.40gb 2g.20gb 2x1g.10gb
expect_rc 0
expect_out "^  3g.40gb@[04]:4$"
expect_out "^  2g.20gb@[024]:2$"
run mig validate A100-80GB 4g.40gb 3g.40gb --format json
expect_rc 0
expect_json '.valid and (.instances == [{"profile":"4g.40gb","start":0,"size":4},{"profile":"3g.40gb","start":4,"size":4}])'
run mig validate H100-80GB 4g.40gb 3g.40gb 1g.10gb
expect_rc 1
expect_out "needs 9 memory slices; the GPU has 8"
run mig validate H100-80GB 8x1g.10gb --format json
expect_rc 1
expect_json '(.valid | not) and (.reason | test("at most 7"))'
run mig validate A30 1g.6gb+me 2g.12gb+me
expect_rc 1
expect_out "media extensions"
run mig validate A100-80GB 1g.10gbx
expect_usage_error "unknown MIG profile '1g.10gbx' for A100-SXM4-80GB; accepted: 1g.10gb"
run mig validate A100-80GB 1g.5gb
expect_usage_error "'1g.5gb'"
run mig validate L4 1g.10gb
expect_usage_error "L4-24GB does not support MIG"
run mig validate H300 1g.10gb
expect_usage_error "unknown GPU model 'H300'"
run mig validate A100-80GB
expect_usage_error "profiles is required"
run mig validate A100-80GB 100x1g.10gb
expect_usage_error "invalid count"

# layouts
run mig layouts A100-80GB --maximal
expect_rc 0
expect_out "28 maximal layouts"
expect_out "3g.40gb \+ 2g.20gb \+ 2x1g.10gb"
run mig layouts A100-80GB --format json
expect_rc 0
expect_json '.count == 77 and (.layouts | length == 77)'
expect_json '[.layouts[].instances[]] | all(has("profile") and has("start") and has("size"))'
expect_json '[.layouts[].profiles | keys[]] | all(test("\\+") | not)'
run mig layouts H100-80GB --media --maximal --format json
expect_rc 0
expect_json '.count == 44 and ([.layouts[].profiles | keys[]] | any(. == "1g.10gb+me"))'
run mig layouts A100-80GB --maximal --format mig-parted
expect_rc 0
expect_out "^version: v1$"
expect_out "^mig-configs:$"
expect_out "^  3g.40gb-2g.20gb-2x1g.10gb:$"
expect_out "^      mig-devices:$"
expect_out "^        \"1g.10gb\": 2$"
run mig layouts A100-80GB --format csv
expect_usage_error "csv"
run mig layouts T4
expect_usage_error "T4-16GB does not support MIG"

# capacity
run mig capacity A100-80GB 7x1g.10gb --time-slicing 4
expect_rc 0
expect_out "concurrent workloads: 28"
run mig capacity A100-80GB 3g.40gb 2g.20gb 2x1g.10gb --mps 100 --format json
expect_rc 0
expect_json '.total == 45 and .clamped and (.rows | map(.mps_client_limit) == [6, 13, 20])'
run mig capacity A100-80GB 7g.80gb --mps 100 --cuda 13.1 --format json
expect_rc 0
expect_json '.total == 60'
run mig capacity A100-80GB 7g.80gb 1g.10gb
expect_usage_error "does not fit on A100-SXM4-80GB"
run mig capacity A100-80GB 7x1g.10gb --time-slicing 4 --mps 2
expect_usage_error "excludes"
run mig capacity A100-80GB 7x1g.10gb --mps 0
expect_usage_error "--mps"
run mig capacity A100-80GB 7x1g.10gb --mps 2 --cuda thirteen
expect_usage_error "invalid CUDA version 'thirteen'"
run mig frobnicate
expect_usage_error "frobnicate"

finish
