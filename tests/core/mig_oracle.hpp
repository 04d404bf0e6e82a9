#pragma once
// An independent brute-force oracle for MIG validity, written from the rule in mig.md without reusing
// the engine: try every combination of allowed starts for every instance and mark slices one by one.
#include <functional>
#include <vector>

#include "core/mig_profile.hpp"

namespace gpupack::testing {

inline bool brute_force_fits(const MigGeometry& g, const std::vector<int>& counts) {
  std::vector<int> instances;
  int media = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    for (int k = 0; k < counts[i]; ++k) instances.push_back(static_cast<int>(i));
    if (has_media_extensions(g.profiles[i].variant)) media += counts[i];
  }
  if (media > 1 || instances.empty()) return false;
  std::vector<int> slice_owner(g.memory_slices, -1);
  std::function<bool(size_t)> go = [&](size_t n) -> bool {
    if (n == instances.size()) return true;
    const MigProfile& p = g.profiles[instances[n]];
    for (int start : p.placement_starts) {
      bool free = start + p.memory_slices <= g.memory_slices;
      for (int s = start; free && s < start + p.memory_slices; ++s) free = slice_owner[s] < 0;
      if (!free) continue;
      for (int s = start; s < start + p.memory_slices; ++s) slice_owner[s] = static_cast<int>(n);
      const bool ok = go(n + 1);
      for (int s = start; s < start + p.memory_slices; ++s) slice_owner[s] = -1;
      if (ok) return true;
    }
    return false;
  };
  return go(0);
}

// Every count vector with counts[i] <= limits[i] (the search space for exhaustive checks).
inline void for_each_count_vector(const std::vector<int>& limits,
                                  const std::function<void(const std::vector<int>&)>& f) {
  std::vector<int> counts(limits.size(), 0);
  while (true) {
    f(counts);
    size_t i = 0;
    while (i < limits.size() && counts[i] == limits[i]) counts[i++] = 0;
    if (i == limits.size()) return;
    ++counts[i];
  }
}

inline void for_each_count_vector(size_t profiles, int max_each,
                                  const std::function<void(const std::vector<int>&)>& f) {
  for_each_count_vector(std::vector<int>(profiles, max_each), f);
}

// Limits that reach every valid layout: no profile appears more often than max_count.
inline std::vector<int> max_count_limits(const MigGeometry& g) {
  std::vector<int> limits;
  for (const auto& p : g.profiles) limits.push_back(p.max_count);
  return limits;
}

}  // namespace gpupack::testing
