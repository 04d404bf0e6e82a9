#pragma once
// What the model predicts for one client of a slice (model/prediction.hpp), and the steps it took as data:
// the prose the plan shows is made from them by explain_outcome (model/prediction_notes.hpp), not while
// the packer asks the model hundreds of thousands of times per plan.
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "core/observed_correction.hpp"

namespace gpupack {

// One step of a prediction worth a note; `x` and `n` hold its figures in the order explain_outcome reads.
struct ModelNote {
  enum class Kind {
    cap_below_activity,  // n: cap; x: SM activity, share kept
    cap_below_curve,     // n: cap, the curve's lowest point; x: share of SMs needed, share kept; flag: need < lowest
    curve_at_cap,        // n: cap
    curve_highest,       // n: the curve's highest point
    gpu_not_in_catalog,
    gpu_scaled,          // n: SMs measured, SMs here; x: bandwidth here, measured, memory-bound share, SM activity,
                         // speed; flag: bandwidth known
    grid_beyond,         // n: K rounded, the grid's largest K; x: the worst copy's p99 / the median's (0: not
                         // known), K (fractional where neighbours of other kinds count by their busy time);
                         // flag: neighbours of other kinds
    grid_cell,           // n: K rounded; x, flag: as grid_beyond
    contention,          // x: SM pressure, DRAM, bursts, contention, exposed share, memory queueing, slowdown
    curve_kernel_stretch,  // x: the share of the SMs its kernels get (%), their stretch there, the contention;
                           // n: the SM-share curve's segment read; flag: below the curve's lowest point
    launch_path,         // n: clients; x: slowdown, cost per other client; flag: the cost from its own MPS grid
    launch_within_noise,  // x: the share a copy of its MPS grid kept, its slowest baseline run's; n: the grid's K
    tail_capped,         // x: tail alone / mean, tail beside neighbours / mean; flag: its own excess binds
    core_wait,           // n: client processes, on this slice; x: host cores, wait in ms; flag: measured by the
                         // grid, then x also: ms per copy, the grid host's cores, its K within and past them
    synthetic_slowdown,  // x: slowdown
    baseline,            // the alone baseline it rests on (a profile with one); flag: the MPS 100% baseline
    observed,            // corrected by what verify measured; x: p99 factor applied (0: none), req/s factor applied
                         // (0: none); flag: a faster factor left out (ClientOutcome::observed_unseen)
    grid_rate,           // x: the grid's req/s a copy at the processes, its largest K; n: processes
    grid_tail,           // x: the grid's median copy p99 at the processes, its largest K; n: processes;
                         // flag: beyond the largest K (extrapolated)
    grid_gpu_demand,     // x: the share of the GPU a copy needs, its SM activity alone, the copies' plateau req/s;
                         // n: the last K that grew, the K where it did not
    dram_measured,       // x: others' DRAM draw, the req/s and p99 residuals there, the largest draw measured
                         // beside; flag: the draw is beyond it (the last residual carried flat); n: 1 where the
                         // cell read was pooled with one at a larger draw that lost less
    saturation_wait,     // x: others' SM activity (their caps able to hold every SM), the wait in ms a request, the
                         // wait per unit of SM activity (share of a request alone), the neighbour SM activity
                         // measured, the SMs' overload it is carried on (contention::sm_overload); flag: more
                         // SM activity beside it than measured
    saturation_tail,     // x: its p99 less its mean request (ms) and its p99 / its mean request in its profile's
                         // cell beside a neighbour filling the SMs, the req/s that leaves at the predicted p99,
                         // the req/s before
  };
  Kind kind = Kind::curve_at_cap;
  std::array<double, 7> x{};
  std::array<int, 2> n{};
  bool flag = false;
};

inline constexpr std::string_view kProfileSource = "profile";
inline constexpr std::string_view kSyntheticSource = "synthetic";

struct ClientOutcome {
  double inflation = 1.0;             // predicted p99 / p99 alone: what the SLO check reads
  // Copies of one workload from its grid: the worst copy's p99 over the median copy's (p99_ms), which the
  // inflation the SLO check reads includes (model/profile_alone.hpp, from_grid); 1 otherwise.
  double worst_copy_ratio = 1.0;
  std::optional<double> p99_ms;       // none without a profile, an SLO and p99_alone_ms
  std::optional<double> req_per_s;    // per replica; none without a profile
  std::optional<double> host_cores;   // per replica, at its predicted req/s; none without the profile's host CPU
  std::string_view source = kSyntheticSource;  // kProfileSource or kSyntheticSource
  bool extrapolated = false;          // outside what was measured (more copies, a cap below the curve, another GPU)
  std::vector<ModelNote> notes;       // the steps worth a note, in the order taken
  // The correction by observation (`plan --observed`); null without one. Points into the client's
  // Workload::observed.
  const ObservedCorrection* observed = nullptr;
  // Its factors multiplied in. A factor that makes the client faster (p99 below 1, req/s above 1) is left
  // out where the slice holds workloads that were not beside it when verify measured it (observed_unseen).
  std::optional<double> observed_p99, observed_req;
  std::vector<std::string> observed_unseen;
};

}  // namespace gpupack
