#include "planner/priced_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "planner/lower_bound.hpp"
#include "planner/plan_context.hpp"
#include "planner/type_choice.hpp"

namespace gpupack {

namespace {

std::string dollars(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "$%.3f", v);
  return buf;
}

// What the workloads of one type cost when packed there: replicas left out first, then the price.
struct TypeCost {
  long unplaced = 0;
  double cost = 0;
};

// How many replicas of each workload run on each type: workload-major, a row per workload.
using Counts = std::vector<std::vector<int>>;

class PricedPlanner {
 public:
  PricedPlanner(const Scenario& scenario, const PlanOptions& options)
      : s_(scenario), options_(options), table_(scenario, policy_for(options.forced), options.parameters) {
    quick_ = options;
    quick_.exact = false;
    quick_.explain = false;
    quick_.progress = nullptr;
    const size_t types = static_cast<size_t>(table_.types());
    count_.assign(s_.workloads.size(), std::vector<int>(types, 0));
    for (int w = 0; w < static_cast<int>(s_.workloads.size()); ++w) {
      const int e = table_.cheapest(w);
      first_.push_back(e);
      count_[static_cast<size_t>(w)][static_cast<size_t>(e)] = s_.workloads[static_cast<size_t>(w)].replicas;
    }
    moved_.assign(s_.workloads.size(), 0.0);
    for (int e = 0; e < table_.types(); ++e) costs_.push_back(cost_of(e, count_));
  }

  // Step 3 of priced_plan.hpp.
  void improve() {
    std::vector<int> order(s_.workloads.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    // Smallest first: the workloads that least fill a GPU are the ones another type may take for less.
    const auto size = [&](int w) {
      const auto p = table_.price_per_replica(w, first_[static_cast<size_t>(w)]);
      return p ? *p * s_.workloads[static_cast<size_t>(w)].replicas : 0.0;
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return size(a) < size(b); });
    for (int round = 0; round < 4; ++round) {
      bool moved = false;
      for (int w : order) {
        if (spent_ > options_.type_search_budget) return;
        moved = try_move(w) || moved;
      }
      if (!moved) return;
    }
  }

  // The mix found against each type alone: when one type for everything is better, take it (the search
  // moves one workload at a time and may miss a move that only pays when all move together).
  void try_single_types() {
    TypeCost mix;
    for (const TypeCost& c : costs_) mix = plus(mix, c);
    for (int e = 0; e < table_.types(); ++e) {
      Counts alone(s_.workloads.size(), std::vector<int>(static_cast<size_t>(table_.types()), 0));
      for (size_t w = 0; w < alone.size(); ++w) alone[w][static_cast<size_t>(e)] = s_.workloads[w].replicas;
      const TypeCost cost = cost_of(e, alone);
      if (!better(cost, mix)) continue;
      mix = cost;
      count_ = std::move(alone);
      for (auto& c : costs_) c = TypeCost{};
      costs_[static_cast<size_t>(e)] = cost;
      single_type_ = true;
    }
  }

  Plan finish() {
    PlanOptions final_options = options_;
    final_options.progress = nullptr;
    Plan out;
    int index = 0;
    for (int e = 0; e < table_.types(); ++e) {
      std::vector<int> members;  // sub-scenario workload -> scenario workload
      std::vector<int> offset;   // its first replica number in the scenario: those on earlier types come first
      for (int w = 0; w < static_cast<int>(s_.workloads.size()); ++w) {
        const auto& row = count_[static_cast<size_t>(w)];
        if (row[static_cast<size_t>(e)] == 0) continue;
        members.push_back(w);
        offset.push_back(std::accumulate(row.begin(), row.begin() + e, 0));
      }
      if (members.empty()) continue;
      Plan p = make_plan(subset(e, count_), final_options);
      const auto to_scenario = [&](ReplicaRef& r) {
        const size_t i = static_cast<size_t>(r.workload);
        r.workload = members[i];
        r.replica += offset[i];
      };
      const FleetEntry& f = s_.fleet[static_cast<size_t>(e)];
      int k = 0;
      for (PlanGpu& g : p.gpus) {
        g.fleet_entry = e;
        g.id = "gpu" + std::to_string(index++);
        g.node = node_name(f, k++);
        for (PlanSlice& sl : g.slices) {
          for (PlanClient& c : sl.clients) {
            for (ReplicaRef& r : c.replicas) to_scenario(r);
          }
        }
        out.gpus.push_back(std::move(g));
      }
      for (Unplaced& u : p.unplaced) {
        to_scenario(u.replica);
        out.unplaced.push_back(std::move(u));
      }
    }
    std::sort(out.unplaced.begin(), out.unplaced.end(), [](const Unplaced& a, const Unplaced& b) {
      return std::pair(a.replica.workload, a.replica.replica) < std::pair(b.replica.workload, b.replica.replica);
    });
    summarise(out);
    for (int w = 0; w < static_cast<int>(s_.workloads.size()); ++w) {
      for (int e = 0; e < table_.types(); ++e) {
        if (count_[static_cast<size_t>(w)][static_cast<size_t>(e)] > 0) out.gpu_types.push_back(choice(w, e));
      }
    }
    return out;
  }

