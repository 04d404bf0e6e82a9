#pragma once
// What SLO margin this machine needed: the plan packs each profiled workload to its SLO / (1 +
// slo_margin) (docs/workloads.md); verify holds the SLO in every window of every replica. Where the worst
// window ran further above the prediction than the margin the plan kept, a note says which margin would
// have covered it, so the user can plan again for this machine (docs/verify.md, "SLO margin").
#include <map>
#include <string>
#include <vector>

#include "verify/verify_result.hpp"

namespace gpupack::verify {

// Per workload with an SLO and a predicted p99: report.margins (every such workload) and, where the
// needed margin exceeds the one kept, a note. `kept`: workload -> the slo_margin its plan kept.
void add_margin_checks(VerifyReport& report, const std::map<std::string, double>& kept);

}  // namespace gpupack::verify
