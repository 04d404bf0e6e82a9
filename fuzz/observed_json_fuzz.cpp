// libFuzzer target: any bytes as `gpupack plan --observed FILE` (verify's JSON fed back, the closed loop).
// The reader must return replicas each on a slice it lists with that replica's workload among the slice's,
// each with at least one measured / predicted ratio, every ratio finite and positive (the plan multiplies
// them into its predictions), or throw InputError; nothing else.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/errors.hpp"
#include "io/observed_json.hpp"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "observed_json_fuzz: %s\n", what);
    std::abort();
  }
}

bool usable(const std::optional<double>& r) { return !r || (std::isfinite(*r) && *r > 0); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpupack::ObservedFile f;
  try {
    f = gpupack::parse_observed_json(text, "fuzz.json");
  } catch (const gpupack::InputError&) {
    return 0;
  }
  for (const gpupack::ObservedReplica& r : f.replicas) {
    const auto slice = f.slice_workloads.find(r.slice);
    require(slice != f.slice_workloads.end(), "a replica on a slice without its workloads");
    require(slice->second.count(r.workload) == 1, "a replica's workload missing from its slice");
    require(r.p99_ratio || r.req_ratio, "a replica without a ratio");
    require(usable(r.p99_ratio) && usable(r.req_ratio), "a ratio that is not a finite positive number");
  }
  return 0;
}
