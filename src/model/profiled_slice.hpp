#pragma once
// MPS slices judged by the workloads' own profiles rather than the synthetic model (docs/decisions.md,
// "Packing from profiles"). The synthetic model reads a slice's SLOs from its clients' summed thread caps,
// so caps summing past 100% look like an uncapped neighbour (p99 x10 on the bench's GEMM) and a profiled
// launch-bound client that keeps 6% of the SMs busy still counts its planned compute against the GPU: an
// H100 held 10 resnet18-b1 replicas within their SLO beside a GEMM job where such a plan placed 4. When
// every client of an MPS slice has a profile with GPM SM activity, the profile model decides: each SLO
// client's predicted p99 (the SM-share curve at its cap, slowed by the slice's summed measured activity)
// must stay within its SLO, and the slice's summed compute may then exceed its share of the SMs as long as
// it holds at least one SLO client, whose SLO bounds the contention. The packer and the plan checker both
// call this, so a plan and its check agree.
#include <optional>
#include <vector>

#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/profile_prediction.hpp"

namespace gpupack {

// A replica the profile model can judge: its profile has GPM SM activity and it runs as its own process
// (no group: replicas sharing a process are not what the profile measured).
bool judged_by_profile(const Workload& w);

// The p99 a client's SLO is measured against: its stated p99 alone, else its profile's, else the SLO's p99_alone_share_of_slo (half).
double p99_alone_ms(const Workload& w, const ModelParameters& m);

// What the profile model says of an MPS slice whose clients are all judged by their profiles.
struct ProfiledSliceJudgement {
  // Predicted p99 / p99 alone per client; a client whose profile has no p99 keeps its `synthetic_inflation`.
  std::vector<double> inflation;
  // The host CPU cores its clients use at their predicted req/s (those whose profiles measured host CPU):
  // what counts against the node's cpu_cores (`slice.host_cores`).
  double host_cores = 0;
};
// `clients[i].cap_pct` must be set.
ProfiledSliceJudgement judge_profiled_slice(SliceCapacity slice, const std::vector<PredictionInput>& clients,
                                            const ModelParameters& m);

// Whether a slice's clients may together exceed its share of the SMs: all judged by their profiles and at
// least one with an SLO (clients without one accept the contention, which their predictions show).
bool may_oversubscribe(const std::vector<const Workload*>& clients);

}  // namespace gpupack
