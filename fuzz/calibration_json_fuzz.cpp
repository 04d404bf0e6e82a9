// libFuzzer target: any bytes as a calibration JSON (gpupack plan --calibration). The reader must return a
// calibration whose every value is within what its field can be, or throw InputError; nothing else.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "io/calibration_json.hpp"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "calibration_json_fuzz: accepted %s\n", what);
    std::abort();
  }
}
bool ratio(double v) { return std::isfinite(v) && v >= 0.95 && v <= 1000; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpupack::Calibration c;
  try {
    c = gpupack::parse_calibration_json(text, "fuzz.json");
  } catch (const gpupack::InputError&) {
    return 0;
  }
  require(ratio(c.timeslicing_p99_inflation) && ratio(c.mps_p99_inflation), "an impossible inflation");
  for (size_t i = 0; i < 3; ++i) {
    require(ratio(c.mps_capped_p99_inflation[i]), "an impossible capped inflation");
    require(ratio(c.timeslicing_slowdown[i]) && ratio(c.mps_slowdown[i]), "an impossible slowdown");
    const double f = c.mps_capped_neighbour_throughput[i];
    require(std::isfinite(f) && f > 0 && f <= 1.05, "an impossible throughput fraction");
  }
  return 0;
}
