#pragma once
// Extended resource names that rendered files and the gpupack agent both use, built in one place so
// that a pod rendered by `gpupack render` asks for exactly what a plugin advertises.
#include <optional>
#include <string>
#include <string_view>

#include "contract/sharing.hpp"

namespace gpupack {

// A MIG profile as the part of a resource name: NVIDIA's plugin replaces '+' (not allowed in resource
// names) with '.': "1g.10gb+me" -> "1g.10gb.me".
std::string mig_resource_part(std::string_view profile);

// NVIDIA's resource for a MIG profile (migStrategy mixed): "nvidia.com/mig-1g.10gb.me".
std::string mig_resource_name(std::string_view profile);

// The resource a whole GPU or MIG instance is advertised as when it is not split into MPS slices
// (exclusive or time-slicing): nvidia.com/gpu, or nvidia.com/mig-<profile>.
std::string whole_resource_name(const std::optional<std::string>& mig_profile);

// The gpupack agent's resource for an MPS slice of <pct> % of the SMs: gpupack.io/mps-<pct>, or
// gpupack.io/mig-<profile>-mps-<pct> inside a MIG instance. `qualifier` (a DNS label part, may be empty)
// is appended as "-<qualifier>" where the plan needs two kinds of slices of one percentage on a node
// told apart (other tenants or other memory sizes): gpupack.io/mig-2g.20gb-mps-15-ads.
std::string mps_resource_name(const std::optional<std::string>& mig_profile, int sm_percent,
                              std::string_view qualifier = {});

// Whether a resource is a GPU resource of gpupack or NVIDIA (its domain gpupack.io or nvidia.com): what a
// container may request only one of (k8s/container_check.hpp).
bool is_gpu_resource_name(std::string_view name);

// The name without its domain: "gpupack.io/mps-25" -> "mps-25" (the whole name when it has none).
std::string_view resource_name_part(std::string_view name);

// The name part after "gpupack.io/" obeys Kubernetes' rule for extended resource names (a qualified
// name: at most 63 characters, alphanumerics with '-', '_' or '.' inside). Empty when `name` is a valid
// gpupack.io resource name, else the reason.
std::string gpupack_resource_name_problem(std::string_view name);

}  // namespace gpupack
