// libFuzzer target: any bytes as a workload profile JSON (src/measure/workload_profile.hpp, what
// `gpupack profile -o` writes and the planner reads). Through the one JSON reader of user documents,
// then the profile reader: a profile or an InputError, nothing else; an accepted profile writes back to
// JSON that reads to the same document, and its plan entry is produced or refused with an InputError.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "io/json_document.hpp"
#include "measure/workload_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpupack::measure::WorkloadProfile profile;
  try {
    profile = gpupack::measure::profile_from_json(gpupack::parse_json_document(text, "fuzz.json"));
  } catch (const gpupack::InputError&) {
    return 0;
  }
  const std::string once = gpupack::measure::profile_to_json(profile).dump();
  const std::string twice =
      gpupack::measure::profile_to_json(gpupack::measure::profile_from_json(nlohmann::json::parse(once))).dump();
  if (once != twice) {
    std::fprintf(stderr, "workload_profile_fuzz: the profile does not round-trip\n%s\n%s\n", once.c_str(), twice.c_str());
    std::abort();
  }
  try {
    (void)gpupack::measure::plan_entry_yaml(profile);
  } catch (const gpupack::InputError&) {
  }
  return 0;
}
