#pragma once
// `gpupack profile`'s summary for people (stderr, so that stdout stays the plan entry or the JSON): the
// window, memory, activity, requests, the baseline over its runs and whether it repeats, host CPU, the
// SM-share curve and the co-location grid as tables, the compute demand.
#include <iosfwd>

#include "measure/workload_profile.hpp"

namespace gpupack {

void print_profile_summary(std::ostream& out, const measure::WorkloadProfile& p);

}  // namespace gpupack
