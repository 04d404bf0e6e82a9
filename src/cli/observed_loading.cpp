#include "cli/observed_loading.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/errors.hpp"
#include "io/input_file.hpp"
#include "io/observed_json.hpp"
#include "measure/baseline.hpp"

namespace gpupack {

namespace {

// The replicas of one workload on one GPU model under one sharing, over every file.
struct ObservedGroup {
  std::vector<double> p99, req;
  int replicas = 0;
  std::vector<std::string> files;
  std::optional<std::set<std::string>> beside;  // the other workloads beside every replica so far
};

// The other workloads on the replica's slice in its file.
std::set<std::string> others_beside(const ObservedFile& f, const ObservedReplica& r) {
  std::set<std::string> out;
  if (const auto it = f.slice_workloads.find(r.slice); it != f.slice_workloads.end()) out = it->second;
  out.erase(r.workload);
  return out;
}

std::set<std::string> intersection(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::set<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

using GroupKey = std::tuple<std::string, std::string, Sharing>;  // workload, GPU model, sharing

std::set<std::string> fleet_models(const Scenario& s) {
  std::set<std::string> out;
  for (const FleetEntry& f : s.fleet) out.insert(f.model.name);
  return out;
}

// The GPU model a file's replicas ran on where the file does not say (written before verify recorded it):
// the fleet's only model; an InputError where the fleet has several.
std::string assumed_model(const std::string& file, const std::set<std::string>& models, std::ostream& warnings) {
  if (models.size() != 1) {
    throw InputError("--observed " + file + ": names no GPU model (written by an older gpupack verify) and the fleet has " +
                     std::to_string(models.size()) + " models; run gpupack verify again to record it");
  }
  warnings << "gpupack plan: --observed " << file << ": names no GPU model (an older gpupack verify); taken as the "
           << "fleet's " << *models.begin() << "\n";
  return *models.begin();
}

}  // namespace

void attach_observed(const Filesystem& fs, Scenario& scenario, const std::vector<std::string>& files,
                     std::ostream& warnings) {
  const std::set<std::string> models = fleet_models(scenario);
  std::set<std::string> workloads;
  for (const Workload& w : scenario.workloads) workloads.insert(w.name);
  std::map<GroupKey, ObservedGroup> groups;
  for (const std::string& file : files) {
    ObservedFile parsed = parse_observed_json(read_input_file(fs, file), file);
    const bool named = std::any_of(parsed.replicas.begin(), parsed.replicas.end(),
                                   [](const ObservedReplica& r) { return !r.gpu_model.empty(); });
    const std::string fallback = named || parsed.replicas.empty() ? "" : assumed_model(file, models, warnings);
    bool any_workload = false;
    std::set<std::string> ignored_models;
    for (ObservedReplica& r : parsed.replicas) {
      if (r.gpu_model.empty()) r.gpu_model = fallback;
      if (!workloads.count(r.workload)) continue;
      any_workload = true;
      if (!models.count(r.gpu_model)) {
        ignored_models.insert(r.gpu_model);
        continue;
      }
      ObservedGroup& g = groups[{r.workload, r.gpu_model, r.sharing}];
      if (r.p99_ratio) g.p99.push_back(*r.p99_ratio);
      if (r.req_ratio) g.req.push_back(*r.req_ratio);
      ++g.replicas;
      const std::set<std::string> others = others_beside(parsed, r);
      g.beside = g.beside ? intersection(*g.beside, others) : others;
      if (std::find(g.files.begin(), g.files.end(), file) == g.files.end()) g.files.push_back(file);
    }
    if (!any_workload) {
      throw InputError("--observed " + file + ": none of its verified replicas is of a workload of the scenario " +
                       "(a verify of another plan?)");
    }
    for (const std::string& m : ignored_models) {
      warnings << "gpupack plan: --observed " << file << ": measured on " << m
               << ", which the fleet does not have: ignored for it\n";
    }
  }
  for (Workload& w : scenario.workloads) {
    for (auto& [key, g] : groups) {
      const auto& [workload, model, sharing] = key;
      if (workload != w.name) continue;
      w.observed.push_back({model, sharing, measure::median_of(g.p99), measure::median_of(g.req), g.replicas, g.files,
                            g.beside.value_or(std::set<std::string>{})});
    }
  }
}

}  // namespace gpupack
