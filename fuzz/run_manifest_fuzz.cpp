// libFuzzer target: any bytes as `gpupack model replay MANIFEST` (a manifest of recorded verify runs). The
// reader must return runs whose every field is set, whose paths stay below the root and whose dirs differ,
// or throw InputError; nothing else. The same bytes as what the replay reads of each run
// (verify/recorded_run.hpp): a plan's slice clients, a verify report's replicas and its slice's SM activity,
// each returned within its bounds or refused with InputError.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>

#include "core/errors.hpp"
#include "verify/recorded_run.hpp"
#include "verify/run_manifest.hpp"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "run_manifest_fuzz: %s\n", what);
    std::abort();
  }
}

bool below_root(const std::string& path) {
  const std::filesystem::path p(path);
  for (const auto& part : p) {
    if (part == "..") return false;
  }
  return !path.empty() && !p.is_absolute();
}

// The readers of one recorded run: what they return is within its bounds, or they throw InputError.
void recorded_run(std::string_view text) {
  try {
    for (const auto& c : gpupack::verify::recorded_slice_clients(text, "plan.json")) {
      require(!c.workload.empty() && c.replicas >= 1 && c.cap_pct >= 1 && c.cap_pct <= 100, "accepted a client out of bounds");
    }
  } catch (const gpupack::InputError&) {
  }
  try {
    for (const auto& r : gpupack::verify::recorded_replicas(text, "verify.json")) {
      require(r.req_per_s > 0 && r.p99_ms > 0, "accepted a replica without positive figures");
    }
  } catch (const gpupack::InputError&) {
  }
  try {
    const auto a = gpupack::verify::recorded_sm_active(text, "verify.json");
    require(!a || (*a >= 0 && *a <= 1), "accepted an SM activity outside 0..1");
  } catch (const gpupack::InputError&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  recorded_run(text);
  gpupack::verify::RunManifest m;
  try {
    m = gpupack::verify::parse_run_manifest(text, "fuzz.json");
  } catch (const gpupack::InputError&) {
    return 0;
  }
  require(!m.runs.empty(), "accepted a manifest without runs");
  require(below_root(m.profiles), "accepted a profiles folder outside the root");
  std::set<std::string> dirs;
  for (const auto& run : m.runs) {
    require(below_root(run.dir) && below_root(run.scenario), "accepted a path outside the root");
    require(!run.gpu.empty() && !run.machine.empty(), "accepted an empty field");
    require(gpupack::verify::parse_run_set(gpupack::verify::run_set_name(run.set)) == run.set, "a set has no name");
    require(dirs.insert(run.dir).second, "accepted a dir twice");
  }
  return 0;
}
