#pragma once
// The GPUs a node config describes, as the GPU layer would report them on a machine with the given
// models: for checking a rendered node.yaml without NVML (`gpupack check --gpu`) and for the tests that
// run a rendered plan through the agent's device plugin. GPUs are numbered by their index refs; MIG
// instances get their placement (profile@start), the catalog's memory and made-up UUIDs.
#include <vector>

#include "contract/node_config.hpp"
#include "core/gpu_model.hpp"
#include "gpu/gpu_backend.hpp"

namespace gpupack {

// models[i] is the model of config.gpus[i]. Throws InputError where a GPU is not referenced by index, a
// MIG instance is not written <profile>@<start>, or a profile is not one of its model's.
std::vector<GpuDeviceInfo> simulated_devices(const NodeConfig& config, const std::vector<const GpuModel*>& models);

}  // namespace gpupack
