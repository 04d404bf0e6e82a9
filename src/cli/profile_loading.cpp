#include "cli/profile_loading.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "io/input_file.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/workload_profile.hpp"
#include "model/profile_baseline.hpp"
#include "model/profile_prediction.hpp"

namespace gpupack {

namespace {

void add_grid(ProfileFacts& f, const nlohmann::json& colocation) {
  const measure::ColocationGrid grid = measure::colocation_grid_from_json(colocation);
  for (const std::string& mode : measure::grid_modes(grid)) {
    const auto p99 = measure::p99_curve(grid, mode);
    const auto cpu = measure::host_cpu_curve(grid, mode);
    for (const auto& pt : measure::aggregate_req_per_s_curve(grid, mode)) {
      ProfileGridPoint g{mode, pt.k, pt.value, std::nullopt, std::nullopt, grid.node_cores};
      for (const auto& q : p99) {
        if (q.k == pt.k) g.worst_p99_ms = q.value;
      }
      for (const auto& q : cpu) {
        if (q.k == pt.k) g.host_cpu_cores = q.value;
      }
      if (pt.k > 0) f.grid.push_back(g);
    }
  }
}

ProfileFacts to_facts(const measure::WorkloadProfile& p, const std::string& path, const GpuCatalog& catalog) {
  ProfileFacts f;
  f.source = path;
  if (p.device.model) {
    f.gpu_model = *p.device.model;
    if (const GpuModel* m = catalog.find(*p.device.model)) {
      f.gpu_sms = m->sm_count;
      f.gpu_bandwidth_gbs = m->memory_bandwidth_gbs;
    }
  }
  f.sm_active = p.activity.sm_active;
  f.dram_bw = p.activity.dram_bw;
  f.kernel_time = p.activity.utilization;
  if (p.requests) {
    f.req_per_s = p.requests->req_per_s;
    f.p99_ms = p.requests->p99_ms;
  }
  f.host_cpu_cores = p.host_cpu_cores;
  f.compute_demand = p.compute_demand.share;
  f.compute_method = p.compute_demand.method;
  for (const auto& pt : p.sm_share_curve) f.share_curve.push_back({pt.pct, pt.req_per_s, pt.p99_ms});
  std::sort(f.share_curve.begin(), f.share_curve.end(), [](const auto& a, const auto& b) { return a.pct < b.pct; });
  if (p.colocation && !p.colocation->is_null()) add_grid(f, *p.colocation);
  f.baseline = measure::baseline_facts(p.baseline);
  f.mps_baseline = measure::baseline_facts(p.mps_baseline);
  return f;
}

struct Loaded {
  ProfileFacts facts;
  std::uint64_t memory_bytes = 0;  // the profile's plan entry memory (peak with headroom)
};

Loaded load(const Filesystem& fs, const std::string& path, const GpuCatalog& catalog) {
  const std::string text = read_input_file(fs, path);
  try {
    // The strict reader the fuzz target fuzzes (fuzz/workload_profile_fuzz.cpp): range-checked fields.
    const measure::WorkloadProfile p = measure::read_workload_profile(text, path);
    return {to_facts(p, path, catalog), p.memory.with_headroom_bytes};
  } catch (const std::exception& e) {  // InputError, or the co-location grid's std::runtime_error
    throw InputError(path + ": not a gpupack workload profile (docs/profile.md): " + e.what());
  }
}

// An entry without a profile must state what a profile would have filled (docs/workloads.md).
void require_memory_and_compute(const Workload& w, const std::string& scenario_file, const std::string& profiles_dir) {
  const char* missing = w.memory_bytes == 0 ? "memory" : w.compute <= 0 ? "compute" : nullptr;
  if (!missing) return;
  throw InputError((scenario_file.empty() ? std::string("the scenario") : scenario_file) + ": workload '" + w.name +
                   "' needs '" + missing + "', or a profile that supplies it: 'profile: FILE' or " +
                   (profiles_dir.empty() ? std::string("--profiles DIR with DIR/") : profiles_dir + "/") + w.name +
                   ".json");
}

}  // namespace

void attach_profiles(const Filesystem& files, Scenario& scenario, const std::string& scenario_file,
                     const std::string& profiles_dir, const GpuCatalog& catalog, const ModelParameters& parameters) {
  namespace fs = std::filesystem;  // paths joined lexically; the files themselves are read through `files`
  if (!profiles_dir.empty() && !files.stat(profiles_dir).is_dir) {
    throw InputError("--profiles " + profiles_dir + ": not a directory (give the folder of `gpupack profile` JSON files)");
  }
  const fs::path base = scenario_file.empty() ? fs::path() : fs::path(scenario_file).parent_path();
  for (Workload& w : scenario.workloads) {
    std::string path;
    if (w.profile_path) {
      path = (base / *w.profile_path).string();
    } else if (!profiles_dir.empty()) {
      const std::string candidate = (fs::path(profiles_dir) / (w.name + ".json")).string();
      const FileInfo f = files.stat(candidate);
      if (f.exists && !f.is_dir) path = candidate;
    }
    if (path.empty()) {
      require_memory_and_compute(w, scenario_file, profiles_dir);
      continue;
    }
    Loaded loaded = load(files, path, catalog);
    // Predictions rest on the median over the baseline's runs where the profile has one (issue 36).
    rebase_on_baseline(loaded.facts);
    // What the entry states wins; the profile fills what it left out (the same memory as the entry
    // `gpupack profile` prints).
    if (w.memory_bytes == 0) w.memory_bytes = loaded.memory_bytes;
    if (w.compute <= 0) w.compute = packing_compute(loaded.facts, parameters);
    if (w.latency_slo_ms && !w.p99_alone_ms && loaded.facts.p99_ms) w.p99_alone_ms = loaded.facts.p99_ms;
    if (w.latency_slo_ms && !w.slo_margin) w.slo_margin = parameters.profiled_slo_margin;
    w.profile = std::make_shared<const ProfileFacts>(std::move(loaded.facts));
    judge_baseline(w, parameters);
  }
}

}  // namespace gpupack
