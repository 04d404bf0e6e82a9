#pragma once
// GPU architectures and compute capabilities: the features gpupack relies on follow from them
// (MPS memory isolation from Volta, MIG from Ampere GA100).
#include <string>
#include <string_view>

namespace gpupack {

enum class Architecture { pascal, volta, turing, ampere, ada, hopper, blackwell };

std::string_view to_string(Architecture arch);

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  std::string to_string() const { return std::to_string(major) + "." + std::to_string(minor); }
};

// Volta and newer give each MPS client its own address space (memory protection, fault containment).
inline bool is_volta_or_newer(Architecture arch) { return arch != Architecture::pascal; }

}  // namespace gpupack
