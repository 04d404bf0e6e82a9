#include "planner/unplaced_reason.hpp"

#include <cstdio>
#include <set>

#include "core/units.hpp"
#include "model/host_cpu_grid.hpp"
#include "planner/node_cores.hpp"

namespace gpupack {

namespace {

std::string fixed(double v, const char* format = "%.2f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// True when the replica fits an empty slice of some GPU of the fleet, as the policy allows.
bool fits_empty_slice(const PlanContext& ctx, const WorkloadDemand& d, bool* mig_gpu_exists) {
  std::vector<bool> seen(ctx.scenario().fleet.size(), false);
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    const int entry = ctx.gpus()[static_cast<size_t>(g)].entry;
    if (seen[static_cast<size_t>(entry)]) continue;
    seen[static_cast<size_t>(entry)] = true;
    const GpuModel& m = ctx.model(g);
    if (ctx.mig_allowed(g)) *mig_gpu_exists = true;
    if (ctx.whole_allowed(g) &&
        SliceState(ctx.whole(g), &ctx.policy(), &ctx.parameters()).check(d) == Fit::ok) {
      return true;
    }
    if (ctx.mig_allowed(g)) {
      for (size_t p = 0; p < m.mig->profiles.size(); ++p) {
        if (ctx.entry(g).mig == FleetMig::fixed && ctx.entry(g).mig_layout[p] == 0) continue;
        if (SliceState(ctx.instance(g, static_cast<int>(p)), &ctx.policy(), &ctx.parameters()).check(d) ==
            Fit::ok) {
          return true;
        }
      }
    }
  }
  return false;
}

// ", less its 12% margin" where the workload keeps one (the plan packs to SLO / (1 + margin)).
std::string margin_note(const Workload& w) {
  const double m = w.slo_margin.value_or(0);
  return m > 0 ? ", less its " + fixed(100 * m, "%.0f") + "% margin" : "";
}

}  // namespace

Unplaced explain_unplaced(const PlanContext& ctx, const std::vector<GpuBuild>& builds,
                          const ReplicaRef& replica) {
  const WorkloadDemand& d = ctx.demands().workloads[static_cast<size_t>(replica.workload)];
  const Workload& w = ctx.scenario().workloads[static_cast<size_t>(replica.workload)];
  if (d.not_judged) return {replica, "baseline_not_repeatable", w.not_judged};
  if (d.max_p99_inflation && *d.max_p99_inflation < 1.0) {
    return {replica, "slo_not_reachable",
            "SLO not reachable: its p99 alone (" + fixed(w.p99_alone_ms.value_or(0)) + " ms) is above its SLO (" +
                fixed(*w.latency_slo_ms) + " ms" + margin_note(w) + ")"};
  }
  bool mig_gpu_exists = false;
  if (!fits_empty_slice(ctx, d, &mig_gpu_exists)) {
    if (!ctx.policy().whole_gpu && !mig_gpu_exists) {
      return {replica, "no_mig_gpu", "no MIG-capable GPU in the fleet for a MIG mode"};
    }
    return {replica, "too_large",
            "too large for any slice: one replica needs " +
                format_size(d.memory_bytes + ctx.scenario().context_overhead_bytes) +
                " with its CUDA context and " + fixed(100 * d.compute, "%.0f") + "% of a " +
                reference_model(ctx.scenario()).name +
                "'s SMs, more than any GPU or MIG instance of the fleet offers" +
                (ctx.policy().forced ? " under " + std::string(to_string(*ctx.policy().forced)) : "")};
  }
  // It would fit somewhere empty: the fleet is used up. Say whether its SLO or the node's host cores kept
  // it off a shared slice.
  bool slo_blocked = false;
  bool own_slo_breaks = false;           // its own predicted p99 past its SLO on some slice
  std::set<int> neighbours_broken;       // the workloads whose SLO it would push past
  const SliceState* cores_blocked = nullptr;
  const FleetEntry* cores_entry = nullptr;
  for (const GpuBuild& b : builds) {
    for (const SliceState& s : b.slices) {
      if (s.empty()) continue;
      const Fit fit = s.check(d);
      slo_blocked = slo_blocked || fit == Fit::slo;
      if (fit == Fit::slo) {
        const std::vector<int> breakers = s.slo_breakers_if_joined(d);
        // None named (no MPS prediction breaks one: another sharing's rule refused it): its own, as before.
        own_slo_breaks = own_slo_breaks || breakers.empty();
        for (int i : breakers) {
          if (i == replica.workload) {
            own_slo_breaks = true;
          } else {
            neighbours_broken.insert(i);
          }
        }
      }
      if (fit == Fit::host_cpu && !cores_blocked) {
        cores_blocked = &s;
        cores_entry = &ctx.scenario().fleet[static_cast<size_t>(ctx.gpus()[static_cast<size_t>(b.gpu)].entry)];
      }
    }
  }
  const std::string gpus = std::to_string(ctx.gpus().size());
  if (slo_blocked && (!d.max_p99_inflation || !own_slo_breaks)) {
    // A batch job without an SLO of its own, or a client whose own p99 would hold: what it would break is a
    // neighbour's (run61: bert was said to break its own SLO where it was the three dlrm's).
    std::string names;
    bool margins = false;
    for (int i : neighbours_broken) {
      const Workload& n = ctx.scenario().workloads[static_cast<size_t>(i)];
      names += (names.empty() ? "" : ", ") + n.name;
      margins = margins || n.slo_margin.value_or(0) > 0;
    }
    std::string whom = "one of them past its SLO";
    if (neighbours_broken.size() == 1) {
      const Workload& n = ctx.scenario().workloads[static_cast<size_t>(*neighbours_broken.begin())];
      const std::string margin = margin_note(n);  // ", less its 12% margin"
      whom = names + " past its SLO" + (margin.empty() ? "" : " (" + margin.substr(2) + ")");
    } else if (neighbours_broken.size() > 1) {
      whom = names + " past their SLOs" + (margins ? " (less their margins)" : "");
    }
    return {replica, "slo_not_reachable",
            "SLO not reachable: placed beside the clients of the used slices it would push " + whom +
                ", and none of the " + gpus + " GPUs is left for it"};
  }
  if (slo_blocked) {
    return {replica, "slo_not_reachable",
            "SLO not reachable: beside the clients of the used slices its predicted p99 exceeds " +
                fixed(*d.max_p99_inflation) + "x alone (its SLO" + margin_note(w) + "), and none of the " + gpus + " GPUs is left for it"};
  }
  if (cores_blocked) {
    // The fleet's cpu_cores (per GPU of a node) bound it, not the GPUs: say so, with how many of it the cores
    // drive and what each replica uses.
    int placed = 0;
    for (const auto& m : cores_blocked->members()) {
      for (const ReplicaRef& x : m) placed += x.workload == replica.workload ? 1 : 0;
    }
    return {
        replica, "no_host_cores",
        "bound by " + fixed(cores_blocked->spec().capacity.host_cores, "%.3g") + " host cores, not by the GPU: at most " +
            std::to_string(placed) + " of " + w.name + " on " +
            (cores_blocked->spec().profile >= 0 ? "a MIG instance of a GPU" : "a GPU") + " (" +
            host_cores_arithmetic(*cores_entry) +
            (w.profile && host_cpu_knee(*w.profile)
                 ? "; "
                 : "; the profiled replicas placed count their cores at their predicted request rates, ") +
            replica_cores_text(w, d.host_cpu) +
            "); state the node's cores if it has more, or add GPUs (none of the " +
            gpus + " is left for it)"};
  }
  return {replica, "no_gpu_left", "no GPU left: all " + gpus + " GPUs of the fleet are used"};
}

}  // namespace gpupack
