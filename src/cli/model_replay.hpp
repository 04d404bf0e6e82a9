#pragma once
// `gpupack model replay MANIFEST [--model FILE] [--set in-sample|held-out|corpus|all] [--root DIR]
// [--format table|json]`: the model's predictions against recorded verify runs (verify/model_replay.hpp).
// Here: the scenario loader (profiles attached as `gpupack plan --profiles` does) and the table for people.
#include <iosfwd>
#include <string>

#include "core/gpu_catalog.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"
#include "verify/model_replay.hpp"

namespace CLI {
class App;
}

namespace gpupack {

class Filesystem;
struct CommandContext;

// The scenario at `path`, each workload's profile read from `profiles_dir`/<workload>.json instead of the
// file its entry names (a replay predicts every run from one set of recorded profiles).
Scenario load_replay_scenario(const Filesystem& fs, const GpuCatalog& catalog, const ModelParameters& m,
                              const std::string& path, const std::string& profiles_dir);

// One line per run and workload (its errors' ranges), then one per set and workload (worst, mean and the
// share within issue 15's targets).
void print_replay_table(std::ostream& out, const verify::ReplayReport& report);

// Adds `replay` to `gpupack model`.
void add_model_replay_command(CLI::App& model, CommandContext& ctx);

}  // namespace gpupack
