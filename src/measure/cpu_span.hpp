#pragma once
// Host CPU a program's process tree used over a window: `gpupack profile`'s run alone and each copy of the
// co-location grid. Per process: what each used between its first and latest samples. Summing the tree's
// totals instead went negative when a process that had used CPU left the tree (a child exiting) between
// two samples.
#include <algorithm>
#include <map>
#include <optional>

#include "os/proc_reader.hpp"

namespace gpupack::measure {

struct CpuSpan {
  struct Span {
    double first = 0, last = 0;
  };
  std::map<int, Span> per_pid;
  bool seen = false;
  double first_at = 0, last_at = 0;

  void add(int pid, double cpu_seconds) {
    const auto [it, inserted] = per_pid.try_emplace(pid, Span{cpu_seconds, cpu_seconds});
    if (!inserted) it->second.last = std::max(it->second.last, cpu_seconds);
  }
  void sampled(double at) {
    if (!seen) first_at = at;
    seen = true;
    last_at = at;
  }
  // One sample of the tree rooted at `root` at time `at` (seconds on the caller's clock).
  void sample_tree(const ProcReader& proc, int root, double at) {
    bool any = false;
    for (int pid : process_tree(proc, root)) {
      if (const auto c = proc.cpu_seconds(pid)) {
        add(pid, *c);
        any = true;
      }
    }
    if (any) sampled(at);
  }
  // Cores used: CPU seconds over wall seconds between the first and the latest sample; none before two.
  std::optional<double> cores() const {
    if (!seen || last_at <= first_at) return std::nullopt;
    double used = 0;
    for (const auto& [pid, span] : per_pid) used += span.last - span.first;
    return used / (last_at - first_at);
  }
};

}  // namespace gpupack::measure
