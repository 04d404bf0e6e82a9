#pragma once
// The pressure a program puts on its launch-bound neighbours, from its profile's `launch_pressure` grid: the
// reporter (`gpupack neighbour --kind reporter`, 32 short kernels a request, each of which starts only where
// other programs' blocks have left room on the SMs) alone, then beside one copy of the program at 100% of
// the threads. Its request's growth is what the program's blocks cost a launch-bound neighbour's kernels,
// which the program's SM activity does not tell: beside the triad (SM active 0.95) the reporter's request
// grew 0.15 ms, beside resnet50-b32 0.22 ms, beside bert-base-b4 0.04 ms, beside FMA blocks that hold every
// SM's threads 0.38 ms 4.5 ms (results/run76-neighbour-pressure-h200). Pure.
#include <optional>

#include "measure/colocation_grid.hpp"

namespace gpupack::measure {

struct LaunchPressure {
  double alone_ms = 0;   // the reporter's mean request alone (1 / its req/s: it sends them back to back)
  double beside_ms = 0;  // the same beside one copy of the program
  double added_ms() const { return beside_ms - alone_ms; }  // can be below 0 by noise
};

// From the grid's cell of the reporter alone (K=0) and the cell beside the program (K=1, uncapped); none when
// either is missing, failed or has no req/s of the reporter.
std::optional<LaunchPressure> launch_pressure(const ColocationGrid& grid);

}  // namespace gpupack::measure
