// `gpupack plan [file.yaml] [--gpu MODEL] [--format table|json|yaml] [-o FILE] [--explain]
//  [--calibration bench.json] [--strict]`: choose modes, MIG layouts and limits and pack the workloads.
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "io/input_file.hpp"
#include "cli/plan_progress.hpp"
#include "cli/plan_views.hpp"
#include "cli/profile_loading.hpp"
#include "cli/render_command.hpp"
#include "contract/plan_json.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "io/calibration_json.hpp"
#include "io/default_scenario.hpp"
#include "io/scenario_yaml.hpp"
#include "planner/planner.hpp"
#include "planner/profile_prediction.hpp"

namespace gpupack {

namespace {

struct PlanArgs {
  std::string file;
  std::string gpu;
  OutputFormat format = OutputFormat::table;
  std::string output;
  bool explain = false;
  std::string calibration;
  std::string profiles;  // --profiles DIR: workload profiles matched by name
  bool strict = false;
  std::string render_dir;  // --render DIR: also render the plan's files (gpupack render)
  std::string render_targets = "all";
  bool force = false;
};

Scenario load_scenario(const PlanArgs& args, const Filesystem& fs, const GpuCatalog& catalog) {
  Scenario s = args.file.empty() ? parse_scenario_yaml(default_scenario_yaml(), kDefaultScenarioName, catalog)
                                 : parse_scenario_yaml(read_input_file(fs, args.file), args.file, catalog);
  if (!args.gpu.empty()) {
    // --gpu replaces the fleet: as many GPUs of that model as the plan needs.
    FleetEntry f;
    f.model = catalog.get(args.gpu);
    s.fleet = {f};
    s.elastic = true;
  } else if (s.fleet.empty()) {
    throw InputError((args.file.empty() ? std::string("the scenario") : args.file) +
                     " has no 'fleet'; add one or pass --gpu MODEL");
  }
  attach_profiles(fs, s, args.file, args.profiles, catalog);
  return s;
}

int run_plan(const CommandContext& ctx, const PlanArgs& args) {
  std::ostream& out = ctx.out;
  const GpuCatalog& catalog = ctx.catalog;
  const Scenario scenario = load_scenario(args, ctx.env.fs, catalog);
  PlanOptions options;
  if (!args.calibration.empty()) {
    options.calibration = parse_calibration_json(read_input_file(ctx.env.fs, args.calibration), args.calibration);
  }
  PlanProgress progress(std::cerr, ctx.env.clock, ::isatty(2) != 0);
  options.progress = [&progress](const std::string& what, int done, int total) { progress.step(what, done, total); };
  Plan plan = make_plan(scenario, options);
  add_predictions(scenario, plan);
  const std::vector<ModeOutcome> comparison = compare_modes(scenario, plan, options);
  progress.finish();
  PlanDocument document = plan_document(scenario, plan, comparison, options.calibration);
  if (!args.render_dir.empty()) {
    // Rendered first: a plan whose names cannot be rendered fails before any output is written.
    check_plan_document(document, catalog);
    render_plan_to_dir(ctx, document, args.render_targets, args.render_dir, args.force, {args.file, args.calibration});
  }
  // The plan's text, held once: the JSON of 10,000 replicas is 12 MB, not worth a second copy in a stream.
  std::string text;
  if (args.format == OutputFormat::json) {
    text = plan_json_text(document);
    text += '\n';
  } else if (args.format == OutputFormat::yaml) {
    text = json_to_yaml(Json::parse(plan_json_text(document)));
  } else {
    std::ostringstream table;
    print_plan_table(table, scenario, plan, comparison, args.explain);
    text = std::move(table).str();
  }
  if (args.output.empty()) {
    out << text;
  } else {
    write_output_file(ctx.env.fs, args.output, text);  // atomically: a failed run leaves no partial plan
    out << "wrote " << args.output << ": " << plan.summary.gpus_used << " GPUs, " << plan.unplaced.size()
        << " replicas unplaced\n";
  }
  return args.strict && !plan.unplaced.empty() ? exit_code::negative : exit_code::ok;
}

}  // namespace

void register_plan_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "Choose the sharing mode, MIG layout and limits per GPU and pack the workloads (no file: the "
              "embedded 40-models-on-one-A100 scenario)");
  cmd->add_option("file", args->file, "Scenario YAML (docs/workloads.md)");
  cmd->add_option("--gpu", args->gpu, "Plan on as many GPUs of this model as needed (replaces the file's fleet)");
  add_format_option(*cmd, args->format, {"table", "json", "yaml"});
  cmd->add_option("-o,--output", args->output, "Write the output to this file (atomically) instead of stdout");
  cmd->add_flag("--explain", args->explain, "Per GPU: what each rejected mode would break, and every client");
  cmd->add_option("--calibration", args->calibration,
                  "JSON from `gpupack bench --json FILE`: replaces the performance model's constants");
  cmd->add_option("--profiles", args->profiles,
                  "Folder of workload profiles (`gpupack profile --json`): DIR/<workload name>.json is that "
                  "workload's profile unless its entry names one");
  cmd->add_flag("--strict", args->strict, "Exit 1 when some replica could not be placed");
  cmd->add_option("--render", args->render_dir, "Also render the plan's deploy files into this directory (gpupack render)");
  cmd->add_option("--target", args->render_targets, "With --render: the targets (default all; see gpupack render)")
      ->default_str("all");
  cmd->add_flag("--force", args->force, "With --render: replace an existing directory");
  cmd->callback([&ctx, args] { ctx.action = [&ctx, args] { return run_plan(ctx, *args); }; });
}

}  // namespace gpupack
