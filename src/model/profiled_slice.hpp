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
#include "model/model_parameters.hpp"

namespace gpupack {

// A replica the profile model can judge: its profile has GPM SM activity and it runs as its own process
// (no group: replicas sharing a process are not what the profile measured).
bool judged_by_profile(const Workload& w);

// The p99 a client's SLO is measured against: its stated p99 alone, else its profile's, else the SLO's p99_alone_share_of_slo (half).
double p99_alone_ms(const Workload& w, const ModelParameters& m);

// Whether a slice's clients may together exceed its share of the SMs: all judged by their profiles and at
// least one with an SLO (clients without one accept the contention, which their predictions show).
bool may_oversubscribe(const std::vector<const Workload*>& clients);

}  // namespace gpupack