 private:
  double price(int e) const { return s_.fleet[static_cast<size_t>(e)].cost_per_hour.value_or(0); }

  // The replicas `counts` puts on type `e`, on that type alone.
  Scenario subset(int e, const Counts& counts) const {
    const Scenario& all = table_.on_type(e);
    Scenario sub;
    sub.fleet = all.fleet;
    sub.elastic = true;
    sub.cuda = all.cuda;
    sub.context_overhead_bytes = all.context_overhead_bytes;
    for (size_t w = 0; w < counts.size(); ++w) {
      const int n = counts[w][static_cast<size_t>(e)];
      if (n == 0) continue;
      sub.workloads.push_back(all.workloads[w]);
      sub.workloads.back().replicas = n;
    }
    return sub;
  }

  TypeCost cost_of(int e, const Counts& counts) {
    const Scenario sub = subset(e, counts);
    if (sub.workloads.empty()) return {};
    spent_ += total_replicas(sub);
    const Plan p = make_plan(sub, quick_);
    return {static_cast<long>(p.unplaced.size()), p.summary.gpus_used * price(e)};
  }

  static TypeCost plus(const TypeCost& a, const TypeCost& b) { return {a.unplaced + b.unplaced, a.cost + b.cost}; }
  static TypeCost minus(const TypeCost& a, const TypeCost& b) { return {a.unplaced - b.unplaced, a.cost - b.cost}; }
  static bool better(const TypeCost& a, const TypeCost& b) {
    return a.unplaced != b.unplaced ? a.unplaced < b.unplaced : a.cost < b.cost - 1e-9;
  }

  // Moves replicas of workload `w` from one type to another where that makes the plan cheapest: all of
  // them, or the remainder that does not fill a GPU of its type (n mod what one GPU holds).
  bool try_move(int w) {
    const auto& row = count_[static_cast<size_t>(w)];
    struct Move {
      int from = -1, to = -1, n = 0;
      TypeCost delta, from_after, to_after;
    } best;
    for (int from = 0; from < table_.types(); ++from) {
      const int have = row[static_cast<size_t>(from)];
      if (have == 0) continue;
      const int held = table_.capacity(w, from);
      std::vector<int> amounts{have};
      if (held > 0 && have > held && have % held > 0) amounts.push_back(have % held);
      for (int n : amounts) {
        Counts after = count_;
        after[static_cast<size_t>(w)][static_cast<size_t>(from)] -= n;
        const TypeCost from_after = cost_of(from, after);
        for (int to = 0; to < table_.types(); ++to) {
          if (to == from || table_.capacity(w, to) == 0) continue;
          after[static_cast<size_t>(w)][static_cast<size_t>(to)] += n;
          const TypeCost to_after = cost_of(to, after);
          after[static_cast<size_t>(w)][static_cast<size_t>(to)] -= n;
          // The change of the whole plan's (unplaced, cost): only the two types change.
          const TypeCost delta = minus(plus(from_after, to_after),
                                       plus(costs_[static_cast<size_t>(from)], costs_[static_cast<size_t>(to)]));
          if (better(delta, best.from < 0 ? TypeCost{0, 0} : best.delta)) best = {from, to, n, delta, from_after, to_after};
        }
      }
    }
    if (best.from < 0) return false;
    count_[static_cast<size_t>(w)][static_cast<size_t>(best.from)] -= best.n;
    count_[static_cast<size_t>(w)][static_cast<size_t>(best.to)] += best.n;
    costs_[static_cast<size_t>(best.from)] = best.from_after;
    costs_[static_cast<size_t>(best.to)] = best.to_after;
    moved_[static_cast<size_t>(w)] -= best.delta.cost;
    return true;
  }

