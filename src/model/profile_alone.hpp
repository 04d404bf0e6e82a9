#pragma once
// One client from its own profile, before its neighbours (docs/decisions.md, "Predictions from profiles"):
// the SM-share curve at its MPS cap, the co-location grid for copies of one workload, and the scaling to
// another GPU's SMs and bandwidth. The pieces model/profile_prediction.cpp combines. Pure.
#include <optional>
#include <string>

#include "core/gpu_model.hpp"
#include "core/plan.hpp"
#include "core/profile_facts.hpp"
#include "model/client_outcome.hpp"

namespace gpupack {

// A client's req/s and p99 (ms) at one step of the prediction.
struct Figures {
  double req = 0;
  std::optional<double> p99;
};

// y at x on the line through (x0, y0) and (x1, y1); y1 where the points coincide.
double lerp_points(double x0, double y0, double x1, double y1, double x);
// Figures in notes: two decimals, whole numbers from 10 up.
std::string note_number(double v);
// The share of a request alone during which its kernels run: its SM activity, or the time any of its kernels
// ran where longer (a narrow kernel keeps few SMs busy for all of its time). Fewer SMs stretch that part,
// not the launch and host time around it (0..1; 0 where neither was measured).
double kernel_exposed_share(const ProfileFacts& p);
// A client `speed` times as fast: req/s up, p99 down.
void scale_figures(Figures& f, double speed);
// The client alone under an MPS cap of `cap` percent (none: uncapped): the SM-share curve where measured,
// scaled to the level of its stated baseline (`mps`: the slice runs MPS, whose baseline is the MPS 100%
// one where measured; model/profile_baseline.hpp). Notes and `extrapolated` go to `out`.
Figures at_cap(const ProfileFacts& p, std::optional<int> cap, bool mps, ClientOutcome& out);
// How much faster the client runs on `slice` than where it was measured (1: the same GPU).
double gpu_speed(const ProfileFacts& p, SliceCapacity slice, ClientOutcome& out);
// The co-location grid's name of a sharing ("mps", "timeslicing").
std::string grid_mode(Sharing s);
// Whether the profile's co-location grid has cells for the sharing.
bool has_grid(const ProfileFacts& p, Sharing sharing);
// K copies of one workload from its co-location grid; none when the grid has no cells for the sharing. K may
// be fractional (neighbours of other kinds counted as copies by their busy time: time-slicing), linear
// between the grid's cells.
std::optional<Figures> from_grid(const ProfileFacts& p, Sharing sharing, double k, ClientOutcome& out);

}  // namespace gpupack
