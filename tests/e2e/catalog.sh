#!/usr/bin/env bash
# End-to-end: `gpupack catalog` and `gpupack catalog show`.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run catalog
expect_rc 0
for model in A100-SXM4-40GB A100-SXM4-80GB A100-PCIE-80GB A30-24GB H100-SXM5-80GB H100-PCIE-80GB H100-NVL-94GB \
  H200-SXM-141GB H200-NVL-141GB GH200-96GB GH200-144GB B200-180GB GB200-186GB RTX-PRO-6000-BLACKWELL-96GB \
  L40S-48GB L4-24GB A10G-24GB T4-16GB V100-SXM2-16GB P100-PCIE-16GB; do
  expect_out "^$model "
done
expect_out "^P100-PCIE-16GB .* 16 +no$"

run catalog --format json
expect_rc 0
expect_json '.models | length == 24'
expect_json '.models[] | select(.name == "H100-SXM5-80GB") | .sm_count == 132 and .mig.profiles[6].sms == 132'
expect_json '.models[] | select(.name == "P100-PCIE-16GB") | .mps.client_limits == [{"min_cuda":"1.0","clients":16}]'
expect_json '.models[] | select(.name == "H200-SXM-141GB") | .mps.client_limits[1] == {"min_cuda":"13.1","clients":60}'
expect_json '.models[] | select(.name == "L4-24GB") | .mig == null'

run catalog show "nvidia h100 80gb hbm3"
expect_rc 0
expect_out "^model: +H100-SXM5-80GB"
expect_out "MPS clients per GPU: 48 up to CUDA 13.0, 60 from CUDA 13.1"
expect_out "^3g.40gb +9 +3 +4 +39.5 +60 "
expect_out "^memory: +80 GB \(nominal\), 3350 GB/s peak bandwidth"

run catalog show GH200-96GB
expect_rc 0
expect_out "NVML names: .*\(UNCONFIRMED\)"
expect_out "^7g.96gb .*gi_profile_id,placement_starts"

run catalog show B200 --format json
expect_rc 0
expect_json '.mig.profiles[] | select(.name == "3g.90gb") | .unconfirmed | index("sms") != null'
expect_json '.memory_bandwidth_gbs == 8000'

# A fractional L4 has its share of the L4's bandwidth (profiles scale by it).
run catalog show L4-3Q --format json
expect_rc 0
expect_json '.memory_bandwidth_gbs == 37.5'

run catalog show P100
expect_rc 0
expect_out "MIG: +not supported"
expect_out "MPS memory isolation: no"

# Bad input: exit 2, one line naming the token and what is accepted.
run catalog show A100-8GB
expect_usage_error "unknown GPU model 'A100-8GB'; closest: A100-80GB"
run catalog show ""
expect_usage_error "empty GPU model name"
run catalog show
expect_usage_error "gpu is required"
run catalog --format yaml
expect_usage_error "yaml"
run catalog stray
expect_usage_error "stray"
run
expect_usage_error "subcommand"
run --help
expect_rc 0
expect_out "catalog"

finish
