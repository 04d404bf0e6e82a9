#include "verify/measurement_notes.hpp"

#include <fmt/format.h>

namespace gpupack::verify {
namespace {

// "a (x), b (y), ... and N more": the replicas a note names, each with its figure where it has one.
std::string named_list(const std::vector<std::pair<std::string, std::string>>& named) {
  std::string names;
  for (size_t i = 0; i < named.size() && i < 6; ++i) {
    names += fmt::format("{}{}", i ? ", " : "", named[i].first);
    if (!named[i].second.empty()) names += fmt::format(" ({})", named[i].second);
  }
  if (named.size() > 6) names += fmt::format(" and {} more", named.size() - 6);
  return names;
}

}  // namespace

void add_measurement_notes(VerifyReport& report, const std::vector<std::pair<std::string, std::string>>& few) {
  if (!few.empty()) {
    report.notes.push_back(fmt::format("fewer than {} requests in a window (the fewest in brackets), so a p99 rests on the slowest 1% "
                                       "of them: {}; a longer --duration steadies it",
                                       kSteadyP99Requests, named_list(few)));
  }
  std::vector<std::pair<std::string, std::string>> unsteady;
  for (const auto& v : report.replicas) {
    std::string figures;
    if (const auto sp = v.p99_ms.spread(); sp && *sp > report.tolerance) figures = fmt::format("p99 {:.0f}%", *sp * 100);
    if (const auto sp = v.req_per_s.spread(); sp && *sp > report.tolerance) {
      figures += fmt::format("{}req/s {:.0f}%", figures.empty() ? "" : ", ", *sp * 100);
    }
    if (!figures.empty()) unsteady.emplace_back(v.workload + "-" + std::to_string(v.replica), figures);
  }
  if (!unsteady.empty()) {
    report.notes.push_back(fmt::format("repeats that differ by more than the tolerance ({:.0f}%; the spread in brackets), so an "
                                       "error within it may be chance: {}; more --repeat or a longer --duration",
                                       report.tolerance * 100, named_list(unsteady)));
  }
  std::vector<std::pair<std::string, std::string>> within_runs;
  int judged = 0;
  for (const auto& v : report.replicas) {
    if (!v.miss_within_profile_runs) continue;
    ++judged;
    if (*v.miss_within_profile_runs) within_runs.emplace_back(v.workload + "-" + std::to_string(v.replica), "");
  }
  if (judged > 0) {
    const std::string names = named_list(within_runs);
    report.notes.push_back(fmt::format(
        "{} of the {} replicas off their profile's prediction beyond the tolerance missed by no more than the "
        "profile's baseline runs alone were apart, so the profile could not have told that miss from this "
        "machine's noise{}{}; the others missed by more: the model's",
        within_runs.size(), judged, names.empty() ? "" : ": ", names));
  }
  for (const auto& sl : report.slices) {
    if (!sl.sm_active_error || *sl.sm_active_error >= -kSmActiveShortfall) continue;
    report.notes.push_back(fmt::format(
        "{} kept {:.2f} of its SMs busy where the plan predicted {:.2f} from its clients' profiles: they did not "
        "drive the GPU as they did alone (in the recorded runs this far under, 14-30 launch-bound clients shared 16 "
        "host cores: a client waiting for a core launches nothing), so their req/s can fall short of the prediction",
        sl.slice, *sl.sm_active.mean(), *sl.predicted_sm_active));
  }
}

}  // namespace gpupack::verify
