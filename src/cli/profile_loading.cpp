#include "cli/profile_loading.hpp"

#include <filesystem>

#include "cli/profile_model_inputs.hpp"
#include "core/errors.hpp"
#include "io/input_file.hpp"
#include "measure/workload_profile.hpp"

namespace gpupack {

namespace {

// Reads the profile at `path` into `w` (cli/profile_model_inputs.hpp applies it).
void load_profile(const Filesystem& fs, const std::string& path, const GpuCatalog& catalog,
                  const ModelParameters& parameters, Workload& w) {
  const std::string text = read_input_file(fs, path);
  try {
    // The strict reader the fuzz target fuzzes (fuzz/workload_profile_fuzz.cpp): range-checked fields.
    apply_profile(w, measure::read_workload_profile(text, path), path, catalog, parameters);
  } catch (const std::exception& e) {  // InputError, or the co-location grid's std::runtime_error
    throw InputError(path + ": not a gpupack workload profile (docs/profile.md): " + e.what());
  }
}

// An entry without a profile must state what a profile would have filled (docs/workloads.md).
void require_memory_and_compute(const Workload& w, const std::string& scenario_file, const std::string& profiles_dir) {
  const char* missing = w.memory_bytes == 0 ? "memory" : w.compute <= 0 ? "compute" : nullptr;
  if (!missing) return;
  throw InputError((scenario_file.empty() ? std::string("the scenario") : scenario_file) + ": workload '" + w.name +
                   "' needs '" + missing + "', or a profile that supplies it: 'profile: FILE' or " +
                   (profiles_dir.empty() ? std::string("--profiles DIR with DIR/") : profiles_dir + "/") + w.name +
                   ".json");
}

}  // namespace

void attach_profiles(const Filesystem& files, Scenario& scenario, const std::string& scenario_file,
                     const std::string& profiles_dir, const GpuCatalog& catalog, const ModelParameters& parameters) {
  namespace fs = std::filesystem;  // paths joined lexically; the files themselves are read through `files`
  if (!profiles_dir.empty() && !files.stat(profiles_dir).is_dir) {
    throw InputError("--profiles " + profiles_dir + ": not a directory (give the folder of `gpupack profile` JSON files)");
  }
  const fs::path base = scenario_file.empty() ? fs::path() : fs::path(scenario_file).parent_path();
  for (Workload& w : scenario.workloads) {
    std::string path;
    if (w.profile_path) {
      path = (base / *w.profile_path).string();
    } else if (!profiles_dir.empty()) {
      const std::string candidate = (fs::path(profiles_dir) / (w.name + ".json")).string();
      const FileInfo f = files.stat(candidate);
      if (f.exists && !f.is_dir) path = candidate;
    }
    if (path.empty()) {
      require_memory_and_compute(w, scenario_file, profiles_dir);
      continue;
    }
    load_profile(files, path, catalog, parameters, w);
  }
}

}  // namespace gpupack
