#!/usr/bin/env bash
# End-to-end: `gpupack gpus --interval` reads the GPUs twice and shows GPM activity per GPU and MIG
# instance and per-process utilisation (fake machines); without an interval there is one read, no GPM.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
MACHINES="$(cd "$(dirname "${BASH_SOURCE[0]}")/../fakes/machines" && pwd)"

export GPUPACK_GPU_BACKEND="fake:$MACHINES/two-gpus.json"
run gpus
expect_rc 0
grep -q "SM ACTIVE" <<<"$OUT" && fail "one read has no GPM, yet the table shows its columns"
run gpus --interval 0.05
expect_rc 0
expect_out "^INDEX .* UTIL .* SM ACTIVE +SM OCCUPANCY +TENSOR +DRAM BW$"
expect_out "^0 .* 50% .* 50% +25% +12.5% +37.5%$"
expect_out "^1 +MIG-00000000-0000-0000-0000-000000000001 .* 62.5% +50% +25% +12.5%$"
run gpus --interval 0.05 --format json
expect_rc 0
expect_json '.devices[0].gpm == {"sm_active": 0.5, "sm_occupancy": 0.25, "tensor_active": 0.125, "dram_bw": 0.375, "interval_seconds": 5}'
expect_json '.devices[1].gpm == null and .devices[1].mig_instances[0].gpm.sm_active == 0.625'
expect_json '.devices[0].processes[0].sm_utilization == null'
run gpus --interval 61
expect_usage_error "--interval"

export GPUPACK_GPU_BACKEND="fake:$MACHINES/time-sliced-h100.json"
run gpus --interval 0.05
expect_out "^GPU +PID +KIND +MEMORY +GI +SM UTIL +MEM UTIL$"
expect_out "^0 +6001 +compute +8 GiB +- +62% +30%$"
run gpus --format json
expect_json '.devices[0].processes[1].sm_utilization == 0.35 and .devices[0].processes[1].memory_utilization == 0.1'
finish
