#!/usr/bin/env bash
# Quick start (2): install dependencies, build, and run the whole test suite. Tests labelled `gpu` run
# only where nvidia-smi sees a GPU.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gpupack_build
exclude=()
if ! (command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1); then
  echo "test: no GPU here: tests labelled gpu are skipped"
  exclude=(-LE gpu)
fi
ctest --test-dir "$GPUPACK_BUILD" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "${exclude[@]}"
