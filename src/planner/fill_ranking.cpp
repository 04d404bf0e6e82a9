#include "planner/fill_ranking.hpp"

#include <algorithm>

namespace gpupack::packer {

InstanceFill FillRanking::fill(const Table& t, std::size_t c, const std::vector<int>& left) const {
  return t.profile == kWholeGpu ? filler_.fill_whole(t.gpu, candidates_[c], left)
                                : filler_.fill_instance(t.gpu, t.profile, candidates_[c], left);
}

FillRanking::Table& FillRanking::table(int gpu, int profile, const std::vector<int>& left) {
  const int entry = filler_.ctx().gpus()[static_cast<std::size_t>(gpu)].entry;
  // A node the NVIDIA plugin's sharing gives to one tenant fills differently from the entry's others.
  auto [it, fresh] = tables_.try_emplace({entry, filler_.ctx().node_tenant(gpu), profile});
  Table& t = it->second;
  if (fresh) {
    t.gpu = gpu;
    t.profile = profile;
    t.fills.reserve(candidates_.size());
    for (std::size_t c = 0; c < candidates_.size(); ++c) {
      t.fills.push_back(fill(t, c, left));
      t.ranked.emplace(t.fills.back().score, c);
    }
  }
  return t;
}

std::optional<FillRanking::Best> FillRanking::best(int gpu, int profile, const std::vector<std::size_t>& skip,
                                                   const std::vector<int>& left) {
  const Table& t = table(gpu, profile, left);
  for (const auto& [score, c] : t.ranked) {
    if (score <= 0) break;
    if (std::find(skip.begin(), skip.end(), c) == skip.end()) return Best{&t.fills[c], c};
  }
  return std::nullopt;
}

void FillRanking::refresh(std::size_t c, const std::vector<int>& left) {
  for (auto& [key, t] : tables_) {
    t.ranked.erase({t.fills[c].score, c});
    t.fills[c] = fill(t, c, left);
    t.ranked.emplace(t.fills[c].score, c);
  }
}

}  // namespace gpupack::packer
