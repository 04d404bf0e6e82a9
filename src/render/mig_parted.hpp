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

}  // namespace gpupack
