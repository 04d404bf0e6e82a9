#pragma once
// `gpupack plan --observed verify.json` (repeatable; issue 36, item 5; docs/cli.md): the closed loop. Each
// file is verify's JSON of a plan run on this machine; per workload of the scenario, GPU model and sharing,
// the median over the verified replicas (of every file) of measured / predicted for p99 and req/s becomes
// that workload's correction (Workload::observed), which the model multiplies into its predictions on that
// GPU model under that sharing (model/prediction.hpp), so the planner packs from what was measured. Each
// correction keeps the other workloads that were beside every replica it comes from (its `beside`).
#include <ostream>
#include <string>
#include <vector>

#include "core/scenario.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

// Bad input (not verify's JSON, a field of the wrong type, a file none of whose workloads is in the
// scenario, a file without GPU models when the fleet has several) is an InputError. A file measured on a
// GPU model the fleet does not have is ignored with a line on `warnings`, as is one that names no GPU
// model (written before verify recorded it) where the fleet has one model: it is taken as that one.
void attach_observed(const Filesystem& fs, Scenario& scenario, const std::vector<std::string>& files,
                     std::ostream& warnings);

}  // namespace gpupack
