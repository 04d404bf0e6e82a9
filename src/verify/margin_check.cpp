#include "verify/margin_check.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpupack::verify {

void add_margin_checks(VerifyReport& report, const std::map<std::string, double>& kept) {
  std::map<std::string, MarginCheck> by_workload;
  for (const auto& v : report.replicas) {
    if (!v.slo_ms || !v.predicted_p99_ms || *v.predicted_p99_ms <= 0 || v.p99_ms.runs.empty()) continue;
    const double worst = *std::max_element(v.p99_ms.runs.begin(), v.p99_ms.runs.end());
    // Against what the SLO check read: for copies from their grid the worst copy's p99, not the median's.
    const double checked = v.predicted_worst_copy_p99_ms.value_or(*v.predicted_p99_ms);
    const double needed = worst / checked - 1;
    auto [it, fresh] = by_workload.try_emplace(v.workload);
    MarginCheck& m = it->second;
    if (fresh || needed > m.needed) {
      const auto k = kept.find(v.workload);
      m = {v.workload, k == kept.end() ? 0.0 : k->second, needed, v.workload + "-" + std::to_string(v.replica), worst,
           checked};
    }
  }
  for (auto& [name, m] : by_workload) {
    if (m.needed > m.kept) {
      report.notes.push_back(fmt::format(
          "{}'s worst window ran {:.0f}% above its predicted p99 ({}: {:.2f} ms against {:.2f}), more than the {:.0f}% "
          "SLO margin its plan kept: on this machine a plan needs slo_margin: {:.2f} or more for it",
          name, m.needed * 100, m.replica, m.worst_p99_ms, m.predicted_p99_ms, m.kept * 100,
          std::ceil(m.needed * 100 - 1e-6) / 100));
    }
    report.margins.push_back(std::move(m));
  }
}

}  // namespace gpupack::verify
