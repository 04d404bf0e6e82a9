// libFuzzer target: any bytes as `gpupack model replay MANIFEST` (a manifest of recorded verify runs). The
// reader must return runs whose every field is set, whose paths stay below the root and whose dirs differ,
// or throw InputError; nothing else.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>

#include "core/errors.hpp"
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
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
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
