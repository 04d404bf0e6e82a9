#pragma once
// How much a workload slows beside others that draw the GPU's DRAM bandwidth, from its own profile: the
// cells of `gpupack profile --neighbour-cmd` with a bandwidth-bound neighbour (issue 36, item 3). A STREAM
// triad beside a transformer encoder cut its req/s to 36% on an H100 where the model's DRAM queueing
// (fitted on three programs that draw little bandwidth) predicted a few percent (results/run34-corpus-h100);
// each program's own measurement carries what the model misses there.
//
// What is carried is the residual: the slowdown measured in a cell over the slowdown the model predicts for
// that same cell (the program beside a neighbour holding its cap of the SMs and drawing the cell's DRAM),
// and it multiplies the model's prediction in a mix. As a floor (the measured slowdown at the mix's draw,
// taken where it was slower than the model) it let a mix pass whose SMs the model already counted as
// oversubscribed: on an H200, 3 dlrm-b4096 beside the triad at 30% and a transformer ran at 26% of their
// req/s alone where the floor predicted 34% (results/run39-corpus-h200), because the measured cell's loss to
// the triad's bandwidth came on top of the SMs the three shared.
#include <functional>
#include <optional>

#include "core/profile_facts.hpp"

namespace gpupack {

struct DramResidual {
  double req_factor = 1;       // the measured req/s slowdown over the model's, at the draw (>= 1)
  double p99_factor = 1;       // the measured p99 growth over the model's, at the draw (>= 1)
  double measured_others = 0;  // the largest draw of others the profile measured it beside
  bool beyond = false;         // the others draw more than that: the last point's residual, carried flat
  bool pooled = false;         // the point read had its req/s pooled with a cell at a larger draw that lost less
};

// The model's prediction of the program (alone, uncapped) in one of its profile's neighbour cells: its req/s
// slowdown and p99 growth against alone.
struct DramCellModel {
  double req_factor = 1;
  double p99_factor = 1;
};
using ModelledCell = std::function<DramCellModel(const ProfileDramPoint&)>;

// The residual beside others drawing `others_dram` (0..1 of the bandwidth): through none at no draw and the
// profile's measured points, each the measured factor over `modelled` (at least 1), linear between them in
// the growth of a queue at the DRAM's load (its own draw alone plus the others', rho / (1 - rho));
// beyond the largest measured draw the last point's residual, the model's own DRAM terms growing with the
// draw. The req/s slowdowns measured never fall with the draw: a cell at a larger draw that lost less is pooled
// with the ones below it (their mean); the p99 growths are read as measured. None without a measured point or
// with no draw.
std::optional<DramResidual> measured_dram_residual(const ProfileFacts& p, double others_dram,
                                                   const ModelledCell& modelled);

}  // namespace gpupack
