#!/usr/bin/env bash
# Shared by scripts/main.sh and scripts/test.sh: install dependencies, configure and build.
set -euo pipefail

GPUPACK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GPUPACK_BUILD=${GPUPACK_BUILD:-$GPUPACK_ROOT/build}

gpupack_build() {
  bash "$GPUPACK_ROOT/scripts/setup-deps.sh"
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  if [ ! -f "$GPUPACK_BUILD/build.ninja" ]; then
    # Release at -O2 without debug information: a quarter less compile time than RelWithDebInfo on 2 cores
    # (configure your own build directory with -DCMAKE_BUILD_TYPE=RelWithDebInfo for a debugger).
    cmake -S "$GPUPACK_ROOT" -B "$GPUPACK_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
  fi
  cmake --build "$GPUPACK_BUILD" -j "$jobs"
}
