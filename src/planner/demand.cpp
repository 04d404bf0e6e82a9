#include "planner/demand.hpp"

#include <unordered_map>

#include "model/host_cpu_grid.hpp"
#include "model/profiled_slice.hpp"

namespace gpupack {

namespace {
// Numbers names in order of first appearance; a hash map, not a search of the list, as a fleet may have
// thousands of distinct groups.
class Interner {
 public:
  explicit Interner(std::vector<std::string>& names) : names_(names) {}
  int operator()(const std::string& name) {
    const auto [it, added] = index_.emplace(name, static_cast<int>(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
  }

 private:
  std::vector<std::string>& names_;
  std::unordered_map<std::string, int> index_;
};
}  // namespace

Demands make_demands(const Scenario& scenario, const ModelParameters& parameters) {
  Demands d;
  d.reference_sms = reference_model(scenario).sm_count;
  Interner tenant(d.tenants);
  Interner group(d.groups);
  for (size_t i = 0; i < scenario.workloads.size(); ++i) {
    const Workload& w = scenario.workloads[i];
    WorkloadDemand wd;
    wd.workload = static_cast<int>(i);
    wd.replicas = w.replicas;
    wd.tenant = tenant(w.tenant);
    // Groups are per tenant: the same group name in two tenants are two processes that never merge.
    if (w.group) wd.group = group(w.tenant + "/" + *w.group);
    wd.memory_bytes = w.memory_bytes;
    wd.compute = w.compute;
    wd.isolation = w.isolation;
    wd.intermittent = w.pattern == UsagePattern::intermittent;
    wd.max_p99_inflation = w.max_p99_inflation(parameters.p99_alone_share_of_slo);
    // Its profile's cores alone, or the cores per copy where its MPS grid measured the knee of the host's
    // cores (model/host_cpu_grid.hpp).
    if (w.profile) wd.host_cpu = replica_host_cores(*w.profile).value_or(0.0);
    if (judged_by_profile(w)) wd.profiled = &w;
    wd.entry = &w;
    wd.not_judged = !w.not_judged.empty();
    d.workloads.push_back(wd);
  }
  return d;
}

}  // namespace gpupack
