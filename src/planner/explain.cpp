#include "planner/explain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/text.hpp"
#include "core/units.hpp"

namespace gpupack {

namespace {

std::string times(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", v);
  return buf;
}

// The replicas of one GPU as clients of a single slice (each replica its own process).
struct GpuContents {
  std::vector<ClientLoad> clients;
  std::vector<std::string> names;  // workload name per client
  std::vector<const Workload*> workloads;  // per client
  double slo_margin = 0;           // the largest slo_margin of the clients with an SLO
  std::set<std::string> tenants;
  int replicas = 0;
  bool needs_cap = false;
  bool needs_own_slice = false;
  std::uint64_t memory = 0;
};

GpuContents contents_of(const PlanContext& ctx, const PlanGpu& gpu) {
  GpuContents c;
  const GpuModel& model = ctx.scenario().fleet[static_cast<size_t>(gpu.fleet_entry)].model;
  const double scale = static_cast<double>(ctx.demands().reference_sms) / model.sm_count;
  for (const PlanSlice& s : gpu.slices) {
    c.tenants.insert(s.tenant);
    for (const PlanClient& pc : s.clients) {
      for (const ReplicaRef& r : pc.replicas) {
        const WorkloadDemand& d = ctx.demands().workloads[static_cast<size_t>(r.workload)];
        ClientLoad l;
        l.memory_bytes = d.memory_bytes;
        l.compute = d.compute * scale;
        l.max_p99_inflation = d.max_p99_inflation;
        l.intermittent = d.intermittent;
        l.needs_memory_cap = d.isolation == Isolation::memory;
        l.own_slice = needs_own_slice(d.isolation);
        l.replicas = 1;
        c.needs_cap = c.needs_cap || l.needs_memory_cap;
        c.needs_own_slice = c.needs_own_slice || l.own_slice;
        c.memory += d.memory_bytes;
        c.clients.push_back(l);
        const Workload& w = ctx.scenario().workloads[static_cast<size_t>(r.workload)];
        c.names.push_back(w.name);
        c.workloads.push_back(&w);
        if (w.latency_slo_ms) c.slo_margin = std::max(c.slo_margin, w.slo_margin.value_or(0));
        ++c.replicas;
      }
    }
  }
  return c;
}

// "p99 Nx alone for W (its SLO allows Mx)" for the client whose SLO the prediction breaks the most.
std::string worst_slo_miss(const GpuContents& c, const SliceEvaluation& e) {
  double worst_ratio = 1.0;
  std::string text;
  for (size_t i = 0; i < c.clients.size(); ++i) {
    const auto& allowed = c.clients[i].max_p99_inflation;
    const double inflation = e.clients[i].inflation;
    if (!allowed || inflation <= *allowed) continue;
    const double ratio = inflation / *allowed;
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      text = "predicted p99 " + times(inflation) + " alone for " + c.names[i] + " (its SLO" +
             (c.slo_margin > 0 ? " less its margin" : "") + " allows " + times(*allowed) + ")";
    }
  }
  return text;
}

// Where a time-sliced client's figure came from (issue 36, item 6): its own time-slicing grid (measured at
// that K, or extended beyond it), or the synthetic model where its profile has no grid; "" without a
// profile (the plan's notes say the whole prediction is synthetic).
std::string timeslicing_source(const ClientOutcome& o, const Workload* w) {
  for (const ModelNote& n : o.notes) {
    if (n.kind == ModelNote::Kind::grid_cell) {
      return " (measured: K=" + std::to_string(n.n[0]) + " time-slicing grid of " + w->name + ")";
    }
    if (n.kind == ModelNote::Kind::grid_beyond) {
      return " (extrapolated: K=" + std::to_string(n.n[0]) + " beyond " + w->name + "'s time-slicing grid, measured to K=" +
             std::to_string(n.n[1]) + ")";
    }
  }
  if (w && w->profile) return " (synthetic: no time-slicing grid in " + w->name + "'s profile)";
  return "";
}

// The worst predicted p99 under time-slicing and where its figure came from.
std::string timeslicing_worst(const GpuContents& c, const SliceEvaluation& e) {
  if (e.clients.empty()) return times(1.0) + " alone";
  size_t at = 0;
  for (size_t i = 1; i < e.clients.size(); ++i) {
    if (e.clients[i].inflation > e.clients[at].inflation) at = i;
  }
  return times(e.clients[at].inflation) + " alone" + timeslicing_source(e.clients[at], c.workloads[at]);
}

std::string join_nonempty(const std::vector<std::string>& parts) {
  std::vector<std::string> kept;
  for (const auto& p : parts) {
    if (!p.empty()) kept.push_back(p);
  }
  return join(kept, "; ");
}

std::string trust_problem(const GpuContents& c) {
  if (c.tenants.size() < 2) return "";
  return "tenants " + join(std::vector<std::string>(c.tenants.begin(), c.tenants.end()), ", ") +
         " would share one slice (the trust rule forbids it)";
}

// What shared memory and a shared MPS server risk, counted for the replicas at hand: nothing for a lone
// replica (issue 32: "OOMs the other 0"), "the other one" and "both" for two.
std::string neighbours_oomed(int replicas) {
  if (replicas <= 1) return "";
  return "nothing caps memory, so one replica's growth OOMs " +
         (replicas == 2 ? std::string("the other one") : "the other " + std::to_string(replicas - 1));
}

std::string fault_reaches(int replicas) {
  if (replicas <= 1) return "";
  return "a fatal fault in one client is reported to " +
         (replicas == 2 ? std::string("both clients") : "all " + std::to_string(replicas) + " clients") + " of the GPU";
}

std::string clients_text(std::size_t k, const std::string& kind) {
  return std::to_string(k) + " " + kind + (k == 1 ? " client" : " clients");
}

// What running the GPU's replicas in MIG instances shared this way would break.
std::string breaks_under_mig(Sharing inside, const GpuModel& model, const GpuContents& c) {
  if (!model.mig) return "this GPU has no MIG";
  switch (inside) {
    case Sharing::mps:
      return "fixed instance sizes strand capacity and changing the layout needs the GPU idle; a fatal fault in one "
             "MPS client still reaches every client of its instance";
    case Sharing::time_slicing:
      return "inside each instance p99 grows with every busy neighbour and nothing caps memory; fixed instance "
             "sizes strand capacity";
    case Sharing::exclusive:
    case Sharing::streams: break;
  }
  const std::string n = std::to_string(c.replicas);
  return join_nonempty({c.replicas > model.mig->max_instances
                            ? "at most " + std::to_string(model.mig->max_instances) + " instances for " + n +
                                  " replicas"
                            : "",
                        "fixed instance sizes strand the capacity a replica does not use",
                        "changing the layout needs the GPU idle"});
}

std::string breaks_under(GpuMode mode, const PlanContext& ctx, const PlanGpu& gpu, const GpuContents& c) {
  const GpuModel& model = ctx.scenario().fleet[static_cast<size_t>(gpu.fleet_entry)].model;
  if (mode.uses_mig) return breaks_under_mig(mode.sharing, model, c);
  const SliceSpec whole = whole_gpu_spec(model, ctx.scenario().cuda, ctx.demands().reference_sms,
                                         ctx.scenario().context_overhead_bytes, ctx.parameters());
  const std::string n = std::to_string(c.replicas);
  switch (mode.sharing) {
    case Sharing::exclusive:
    case Sharing::streams:
      if (c.replicas <= 1) return "";
      return "one replica per GPU: these " + n + " replicas would need " + n + " GPUs instead of 1";
    case Sharing::time_slicing: {
      // The clients with their workloads: a profile's own time-slicing grid predicts where it has one.
      std::vector<ClientLoad> clients = c.clients;
      for (size_t i = 0; i < clients.size(); ++i) clients[i].workload = c.workloads[i];
      const SliceEvaluation e =
          evaluate_sharing(Sharing::time_slicing, whole, clients, ctx.parameters(), PredictionDetail::figures);
      return join_nonempty({trust_problem(c),
                            "p99 grows with every busy neighbour: worst predicted " + timeslicing_worst(c, e),
                            worst_slo_miss(c, e),
                            neighbours_oomed(c.replicas),
                            c.needs_own_slice ? "replicas that need fault isolation would share a context scheduler"
                                              : ""});
    }
    case Sharing::mps: {
      if (!mps_supported(model)) return "MPS is not documented inside an AWS fractional GPU (vGPU guest)";
      const SliceEvaluation e = evaluate_sharing(Sharing::mps, whole, c.clients, ctx.parameters());
      return join_nonempty(
          {trust_problem(c), worst_slo_miss(c, e),
           fault_reaches(c.replicas),
           "memory is capped only with pinned limits (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)",
           c.replicas > whole.mps_client_limit ? n + " clients exceed the MPS limit of " +
                                                      std::to_string(whole.mps_client_limit)
                                                : "",
           whole.mps_isolates_memory ? "" : "before Volta MPS clients share one address space: no memory isolation"});
    }
  }
  return "";
}

std::string slice_reason(const PlanSlice& s, const GpuContents& c) {
  std::string who = s.tenant.empty() ? "" : " of tenant " + s.tenant;
  int lo = 100;
  int hi = 0;
  double worst_p99 = 1.0;
  for (const PlanClient& pc : s.clients) {
    if (pc.mps_active_thread_percentage) {
      lo = std::min(lo, *pc.mps_active_thread_percentage);
      hi = std::max(hi, *pc.mps_active_thread_percentage);
    }
    worst_p99 = std::max(worst_p99, pc.predicted_p99_inflation);
  }
  switch (s.sharing) {
    case Sharing::exclusive:
      return c.needs_own_slice ? "one replica that needs a slice of its own (isolation fault/hardware)"
                               : "one replica" + who + " alone";
    case Sharing::streams:
      return "one process" + who + ": replicas of one group share it through CUDA streams";
    case Sharing::mps:
      return clients_text(s.clients.size(), "trusted") + who + (s.clients.size() == 1 ? " runs" : " run concurrently") + " under MPS with pinned memory limits and thread caps " +
             (lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi)) + "%, worst predicted p99 " + times(worst_p99) +
             " alone, within every SLO" +
             (c.slo_margin > 0 ? " less its margin (up to " + std::to_string(std::lround(100 * c.slo_margin)) + "%)" : std::string());
    case Sharing::time_slicing:
      return clients_text(s.clients.size(), "intermittent") + who +
             (s.clients.size() == 1 ? " time-slices:" : " time-slice:") + " idle contexts cost nothing, no MPS daemon is needed and no SLO is at stake";
  }
  return "";
}

}  // namespace

