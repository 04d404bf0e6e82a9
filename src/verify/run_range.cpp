#include "verify/run_range.hpp"

#include <cmath>

namespace gpupack::verify {

RunRange run_range_of(const ProfileBaseline* b) {
  if (!b) return {};
  return {b->req_low, b->req_high, b->p99_low, b->p99_high};
}

bool within_run_range(double error, std::optional<double> low, std::optional<double> high, double target) {
  if (std::abs(error) <= target) return true;
  if (!low || !high || error <= -1) return false;
  const double measured_over_predicted = 1 / (1 + error);
  return measured_over_predicted >= *low / (1 + target) && measured_over_predicted <= *high / (1 - target);
}

bool within_run_range(const RunRange& range, double req_per_s_error, double req_target, double p99_error,
                      double p99_target) {
  return within_run_range(req_per_s_error, range.req_low, range.req_high, req_target) &&
         within_run_range(p99_error, range.p99_low, range.p99_high, p99_target);
}

}  // namespace gpupack::verify
