#!/usr/bin/env bash
# Builds gpupack's container image without Docker, from Debian packages, into an OCI archive, then runs
# the image's gpupack to prove the image works: `--version` (the same version and commit as BINARY) and
# `labels` on a fake machine (tests/fakes/machines), as the image's unprivileged user. What the
# Dockerfile builds with Docker, file for file (both take the root filesystem from scripts/image-rootfs.sh).
#   scripts/build-image.sh [BINARY [OUT_DIR]]     defaults: build/gpupack, build/image
# Writes OUT_DIR/gpupack-<version>.oci.tar (an OCI image layout, tagged <version>), to be loaded with
#   skopeo copy oci-archive:build/image/gpupack-0.1.0.oci.tar docker://ghcr.io/gpupack/gpupack:0.1.0
# Then builds the Dockerfile's runtime stage with buildah (no daemon: vfs storage, nothing run) on the same
# root filesystem and checks that it gives the same files and the same config as the archive.
# Needs root (the files' owners, chroot) and the Debian package registry; installs mmdebstrap, umoci and
# buildah from Debian when missing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
binary=$(realpath "${1:-$root/build/gpupack}")
out=${2:-$root/build/image}
[ -x "$binary" ] || { echo "build-image: no gpupack binary at $binary (build it first)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "build-image: needs root (file owners in the image, chroot to run it)" >&2; exit 2; }
stamp() { echo "build-image: [$(date -u +%H:%M:%S)] $*"; }

missing=()
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v umoci >/dev/null || missing+=(umoci)
command -v buildah >/dev/null || missing+=(buildah)
if [ ${#missing[@]} -gt 0 ]; then
  stamp "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The tag is the version the binary reports ("gpupack 0.1.0 (commit ...)"): the one deploy/ and rendered
# manifests name (core/build_info.hpp's gpupack_image()).
version_line=$("$binary" --version)
version=$(awk '{print $2}' <<<"$version_line")
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || { echo "build-image: cannot read a version from '$version_line'" >&2; exit 1; }
commit=$(sed -n 's/.*(commit \(.*\)).*/\1/p' <<<"$version_line")

work=$(mktemp -d "${TMPDIR:-/tmp}/gpupack-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
stamp "root filesystem from Debian packages"
bash "$root/scripts/image-rootfs.sh" "$binary" "$work/rootfs"

stamp "OCI image gpupack:$version"
umoci init --layout "$work/oci"
umoci new --image "$work/oci:$version"
# One layer holding the whole root filesystem; owners and modes as they are on disk (root here).
umoci insert --image "$work/oci:$version" "$work/rootfs" /
created=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
umoci config --image "$work/oci:$version" --no-history \
  --config.entrypoint /usr/bin/gpupack --config.cmd=--help \
  --config.user 65532:65532 --config.workingdir /home/gpupack \
  --config.env PATH=/usr/bin:/bin --config.env NVIDIA_DRIVER_CAPABILITIES=compute,utility \
  --config.label org.opencontainers.image.title=gpupack \
  --config.label "org.opencontainers.image.version=$version" \
  --config.label "org.opencontainers.image.revision=$commit" \
  --config.label org.opencontainers.image.source=https://github.com/gpupack/gpupack \
  --created "$created" --author gpupack
umoci gc --layout "$work/oci"
mkdir -p "$out"
archive="$out/gpupack-$version.oci.tar"
tar -C "$work/oci" --sort=name --owner=0 --group=0 --numeric-owner -cf "$archive.tmp" . && mv "$archive.tmp" "$archive"
stamp "wrote $archive ($(du -h "$archive" | cut -f1))"

# Proof: unpack the archive as a runtime would (a fresh copy, not the rootfs above) and run its gpupack
# under chroot, where only the image's libraries exist, as the image's user.
stamp "running the image's gpupack"
mkdir "$work/check" && tar -C "$work/check" -xf "$archive"
umoci unpack --image "$work/check:$version" "$work/bundle" >/dev/null
rootfs="$work/bundle/rootfs"
jq -e --arg v "$version" '.process.user.uid == 65532 and .process.args[0] == "/usr/bin/gpupack"' \
  "$work/bundle/config.json" >/dev/null || { echo "build-image: the image's user or entrypoint is wrong" >&2; exit 1; }
in_image() { chroot --userspec=65532:65532 "$rootfs" /usr/bin/gpupack "$@"; }
got=$(in_image --version)
[ "$got" = "$version_line" ] || { echo "build-image: the image's gpupack says '$got', the build's '$version_line'" >&2; exit 1; }
echo "  $got"
# A fake two-GPU machine and the node config deploy/ ships: the GPU layer, the config parser and the
# label code all run inside the image.
mkdir -p "$rootfs/tmp/check"
cp "$root/tests/fakes/machines/two-gpus.json" "$root/deploy/base/node.yaml" "$rootfs/tmp/check/"
labels=$(GPUPACK_GPU_BACKEND=fake:/tmp/check/two-gpus.json in_image labels --config /tmp/check/node.yaml)
grep -qx 'gpupack.io/resource.mps-50.count=1' <<<"$labels" ||
  { echo "build-image: the image's gpupack labels printed: $labels" >&2; exit 1; }
while IFS= read -r line; do echo "  $line"; done <<<"$labels"
stamp "image gpupack:$version works"

# The Dockerfile, without Docker: buildah builds it with its build stage replaced by the named context
# `build` (this root filesystem under /rootfs, what the build stage's image-rootfs.sh writes there), so the
# runtime stage as written (FROM scratch, COPY --from=build, ENV, USER, WORKDIR, ENTRYPOINT, CMD) runs; it
# has no RUN, so no namespaces or daemon. Its image must hold the same files (path, type, mode, owner,
# size, link target, content) and the same runtime config as the archive. Not proven here: the build stage
# (debian:12, setup-deps.sh --build-only, the compile), which needs the registry's base image and a full
# build (docs/container-image.md).
stamp "the Dockerfile's runtime stage with buildah (vfs storage, no daemon)"
bah() { buildah --root "$work/buildah" --runroot "$work/buildah-run" --storage-driver vfs "$@"; }
mkdir "$work/empty-context"
bah bud --quiet --pull=never --isolation chroot --build-context "build=$work" \
  --build-arg "GPUPACK_COMMIT=$commit" -f "$root/Dockerfile" -t "gpupack-dockerfile:$version" "$work/empty-context" >/dev/null
bah push --quiet "gpupack-dockerfile:$version" "oci:$work/dockerfile-oci:$version"
umoci unpack --image "$work/dockerfile-oci:$version" "$work/dockerfile-bundle" >/dev/null
# What a runtime takes from each image's config (the process spec umoci unpack derived from it).
runtime_config() { jq -S '{args: .process.args, user: .process.user, cwd: .process.cwd, env: (.process.env | sort)}' "$1"; }
diff <(runtime_config "$work/bundle/config.json") <(runtime_config "$work/dockerfile-bundle/config.json") >"$work/config.diff" ||
  { echo "build-image: the Dockerfile's image config differs from the archive's:" >&2; cat "$work/config.diff" >&2; exit 1; }
file_list() { (cd "$1" && find . -path ./tmp/check -prune -o -printf '%p %y %m %U:%G %s %l\n' | sort); }
diff <(file_list "$rootfs") <(file_list "$work/dockerfile-bundle/rootfs") >"$work/files.diff" ||
  { echo "build-image: the Dockerfile's image holds other files than the archive:" >&2; head -20 "$work/files.diff" >&2; exit 1; }
rm -rf "$rootfs/tmp/check"
# The regular files' contents (device nodes and links are compared by the list above).
contents() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
diff <(contents "$rootfs") <(contents "$work/dockerfile-bundle/rootfs") >"$work/content.diff" ||
  { echo "build-image: file contents differ between the Dockerfile's image and the archive:" >&2; head -20 "$work/content.diff" >&2; exit 1; }
echo "  $(wc -l <(file_list "$rootfs") | cut -d' ' -f1) files and the runtime config alike"
stamp "the Dockerfile's runtime stage gives the same image"
