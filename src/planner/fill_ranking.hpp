#pragma once
// Phase 2 of the greedy packer picks, for each slice it tries, the candidate that fills it most. With one
// candidate per tenant, scanning every candidate on every GPU was quadratic (issue 38: 10,000 one-replica
// workloads in separate tenants took over 300 s). A candidate's fill of an empty slice depends only on the
// slice's kind (a whole GPU or a MIG profile, of one fleet entry) and on its own replicas left, so each
// fill is computed once, kept ranked, and computed again only when a commit takes that candidate's
// replicas: each GPU then costs a few lookups and the fills of the few candidates it took.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "planner/packer_parts.hpp"
#include "planner/slice_fill.hpp"

namespace gpupack::packer {

inline constexpr int kWholeGpu = -1;  // the "profile" of a whole GPU's slice

class FillRanking {
 public:
  FillRanking(const SliceFiller& filler, const std::vector<Candidate>& candidates)
      : filler_(filler), candidates_(candidates) {}

  struct Best {
    const InstanceFill* fill = nullptr;
    std::size_t candidate = 0;
  };
  // The candidate that fills an empty slice of `profile` (kWholeGpu: the whole GPU) on `gpu` most, ties to
  // the first listed, leaving out those in `skip`; none when no such candidate places anything. `left`
  // (replicas left per bucket) is used only when the fills of `gpu`'s fleet entry are first computed.
  std::optional<Best> best(int gpu, int profile, const std::vector<std::size_t>& skip,
                           const std::vector<int>& left);

  // Candidate `c`'s replicas changed (a commit took some): its fills are computed again from `left`.
  void refresh(std::size_t c, const std::vector<int>& left);

 private:
  // Higher score first, then the candidate listed first: the order in which a scan would pick.
  struct Order {
    bool operator()(const std::pair<double, std::size_t>& a, const std::pair<double, std::size_t>& b) const {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    }
  };
  struct Table {
    int gpu = 0;  // a GPU of the entry: fills depend on its model, its entry's host cores and its node's tenant
    int profile = kWholeGpu;
    std::vector<InstanceFill> fills;  // per candidate
    std::set<std::pair<double, std::size_t>, Order> ranked;
  };
  InstanceFill fill(const Table& t, std::size_t c, const std::vector<int>& left) const;
  Table& table(int gpu, int profile, const std::vector<int>& left);

  const SliceFiller& filler_;
  const std::vector<Candidate>& candidates_;
  std::map<std::tuple<int, int, int>, Table> tables_;  // by (fleet entry, node's tenant or -1, profile)
};

}  // namespace gpupack::packer
