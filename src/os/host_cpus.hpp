#pragma once
// The host's CPU count, for measurements that ask how copies of a program share its cores (issue 37).
#include <optional>

namespace gpupack {

struct HostCpus {
  std::optional<int> online;  // CPUs the kernel has online (the node's cores, as a fleet's cpu_cores counts them)
  std::optional<int> usable;  // of those, the ones this process (and so every child) may run on (its affinity)
};

HostCpus host_cpus();

}  // namespace gpupack
