#include "verify/verify_setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "core/errors.hpp"

namespace gpupack::verify {

namespace {

using Key = std::tuple<std::string, std::string, int>;  // gpu id, workload, replica

// A placement's absolute predictions from a workload profile (prediction_source "profile").
struct ProfilePrediction {
  std::optional<double> p99_ms, req_per_s;
  bool extrapolated = false;
};

// The plan's predictions that render does not read: per placement its p99 inflation (and its profile's
// predictions where it has them), per slice its per-client throughput. Absent fields read as "no
// inflation" / "as alone" / "no profile" (older plans).
struct Predictions {
  std::map<Key, double> p99_inflation;
  std::map<Key, ProfilePrediction> profile;
  std::map<std::pair<std::string, std::string>, double> slice_throughput;
};

double number_or(const nlohmann::json& j, const char* key, double fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

std::optional<double> positive_number(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number() || !(it->get<double>() > 0)) return std::nullopt;
  return it->get<double>();
}

// Only a profile's predictions are taken as they are: a synthetic predicted_p99_ms is the scenario's
// p99_alone_ms (or half the SLO) x the inflation, which the solo run measures better.
std::optional<ProfilePrediction> profile_prediction(const nlohmann::json& placement) {
  const auto source = placement.find("prediction_source");
  if (source == placement.end() || *source != "profile") return std::nullopt;
  const auto extrapolated = placement.find("extrapolated");
  ProfilePrediction p{positive_number(placement, "predicted_p99_ms"), positive_number(placement, "predicted_req_per_s"),
                      extrapolated != placement.end() && *extrapolated == true};
  if (!p.p99_ms && !p.req_per_s) return std::nullopt;
  return p;
}

// The correction by observation the plan applied to the process holding `c`; null where none.
const DocPrediction::Observed* observed_in(const DocSlice& slice, const DocPlacement& c) {
  for (const DocProcess& p : slice.processes) {
    for (const DocReplicaRef& r : p.replicas) {
      if (r.workload == c.workload && r.replica == c.replica) {
        return p.prediction && p.prediction->observed ? &*p.prediction->observed : nullptr;
      }
    }
  }
  return nullptr;
}

Predictions read_predictions(const nlohmann::json& plan) {
  Predictions p;
  if (const auto it = plan.find("placements"); it != plan.end() && it->is_array()) {
    for (const auto& pl : *it) {
      if (!pl.is_object() || !pl.contains("workload") || !pl.contains("gpu") || !pl.contains("replica")) continue;
      if (!pl["workload"].is_string() || !pl["gpu"].is_string() || !pl["replica"].is_number_integer()) continue;
      const Key key{pl["gpu"].get<std::string>(), pl["workload"].get<std::string>(), pl["replica"].get<int>()};
      p.p99_inflation[key] = number_or(pl, "predicted_p99_inflation", 1.0);
      if (const auto profile = profile_prediction(pl)) p.profile[key] = *profile;
    }
  }
  if (const auto it = plan.find("gpus"); it != plan.end() && it->is_array()) {
    for (const auto& g : *it) {
      if (!g.is_object() || !g.contains("id") || !g["id"].is_string() || !g.contains("slices") || !g["slices"].is_array()) continue;
      for (const auto& s : g["slices"]) {
        if (!s.is_object() || !s.contains("id") || !s["id"].is_string()) continue;
        p.slice_throughput[{g["id"].get<std::string>(), s["id"].get<std::string>()}] = number_or(s, "predicted_throughput", 1.0);
      }
    }
  }
  return p;
}

std::string choose_node(const PlanDocument& plan, const std::optional<std::string>& wanted) {
  if (plan.nodes.empty()) throw InputError("plan: it places nothing (no GPU is used); there is nothing to verify");
  if (!wanted) return plan.nodes.front();
  if (std::find(plan.nodes.begin(), plan.nodes.end(), *wanted) == plan.nodes.end()) {
    std::string known;
    for (const auto& n : plan.nodes) known += (known.empty() ? "" : ", ") + n;
    throw InputError(fmt::format("--node {}: the plan has no such node (its nodes: {})", *wanted, known));
  }
  return *wanted;
}

const GpuDeviceInfo& local_device(const DocGpu& gpu, const std::vector<GpuDeviceInfo>& devices) {
  for (const auto& d : devices) {
    if (d.index == static_cast<unsigned>(gpu.index)) return d;
  }
  throw InputError(fmt::format("plan: GPU {} (index {} on node {}, {}) is not here: this machine has {} GPU(s); "
                               "pick a node whose GPUs exist here with --node",
                               gpu.id, gpu.index, gpu.node, gpu.model, devices.size()));
}

// The MIG instance a slice maps to: same profile and placement start; else the slice's ordinal among
// instances of its profile (as render's mps start.sh finds it). Never created here.
std::string mig_uuid(const DocGpu& gpu, const DocSlice& slice, const GpuDeviceInfo& device) {
  for (const auto& m : device.mig_instances) {
    if (m.profile == *slice.profile && m.placement_start && slice.mig_start &&
        static_cast<int>(*m.placement_start) == *slice.mig_start) {
      return m.uuid;
    }
  }
  int ordinal = 0;
  for (const auto& other : gpu.slices) {
    if (&other == &slice) break;
    if (other.profile == slice.profile) ++ordinal;
  }
  int seen = 0;
  for (const auto& m : device.mig_instances) {
    if (m.profile == *slice.profile && seen++ == ordinal) return m.uuid;
  }
  throw InputError(fmt::format("plan: GPU {} slice {}: MIG instance {} (start {}) does not exist on GPU {} here; "
                               "verify never creates or changes MIG instances: create the layout first (render's mig-parted/)",
                               gpu.id, slice.id, *slice.profile, slice.mig_start.value_or(0), device.index));
}

}  // namespace

std::map<std::string, std::string> replica_environment(const SliceSetup& slice, const DocPlacement& client) {
  std::map<std::string, std::string> env;
  env["CUDA_VISIBLE_DEVICES"] = slice.device_uuid;
  if (slice.sharing == "mps") {
    for (const auto& [key, value] : mps_client_limits(client)) env[key] = value;
  }
  return env;
}

VerifySetup build_setup(const nlohmann::json& plan_json, const PlanDocument& plan, const SetupRequest& request,
                        const std::vector<GpuDeviceInfo>& devices) {
  VerifySetup setup;
  setup.node = choose_node(plan, request.node);
  setup.unplaced = plan.unplaced;
  setup.profile_alone = request.profile_alone;
  setup.slo_margin = request.slo_margin;
  const Predictions predictions = read_predictions(plan_json);

  std::set<std::string> in_plan;
  for (const auto& gpu : plan.gpus) {
    for (const auto& slice : gpu.slices) {
      for (const auto& c : slice.clients) in_plan.insert(c.workload);
    }
  }
  for (const auto& run : request.runs) {
    if (!in_plan.count(run.first)) {
      throw InputError(fmt::format("--run {}=...: the plan places no workload named '{}' (it places: {})", run.first,
                                   run.first, fmt::join(in_plan, ", ")));
    }
  }
  for (const auto& p : request.plain) {
    if (!request.runs.count(p)) throw InputError(fmt::format("--plain {}: give its command with --run {}=COMMAND", p, p));
  }

  for (const auto& gpu : plan.gpus) {
    if (gpu.node != setup.node) continue;
    const GpuDeviceInfo& device = local_device(gpu, devices);
    if (!device.name.empty() && device.name.find(gpu.model.substr(0, gpu.model.find('-'))) == std::string::npos) {
      setup.notes.push_back(fmt::format("GPU {} is a {} here; the plan assumed {}: predictions may not hold", device.index,
                                        device.name, gpu.model));
    }
    for (const auto& slice : gpu.slices) {
      SliceSetup s;
      s.gpu_id = gpu.id;
      s.slice_id = slice.id;
      s.gpu_index = static_cast<int>(device.index);
      s.mig_profile = slice.profile;
      s.device_uuid = slice.profile ? mig_uuid(gpu, slice, device) : device.uuid;
      s.sharing = std::string(to_string(slice.sharing));
      s.gpu_model = gpu.model;
      if (slice.sharing == Sharing::mps) s.mps = mps_daemon_defaults(slice);
      const auto tp = predictions.slice_throughput.find({gpu.id, slice.id});
      s.predicted_throughput = tp == predictions.slice_throughput.end() ? 1.0 : tp->second;
      for (const auto& c : slice.clients) {
        const auto run = request.runs.find(c.workload);
        if (run == request.runs.end()) {
          throw InputError(fmt::format("the plan places workload '{}' on node {}: give its command with --run {}=COMMAND",
                                       c.workload, setup.node, c.workload));
        }
        ReplicaSetup r;
        r.workload = c.workload;
        r.replica = c.replica;
        r.command = run->second;
        r.reports = std::find(request.plain.begin(), request.plain.end(), c.workload) == request.plain.end();
        r.env = replica_environment(s, c);
        r.memory_limit_bytes = c.memory_limit_bytes;
        const auto inf = predictions.p99_inflation.find({gpu.id, c.workload, c.replica});
        r.predicted_p99_inflation = inf == predictions.p99_inflation.end() ? 1.0 : inf->second;
        if (const auto pp = predictions.profile.find({gpu.id, c.workload, c.replica}); pp != predictions.profile.end()) {
          r.profile_p99_ms = pp->second.p99_ms;
          r.profile_req_per_s = pp->second.req_per_s;
          r.extrapolated = pp->second.extrapolated;
        }
        if (const DocPrediction::Observed* o = observed_in(slice, c)) {
          r.observed_p99 = o->p99;
          r.observed_req_per_s = o->req_per_s;
        }
        if (const auto slo = request.slo_ms.find(c.workload); slo != request.slo_ms.end()) r.slo_ms = slo->second;
        s.replicas.push_back(std::move(r));
      }
      if (slice.sharing == Sharing::streams && s.replicas.size() > 1) {
        setup.notes.push_back(fmt::format("slice {}: a streams group runs as one process per replica here", s.name()));
      }
      if (!s.replicas.empty()) setup.slices.push_back(std::move(s));
    }
  }
  if (setup.slices.empty()) throw InputError(fmt::format("plan: node {} has no placed replica to verify", setup.node));
  return setup;
}

std::vector<std::string> workloads_of(const VerifySetup& setup) {
  std::vector<std::string> names;
  for (const auto& s : setup.slices) {
    for (const auto& r : s.replicas) {
      if (std::find(names.begin(), names.end(), r.workload) == names.end()) names.push_back(r.workload);
    }
  }
  return names;
}

}  // namespace gpupack::verify
