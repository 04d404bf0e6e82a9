// many_workloads_yaml WORKLOADS REPLICAS [SEED]: writes the scenario of bench/many_workloads.hpp as YAML
// on stdout, for `gpupack plan FILE --gpu H100-80GB` (the e2e scale test and by-hand measurements).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "many_workloads.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: many_workloads_yaml WORKLOADS REPLICAS [SEED]\n";
    return 2;
  }
  const int workloads = std::atoi(argv[1]);
  const int replicas = std::atoi(argv[2]);
  if (workloads < 1 || replicas < 1) {
    std::cerr << "many_workloads_yaml: WORKLOADS and REPLICAS must be positive integers\n";
    return 2;
  }
  const unsigned long long seed = argc == 4 ? std::strtoull(argv[3], nullptr, 10) : 19;
  const gpupack::GpuCatalog catalog = gpupack::builtin_catalog();
  std::cout << gpupack::bench::many_workloads_yaml(
      gpupack::bench::many_workloads_scenario(workloads, replicas, catalog, seed));
  return 0;
}
