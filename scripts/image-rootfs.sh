#!/usr/bin/env bash
# Builds the root filesystem of gpupack's container image into DIR: the Debian 12 packages that hold the
# shared libraries BINARY links (found with ldd and dpkg -S, never listed by hand), extracted with
# mmdebstrap (no shell, no apt, no dpkg in the image), BINARY as /usr/bin/gpupack and an unprivileged user
# gpupack (uid/gid 65532). Both image builds use it: scripts/build-image.sh (OCI archive, no Docker) and
# the Dockerfile (docker build), so both images hold the same files.
# Usage: scripts/image-rootfs.sh BINARY DIR [MIRROR]   (root, or mmdebstrap's chrootless mode's rights)
set -euo pipefail
binary=${1:?usage: image-rootfs.sh BINARY DIR [MIRROR]}
dir=${2:?usage: image-rootfs.sh BINARY DIR [MIRROR]}
mirror=${3:-http://deb.debian.org/debian}
[ -x "$binary" ] || { echo "image-rootfs: $binary is not an executable" >&2; exit 2; }
[ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || { echo "image-rootfs: $dir exists and is not empty" >&2; exit 2; }

# The package of every library the dynamic loader resolves for the binary. Debian 12 is merged-/usr:
# ldd may name /lib/... where dpkg recorded /usr/lib/..., or the other way round.
runtime_packages() {
  local lib pkg
  ldd "$1" | awk '/=> \// {print $3} /^[[:space:]]*\/[^ ]*ld-linux/ {print $1}' | while read -r lib; do
    pkg=""
    for candidate in "$lib" "/usr$lib" "${lib#/usr}" "$(readlink -f "$lib")"; do
      pkg=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
    done
    [ -n "$pkg" ] || { echo "image-rootfs: no Debian package holds $lib (linked by $1)" >&2; return 1; }
    echo "$pkg"
  done | sort -u
}
mapfile -t packages < <(runtime_packages "$binary")
[ ${#packages[@]} -gt 0 ] || { echo "image-rootfs: ldd found no libraries in $binary" >&2; exit 1; }
echo "image-rootfs: runtime packages: ${packages[*]}"

# extract: the packages and their dependencies unpacked, no maintainer scripts (libraries need none
# beyond ldconfig, run below); chrootless: nothing runs inside DIR, so no mounts or namespaces needed.
include=$(IFS=,; echo "${packages[*]}")
# The hook is mmdebstrap's shell code ($1: the root directory), hence single quotes.
# shellcheck disable=SC2016
mmdebstrap --quiet --mode=chrootless --variant=extract --include="$include" \
  --customize-hook='rm -rf "$1"/usr/share/doc "$1"/usr/share/man "$1"/usr/share/lintian "$1"/usr/share/locale "$1"/var/cache/* "$1"/var/lib/apt' \
  bookworm "$dir" "$mirror"

install -D -m 0755 "$binary" "$dir/usr/bin/gpupack"
mkdir -p "$dir/etc" "$dir/tmp" "$dir/run/gpupack" && chmod 1777 "$dir/tmp"
# root for the agent (MPS, kubelet's sockets: deploy/base/daemonset.yaml), gpupack for everything else.
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\ngpupack:x:65532:65532:gpupack:/home/gpupack:/usr/sbin/nologin\n' >"$dir/etc/passwd"
printf 'root:x:0:\ngpupack:x:65532:\n' >"$dir/etc/group"
mkdir -p "$dir/home/gpupack" && chown 65532:65532 "$dir/home/gpupack"
ldconfig -r "$dir"
echo "image-rootfs: $(du -sh "$dir" | cut -f1) in $dir"
