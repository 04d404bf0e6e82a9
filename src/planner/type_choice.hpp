#pragma once
// Choosing GPU types on a fleet of priced `count: auto` entries (docs/fractional-gpus.md, "Choosing the
// cheapest GPU types"): what one GPU of each type holds of each workload alone under the planner's rules
// (memory, compute, isolation, SLO), the price per replica that follows, the cheapest type per workload,
// and a lower bound on the cost of any plan.
#include <optional>
#include <string>
#include <vector>

#include "core/scenario.hpp"
#include "model/model_parameters.hpp"
#include "planner/policy.hpp"

namespace gpupack {

// Whether the plan chooses between GPU types: an elastic fleet of more than one entry (`count: auto`).
bool chooses_gpu_types(const Scenario& scenario);

// The scenario with every workload on as many GPUs of fleet entry `entry` as needed, its `compute` turned
// into fractions of that model (compute refers to the first model of the original fleet).
Scenario on_one_type(const Scenario& scenario, int entry);

// Replicas of one workload alone on one GPU of a type are counted up to this many: enough to price a
// replica (the MPS client limit is 48), bounded so that pricing stays cheap.
constexpr int kCapacityCountLimit = 64;

class TypeTable {
 public:
  TypeTable(const Scenario& scenario, const ModePolicy& policy, const ModelParameters& parameters);

  int types() const { return static_cast<int>(on_type_.size()); }
  // The scenario of every workload on type `entry` alone (on_one_type).
  const Scenario& on_type(int entry) const { return on_type_[static_cast<size_t>(entry)]; }
  // Replicas of `workload` alone on one GPU of `entry` (whole or in MIG instances), 0 when none fits.
  int capacity(int workload, int entry) const { return cell(workload, entry).replicas; }
  // Price of one replica-hour of `workload` on `entry` when the GPU is full of it; none when it never fits.
  std::optional<double> price_per_replica(int workload, int entry) const;
  // The entry with the lowest price per replica (ties: the lower GPU price); when no type holds the
  // workload, the entry with the most memory (where the plan explains why it is left out).
  int cheapest(int workload) const;
  // No plan of the scenario costs less per hour (see type_choice.cpp).
  double cost_lower_bound() const;
  // Its price per replica-hour on `chosen` (how many one GPU holds), then on each other type or why it
  // does not fit there: "L4-3Q $0.1000 (8 per GPU at $0.800/h); against L4-24GB ...".
  std::string why(int workload, int chosen) const;

 private:
  struct Cell {
    int replicas = 0;
    std::string refusal;  // when replicas is 0: the rule that fails
    double memory_share = 0;   // of one replica (with its context) on a whole GPU of the type
    double compute_share = 0;  // of one replica on a whole GPU of the type
  };
  const Cell& cell(int workload, int entry) const {
    return cells_[static_cast<size_t>(workload) * on_type_.size() + static_cast<size_t>(entry)];
  }

  const Scenario* scenario_;
  const ModelParameters* parameters_;
  std::vector<Scenario> on_type_;
  std::vector<Cell> cells_;  // workload-major
};

}  // namespace gpupack
