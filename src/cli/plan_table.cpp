// The plan for people: the comparison of modes, the chosen plan per GPU and slice with its reasons,
// the summary, risks and what could not be placed.
#include <cstdio>
#include <map>
#include <ostream>
#include <set>

#include "cli/plan_views.hpp"
#include "cli/table.hpp"
#include "core/units.hpp"
#include "planner/type_choice.hpp"

namespace gpupack {

namespace {

std::string fixed(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}
std::string times(double v) {
  return fixed(v, "%.2fx");
}
std::string pct(double v) {
  return fixed(100 * v, "%.0f%%");
}

constexpr const char* kUnboundedHostCpuRisk =
    "host CPU: profiled replicas use host cores on nodes without `cpu_cores` (nothing bounds them)";
constexpr const char* kFittedLaunchPathRisk =
    "MPS launch path: profiled replicas beside other clients whose profile has no MPS grid are predicted with the "
    "launch-path cost fitted on H100 hosts, which other hosts may not show (`gpupack profile --sweep` measures "
    "their own)";
constexpr const char* kCoreWaitRisk =
    "host CPU: more client processes on a GPU than its host cores; each tail waits for a core (in the predicted "
    "p99)";

// Table rows are printed for this many GPUs; the rest are counted (JSON has all of them).
constexpr size_t kTableGpus = 40;

std::string dollars(const std::optional<double>& v) {
  return v ? fixed(*v, "$%.2f") : "-";
}

// A comparison row's name: the chosen plan, a mode alone, or (on a fleet of priced types) one type alone.
std::string row_name(const Scenario& scenario, const ModeOutcome& m) {
  if (m.only_entry) return "only " + scenario.fleet[static_cast<size_t>(*m.only_entry)].model.name;
  return m.mode ? std::string(to_string(*m.mode)) : "chosen (per GPU)";
}

void print_comparison(std::ostream& out, const Scenario& scenario,
                      const std::vector<ModeOutcome>& comparison) {
  out << (chooses_gpu_types(scenario) ? "Modes and GPU types compared (each mode alone on the cheapest mix "
                                        "of types, then every workload on "
                                        "one type; all on as many GPUs as needed):\n"
                                      : "Modes compared (each mode alone on this fleet; GPUS NEEDED: with as "
                                        "many GPUs of the first model as "
                                        "it takes):\n");
  Table t({"MODE", "GPUS USED", "PLACED", "UNPLACED", "SLO MISSES", "GPUS NEEDED", "COST/H",
           "WORST P99 (SLO)", "THROUGHPUT", "WHAT BREAKS"});
  for (const ModeOutcome& m : comparison) {
    t.add({row_name(scenario, m), std::to_string(m.gpus_used), std::to_string(m.placed),
           std::to_string(m.unplaced), std::to_string(m.slo_misses),
           m.gpus_needed ? std::to_string(*m.gpus_needed) : "-", dollars(m.cost_per_hour),
           times(m.worst_p99_inflation), pct(m.throughput), m.breaks});
  }
  t.print(out);
}

// Per workload, the GPU type it went to and why (a fleet of priced `count: auto` types).
void print_gpu_types(std::ostream& out, const Scenario& scenario, const Plan& plan) {
  if (plan.gpu_types.empty()) return;
  out << "\nGPU types chosen (price per replica-hour when a GPU is full of the workload):\n";
  for (const GpuTypeChoice& c : plan.gpu_types) {
    out << "  " << scenario.workloads[static_cast<size_t>(c.workload)].name << " -> "
        << scenario.fleet[static_cast<size_t>(c.fleet_entry)].model.name << ": " << c.why << "\n";
  }
}

std::string slice_name(const GpuModel& model, const PlanSlice& s) {
  if (s.profile < 0) return "whole GPU";
  return model.mig->profiles[static_cast<size_t>(s.profile)].name + "@" + std::to_string(s.mig_start);
}

// The client's absolute prediction and how it was made ("no profile: predictions from the synthetic model").
std::string prediction_text(const std::optional<ClientPrediction>& p) {
  if (!p) return "";
  std::string text;
  if (p->source == "profile") {
    text += "; from its profile:";
    if (p->p99_ms) text += " p99 " + fixed(*p->p99_ms, "%.2f") + " ms";
    if (p->req_per_s) text += ", " + fixed(*p->req_per_s, "%.0f") + " req/s";
    if (p->extrapolated) text += " (extrapolated)";
  }
  for (const auto& note : p->notes) text += "; " + note;
  return text;
}

void print_gpus(std::ostream& out, const Scenario& scenario, const Plan& plan, bool explain) {
  out << "\nChosen plan:\n";
  Table t({"GPU", "MODEL", "NODE", "MODE", "SLICE", "SHARING", "TENANT", "CLIENTS", "REPLICAS",
           "MEMORY LIMITS", "COMPUTE", "MPS CAPS", "WORST P99"});
  for (size_t gi = 0; gi < plan.gpus.size() && gi < kTableGpus; ++gi) {
    const PlanGpu& g = plan.gpus[gi];
    const GpuModel& model = scenario.fleet[static_cast<size_t>(g.fleet_entry)].model;
    for (const PlanSlice& s : g.slices) {
      std::uint64_t memory = 0;
      double compute = 0;
      int replicas = 0;
      int lo = 101;
      int hi = 0;
      double worst = 1.0;
      for (const PlanClient& c : s.clients) {
        memory += c.memory_limit_bytes;
        compute += c.compute;
        replicas += static_cast<int>(c.replicas.size());
        worst = std::max(worst, c.predicted_p99_inflation);
        if (c.mps_active_thread_percentage) {
          lo = std::min(lo, *c.mps_active_thread_percentage);
          hi = std::max(hi, *c.mps_active_thread_percentage);
        }
      }
      const std::string caps = hi == 0    ? "-"
                               : lo == hi ? std::to_string(lo) + "%"
                                          : std::to_string(lo) + "-" + std::to_string(hi) + "%";
      t.add({g.id, model.name, g.node, std::string(to_string(g.mode)), slice_name(model, s),
             std::string(to_string(s.sharing)), s.tenant, std::to_string(s.clients.size()),
             std::to_string(replicas), format_size(memory) + " / " + format_size(s.memory_bytes),
             pct(compute) + " / " + pct(s.compute_share), caps, times(worst)});
    }
  }
  t.print(out);
  if (plan.gpus.size() > kTableGpus)
    out << "... and " << plan.gpus.size() - kTableGpus << " more GPUs (see --format json)\n";
  out << "\nWhy:\n";
  for (size_t gi = 0; gi < plan.gpus.size() && gi < kTableGpus; ++gi) {
    const PlanGpu& g = plan.gpus[gi];
    // The reason per MIG instance on a line of its own.
    std::string why = g.why;
    for (size_t at = why.find("; "); at != std::string::npos; at = why.find("; ", at))
      why.replace(at, 2, "\n      ");
    out << "  " << g.id << " (" << to_string(g.mode) << "): " << why << "\n";
    if (!explain) continue;
    for (const RejectedMode& r : g.rejected)
      out << "    not " << to_string(r.mode) << ": " << r.breaks << "\n";
    const GpuModel& model = scenario.fleet[static_cast<size_t>(g.fleet_entry)].model;
    for (const PlanSlice& s : g.slices) {
      for (const PlanClient& c : s.clients) {
        std::string names;
        for (const ReplicaRef& r : c.replicas) {
          names += (names.empty() ? "" : "+") + scenario.workloads[static_cast<size_t>(r.workload)].name +
                   "#" + std::to_string(r.replica);
        }
        out << "    " << slice_name(model, s) << ": " << names << " limit "
            << format_size(c.memory_limit_bytes)
            << (c.mps_active_thread_percentage
                    ? ", threads " + std::to_string(*c.mps_active_thread_percentage) + "%"
                    : "")
            << ", p99 " << times(c.predicted_p99_inflation) << " alone" << prediction_text(c.prediction)
            << "\n";
      }
    }
  }
}

// What the lower bound beside the GPUs used means (issue 32: "lower bound 2 (this count is optimal)" beside
// 3 used read as a contradiction): whether the count used is proven the fewest, or was chosen for cost.
std::string gpu_count_note(const PlanSummary& s) {
  const std::string used = std::to_string(s.gpus_used);
  if (s.fewest_gpus_plan && s.cost_per_hour) {
    return " (no plan uses fewer GPUs); chosen for the lowest cost: " + fixed(*s.cost_per_hour, "$%.2f") +
           "/h against " + fixed(s.fewest_gpus_plan->cost_per_hour, "$%.2f") + "/h for the plan found with the fewest GPUs (" +
           std::to_string(s.fewest_gpus_plan->gpus) + ")";
  }
  if (!s.exact) return " (no plan uses fewer GPUs)";
  if (s.gpus_used <= s.lower_bound_gpus) return " (reached: no plan uses fewer GPUs)";
  return " (no plan uses fewer GPUs); " + used + " is the fewest, proven by exhaustive search";
}

// The SM activity each used GPU is predicted to show (model/slice_activity.hpp): its slices' predictions
// weighted by their share of its SMs; a GPU with a slice not predicted is left out.
void print_sm_activity(std::ostream& out, const Plan& plan) {
  std::string list;
  for (size_t gi = 0; gi < plan.gpus.size() && gi < kTableGpus; ++gi) {
    const PlanGpu& g = plan.gpus[gi];
    double active = 0;
    bool known = !g.slices.empty();
    for (const PlanSlice& sl : g.slices) {
      if (!sl.predicted_sm_active) known = false;
      else active += sl.compute_share * *sl.predicted_sm_active;
    }
    if (known) list += (list.empty() ? "" : ", ") + g.id + " " + pct(active);
  }
  if (list.empty()) return;
  out << "  SM activity predicted from the profiles (GPM, as DCGM's SM-active shows it): " << list << "\n";
}

void print_summary(std::ostream& out, const Scenario& scenario, const Plan& plan) {
  const PlanSummary& s = plan.summary;
  const long replicas = total_replicas(scenario);
  out << "\nSummary: " << s.gpus_used << " GPU" << (s.gpus_used == 1 ? "" : "s") << " used"
      << (s.gpus_available ? " of " + std::to_string(*s.gpus_available) : std::string(" (as many as needed)"))
      << "; lower bound " << s.lower_bound_gpus << gpu_count_note(s) << "; "
      << replicas - static_cast<long>(plan.unplaced.size()) << " of " << replicas << " replicas placed\n";
  out << "  utilisation of the used GPUs: memory " << pct(s.memory_utilisation) << ", compute "
      << pct(s.compute_utilisation) << "\n";
  print_sm_activity(out, plan);
  // One replica per GPU: each on the cheapest GPU type of the fleet that holds it (one_per_gpu_cost).
  out << "  against one replica per GPU: " << s.gpus_used << " GPU" << (s.gpus_used == 1 ? "" : "s")
      << " instead of " << replicas;
  if (s.cost_per_hour && s.one_per_gpu_cost_per_hour) {
    out << ", " << fixed(*s.cost_per_hour, "$%.2f") << "/h instead of "
        << fixed(*s.one_per_gpu_cost_per_hour, "$%.2f") << "/h";
  }
  out << "\n";
  if (s.cost_per_hour && s.lower_bound_cost_per_hour) {
    out << "  cost: " << fixed(*s.cost_per_hour, "$%.2f") << "/h; no plan costs less than "
        << fixed(*s.lower_bound_cost_per_hour, "$%.2f") << "/h (lower bound)\n";
  }
  // Risks that follow from the modes chosen.
  std::map<std::string, int> risks;
  for (const PlanGpu& g : plan.gpus) {
    if (!g.mig.empty()) risks["MIG: changing a layout needs the GPU idle (drain it first)"]++;
    // Profiled clients that drive the GPU from host threads, on a node whose cores the fleet does not state:
    // nothing bounds how many share those cores (docs/decisions.md, "Packing from profiles").
    const bool cores_stated = scenario.fleet[static_cast<size_t>(g.fleet_entry)].cpu_cores.has_value();
    for (const PlanSlice& sl : g.slices) {
      for (const PlanClient& c : sl.clients) {
        const Workload& w = scenario.workloads[static_cast<size_t>(c.replicas.front().workload)];
        if (!cores_stated && w.profile && w.profile->host_cpu_cores && *w.profile->host_cpu_cores > 0.05) {
          risks[kUnboundedHostCpuRisk] += static_cast<int>(c.replicas.size());
        }
      }
    }
    // More client processes on a slice than its share of the node's cores: each spin-waiting client's tail
    // waits for a core (the predicted p99 counts it, per slice as the model does; docs/decisions.md,
    // "Host CPU").
    for (const PlanSlice& sl : g.slices) {
      const double cores =
          slice_capacity_on(scenario.fleet[static_cast<size_t>(g.fleet_entry)], sl.profile).host_cores;
      if (cores > 0 && static_cast<double>(sl.clients.size()) > cores) {
        risks[kCoreWaitRisk]++;
      }
    }
    for (const PlanSlice& sl : g.slices) {
      for (const PlanClient& c : sl.clients) {
        if (c.prediction && c.prediction->fitted_launch_cost) risks[kFittedLaunchPathRisk] += static_cast<int>(c.replicas.size());
      }
    }
    for (const PlanSlice& sl : g.slices) {
      if (sl.sharing == Sharing::mps)
        risks["MPS: a fatal fault in one client is reported to every client of its slice"]++;
      if (sl.sharing == Sharing::time_slicing)
        risks["time-slicing: nothing caps memory; one replica's growth OOMs the others"]++;
    }
  }
  if (!plan.unplaced.empty())
    risks["replicas left unplaced (listed below)"] = static_cast<int>(plan.unplaced.size());
  if (!risks.empty()) out << "Risks:\n";
  for (const auto& [text, count] : risks) out << "  " << text << " (" << count << ")\n";
}

void print_unplaced(std::ostream& out, const Scenario& scenario, const Plan& plan) {
  if (plan.unplaced.empty()) return;
  out << "\nUnplaced:\n";
  // One line per workload: its replicas share the reason.
  std::map<int, std::pair<int, std::string>> by_workload;
  for (const Unplaced& u : plan.unplaced) {
    auto& e = by_workload[u.replica.workload];
    e.first++;
    e.second = u.reason;
  }
  for (const auto& [w, e] : by_workload) {
    out << "  " << scenario.workloads[static_cast<size_t>(w)].name << " (" << e.first << " replica"
        << (e.first == 1 ? "" : "s") << "): " << e.second << "\n";
  }
}

}  // namespace

void print_plan_table(std::ostream& out, const Scenario& scenario, const Plan& plan,
                      const std::vector<ModeOutcome>& comparison, bool explain) {
  std::set<std::string> tenants;
  for (const auto& w : scenario.workloads) tenants.insert(w.tenant);
  out << "Plan: " << total_replicas(scenario) << " replicas of " << scenario.workloads.size()
      << " workloads from " << tenants.size() << " tenant" << (tenants.size() == 1 ? "" : "s") << " on ";
  for (size_t i = 0; i < scenario.fleet.size(); ++i) {
    out << (i ? ", " : "")
        << (scenario.elastic ? std::string("as many as needed") : std::to_string(scenario.fleet[i].count))
        << " x " << scenario.fleet[i].model.name;
    if (chooses_gpu_types(scenario)) out << " at " << dollars(scenario.fleet[i].cost_per_hour) << "/h";
  }
  out << " (CUDA " << scenario.cuda.to_string() << ")\n\n";
  print_comparison(out, scenario, comparison);
  print_gpu_types(out, scenario, plan);
  print_gpus(out, scenario, plan, explain);
  print_summary(out, scenario, plan);
  print_unplaced(out, scenario, plan);
}

}  // namespace gpupack
