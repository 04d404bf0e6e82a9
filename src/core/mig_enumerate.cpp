#include "core/mig_enumerate.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace gpupack {

namespace {

// Counts packed into a string key (one byte per profile) for hashing.
std::string key_of(const MigCounts& counts) { return std::string(counts.begin(), counts.end()); }

// Walks the memory-slice axis left to right: at each slice either nothing starts there, or exactly one
// instance of an allowed profile starts there and the walk jumps past it. This visits every set of
// pairwise-disjoint allowed placements exactly once.
struct Walker {
  const MigGeometry& g;
  std::vector<std::vector<int>> starting_at;  // slice -> profiles in play allowed to start there
  MigCounts counts;
  std::vector<MigPlacedInstance> placed;
  int media = 0;
  std::unordered_map<std::string, size_t> seen;
  std::vector<MigLayout> layouts;

  void walk(int slice) {
    if (slice >= g.memory_slices) {
      if (placed.empty()) return;
      auto [it, inserted] = seen.emplace(key_of(counts), layouts.size());
      if (inserted) layouts.push_back({counts, placed});
      return;
    }
    walk(slice + 1);
    for (int pi : starting_at[slice]) {
      const MigProfile& p = g.profiles[pi];
      const bool media_ext = has_media_extensions(p.variant);
      if (media_ext && media > 0) continue;
      ++counts[pi];
      media += media_ext;
      placed.push_back({pi, slice});
      walk(slice + p.memory_slices);
      placed.pop_back();
      media -= media_ext;
      --counts[pi];
    }
  }
};

}  // namespace

std::vector<MigLayout> enumerate_layouts(const MigGeometry& g, const MigEnumerateOptions& options) {
  std::vector<int> allowed;
  for (size_t i = 0; i < g.profiles.size(); ++i) {
    if (options.include_variants || !g.profiles[i].is_variant()) allowed.push_back(static_cast<int>(i));
  }
  Walker w{g, std::vector<std::vector<int>>(g.memory_slices), MigCounts(g.profiles.size(), 0), {}, 0, {}, {}};
  for (int pi : allowed) {
    const MigProfile& p = g.profiles[pi];
    for (int s : p.placement_starts) {
      if (s + p.memory_slices <= g.memory_slices) w.starting_at[s].push_back(pi);
    }
  }
  w.walk(0);

  std::vector<MigLayout> layouts = std::move(w.layouts);
  if (options.maximal_only) {
    // Maximal: adding any one profile in play gives a multiset that is not among the valid ones.
    std::vector<MigLayout> maximal;
    for (auto& layout : layouts) {
      bool extendable = false;
      for (int pi : allowed) {
        ++layout.counts[pi];
        extendable = w.seen.count(key_of(layout.counts)) > 0;
        --layout.counts[pi];
        if (extendable) break;
      }
      if (!extendable) maximal.push_back(std::move(layout));
    }
    layouts = std::move(maximal);
  }
  for (auto& layout : layouts) sort_creation_order(g, layout.instances);
  // Fewer instances first; among equals, the one whose creation order has larger profiles first.
  auto rank = [&](const MigLayout& l) {
    std::vector<std::pair<int, int>> r;
    for (const auto& inst : l.instances) {
      const MigProfile& p = g.profiles[inst.profile];
      r.emplace_back(-p.memory_slices * 16 - p.compute_slices, inst.profile);
    }
    return r;
  };
  std::stable_sort(layouts.begin(), layouts.end(), [&](const MigLayout& a, const MigLayout& b) {
    if (a.instances.size() != b.instances.size()) return a.instances.size() < b.instances.size();
    return rank(a) < rank(b);
  });
  return layouts;
}

}  // namespace gpupack
