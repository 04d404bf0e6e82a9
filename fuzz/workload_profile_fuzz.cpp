// libFuzzer target: any bytes as a workload profile JSON (src/measure/workload_profile.hpp, what
// `gpupack profile -o` writes and `gpupack plan` reads). Through read_workload_profile, the very reader
// the CLI runs (cli/profile_loading.cpp: the strict JSON reader, then every field type- and range-checked),
// and its co-location grid through the grid's reader as plan reads it: a profile or an InputError (the
// grid: std::runtime_error), nothing else, and under UBSan no value converted out of its type's range. An
// accepted profile writes back to JSON that reads to the same document, and its plan entry is produced.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "core/errors.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/workload_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpupack::measure::WorkloadProfile profile;
  try {
    profile = gpupack::measure::read_workload_profile(text, "fuzz.json");
  } catch (const gpupack::InputError&) {
    return 0;
  }
  const std::string once = gpupack::measure::profile_to_json(profile).dump();
  const std::string twice =
      gpupack::measure::profile_to_json(gpupack::measure::read_workload_profile(once, "once.json")).dump();
  if (once != twice) {
    std::fprintf(stderr, "workload_profile_fuzz: the profile does not round-trip\n%s\n%s\n", once.c_str(),
                 twice.c_str());
    std::abort();
  }
  (void)gpupack::measure::plan_entry_yaml(profile);
  if (profile.colocation) {
    try {
      (void)gpupack::measure::colocation_grid_from_json(*profile.colocation);
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}
