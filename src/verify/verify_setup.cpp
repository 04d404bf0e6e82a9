#include "verify/verify_setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/errors.hpp"

namespace gpupack::verify {

namespace {

// Only a profile's predictions are taken as they are: a synthetic predicted_p99_ms is the scenario's
// p99_alone_ms (or half the SLO) x the inflation, which the solo run measures better. A figure that is not
// positive reads as none.
void take_profile_prediction(const DocPlacement& placement, ReplicaSetup& r) {
  if (placement.prediction_source != "profile") return;
  const auto positive = [](const std::optional<double>& v) { return v && *v > 0 ? v : std::nullopt; };
  r.profile_p99_ms = positive(placement.predicted_p99_ms);
  r.profile_req_per_s = positive(placement.predicted_req_per_s);
  r.profile_worst_copy_p99_ms = positive(placement.predicted_worst_copy_p99_ms);
  if (r.profile_p99_ms || r.profile_req_per_s) r.extrapolated = placement.extrapolated;
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

VerifySetup build_setup(const PlanDocument& plan, const SetupRequest& request, const std::vector<GpuDeviceInfo>& devices) {
  VerifySetup setup;
  setup.node = choose_node(plan, request.node);
  setup.unplaced = plan.unplaced;
  setup.profile_alone = request.profile_alone;
  setup.slo_margin = request.slo_margin;

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
      s.predicted_throughput = slice.predicted_throughput;
      s.predicted_sm_active = slice.predicted_sm_active;
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
        r.predicted_p99_inflation = c.predicted_p99_inflation;
        take_profile_prediction(c, r);
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
