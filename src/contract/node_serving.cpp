#include "contract/node_serving.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "contract/resource_names.hpp"
#include "core/errors.hpp"

namespace gpupack {

namespace {

constexpr std::uint64_t kServingMiB = 1024 * 1024;
constexpr int kMaxClients = 60;  // node.yaml's bound on clients (the highest MPS client limit)

// One process of a slice: the plan's $.gpus[].slices[].clients where present, else one per placement
// (a hand-written plan), the placements of a streams slice being one process.
struct Process {
  std::string workload, tenant;
  int replicas = 1;
  std::uint64_t memory = 0;
  std::optional<int> pct;
};

std::vector<Process> processes_of(const DocSlice& s) {
  std::vector<Process> out;
  auto tenant_of = [&](const DocReplicaRef& r) {
    for (const auto& c : s.clients) {
      if (c.workload == r.workload && c.replica == r.replica) return c.tenant;
    }
    return s.tenant;
  };
  if (!s.processes.empty()) {
    for (const auto& p : s.processes) {
      Process q;
      if (!p.replicas.empty()) {
        q.workload = p.replicas.front().workload;
        q.tenant = tenant_of(p.replicas.front());
      }
      q.replicas = std::max<int>(1, static_cast<int>(p.replicas.size()));
      q.memory = p.memory_limit_bytes;
      q.pct = p.mps_active_thread_percentage;
      out.push_back(q);
    }
    return out;
  }
  for (const auto& c : s.clients) {
    if (s.sharing == Sharing::streams && !out.empty()) {
      ++out.back().replicas;
      out.back().memory += c.memory_limit_bytes;
      continue;
    }
    out.push_back({c.workload, c.tenant, 1, c.memory_limit_bytes, c.active_thread_percentage});
  }
  return out;
}

// One size of MPS slice on one target, before it is named.
struct MpsClass {
  std::string ref;  // the target, as node.yaml names it
  std::optional<std::string> profile;
  std::string tenant;
  int pct = 100;
  std::uint64_t memory = 0;
  int count = 0;
  std::string resource;
  bool qualified = false;
};

// The MPS slices of one target: per percentage one size (the largest limit) when they all fit in the
// target's memory, else one size per (percentage, limit). Returns, per process, its class index.
std::vector<std::size_t> add_mps_classes(const std::string& ref, const DocSlice& slice, const std::vector<Process>& procs,
                                         std::vector<MpsClass>& classes) {
  std::map<int, std::uint64_t> largest;
  std::map<int, int> count;
  for (const auto& p : procs) {
    const int pct = p.pct.value_or(100);
    largest[pct] = std::max(largest[pct], p.memory);
    ++count[pct];
  }
  std::uint64_t pinned = 0;
  for (const auto& [pct, memory] : largest) pinned += memory * static_cast<std::uint64_t>(count[pct]);
  const bool equalise = slice.memory_bytes == 0 || pinned <= slice.memory_bytes;
  std::vector<std::size_t> index;
  for (const auto& p : procs) {
    const int pct = p.pct.value_or(100);
    const std::uint64_t memory = equalise ? largest[pct] : p.memory;
    auto it = std::find_if(classes.begin(), classes.end(), [&](const MpsClass& c) {
      return c.ref == ref && c.pct == pct && c.memory == memory && c.tenant == p.tenant;
    });
    if (it == classes.end()) {
      classes.push_back({ref, slice.profile, p.tenant, pct, memory, 0, "", false});
      it = classes.end() - 1;
    }
    ++it->count;
    index.push_back(static_cast<std::size_t>(it - classes.begin()));
  }
  return index;
}

// Names every class of a node: the default name where every class under it is interchangeable with the
// others (same memory and tenant), else qualified by tenant, then by tenant and memory.
void name_classes(std::vector<MpsClass>& classes) {
  std::map<std::string, std::vector<std::size_t>> by_base;
  for (std::size_t i = 0; i < classes.size(); ++i) {
    by_base[mps_resource_name(classes[i].profile, classes[i].pct)].push_back(i);
  }
  for (const auto& [base, members] : by_base) {
    std::set<std::pair<std::string, std::uint64_t>> kinds;
    std::set<std::string> tenants;
    std::map<std::string, std::set<std::uint64_t>> memories;  // per tenant
    for (std::size_t i : members) {
      kinds.insert({classes[i].tenant, classes[i].memory});
      tenants.insert(classes[i].tenant);
      memories[classes[i].tenant].insert(classes[i].memory);
    }
    for (std::size_t i : members) {
      MpsClass& c = classes[i];
      if (kinds.size() == 1) {
        c.resource = base;
        continue;
      }
      std::string qualifier = tenants.size() > 1 ? c.tenant : std::string();
      if (memories[c.tenant].size() > 1) {
        qualifier += (qualifier.empty() ? "" : "-") + std::to_string((c.memory + kServingMiB - 1) / kServingMiB) + "mi";
      }
      c.resource = mps_resource_name(c.profile, c.pct, qualifier);
      c.qualified = true;
      if (const std::string problem = gpupack_resource_name_problem(c.resource); !problem.empty()) {
        throw InputError("plan: the MPS slices of " + c.ref + " (tenant '" + c.tenant + "') need a resource name of their own, but '" +
                         c.resource + "' " + problem + "; use a shorter tenant name");
      }
    }
  }
}

SharingTarget target_of(std::string ref, const DocSlice& s, const std::vector<Process>& procs) {
  SharingTarget t;
  t.ref = std::move(ref);
  t.mode = node_sharing(s.sharing);
  t.predicted_sm_active = s.predicted_sm_active;
  t.clients = t.mode == Sharing::exclusive ? 1 : std::max<int>(1, static_cast<int>(procs.size()));
  if (t.clients > kMaxClients) {
    throw InputError("plan: slice " + t.ref + " holds " + std::to_string(t.clients) + " clients; node.yaml admits at most " +
                     std::to_string(kMaxClients));
  }
  if (!s.tenant.empty()) {
    t.tenant = s.tenant;
  } else if (!procs.empty()) {
    t.tenant = procs.front().tenant;
  }
  // The per-client bounds `gpupack run` admits against: the largest client's (each pod's own slice is
  // in device_plugin.mps_slices).
  std::uint64_t memory = 0;
  int pct = 0;
  for (const auto& p : procs) {
    memory = std::max(memory, p.memory);
    pct = std::max(pct, p.pct.value_or(0));
  }
  if (t.mode == Sharing::mps && pct > 0) t.limits.sm_percent = pct;
  // Only where every client may hold it at once: the agent refuses clients x limits.memory above the
  // slice (the device plugin's pods get their own sizes from mps_slices either way).
  if (memory > 0 && t.mode != Sharing::exclusive &&
      (s.memory_bytes == 0 || memory * static_cast<std::uint64_t>(t.clients) <= s.memory_bytes)) {
    t.limits.memory_bytes = memory;
  }
  return t;
}

NodeServing serve_node(const PlanDocument& plan, const std::string& node) {
  NodeServing out;
  out.node = node;
  out.config.device_plugin.enabled = true;
  std::vector<MpsClass> classes;
  std::vector<std::optional<std::size_t>> pod_class;
  // `ref` as gpus[] names the target; `slices_key` as device_plugin.mps_slices keys it.
  auto add_slice = [&](const DocGpu& gpu, const DocSlice& slice, const std::string& ref, const std::string& slices_key) {
    const std::vector<Process> procs = processes_of(slice);
    SharingTarget t = target_of(ref, slice, procs);
    std::vector<std::size_t> index;
    if (t.mode == Sharing::mps) index = add_mps_classes(slices_key, slice, procs, classes);
    for (std::size_t i = 0; i < procs.size(); ++i) {
      const Process& p = procs[i];
      ServedPod pod{p.workload, p.tenant, whole_resource_name(slice.profile), p.replicas, std::nullopt, gpu.id, slice.id, slice.profile};
      if (t.mode == Sharing::mps) {
        pod.sm_percent = classes[index[i]].pct;
        pod_class.push_back(index[i]);
      } else {
        pod_class.push_back(std::nullopt);
      }
      out.pods.push_back(std::move(pod));
    }
    return t;
  };
  for (const auto& gpu : plan.gpus) {
    if (gpu.node != node) continue;
    GpuConfig g;
    g.ref = std::to_string(gpu.index);
    if (gpu.uses_mig()) {
      // A MIG instance by its placement (profile@start): the plan cannot know MIG UUIDs. Instances of the
      // layout that hold no slice are listed too, exclusive, so the agent knows every instance it sees.
      for (const auto& m : gpu.mig) {
        const std::string ref = m.profile + "@" + std::to_string(m.start);
        const auto slice = std::find_if(gpu.slices.begin(), gpu.slices.end(), [&](const DocSlice& s) {
          return s.profile == m.profile && s.mig_start.value_or(-1) == m.start;
        });
        if (slice != gpu.slices.end()) {
          g.mig.push_back(add_slice(gpu, *slice, ref, g.ref + "/" + ref));
        } else {
          SharingTarget empty;
          empty.ref = ref;
          g.mig.push_back(empty);
        }
      }
    } else if (!gpu.slices.empty()) {
      static_cast<SharingTarget&>(g) = add_slice(gpu, gpu.slices.front(), g.ref, g.ref);
    }
    out.config.gpus.push_back(std::move(g));
  }
  name_classes(classes);
  for (const auto& c : classes) {
    MpsSliceSize size{c.pct, c.memory > 0 ? std::optional<std::uint64_t>(c.memory) : std::nullopt, c.count, std::nullopt};
    if (c.qualified) size.resource = c.resource;
    out.config.device_plugin.mps_slices[c.ref].push_back(size);
  }
  for (std::size_t i = 0; i < out.pods.size(); ++i) {
    if (pod_class[i]) out.pods[i].resource = classes[*pod_class[i]].resource;
  }
  return out;
}

}  // namespace

std::vector<NodeServing> gpupack_agent_serving(const PlanDocument& plan) {
  std::vector<NodeServing> out;
  for (const auto& node : plan.nodes) out.push_back(serve_node(plan, node));
  return out;
}

}  // namespace gpupack
