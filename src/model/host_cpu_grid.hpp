#pragma once
// What a profile's MPS co-location grid measured of the host CPU (issue 37; docs/decisions.md, "Host CPU"):
// how many copies the profiling host's cores drive (the knee) and how much the copies' p99 grows per copy
// past those cores (the wait for a core). Only grids whose points carry the copies' host cores and the
// host's core count (`gpupack profile --grid` since 2026-11-27) measure them; profiles without such a grid
// keep the rules from the profile alone (its cores at the predicted req/s, the fitted `core_wait_ms`).
// Pure.
#include <optional>

#include "core/profile_facts.hpp"

namespace gpupack {

// The knee: up to `knee_k` copies the aggregate req/s grew; at `past_k`, the next K measured, it did not,
// and the copies kept the cores full. The host's cores, not the GPU, bound the copies there: they drive
// `copies` copies, `cores / copies` host cores each, whatever the GPU's partitioning.
struct HostCpuKnee {
  double cores = 0;              // the cores the copies shared (usable, else online)
  int knee_k = 0;
  int past_k = 0;
  double knee_req_per_s = 0;     // aggregate at knee_k
  double past_req_per_s = 0;     // aggregate at past_k
  double past_cores_used = 0;    // the host cores all copies used at past_k
  // The copies the cores drive: knee_k, or more where the full cores' aggregate at past_k is that many
  // copies at knee_k's rate per copy (a grid of coarse steps, 8 then 24 on 16 cores, finds the knee
  // between them: 546 req/s at 35.6 a copy is 15.3 copies, not 8).
  double copies = 0;
  double cores_per_copy() const { return cores / copies; }
};

// Whether req/s together still grew from `before_k` copies to `at_k`: by at least `growth_share` of what the
// added copies would add at before_k's rate a copy (model parameter host_cpu_knee_growth_share). The rule
// that reads a profile's MPS grid and `verify --search`'s steps alike.
bool still_grew(int before_k, double before_req_per_s, int at_k, double at_req_per_s, double growth_share);

// None where the grid has no MPS points with host cores, never stopped growing, or stopped while the cores
// were not full (the GPU or something else bound it: the profile model's figures judge that).
std::optional<HostCpuKnee> host_cpu_knee(const ProfileFacts& p);

// The same first step that did not grow with the host's cores not full: the GPU bound the copies, and the
// most they served together (the plateau, at that K or any larger) is what the whole GPU serves of this
// program. One copy at its baseline then needs `demand` = its req/s alone / the plateau of the GPU, and its
// requests are all GPU time (a copy gets 1 / (K x demand) of its rate on the plateau). GPM's SM activity
// alone says less where kernels fill part of the SMs at a time: resnet50-b32 was 0.36 active alone on an
// H200, and 4 and 8 copies served 478 and 470 req/s together from 230 alone, a demand of 0.48 (4 of 16
// cores busy, the SMs 0.93 active; results/run46-inference-grid). None where no step stopped growing, where
// the cores were full (host_cpu_knee), where GPM says the GPU was less busy there than the share at which the
// cores count as full (host_cpu_knee_full_cores), where the copies filled the DRAM's bandwidth there (at that
// share: the bandwidth bound them, not the SMs), or where the demand is no more than the SM activity alone.
struct GridGpuDemand {
  double demand = 0;             // share of the GPU one copy at its baseline needs
  double plateau_req_per_s = 0;  // the most the copies served together from grew_to_k on
  int grew_to_k = 0;             // the last K whose req/s together grew
  int flat_at_k = 0;             // the next K measured, where it did not
};
std::optional<GridGpuDemand> grid_gpu_demand(const ProfileFacts& p);

// The share of the SMs its kernels keep busy for the contention terms: its SM activity alone, or its
// grid's GPU demand where that is larger (grid_gpu_demand).
double effective_sm_activity(const ProfileFacts& p);

// The wait for a core: the worst copy's p99 grew `ms_per_copy` per copy from `below_k` (the largest K
// within the cores) to `past_k` (the smallest K past them), beyond what it grew per copy below the cores.
struct MeasuredCoreWait {
  double cores = 0;        // the profiling host's cores the copies shared
  int below_k = 0;
  int past_k = 0;
  int largest_k = 0;       // the grid's largest K: waits for more processes are extrapolated
  double ms_per_copy = 0;
  // The wait with `processes` client processes on `node_cores` cores (processes > node_cores): per process
  // past the cores, scaled by cores / node_cores (a process past the cores takes 1 / node_cores of every
  // other process's turn on a core).
  double wait_ms(int processes, double node_cores) const;
  // Whether `processes` on `node_cores` is what the grid measured: the same cores, no more copies.
  bool measured_at(int processes, double node_cores) const;
};

// None where the grid has no MPS point within and one past the cores, each with host cores and p99.
std::optional<MeasuredCoreWait> measured_core_wait(const ProfileFacts& p);

// The median copy's p99 its MPS grid measured with `processes` copies (linear between the K measured, along
// the last step beyond the largest, `extrapolated` then); none below two processes, without two points, or
// where the grid found no knee of the host's cores (this rule and the next count neighbours of other kinds as
// copies, which holds for the cores every process needs alike, not for the SMs: resnet50-b32's copies
// saturated an H200's SMs at K=4 (0.93 SM active, 4 of 16 cores busy), and beside 4 bert-base-b4 it ran 2x
// the rate its 6 copies had, results/run46-inference-grid).
// What its own copies did is the least a replica beside as many processes can expect: 22 mobilenet-v3-b8
// beside a training job on an H200's 16 cores ran at 15-22 ms where the model alone predicted 10.4 and
// the grid's median copy had 16.5 between K=16 and 24 (results/run42-density).
struct GridTail {
  double p99_ms = 0;
  int k_largest = 0;
  bool extrapolated = false;
};
std::optional<GridTail> grid_median_p99(const ProfileFacts& p, int processes);

// The req/s one copy got in its MPS grid with `processes` copies: the aggregate there (linear between the
// K measured) over the copies; none below two processes, without two points, or beyond the largest K
// (an aggregate past it is not known: it may fall). Past the host's cores the copies take turns on them,
// and the aggregate stops growing (mobilenet-v3-b8: 2774 req/s at 16 copies, 2613 at 24 on 16 cores), which
// the model's per-client slowdowns do not see: 20 copies beside a training job ran at 100-151 req/s each
// where it predicted 172 (results/run42-density).
struct GridRate {
  double req_per_s = 0;
  int k_largest = 0;
};
std::optional<GridRate> grid_per_copy_rate(const ProfileFacts& p, int processes);

// The host cores one replica counts where no prediction gives its rate: the knee's cores per copy where the
// grid measured one, else its profile's cores alone; none without either.
std::optional<double> replica_host_cores(const ProfileFacts& p);

}  // namespace gpupack
