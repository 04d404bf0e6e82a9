#pragma once
// Extended resource names that rendered files and the gpupack agent both use, built in one place so
// that a pod rendered by `gpupack render` asks for exactly what a plugin advertises.
#include <string>
#include <string_view>

namespace gpupack {

// A MIG profile as the part of a resource name: NVIDIA's plugin replaces '+' (not allowed in resource
// names) with '.': "1g.10gb+me" -> "1g.10gb.me".
std::string mig_resource_part(std::string_view profile);

// NVIDIA's resource for a MIG profile (migStrategy mixed): "nvidia.com/mig-1g.10gb.me".
std::string mig_resource_name(std::string_view profile);

}  // namespace gpupack
