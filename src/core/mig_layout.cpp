#include "core/mig_layout.hpp"

#include <algorithm>
#include <numeric>

namespace gpupack {

namespace {

uint32_t interval_mask(int start, int size) { return ((uint32_t{1} << size) - 1) << start; }

// Backtracking state. `order` holds one profile index per instance, most constrained first; identical
// profiles are adjacent, and each copy starts after the previous one so permutations are not retried.
struct Search {
  const MigGeometry& g;
  std::vector<int> order;
  std::vector<MigPlacedInstance> placed;
  // The deepest dead end, to explain a failure: what was placed and which instance found no room.
  std::vector<MigPlacedInstance> deepest_placed;
  int deepest_failed = -1;

  bool place(size_t i, uint32_t used) {
    if (i == order.size()) return true;
    const MigProfile& p = g.profiles[order[i]];
    const bool same_as_previous = i > 0 && order[i - 1] == order[i];
    const int min_start = same_as_previous ? placed.back().start + 1 : 0;
    for (int start : p.placement_starts) {
      if (start < min_start || start + p.memory_slices > g.memory_slices) continue;
      const uint32_t mask = interval_mask(start, p.memory_slices);
      if (used & mask) continue;
      placed.push_back({order[i], start});
      if (place(i + 1, used | mask)) return true;
      placed.pop_back();
    }
    if (deepest_failed < 0 || placed.size() > deepest_placed.size()) {
      deepest_placed = placed;
      deepest_failed = order[i];
    }
    return false;
  }
};

// Reasons that need no search, checked first so the message names the real constraint.
std::string quick_rejection(const MigGeometry& g, std::span<const int> counts) {
  int media = 0, memory = 0, compute = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const MigProfile& p = g.profiles[i];
    if (counts[i] > p.max_count) {
      return std::to_string(counts[i]) + " x " + p.name + " requested, but at most " + std::to_string(p.max_count) +
             " fit on one GPU";
    }
    if (has_media_extensions(p.variant)) media += counts[i];
    memory += counts[i] * p.memory_slices;
    compute += counts[i] * p.compute_slices;
  }
  if (media > 1) {
    return "at most one instance with media extensions (+me) fits on one GPU; " + std::to_string(media) +
           " requested";
  }
  if (memory > g.memory_slices) {
    return describe_layout(g, counts) + " needs " + std::to_string(memory) + " memory slices; the GPU has " +
           std::to_string(g.memory_slices);
  }
  if (compute > g.compute_slices) {
    return describe_layout(g, counts) + " needs " + std::to_string(compute) + " compute slices; the GPU has " +
           std::to_string(g.compute_slices);
  }
  return {};
}

}  // namespace

std::vector<int> profiles_largest_first(const MigGeometry& g, std::span<const int> counts) {
  std::vector<int> order;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0) order.push_back(static_cast<int>(i));
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const MigProfile& pa = g.profiles[a];
    const MigProfile& pb = g.profiles[b];
    if (pa.memory_slices != pb.memory_slices) return pa.memory_slices > pb.memory_slices;
    return pa.compute_slices > pb.compute_slices;
  });
  return order;
}

std::string describe_layout(const MigGeometry& g, std::span<const int> counts) {
  std::string out;
  for (int i : profiles_largest_first(g, counts)) {
    if (!out.empty()) out += " + ";
    if (counts[i] > 1) out += std::to_string(counts[i]) + "x";
    out += g.profiles[i].name;
  }
  return out;
}

int instance_count(std::span<const int> counts) { return std::accumulate(counts.begin(), counts.end(), 0); }

std::string format_instance(const MigGeometry& g, const MigPlacedInstance& inst) {
  const MigProfile& p = g.profiles[inst.profile];
  return p.name + "@" + std::to_string(inst.start) + ":" + std::to_string(p.memory_slices);
}

void sort_creation_order(const MigGeometry& g, std::vector<MigPlacedInstance>& instances) {
  std::stable_sort(instances.begin(), instances.end(), [&](const MigPlacedInstance& a, const MigPlacedInstance& b) {
    const MigProfile& pa = g.profiles[a.profile];
    const MigProfile& pb = g.profiles[b.profile];
    if (pa.memory_slices != pb.memory_slices) return pa.memory_slices > pb.memory_slices;
    if (pa.compute_slices != pb.compute_slices) return pa.compute_slices > pb.compute_slices;
    return a.start < b.start;
  });
}

bool placements_are_valid(const MigGeometry& g, std::span<const MigPlacedInstance> instances) {
  uint32_t used = 0;
  int media = 0;
  for (const auto& inst : instances) {
    if (inst.profile < 0 || inst.profile >= static_cast<int>(g.profiles.size())) return false;
    const MigProfile& p = g.profiles[inst.profile];
    const auto& starts = p.placement_starts;
    if (std::find(starts.begin(), starts.end(), inst.start) == starts.end()) return false;
    if (inst.start + p.memory_slices > g.memory_slices) return false;
    const uint32_t mask = interval_mask(inst.start, p.memory_slices);
    if (used & mask) return false;
    used |= mask;
    if (has_media_extensions(p.variant)) ++media;
  }
  return media <= 1;
}

MigValidation validate_layout(const MigGeometry& g, std::span<const int> counts) {
  MigValidation result;
  if (instance_count(counts) == 0) {
    result.reason = "empty layout: name at least one profile";
    return result;
  }
  result.reason = quick_rejection(g, counts);
  if (!result.reason.empty()) return result;

  Search search{g, {}, {}, {}, -1};
  for (size_t i = 0; i < counts.size(); ++i) {
    for (int k = 0; k < counts[i]; ++k) search.order.push_back(static_cast<int>(i));
  }
  // Most constrained first: bigger footprints, then fewer allowed starts.
  std::stable_sort(search.order.begin(), search.order.end(), [&](int a, int b) {
    const MigProfile& pa = g.profiles[a];
    const MigProfile& pb = g.profiles[b];
    if (pa.memory_slices != pb.memory_slices) return pa.memory_slices > pb.memory_slices;
    if (pa.placement_starts.size() != pb.placement_starts.size())
      return pa.placement_starts.size() < pb.placement_starts.size();
    return a < b;
  });
  if (search.place(0, 0)) {
    result.valid = true;
    result.instances = std::move(search.placed);
    sort_creation_order(g, result.instances);
    return result;
  }
  const MigProfile& failed = g.profiles[search.deepest_failed];
  std::string starts;
  for (int s : failed.placement_starts) starts += (starts.empty() ? "" : ",") + std::to_string(s);
  result.reason = "no room for " + failed.name + " (allowed placements {" + starts + "}:" +
                  std::to_string(failed.memory_slices) + ")";
  if (!search.deepest_placed.empty()) {
    std::string placed;
    for (const auto& inst : search.deepest_placed) placed += (placed.empty() ? "" : ", ") + format_instance(g, inst);
    result.reason += " once " + placed + " are placed";
  }
  result.reason += "; no arrangement of " + describe_layout(g, counts) + " fits";
  return result;
}

}  // namespace gpupack
