// `gpupack model replay`: every run of a manifest of recorded verify runs (results/model-runs.json) predicted
// again with the built-in or a file's model parameters and compared with what verify measured there
// (docs/model-parameters.md, "Replay and fit"). scripts/fit-model.py fits the model's constants through it.
#include <filesystem>
#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "cli/model_replay.hpp"
#include "cli/profile_loading.hpp"
#include "core/errors.hpp"
#include "core/exit_codes.hpp"
#include "io/input_file.hpp"
#include "io/model_parameters_json.hpp"
#include "io/scenario_yaml.hpp"
#include "verify/model_replay_json.hpp"

namespace gpupack {

namespace {

struct ReplayArgs {
  std::string manifest;
  std::string model;  // --model FILE; empty: the built-in parameters
  std::string set = "all";
  std::string root;   // --root DIR; empty: the parent of the manifest's folder
  OutputFormat format = OutputFormat::table;
};

// The manifest's paths are relative to the repository root; results/model-runs.json sits one folder below it.
std::string default_root(const std::string& manifest) {
  const std::filesystem::path parent = std::filesystem::path(manifest).parent_path().parent_path();
  return parent.empty() ? "." : parent.string();
}

int replay(CommandContext& ctx, const ReplayArgs& args) {
  const ModelParameters m =
      args.model.empty() ? ModelParameters{} : parse_model_input(read_input_file(ctx.env.fs, args.model), args.model);
  const verify::RunManifest manifest =
      verify::parse_run_manifest(read_input_file(ctx.env.fs, args.manifest), args.manifest);
  const std::string root = args.root.empty() ? default_root(args.manifest) : args.root;
  if (!ctx.env.fs.stat(root).is_dir) throw InputError("--root " + root + ": not a directory (give the repository root)");
  const verify::ReplayInputs in{ctx.env.fs, root, verify::parse_run_set(args.set), m,
                                [&](const std::string& path, const std::string& profiles) {
                                  return load_replay_scenario(ctx.env.fs, ctx.catalog, m, path, profiles);
                                }};
  const verify::ReplayReport report = verify::replay_runs(manifest, in);
  if (report.runs.empty()) throw InputError(args.manifest + ": no run in the set " + args.set);
  if (args.format == OutputFormat::json) {
    const verify::ReplaySource source{args.manifest, root, args.set, args.model.empty() ? "built-in" : args.model};
    ctx.out << verify::replay_json(report, source, m).dump(2) << '\n';
  } else {
    print_replay_table(ctx.out, report);
  }
  return exit_code::ok;
}

}  // namespace

Scenario load_replay_scenario(const Filesystem& fs, const GpuCatalog& catalog, const ModelParameters& m,
                              const std::string& path, const std::string& profiles_dir) {
  Scenario s = parse_scenario_yaml(read_input_file(fs, path), path, catalog);
  for (Workload& w : s.workloads) w.profile_path.reset();  // the manifest's profiles, found by name
  attach_profiles(fs, s, path, profiles_dir, catalog, m);
  return s;
}

void add_model_replay_command(CLI::App& model, CommandContext& ctx) {
  auto args = std::make_shared<ReplayArgs>();
  auto* cmd = model.add_subcommand(
      "replay", "Predict every recorded verify run of a manifest again and print the errors per run, workload and set");
  cmd->add_option("manifest", args->manifest, "Manifest of recorded runs (results/model-runs.json)")->required();
  cmd->add_option("--model", args->model, "Model parameters file to predict with (default: the built-in parameters)");
  cmd->add_option("--set", args->set, "Which runs: in-sample, held-out, corpus or all (default all)")
      ->check(CLI::IsMember({"in-sample", "held-out", "corpus", "all"}));
  cmd->add_option("--root", args->root,
                  "Folder the manifest's paths are relative to (default: the parent of the manifest's folder)");
  add_format_option(*cmd, args->format, {"table", "json"});
  cmd->callback([&ctx, args] { ctx.action = [&ctx, args] { return replay(ctx, *args); }; });
}

}  // namespace gpupack
