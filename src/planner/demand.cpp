#include "planner/demand.hpp"

#include <algorithm>

namespace gpupack {

namespace {
int intern(std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<int>(it - names.begin());
  names.push_back(name);
  return static_cast<int>(names.size()) - 1;
}
}  // namespace

Demands make_demands(const Scenario& scenario) {
  Demands d;
  d.reference_sms = reference_model(scenario).sm_count;
  for (size_t i = 0; i < scenario.workloads.size(); ++i) {
    const Workload& w = scenario.workloads[i];
    WorkloadDemand wd;
    wd.workload = static_cast<int>(i);
    wd.replicas = w.replicas;
    wd.tenant = intern(d.tenants, w.tenant);
    // Groups are per tenant: the same group name in two tenants are two processes that never merge.
    if (w.group) wd.group = intern(d.groups, w.tenant + "/" + *w.group);
    wd.memory_bytes = w.memory_bytes;
    wd.compute = w.compute;
    wd.isolation = w.isolation;
    wd.intermittent = w.pattern == UsagePattern::intermittent;
    wd.max_p99_inflation = w.max_p99_inflation();
    d.workloads.push_back(wd);
  }
  return d;
}

}  // namespace gpupack
