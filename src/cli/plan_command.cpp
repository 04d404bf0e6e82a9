// `gpupack plan [file.yaml] [--gpu MODEL] [--format table|json|yaml] [-o FILE] [--explain]
//  [--model FILE] [--profiles DIR] [--observed verify.json]... [--strict]`: choose modes, MIG layouts and limits and pack the workloads.
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "io/input_file.hpp"
#include "cli/plan_pipeline.hpp"
#include "cli/plan_progress.hpp"
#include "cli/plan_views.hpp"
#include "cli/render_command.hpp"
#include "contract/plan_json.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"

namespace gpupack {

namespace {

struct PlanArgs {
  std::string file;
  std::string gpu;
  OutputFormat format = OutputFormat::table;
  std::string output;
  bool explain = false;
  std::string model;  // --model FILE (alias --calibration): model parameters or a bench report
  std::string profiles;  // --profiles DIR: workload profiles matched by name
  std::vector<std::string> observed;  // --observed FILE (repeatable): verify JSON fed back (cli/observed_loading.hpp)
  bool strict = false;
  std::string render_dir;  // --render DIR: also render the plan's files (gpupack render)
  std::string render_targets = "all";
  bool force = false;
  bool format_given = false;  // --format on the command line (else -o FILE's extension decides)
  std::string deploy_with = "gpupack-agent";  // the consumer of pools whose entry names none
};

Consumer consumer_option(const std::string& option, const std::string& text) {
  const std::optional<Consumer> c = parse_consumer(text);
  if (!c) throw InputError(option + " '" + text + "' is not a consumer; accepted: " + std::string(kConsumerNames));
  return *c;
}

// `-o plan.json` writes JSON without --format (issue 32: it silently wrote a table); .yaml/.yml write YAML.
// Any other name needs --format, and a .json/.yaml name with another --format is refused: a file named
// for one format holding another is the trap to avoid.
OutputFormat output_format(const PlanArgs& args) {
  if (args.output.empty()) return args.format;
  const std::string ext = std::filesystem::path(args.output).extension().string();
  std::optional<OutputFormat> by_name;
  if (ext == ".json") by_name = OutputFormat::json;
  if (ext == ".yaml" || ext == ".yml") by_name = OutputFormat::yaml;
  if (!args.format_given) {
    if (!by_name) {
      throw InputError("-o " + args.output + ": name the file .json or .yaml, or give --format table|json|yaml");
    }
    return *by_name;
  }
  if (by_name && *by_name != args.format) {
    throw InputError("-o " + args.output + ": the name says " + (*by_name == OutputFormat::json ? "JSON" : "YAML") +
                     " but --format says otherwise; rename the file or change --format");
  }
  return args.format;
}

// The table's first line when replicas are left unplaced (issue 32: the exit code says it too).
std::string unplaced_headline(const Scenario& scenario, const Plan& plan) {
  return "UNPLACED: " + std::to_string(plan.unplaced.size()) + " of " + std::to_string(total_replicas(scenario)) +
         " replicas could not be placed (reasons under \"Unplaced\" below); exit code " +
         std::to_string(exit_code::unplaced) + "\n";
}

int run_plan(const CommandContext& ctx, const PlanArgs& args) {
  std::ostream& out = ctx.out;
  const GpuCatalog& catalog = ctx.catalog;
  const OutputFormat format = output_format(args);
  if (!args.output.empty()) check_output_file(ctx.env.fs, "-o", args.output);
  PlanInputs inputs;
  inputs.scenario_file = args.file;
  inputs.gpu = args.gpu;
  inputs.deploy_with = consumer_option("--deploy-with", args.deploy_with);
  inputs.profiles_dir = args.profiles;
  inputs.model.file = args.model;
  inputs.observed = args.observed;
  inputs.warnings = &std::cerr;
  PlanProgress progress(std::cerr, ctx.env.clock, ::isatty(2) != 0);
  inputs.progress = [&progress](const std::string& what, int done, int total) { progress.step(what, done, total); };
  PlannedScenario planned = plan_scenario(ctx.env.fs, catalog, inputs);
  progress.finish();
  const Scenario& scenario = planned.scenario;
  const Plan& plan = planned.plan;
  const std::vector<ModeOutcome>& comparison = planned.comparison;
  PlanDocument& document = planned.document;
  if (!args.render_dir.empty()) {
    // Rendered first: a plan whose names cannot be rendered fails before any output is written.
    check_plan_document(document, catalog);
    // Beside JSON or YAML on stdout the file list goes to stderr: stdout stays one document for programs.
    std::ostream& listing = format == OutputFormat::table || !args.output.empty() ? out : std::cerr;
    render_plan_to_dir(ctx, document, args.render_targets, args.render_dir, args.force, listing,
                       {args.file, args.model});
  }
  // The plan's text, held once: the JSON of 10,000 replicas is 12 MB, not worth a second copy in a stream.
  std::string text;
  if (format == OutputFormat::json) {
    text = plan_json_text(document);
    text += '\n';
  } else if (format == OutputFormat::yaml) {
    text = json_to_yaml(Json::parse(plan_json_text(document)));
  } else {
    std::ostringstream table;
    if (!plan.unplaced.empty()) table << unplaced_headline(scenario, plan);
    print_plan_table(table, scenario, plan, comparison, args.explain);
    print_consumer_table(table, scenario, document);
    text = std::move(table).str();
  }
  if (args.output.empty()) {
    out << text;
  } else {
    write_output_file(ctx.env.fs, args.output, text);  // atomically: a failed run leaves no partial plan
    out << "wrote " << args.output << ": " << plan.summary.gpus_used << " GPUs, " << plan.unplaced.size()
        << " replicas unplaced\n";
  }
  return plan.unplaced.empty() ? exit_code::ok : exit_code::unplaced;
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
  cmd->add_option("-o,--output", args->output, "Write the output to this file (atomically) instead of stdout; .json writes JSON, .yaml YAML, other names need --format");
  cmd->add_flag("--explain", args->explain, "Per GPU: what each rejected mode would break, and every client");
  cmd->add_option("--deploy-with", args->deploy_with,
                  "What serves the GPUs to pods: gpupack-agent (default), nvidia-device-plugin or dra; the plan keeps "
                  "to what it can express (a fleet entry's deploy_with: overrides it; docs/consumers.md)")
      ->default_str("gpupack-agent");
  cmd->add_option("--model,--calibration", args->model,
                  "The performance model's parameters: a file from `gpupack model show --format json` (any subset "
                  "of them) or the report of `gpupack bench --json FILE` (its calibration); --calibration is an alias");
  cmd->add_option("--profiles", args->profiles,
                  "Folder of workload profiles (`gpupack profile -o FILE`): DIR/<workload name>.json is that "
                  "workload's profile unless its entry names one");
  cmd->add_option("--observed", args->observed,
                  "The JSON of `gpupack verify --json FILE` of a plan run on this fleet's GPUs (repeatable): each "
                  "workload's predictions on that GPU model and sharing are multiplied by measured / predicted, the "
                  "median over its verified replicas (docs/cli.md)");
  // Unplaced replicas exit 4 with or without it (docs/cli.md); kept so that scripts passing it still run.
  cmd->add_flag("--strict", args->strict, "")->group("");
  cmd->add_option("--render", args->render_dir, "Also render the plan's deploy files into this directory (gpupack render)");
  cmd->add_option("--target", args->render_targets, "With --render: the targets (default all; see gpupack render)")
      ->default_str("all");
  cmd->add_flag("--force", args->force, "With --render: replace an existing directory");
  cmd->callback([&ctx, args, cmd] {
    args->format_given = cmd->count("--format") > 0;
    ctx.action = [&ctx, args] { return run_plan(ctx, *args); };
  });
}

}  // namespace gpupack
