#pragma once
// The node's side of node.yaml: reading the file (bounded, like every input file) and checking its GPU and
// MIG references against what the GPU layer sees. The type, its parser and its writer are the deployment
// contract's (contract/node_config.hpp).
#include <string>
#include <vector>

#include "contract/node_config.hpp"
#include "core/gpu_catalog.hpp"
#include "gpu/gpu_backend.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

// Reads (through `fs`, the Env's files) and parses `path` once; the device plugin's section comes with it
// (NodeConfig::device_plugin). Throws InputError as parse_node_config does, or naming the file when it
// cannot be read.
NodeConfig load_node_config(const Filesystem& fs, const std::string& path);

// Throws InputError when a configured GPU or MIG instance is not on this machine, or a limit exceeds it
// (MPS clients above the catalog's limit, memory above the device's, clients x limits.memory above the
// GPU's or MIG instance's memory).
void check_against_devices(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices,
                           const GpuCatalog& catalog);

// The agent runs as root under mps_root: creates it (0755) when missing, then throws InputError when it,
// or a directory above it, could be changed by a user other than root and the agent's own
// (os/trusted_directory.hpp): such a user could plant links there that the agent would follow.
void secure_mps_root(Filesystem& fs, const NodeConfig& config);

// A MIG instance is named by its UUID or, as `gpupack render` writes it (a plan cannot know UUIDs), by
// its placement "<profile>@<start>", e.g. "3g.40gb@0".
bool mig_matches(const MigInstanceInfo& instance, const std::string& ref);

// The directories of the MPS daemon serving `target` (a GPU or MIG UUID).
struct MpsPaths;
MpsPaths mps_paths_for(const NodeConfig& config, const std::string& target_uuid);

}  // namespace gpupack
