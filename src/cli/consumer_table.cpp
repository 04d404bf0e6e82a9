// The comparison of consumers for people: what each component that could serve the GPUs to pods places of
// the same scenario (planner/consumer_search.hpp), so a user sees what switching is worth.
#include <ostream>

#include "cli/plan_views.hpp"
#include "cli/table.hpp"

namespace gpupack {

namespace {

std::string gpus(int n) {
  return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

// "places 24 on 1 GPU, or 2 GPUs for all 40"
std::string sentence(const DocConsumerRow& c, long replicas) {
  std::string s = "places " + std::to_string(c.placed) + " on " + gpus(c.gpus_used);
  if (c.cost_per_hour) s += " ($" + format_number(*c.cost_per_hour) + "/h)";
  if (c.unplaced > 0) {
    s += c.gpus_needed ? ", or " + gpus(*c.gpus_needed) + " for all " + std::to_string(replicas)
                       : "; some replicas fit no GPU it can share";
  }
  return s;
}

}  // namespace

void print_consumer_table(std::ostream& out, const Scenario& scenario, const PlanDocument& plan) {
  if (plan.consumers.empty()) return;
  const long replicas = total_replicas(scenario);
  out << "\nDeployed with (the plan above is for " << to_string(plan.deploy_with)
      << "; each consumer alone on this fleet, GPUS NEEDED: on as many GPUs of the first model as it "
         "takes):\n";
  Table t({"CONSUMER", "GPUS USED", "PLACED", "UNPLACED", "COST/H", "GPUS NEEDED"});
  std::string summary;
  for (const DocConsumerRow& c : plan.consumers) {
    t.add({std::string(to_string(c.consumer)), std::to_string(c.gpus_used), std::to_string(c.placed),
           std::to_string(c.unplaced), c.cost_per_hour ? "$" + format_number(*c.cost_per_hour) : "-",
           c.gpus_needed ? std::to_string(*c.gpus_needed) : "-"});
    summary += std::string(summary.empty() ? "The " : "; the ") + std::string(to_string(c.consumer)) + " " +
               sentence(c, replicas);
  }
  t.print(out);
  out << summary << ".\n";
}

}  // namespace gpupack
