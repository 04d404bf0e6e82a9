#include "core/workload.hpp"

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

std::string_view to_string(Isolation isolation) {
  switch (isolation) {
    case Isolation::none: return "none";
    case Isolation::memory: return "memory";
    case Isolation::fault: return "fault";
    case Isolation::hardware: return "hardware";
  }
  return "none";
}

std::string_view to_string(UsagePattern pattern) {
  return pattern == UsagePattern::intermittent ? "intermittent" : "steady";
}

Isolation parse_isolation(std::string_view text) {
  for (Isolation i : {Isolation::none, Isolation::memory, Isolation::fault, Isolation::hardware}) {
    if (iequals(text, to_string(i))) return i;
  }
  throw InputError("unknown isolation '" + quote_input(text) + "'; accepted: none, memory, fault, hardware");
}

UsagePattern parse_usage_pattern(std::string_view text) {
  for (UsagePattern p : {UsagePattern::steady, UsagePattern::intermittent}) {
    if (iequals(text, to_string(p))) return p;
  }
  throw InputError("unknown pattern '" + quote_input(text) + "'; accepted: steady, intermittent");
}

std::optional<double> Workload::planning_slo_ms() const {
  if (!latency_slo_ms) return std::nullopt;
  return *latency_slo_ms / (1.0 + slo_margin.value_or(0));
}

std::optional<double> Workload::max_p99_inflation(double p99_alone_share_of_slo) const {
  if (!latency_slo_ms) return std::nullopt;
  const double alone = p99_alone_ms.value_or(*latency_slo_ms * p99_alone_share_of_slo);
  return *planning_slo_ms() / alone;
}

std::string_view to_string(DeployKind kind) {
  switch (kind) {
    case DeployKind::deployment: return "deployment";
    case DeployKind::job: return "job";
    case DeployKind::cron_job: return "cronjob";
  }
  return "";
}

std::optional<DeployKind> parse_deploy_kind(std::string_view text) {
  for (DeployKind k : {DeployKind::deployment, DeployKind::job, DeployKind::cron_job}) {
    if (to_string(k) == text) return k;
  }
  return std::nullopt;
}

}  // namespace gpupack
