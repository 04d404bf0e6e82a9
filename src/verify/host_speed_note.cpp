#include "verify/host_speed_note.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace gpupack::verify {

std::optional<measure::HostCoreWork> time_host_speed(CpuWorkProbe& probe) {
  std::vector<double> ms;
  for (int i = 0; i < kHostWorkSamples; ++i) {
    if (const auto t = probe.time_next_core()) ms.push_back(*t);
  }
  return measure::summarize_core_work(ms);
}

void add_host_speed_note(VerifyReport& report) {
  if (!report.host_core_work || report.host_core_work->median_ms <= 0) return;
  const double here = report.host_core_work->median_ms;
  std::string hosts;
  std::vector<double> ratios;  // this node's time over each profile host's
  for (const AloneFigures& a : report.alone) {
    if (!a.profile_host_core_work_ms || *a.profile_host_core_work_ms <= 0) continue;
    ratios.push_back(here / *a.profile_host_core_work_ms);
    hosts += fmt::format("{}{} {:.2f} ms (x{:.2f})", hosts.empty() ? "" : ", ", a.workload, *a.profile_host_core_work_ms,
                         ratios.back());
  }
  if (ratios.empty()) return;
  const auto [fastest, slowest] = std::minmax_element(ratios.begin(), ratios.end());
  const bool slower = *slowest > kSameHostSpeed, faster = *fastest < 1 / kSameHostSpeed;
  const std::string direction = slower && faster ? "slower than some of its profiles' hosts and faster than others"
                                : slower         ? "slower than its profiles' hosts"
                                : faster         ? "faster than its profiles' hosts"
                                                 : "about as fast as its profiles' hosts";
  report.notes.push_back(fmt::format(
      "this node's cores took a median of {:.2f} ms for the fixed CPU work a profile times (timed before the runs); "
      "its profiles' hosts took: {} (this node's time over theirs): this host is {}. Over the recorded profiles "
      "a launch-bound program's req/s followed that time from one host to the next (bert-base-b4's about as its "
      "-0.6th power, a program whose work is on the GPU hardly; scripts/host-speed.py), but not on every "
      "machine (run99: a host timed x0.61 ran bert 0.6x its prediction): a reason such a program's prediction "
      "from a profile made on another host can miss, not a correction of it",
      here, hosts, direction));
}

}  // namespace gpupack::verify
