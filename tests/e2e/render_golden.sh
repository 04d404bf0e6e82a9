#!/usr/bin/env bash
# Golden files: the embedded scenario (`gpupack plan` with no file) rendered with every target must
# match tests/render/golden/default byte for byte, and examples/mixed-fleet.yaml rendered with the dra
# target tests/render/golden/mixed-fleet-dra, and the consumer cases of plan-consumers.json
# tests/render/golden/consumers. After an intended change, regenerate with
#   UPDATE_GOLDEN=1 bash tests/e2e/render_golden.sh build/gpupack
# and review the diff like code.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

check_golden() {  # golden-dir rendered-dir
  if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    rm -rf "$1"
    cp -r "$2" "$1"
    echo "golden files updated in $1"
  fi
  diff -r "$1" "$2" >"$WORK/golden.diff" || fail "rendered files differ from $1: $(head -40 "$WORK/golden.diff")"
}

run plan --format json -o "$WORK/plan.json"
expect_rc 0
run render "$WORK/plan.json" --target all -o "$WORK/rendered"
expect_rc 0
check_golden "$ROOT/tests/render/golden/default" "$WORK/rendered"

# The DRA target on examples/mixed-fleet.yaml (issue 18).
run plan "$ROOT/examples/mixed-fleet.yaml" --format json -o "$WORK/mixed.json"
expect_rc 0
run render "$WORK/mixed.json" --target dra -o "$WORK/mixed-dra"
expect_rc 0
check_golden "$ROOT/tests/render/golden/mixed-fleet-dra" "$WORK/mixed-dra"

# The consumers' cases of issue 17 (tests/render/data/plan-consumers.json, one node each): equal MPS at the
# plugin's division, an unplanned GPU beside a shared one, 50 MPS clients (over the plugin's 48 whatever
# the CUDA version), a V100 with 20 (over 16), MIG CDI devices and a +me profile.
run render "$ROOT/tests/render/data/plan-consumers.json" --target mig-parted,cdi,k8s-device-plugin,k8s-workloads,dra \
  -o "$WORK/consumers"
expect_rc 0
check_golden "$ROOT/tests/render/golden/consumers" "$WORK/consumers"
finish
