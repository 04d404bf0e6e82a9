#!/usr/bin/env bash
# Installs gpupack's build and test dependencies from Debian/Ubuntu packages (Debian 12, Ubuntu 24.04).
# Idempotent and quiet when everything is already installed; uses sudo when not root.
set -euo pipefail

# --build-only: what building the gpupack binary needs (-DGPUPACK_BUILD_TESTS=OFF -DGPUPACK_BUILD_BENCH=OFF),
# as the Dockerfile's build stage runs it; without it, also everything the tests and benchmarks need.
build_only=false
[ "${1:-}" = "--build-only" ] && build_only=true

packages=(
  build-essential cmake ninja-build pkg-config
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev libfmt-dev libspdlog-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libcpp-httplib-dev
)
if ! $build_only; then
  packages+=(
    libgtest-dev libgmock-dev libbenchmark-dev
    prometheus wrk
    clang lld
    shellcheck jq
    chromium
  )
  # Node.js validates rendered Kubernetes objects in the tests; npm comes with nodesource's nodejs, so
  # Debian's npm package is only needed where no npm is installed.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
install_npm_test_deps() {
  $build_only && return 0
  # kubernetes-models (offline schema validation of rendered objects), pinned by package-lock.json.
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/k8s-validate"
  if [ ! -d "$dir/node_modules" ]; then
    (cd "$dir" && npm ci --silent --no-audit --no-fund >/dev/null)
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  install_npm_test_deps
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "setup-deps: missing packages (${missing[*]}) and not root, and sudo is not installed" >&2
  exit 1
fi
echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_npm_test_deps
