#!/usr/bin/env bash
# Quick start (1): install dependencies, build, and run the main job: gpupack plan on its embedded default
# (the lab's question: 40 small inference models on one A100-80GB), then the catalog and MIG layouts.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gpupack_build >/dev/null
"$GPUPACK_BUILD/gpupack" plan
echo
"$GPUPACK_BUILD/gpupack" catalog
echo
"$GPUPACK_BUILD/gpupack" mig layouts A100-80GB --maximal
