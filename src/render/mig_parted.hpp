#pragma once
// Renders MIG layouts as a mig-parted config (version v1, mig-configs), the format NVIDIA's mig-manager
// applies from the node label nvidia.com/mig.config=<name>.
#include <string>
#include <vector>

#include "core/mig_enumerate.hpp"

namespace gpupack {

// A config name usable as a Kubernetes label value (<= 63 characters of [A-Za-z0-9._-], alphanumeric at
// both ends): "3g.40gb-2g.20gb-2x1g.10gb"; '+' in variant names becomes '.' ("1g.10gb.me").
std::string mig_parted_config_name(const MigGeometry& geometry, const MigCounts& counts);

// One named config per layout, plus "all-disabled" to go back. Layout names that collide or would be
// too long fall back to "layout-<n>".
std::string render_mig_parted_config(const MigGeometry& geometry, const std::vector<MigLayout>& layouts);

// The ConfigMap the GPU Operator's mig-manager reads its mig-parted config from (key config.yaml, as
// mig-manager mounts it at /mig-parted-config/config.yaml). Its own ConfigMap is
// default-mig-parted-config, which the operator rewrites; a custom one is named in the ClusterPolicy
// (Helm: migManager.config.name=gpupack-mig-parted-config, create=false). docs/gpu-operator.md.
inline constexpr const char* kMigPartedConfigMapName = "gpupack-mig-parted-config";
inline constexpr const char* kGpuOperatorNamespace = "gpu-operator";  // the namespace its Helm guide installs to
std::string mig_parted_config_map(const std::string& config_yaml);

}  // namespace gpupack
