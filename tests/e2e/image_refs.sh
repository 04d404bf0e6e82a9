#!/usr/bin/env bash
# End-to-end: the image tag is written in one place. `gpupack --version` prints CMakeLists.txt's project
# version and the git commit; every gpupack image reference in the repository (deploy/, the Dockerfile,
# docs), in the objects `kubectl kustomize` builds from deploy/ and in the manifests `gpupack render`
# writes names ghcr.io/gpupack/gpupack:<that version>, the tag scripts/build-image.sh gives the image it
# builds. Other images (the workloads' own, `<name>:latest` placeholders) are not gpupack's and not checked.
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VERSION=$(sed -n 's/^project(gpupack VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
[ -n "$VERSION" ] || { echo "no project(gpupack VERSION ...) in CMakeLists.txt" >&2; exit 1; }
IMAGE="ghcr.io/gpupack/gpupack:$VERSION"

run --version
expect_rc 0
expect_out "^gpupack $VERSION \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)\$"
BUILT=$(sed -n 's/.*(commit \([0-9a-f]\{12\}\).*/\1/p' <<<"$OUT")
if [ -n "$BUILT" ] && git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  # A commit of this checkout: HEAD, or before it when the binary was built before the last commits.
  git -C "$ROOT" merge-base --is-ancestor "$BUILT" HEAD 2>/dev/null || fail "commit $BUILT is not in this checkout's history"
fi

# The commit outside a git checkout (a source tarball): "unknown", or what -DGPUPACK_GIT_COMMIT names.
if command -v cmake >/dev/null; then
  LAST="cmake/build_commit.cmake"
  mkdir -p "$WORK/tarball"
  cmake -DSOURCE_DIR="$WORK/tarball" -DOUT="$WORK/commit.cpp" -P "$ROOT/cmake/build_commit.cmake"
  grep -q 'return "unknown";' "$WORK/commit.cpp" || fail "outside git: $(cat "$WORK/commit.cpp")"
  cmake -DSOURCE_DIR="$WORK/tarball" -DOUT="$WORK/commit.cpp" -DCOMMIT_OVERRIDE='0123abcd"; evil' -P "$ROOT/cmake/build_commit.cmake"
  grep -q 'return "0123abcdevil";' "$WORK/commit.cpp" || fail "override not used, or not sanitised: $(cat "$WORK/commit.cpp")"
fi

# check_refs WHAT FILE PATTERN: every gpupack image FILE names (PATTERN, grep -E -o) is IMAGE; adds their
# number to REFS.
REFS=0
check_refs() {
  local ref
  while IFS= read -r ref; do
    REFS=$((REFS + 1))
    [ "$ref" = "$IMAGE" ] || { LAST=$1; fail "names image $ref, the build's tag is $IMAGE"; }
  done < <(grep -oE "$3" "$2" | sed -E 's/^image: *"?//; s/"$//')
}
TAGGED='ghcr\.io/gpupack/[A-Za-z0-9._/-]+:[0-9][A-Za-z0-9._-]*'     # a tagged reference, anywhere
IMAGE_LINE='image: *"?[^ "]*gpupack[^ "]*'                           # an object's image: naming gpupack

# The repository's own files: the Dockerfile, deploy/, docs/, scripts/ and the README (not results/: the
# measurements of past versions keep the tags they ran). deploy/base names the image by kustomize:
# `image: gpupack` in the DaemonSet, newName and newTag in kustomization.yaml.
while IFS= read -r f; do
  check_refs "$f" "$ROOT/$f" "$TAGGED"
done < <(git -C "$ROOT" ls-files -co --exclude-standard Dockerfile deploy docs scripts README.md)
[ "$REFS" -ge 1 ] || { LAST="repository files"; fail "found no reference to $IMAGE"; }
LAST="deploy/base/kustomization.yaml"
grep -A2 -- '- name: gpupack$' "$ROOT/deploy/base/kustomization.yaml" >"$WORK/images.txt"
grep -q "newName: ${IMAGE%:*}\$" "$WORK/images.txt" || fail "images: newName is not ${IMAGE%:*}"
grep -q "newTag: $VERSION\$" "$WORK/images.txt" || fail "images: newTag is not $VERSION"

# What kustomize makes of deploy/: the base's `image: gpupack` becomes IMAGE in every overlay.
if command -v kubectl >/dev/null; then
  for dir in base overlays/prometheus-operator overlays/gpu-operator; do
    LAST="kubectl kustomize deploy/$dir"
    kubectl kustomize "$ROOT/deploy/$dir" >"$WORK/kustomized.yaml" || { fail "kustomize failed"; continue; }
    grep -q "image: $IMAGE\$" "$WORK/kustomized.yaml" || fail "the agent's container does not run $IMAGE"
    check_refs "deploy/$dir built" "$WORK/kustomized.yaml" "$IMAGE_LINE"
  done
else
  echo "SKIP kustomize builds: no kubectl"
fi

# What gpupack renders (every target, the default plan and one with MIG, MPS and DRA): any image of
# gpupack's it writes is IMAGE.
run plan --format json -o "$WORK/plan.json"
expect_rc 0
for plan in "$WORK/plan.json" "$ROOT/tests/render/data/plan-mixed.json"; do
  rm -rf "$WORK/rendered"
  run render "$plan" --target all -o "$WORK/rendered"
  expect_rc 0
  while IFS= read -r f; do
    check_refs "gpupack render $(basename "$plan"): ${f#"$WORK"/}" "$f" "$IMAGE_LINE"
    check_refs "gpupack render $(basename "$plan"): ${f#"$WORK"/}" "$f" "$TAGGED"
  done < <(find "$WORK/rendered" -type f)
done
finish
