#pragma once
// What `gpupack verify` measured against what the plan predicted, fed back with `gpupack plan --observed
// verify.json` (issue 36, item 5; docs/cli.md): per workload, GPU model and sharing, measured / predicted
// for p99 and req/s, the median over the verified replicas. The model multiplies that workload's
// predictions on that GPU model under that sharing by it (model/prediction.hpp), so the next plan packs
// from what was measured. Plain values; the cli reads the files (cli/observed_loading.hpp).
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/sharing.hpp"

namespace gpupack {

struct ObservedCorrection {
  std::string gpu_model;  // catalog name of the GPU the verify ran the plan on
  Sharing sharing = Sharing::mps;
  std::optional<double> p99;        // measured / predicted p99, median over the replicas; none: not measured
  std::optional<double> req_per_s;  // measured / predicted req/s, the same
  int replicas = 0;                 // verified replicas it comes from (over every file)
  std::vector<std::string> files;   // the verify JSON files, as given
  // The other workloads that were on the slice of every replica it comes from. A factor that makes
  // the workload faster holds only beside these: a new kind of neighbour (a DRAM-heavy batch job beside
  // what ran beside compute-bound ones) can slow it where the verified mix did not (run54).
  std::set<std::string> beside;
};

}  // namespace gpupack
