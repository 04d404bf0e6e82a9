// `gpupack model replay`'s table: the errors (predicted / measured - 1) of every run and workload, then the
// summary per set and workload against issue 15's targets (docs/model-parameters.md, "Replay and fit").
#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "cli/model_replay.hpp"
#include "cli/table.hpp"

namespace gpupack {

namespace {

using verify::ErrorStats;
using verify::ReplicaError;

// "-5% to +2% (3)": the range of `errors`, and how many; "-" for none.
std::string range_text(const std::vector<double>& errors) {
  if (errors.empty()) return "-";
  const auto [lo, hi] = std::minmax_element(errors.begin(), errors.end());
  const std::string low = fmt::format("{:+.0f}%", 100 * *lo), high = fmt::format("{:+.0f}%", 100 * *hi);
  return (low == high ? low : low + " to " + high) + fmt::format(" ({})", errors.size());
}

std::string percent(double share, bool some, int decimals) {
  return some ? fmt::format("{:.{}f}%", 100 * share, decimals) : "-";
}

// The count, WORST, MEAN and, with a target, WITHIN columns of `s`.
void add_stats(std::vector<std::string>& row, const ErrorStats& s, bool with_target) {
  row.push_back(std::to_string(s.count));
  row.push_back(percent(s.worst, s.count > 0, 0));
  row.push_back(percent(s.mean_abs(), s.count > 0, 1));
  if (with_target) row.push_back(percent(s.within_share(), s.count > 0, 0));
}

}  // namespace

void print_replay_table(std::ostream& out, const verify::ReplayReport& report) {
  Table runs({"RUN", "SET", "WORKLOAD", "REQ/S ERROR", "P99 ERROR (OWN TAIL)", "P99 ERROR (SHARED STALLS)",
              "WITHOUT THE STALLS"});
  for (const verify::RunReplay& r : report.runs) {
    for (const verify::WorkloadReplay& w : r.workloads) {
      std::vector<double> req, own, stalled, without;
      for (const ReplicaError& e : w.replicas) {
        req.push_back(e.req_per_s);
        (e.stall_free ? own : stalled).push_back(e.p99);
        if (e.p99_without_stalls) without.push_back(*e.p99_without_stalls);
      }
      runs.add({r.run.dir, std::string(verify::run_set_name(r.run.set)), w.workload, range_text(req), range_text(own),
                range_text(stalled), range_text(without)});
    }
  }
  runs.print(out);
  out << "\nError = predicted / measured - 1. Own tail: replicas without shared stalls (the tail the model "
         "predicts); the others also against their p99 without the stalls.\n\n";
  Table summary({"SET", "WORKLOAD", "REPLICAS", "REQ/S WORST", "MEAN", "WITHIN 15%", "OWN TAIL", "P99 WORST", "MEAN",
                 "WITHIN 25%", "STALLED", "WITHOUT STALLS", "WORST", "MEAN", "BOTH", "OR RUN RANGE"});
  // Per set, in the summary's order: replicas within both targets, and all of them.
  struct SetCounts {
    int within = 0, replicas = 0, level_removed = 0, run_range = 0;
  };
  std::vector<std::pair<std::string, SetCounts>> sets;
  for (const verify::WorkloadSummary& s : report.summary) {
    std::vector<std::string> row{s.set, s.workload};
    add_stats(row, s.req_per_s, true);
    add_stats(row, s.p99, true);
    row.push_back(std::to_string(s.stalled));
    add_stats(row, s.p99_without_stalls, false);
    row.push_back(std::to_string(s.within_both));
    row.push_back(std::to_string(s.within_both_or_run_range));
    summary.add(std::move(row));
    if (sets.empty() || sets.back().first != s.set) sets.push_back({s.set, {}});
    sets.back().second.within += s.within_both;
    sets.back().second.replicas += s.replicas;
    sets.back().second.level_removed += s.within_both_level_removed;
    sets.back().second.run_range += s.within_both_or_run_range;
  }
  summary.print(out);
  out << "\nBoth: replicas within both targets at once (p99 as measured, shared stalls or not). Or run range: or "
         "missed by no more than the runs of the baseline its prediction rests on were apart alone.\n";
  for (const auto& [set, counts] : sets) {
    out << fmt::format("{}: {} of {} replicas within both targets ({:.0f}%)\n", set, counts.within, counts.replicas,
                       counts.replicas > 0 ? 100.0 * counts.within / counts.replicas : 0.0);
  }
  out << "Once each run's level for a workload is divided out (every replica's errors as ratios to its run's "
         "median replica's), what is left is the scatter between replicas:\n";
  for (const auto& [set, counts] : sets) {
    out << fmt::format("{}: {} of {} replicas within both targets\n", set, counts.level_removed, counts.replicas);
  }
  out << "Within both targets, or missed by no more than the profile's own baseline runs alone were apart (the rest "
         "is the model's miss beyond the machine's noise):\n";
  for (const auto& [set, counts] : sets) {
    out << fmt::format("{}: {} of {} replicas\n", set, counts.run_range, counts.replicas);
  }
  const verify::ActivitySummary& a = report.activity;
  if (a.runs > 0) {
    out << fmt::format(
        "The slice's SM activity (GPM) predicted from the profiles (model/slice_activity.hpp) against verify's: within "
        "0.05 in {} of {} runs, within 0.10 in {}; median difference {:.3f}, worst {:+.2f} (measured - predicted)\n",
        a.within_005, a.runs, a.within_010, a.median_abs, a.worst);
  }
}

}  // namespace gpupack
