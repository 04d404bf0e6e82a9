#pragma once
// The image of gpupack's agent that rendered manifests run: the tag the image build produces.
#include <string_view>

namespace gpupack {

inline std::string_view agent_image() { return "ghcr.io/gpupack/gpupack:0.1.0"; }

}  // namespace gpupack