void explain_gpu(const PlanContext& ctx, PlanGpu& gpu) {
  const GpuContents c = contents_of(ctx, gpu);
  const bool mig = !gpu.mig.empty();
  if (mig) {
    const bool configured = ctx.scenario().fleet[static_cast<size_t>(gpu.fleet_entry)].mig == FleetMig::fixed;
    std::string why = configured ? "the MIG layout the fleet says this GPU is configured with (mig:), used as is"
                      : c.tenants.size() > 1
                          ? "tenants " + join(std::vector<std::string>(c.tenants.begin(), c.tenants.end()), ", ") +
                                " share this GPU only through separate MIG instances (trust)"
                          : "MIG instances give hard isolation and place more here than one whole-GPU slice";
    for (size_t i = 0; i < gpu.slices.size(); ++i) {
      const PlanSlice& s = gpu.slices[i];
      const MigProfile& p = ctx.scenario().fleet[static_cast<size_t>(gpu.fleet_entry)].model.mig->profiles[
          static_cast<size_t>(s.profile)];
      why += "; " + p.name + "@" + std::to_string(s.mig_start) + ": " + slice_reason(s, c);
    }
    gpu.why = why;
  } else {
    gpu.why = slice_reason(gpu.slices.front(), c);
  }
  const FleetEntry& entry = ctx.scenario().fleet[static_cast<size_t>(gpu.fleet_entry)];
  if (const std::string consumer = consumer_config_text(entry); !consumer.empty()) gpu.why += " (" + consumer + ")";
  for (const GpuMode m : all_gpu_modes()) {
    if (m == gpu.mode) continue;
    const std::string b = breaks_under(m, ctx, gpu, c);
    if (!b.empty()) gpu.rejected.push_back({m, consumer_cannot(entry, m) + b});
  }
}

}  // namespace gpupack
