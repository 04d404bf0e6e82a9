#pragma once
// The CDI spec the agent writes for the devices it advertises (kind gpupack.io/gpu, one device per
// kubelet device ID), so that a container runtime with CDI injects the device nodes when Allocate
// answers with CDI device names. Written atomically (temp file, fsync, rename): the runtime may read
// the directory at any moment, and CDI loaders reject a half-written file.
#include <string>
#include <vector>

#include "k8s/device_plan.hpp"
#include "os/filesystem.hpp"

namespace gpupack::k8s {

// The spec as JSON text.
std::string cdi_spec_json(const std::vector<PluginResource>& resources);

// Writes <dir>/gpupack.io-gpu.json through `fs` (creating dir, 0755), returns the path. Throws
// std::runtime_error naming the path on failure.
std::string write_cdi_spec(Filesystem& fs, const std::string& dir, const std::vector<PluginResource>& resources);

}  // namespace gpupack::k8s
