#include "measure/launch_pressure.hpp"

namespace gpupack::measure {

namespace {
// The reporter's mean request (ms) in the cell of the grid with `k` copies of the program, uncapped.
std::optional<double> reporter_ms(const ColocationGrid& grid, int k) {
  for (const GridCell& c : grid.cells) {
    if (c.k != k || !c.with_neighbour || c.neighbour_cap || !c.error.empty() || !c.neighbour) continue;
    const auto& rate = c.neighbour->req_per_s;
    if (rate && *rate > 0) return 1000.0 / *rate;
  }
  return std::nullopt;
}
}  // namespace

std::optional<LaunchPressure> launch_pressure(const ColocationGrid& grid) {
  const auto alone = reporter_ms(grid, 0), beside = reporter_ms(grid, 1);
  if (!alone || !beside) return std::nullopt;
  return LaunchPressure{*alone, *beside};
}

}  // namespace gpupack::measure
