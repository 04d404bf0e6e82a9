#include "planner/node_cores.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "model/host_cpu_grid.hpp"
#include "model/prediction.hpp"

namespace gpupack {

namespace {

constexpr double kCoreEpsilon = 1e-9;

std::string fixed(double v, const char* format = "%.2f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const WorkloadDemand& demand_of(const PlanContext& ctx, const ReplicaRef& r) {
  return ctx.demands().workloads[static_cast<size_t>(r.workload)];
}

// The slice again without one replica (client `client`, its last member), its other replicas added in the
// order they joined, so that group members merge into the same processes as before.
SliceState without(const PlanContext& ctx, const SliceState& s, size_t client) {
  SliceState out(s.spec(), &ctx.policy(), &ctx.parameters());
  for (size_t i = 0; i < s.members().size(); ++i) {
    const auto& m = s.members()[i];
    const size_t keep = i == client ? m.size() - 1 : m.size();
    for (size_t j = 0; j < keep; ++j) out.add(demand_of(ctx, m[j]), m[j].replica);
  }
  return out;
}

// Which client of a slice gives up a replica: the one whose replicas use most host cores alone.
size_t heaviest_client(const SliceState& s) {
  size_t best = 0;
  for (size_t i = 1; i < s.loads().size(); ++i) {
    const auto per = [&](size_t k) { return s.loads()[k].host_cpu / std::max(1, s.loads()[k].replicas); };
    if (per(i) > per(best)) best = i;
  }
  return best;
}

// Whether a slice judged with the node's processes (SliceState::set_node, where they add waits for its
// cores) keeps every SLO it kept judged with its own: the packers judged each slice alone, so another
// instance's processes waiting for the same cores were not in its p99 (issue 37: two MIG instances, 15
// decode loops each, on 16 cores). A slice that keeps no SLO even alone is not the node's to trim.
bool keeps_slos_on_node(const PlanContext& ctx, const SliceState& s) {
  if (s.empty() || s.spec().capacity.node_processes == 0) return true;
  if (choose_slice_sharing(s.spec(), s.loads(), ctx.policy(), ctx.parameters(), PredictionDetail::inflation)) return true;
  SliceState alone = s;
  alone.set_node(0, 0);
  return !choose_slice_sharing(alone.spec(), alone.loads(), ctx.policy(), ctx.parameters(), PredictionDetail::inflation);
}

}  // namespace

double slice_host_cores(const PlanContext& ctx, const SliceState& slice) {
  if (slice.empty()) return 0;
  const auto e = choose_slice_sharing(slice.spec(), slice.loads(), ctx.policy(), ctx.parameters(), PredictionDetail::inflation);
  if (e && e->host_cores) return *e->host_cores;
  double alone = 0;
  for (const auto& c : slice.loads()) alone += c.host_cpu;
  return alone;
}

std::vector<CoreBoundReplica> fit_node_cores(const PlanContext& ctx, std::vector<GpuBuild>& builds,
                                             size_t first_trimmed) {
  // The slices of each node with stated cores: (build, slice) positions.
  std::map<std::string, std::vector<std::pair<size_t, size_t>>> nodes;
  for (size_t b = 0; b < builds.size(); ++b) {
    if (!ctx.entry(builds[b].gpu).cpu_cores) continue;
    const std::string node = ctx.node_of(builds[b].gpu);
    for (size_t s = 0; s < builds[b].slices.size(); ++s) nodes[node].push_back({b, s});
  }
  std::vector<CoreBoundReplica> out;
  for (const auto& entry : nodes) {
    // Named, not a structured binding: the lambdas below use them (clang 14 cannot capture bindings).
    const std::string& node = entry.first;
    const std::vector<std::pair<size_t, size_t>>& slices = entry.second;
    const double cores = *ctx.entry(builds[slices.front().first].gpu).cpu_cores;
    auto slice = [&](size_t k) -> SliceState& { return builds[slices[k].first].slices[slices[k].second]; };
    // Every slice judged with the node's processes as they stand, and the cores they use at their rates then.
    std::vector<double> used(slices.size());
    double total = 0;
    int processes = 0;
    auto judge_on_node = [&] {
      processes = 0;
      for (size_t k = 0; k < slices.size(); ++k) processes += slice(k).processes();
      total = 0;
      for (size_t k = 0; k < slices.size(); ++k) {
        const bool waits = node_adds_core_waits(cores, processes, slice(k).processes());
        slice(k).set_node(waits ? cores : 0, waits ? processes : 0);
        used[k] = slice_host_cores(ctx, slice(k));
        total += used[k];
      }
    };
    judge_on_node();
    while (true) {
      // A slice past an SLO with the node's processes counts its replicas' cores alone (no sharing keeps its
      // SLOs, so no predicted rate scales them): the SLO is the bound to name then, not the cores.
      bool breaks_slo = false;
      for (size_t k = 0; k < slices.size() && !breaks_slo; ++k) breaks_slo = !keeps_slos_on_node(ctx, slice(k));
      const bool over_cores = !breaks_slo && total > cores + kCoreEpsilon;
      if (!over_cores && !breaks_slo) break;
      // Over the cores, the slice using most of them gives up a replica of its heaviest client; past an SLO
      // (the wait for a core the node's processes add), the slice with most processes. Only slices of builds
      // from `first_trimmed` on: the committed ones fit when committed.
      auto weight = [&](size_t k) { return over_cores ? used[k] : static_cast<double>(slice(k).processes()); };
      size_t i = slices.size();
      for (size_t k = 0; k < slices.size(); ++k) {
        if (slices[k].first < first_trimmed || slice(k).empty()) continue;
        if (i == slices.size() || weight(k) > weight(i)) i = k;
      }
      if (i == slices.size()) break;  // nothing left to take off
      SliceState& s = slice(i);
      const size_t client = heaviest_client(s);
      out.push_back({s.members()[client].back(), node, breaks_slo, processes});
      s = without(ctx, s, client);
      judge_on_node();  // fewer processes: the others may make more requests and wait less
    }
  }
  return out;
}

std::string node_without_cores_for(const PlanContext& ctx, const std::vector<GpuBuild>& builds,
                                   const ReplicaRef& replica) {
  const double need = demand_of(ctx, replica).host_cpu;
  if (need <= 0) return "";
  std::map<std::string, double> used;
  std::map<std::string, double> cores;
  for (const GpuBuild& b : builds) {
    if (!ctx.entry(b.gpu).cpu_cores) continue;
    const std::string node = ctx.node_of(b.gpu);
    cores[node] = *ctx.entry(b.gpu).cpu_cores;
    for (const SliceState& s : b.slices) used[node] += slice_host_cores(ctx, s);
  }
  for (const auto& [node, u] : used) {
    if (u + need > cores[node] + kCoreEpsilon) return node;
  }
  return "";
}

int gpus_of_node(const PlanContext& ctx, const std::string& node) {
  int n = 0;
  for (size_t g = 0; g < ctx.gpus().size(); ++g) n += ctx.node_of(static_cast<int>(g)) == node ? 1 : 0;
  return n;
}

Unplaced node_cores_unplaced(const PlanContext& ctx, const std::vector<GpuBuild>& builds,
                             const CoreBoundReplica& r) {
  const Workload& w = ctx.scenario().workloads[static_cast<size_t>(r.replica.workload)];
  double cores = 0;
  int placed = 0;
  double used = 0;
  for (const GpuBuild& b : builds) {
    if (ctx.node_of(b.gpu) != r.node) continue;
    cores = ctx.entry(b.gpu).cpu_cores.value_or(0);
    for (const SliceState& s : b.slices) {
      used += slice_host_cores(ctx, s);
      for (const auto& m : s.members()) {
        for (const ReplicaRef& x : m) placed += x.workload == r.replica.workload ? 1 : 0;
      }
    }
  }
  if (r.slo) {
    return {r.replica, "no_host_cores",
            "bound by " + fixed(cores, "%.3g") + " host cores of " + r.node + " (cpu_cores), not by its GPUs: at most " +
                std::to_string(placed) + " of " + w.name + " there; with " + std::to_string(r.processes) +
                " client processes on the node's GPUs and MIG instances, each slice judged alone kept its SLOs, but the "
                "wait for a core the others add would push a replica past its SLO; state the node's cores if it has "
                "more, or add nodes"};
  }
  const double alone = demand_of(ctx, r.replica).host_cpu;
  const bool measured = w.profile && host_cpu_knee(*w.profile);
  return {r.replica, "no_host_cores",
          "bound by " + fixed(cores, "%.3g") + " host cores of " + r.node + " (cpu_cores), not by its GPUs: at most " +
              std::to_string(placed) + " of " + w.name + " there (" + fixed(used) + " cores used by the replicas placed" +
              (measured ? "" : " at their predicted request rates") +
              ", summed over the node's GPUs and MIG instances; " + replica_cores_text(w, alone) +
              "); state the node's cores if it has more, or add nodes"};
}

std::string replica_cores_text(const Workload& w, double alone) {
  const auto knee = w.profile ? host_cpu_knee(*w.profile) : std::nullopt;
  // Without the knee, the words plans have carried since the node bound (kept byte for byte).
  if (!knee) return "one of " + w.name + " used " + fixed(alone) + " cores alone in its profile";
  return "measured: " + w.name + "'s MPS co-location grid grew to " + std::to_string(knee->knee_k) + " copies (" +
         fixed(knee->knee_req_per_s, "%.0f") + " req/s) and no further (" + fixed(knee->past_req_per_s, "%.0f") +
         " req/s at " + std::to_string(knee->past_k) + ", its copies using " + fixed(knee->past_cores_used, "%.1f") +
         " of the " + fixed(knee->cores, "%.3g") + " cores it was profiled on)" +
         (knee->copies > knee->knee_k + 1e-9
              ? ": the full cores drive " + fixed(knee->copies, "%.1f") + " copies at " +
                    fixed(knee->knee_req_per_s / knee->knee_k, "%.1f") + " req/s a copy"
              : std::string()) +
         ", so each copy counts " + fixed(knee->cores_per_copy()) + " cores at any request rate";
}

}  // namespace gpupack
