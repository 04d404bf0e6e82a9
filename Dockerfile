# gpupack's container image with Docker: docker build -t ghcr.io/gpupack/gpupack:0.1.0 \
#   --build-arg GPUPACK_COMMIT=$(git rev-parse --short=12 HEAD) .
# The same image as scripts/build-image.sh builds without Docker (CI runs that one): both take the root
# filesystem from scripts/image-rootfs.sh, so both hold the same files. The tag is CMakeLists.txt's
# project version; deploy/ and `gpupack render` name ghcr.io/gpupack/gpupack:<version>.

# Build stage: Debian 12 with the packages scripts/setup-deps.sh installs for the binary alone.
FROM debian:12 AS build
COPY scripts/setup-deps.sh /src/scripts/setup-deps.sh
RUN bash /src/scripts/setup-deps.sh --build-only \
 && apt-get install -y -qq --no-install-recommends mmdebstrap \
 && rm -rf /var/lib/apt/lists/*
COPY . /src
# .dockerignore leaves .git out: the commit --version prints comes in as a build argument.
ARG GPUPACK_COMMIT=unknown
RUN cmake -S /src -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPACK_BUILD_TESTS=OFF \
      -DGPUPACK_BUILD_BENCH=OFF -DGPUPACK_CUDA=OFF -DGPUPACK_GIT_COMMIT="$GPUPACK_COMMIT" \
 && cmake --build /build --target gpupack \
 && bash /src/scripts/image-rootfs.sh /build/gpupack /rootfs

# Runtime: only the runtime libraries' packages (no shell, no apt) and the binary.
FROM scratch
COPY --from=build /rootfs /
ENV PATH=/usr/bin:/bin NVIDIA_DRIVER_CAPABILITIES=compute,utility
# The CLI runs as the unprivileged user gpupack. The agent's DaemonSet (deploy/base/daemonset.yaml)
# sets runAsUser: 0: in most setups the MPS control daemon needs the GPUs' device nodes and kubelet's
# device-plugin directory is root's (docs/container-image.md).
USER 65532:65532
WORKDIR /home/gpupack
ENTRYPOINT ["/usr/bin/gpupack"]
CMD ["--help"]
