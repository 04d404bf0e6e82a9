#!/usr/bin/env bash
# Golden files: the embedded scenario (`gpupack plan` with no file) rendered with every target must
# match tests/render/golden/default byte for byte. After an intended change, regenerate with
#   UPDATE_GOLDEN=1 bash tests/e2e/render_golden.sh build/gpupack
# and review the diff like code.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

GOLDEN="$(cd "$(dirname "${BASH_SOURCE[0]}")/../render/golden" && pwd)/default"

run plan --format json -o "$WORK/plan.json"
expect_rc 0
run render "$WORK/plan.json" --target all -o "$WORK/rendered"
expect_rc 0
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
  rm -rf "$GOLDEN"
  cp -r "$WORK/rendered" "$GOLDEN"
  echo "golden files updated in $GOLDEN"
fi
diff -r "$GOLDEN" "$WORK/rendered" >"$WORK/golden.diff" || fail "rendered files differ from $GOLDEN: $(head -40 "$WORK/golden.diff")"
finish