  GpuTypeChoice choice(int w, int e) const {
    const int n = count_[static_cast<size_t>(w)][static_cast<size_t>(e)];
    const int all = s_.workloads[static_cast<size_t>(w)].replicas;
    std::string why = n == all ? "" : std::to_string(n) + " of its " + std::to_string(all) + " replicas: ";
    const int first = first_[static_cast<size_t>(w)];
    if (!table_.price_per_replica(w, e)) {
      why += "no GPU type holds it: ";
    } else if (single_type_ && e != first) {
      why += "every workload on " + s_.fleet[static_cast<size_t>(e)].model.name +
             " costs less than any mix the search found: ";
    } else if (e == first) {
      why += "cheapest per replica-hour when a GPU is full of it: ";
    } else {
      why += "moved here from " + s_.fleet[static_cast<size_t>(first)].model.name +
             " (cheaper per replica only when a GPU is full of it): the moves of this workload saved " +
             dollars(moved_[static_cast<size_t>(w)]) + "/h; ";
    }
    return {w, e, why + table_.why(w, e)};
  }

  void summarise(Plan& plan) const {
    double memory_total = 0;
    double memory_used = 0;
    double compute_used = 0;
    double cost = 0;
    for (const PlanGpu& g : plan.gpus) {
      memory_total += static_cast<double>(whole_gpu_memory_bytes(s_.fleet[static_cast<size_t>(g.fleet_entry)].model, options_.parameters));
      cost += price(g.fleet_entry);
      for (const PlanSlice& sl : g.slices) {
        for (const PlanClient& c : sl.clients) {
          memory_used += static_cast<double>(c.memory_limit_bytes);
          compute_used += c.compute;
        }
      }
    }
    PlanSummary& s = plan.summary;
    s.gpus_used = static_cast<int>(plan.gpus.size());
    const PlanContext ctx(s_, policy_for(options_.forced), options_.parameters);
    s.lower_bound_gpus = lower_bound_gpus(ctx);
    s.memory_utilisation = memory_total > 0 ? memory_used / memory_total : 0;
    s.compute_utilisation = s.gpus_used > 0 ? compute_used / s.gpus_used : 0;
    s.cost_per_hour = cost;
    s.lower_bound_cost_per_hour = table_.cost_lower_bound();
    // One replica per GPU, each on the cheapest type that holds it.
    double one_per_gpu = 0;
    for (int w = 0; w < static_cast<int>(s_.workloads.size()); ++w) {
      double cheapest = -1;
      for (int e = 0; e < table_.types(); ++e) {
        if (table_.capacity(w, e) > 0 && (cheapest < 0 || price(e) < cheapest)) cheapest = price(e);
      }
      if (cheapest > 0) one_per_gpu += cheapest * s_.workloads[static_cast<size_t>(w)].replicas;
    }
    s.one_per_gpu_cost_per_hour = one_per_gpu;
  }

  const Scenario& s_;
  const PlanOptions& options_;
  PlanOptions quick_;  // for the search: no exhaustive search, no explanations
  TypeTable table_;
  Counts count_;                  // per workload and type: replicas there
  std::vector<int> first_;        // per workload: its type before the improvement pass
  std::vector<TypeCost> costs_;   // per type: its replicas packed
  std::vector<double> moved_;     // per workload: what its moves saved per hour
  long spent_ = 0;                // replicas packed by the search
  bool single_type_ = false;      // try_single_types replaced the mix
};

}  // namespace

Plan make_priced_plan(const Scenario& scenario, const PlanOptions& options) {
  PricedPlanner planner(scenario, options);
  planner.improve();
  planner.try_single_types();
  return planner.finish();
}

}  // namespace gpupack
