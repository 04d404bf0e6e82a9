// `gpupack render <plan.json|workloads.yaml> --target <t>[,<t>...] -o <dir> [--force] [--deploy-with C]
//  [--gpu MODEL] [--profiles DIR] [--model FILE]`: a scenario is planned as `gpupack plan` plans it.
#include "cli/render_command.hpp"

#include <map>
#include <optional>
#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "io/input_file.hpp"
#include "cli/plan_pipeline.hpp"
#include "contract/plan_json.hpp"
#include "core/errors.hpp"
#include "io/json_document.hpp"
#include "render/render_targets.hpp"
#include "render/tree_writer.hpp"

namespace gpupack {

namespace {

struct RenderArgs {
  std::string input;
  std::string targets = "all";
  std::string output;
  bool force = false;
  std::string deploy_with;  // empty: the consumer the plan was made for ($.deploy_with)
  // With a scenario YAML, planned as `gpupack plan` plans it with the same options.
  std::string gpu, profiles, model;  // --model FILE (alias --calibration)
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_scenario(const std::string& path) { return ends_with(path, ".yaml") || ends_with(path, ".yml"); }

// The plan: planned from a scenario YAML as `gpupack plan` plans it (cli/plan_pipeline.hpp), or read from a
// plan file; checked either way.
PlanDocument plan_from_input(const Filesystem& fs, const RenderArgs& a, const GpuCatalog& catalog,
                             std::optional<Consumer> consumer) {
  if (is_scenario(a.input)) {
    PlanInputs inputs;
    inputs.scenario_file = a.input;
    inputs.gpu = a.gpu;
    inputs.deploy_with = consumer.value_or(Consumer::gpupack_agent);
    inputs.profiles_dir = a.profiles;
    inputs.model.file = a.model;
    inputs.compare = false;  // the comparison of modes and consumers is not deployed
    PlanDocument document = plan_scenario(fs, catalog, inputs).document;
    check_plan_document(document, catalog);
    return document;
  }
  const std::pair<const char*, std::string> planning_options[] = {
      {"--gpu", a.gpu}, {"--profiles", a.profiles}, {"--model", a.model}};
  for (const auto& [option, value] : planning_options) {
    if (!value.empty()) {
      throw InputError(std::string(option) + " " + value + ": only with a scenario .yaml to plan; " + a.input +
                       " is a plan, already planned (give its options to `gpupack plan` instead)");
    }
  }
  PlanDocument document =
      read_plan_json(parse_json_document(read_input_file(fs, a.input), "'" + a.input + "' is not a plan",
                                         "give the output of `gpupack plan --format json`, or a workloads .yaml"),
                     catalog);
  // Another consumer than the plan's: the targets refuse what it cannot express, naming the node.
  if (consumer) document.deploy_with = *consumer;
  return document;
}

int run_render(const CommandContext& ctx, const RenderArgs& a) {
  std::optional<Consumer> consumer;
  if (!a.deploy_with.empty()) {
    consumer = parse_consumer(a.deploy_with);
    if (!consumer) {
      throw InputError("--deploy-with '" + a.deploy_with + "' is not a consumer; accepted: " + std::string(kConsumerNames));
    }
  }
  std::vector<std::string> inputs{a.input};
  if (!a.model.empty()) inputs.push_back(a.model);
  return render_plan_to_dir(ctx, plan_from_input(ctx.env.fs, a, ctx.catalog, consumer), a.targets, a.output,
                            a.force, ctx.out, inputs);
}

}  // namespace

int render_plan_to_dir(const CommandContext& ctx, const PlanDocument& plan, const std::string& targets,
                       const std::string& dir, bool force, std::ostream& out, const std::vector<std::string>& inputs) {
  const std::vector<RenderTarget> selected = parse_render_targets(targets);
  const FileTree files = render_targets(plan, selected, ctx.catalog, plan.deploy_with);
  write_tree_atomically(ctx.env.fs, {dir, force, inputs}, files);
  out << "rendered " << files.size() << " files into " << dir << " (targets:";
  for (RenderTarget t : selected) out << ' ' << to_string(t);
  out << "); read " << dir << "/README.txt for the order to apply them\n";
  for (const auto& f : files) out << "  " << f.path << '\n';
  return exit_code::ok;
}

void register_render_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("render", "Write the files that deploy a plan (MPS, device plugin, MIG, k8s, CDI)");
  auto args = std::make_shared<RenderArgs>();
  cmd->add_option("input", args->input, "A plan (gpupack plan --format json) or a workloads YAML to plan first")
      ->required();
  cmd->add_option("--target,-t", args->targets,
                  "Comma-separated: mps, k8s-device-plugin, mig-parted, k8s-workloads, node-template, gpupack-agent, "
                  "cdi, dra, or all")
      ->default_str("all");
  cmd->add_option("-o,--output", args->output, "Output directory (written atomically)")->required();
  cmd->add_flag("--force", args->force, "Replace an existing output directory that an earlier render wrote");
  cmd->add_option("--deploy-with", args->deploy_with,
                  "gpupack-agent, nvidia-device-plugin or dra: what serves the GPUs to the pods (default: the "
                  "consumer the plan was made for, $.deploy_with)");
  cmd->add_option("--gpu", args->gpu, "With a scenario: plan on as many GPUs of this model as needed (as gpupack plan --gpu)");
  cmd->add_option("--profiles", args->profiles,
                  "With a scenario: folder of workload profiles, DIR/<workload name>.json (as gpupack plan --profiles)");
  cmd->add_option("--model,--calibration", args->model,
                  "With a scenario: the performance model's parameters (as gpupack plan --model; --calibration is an alias)");
  cmd->callback([&ctx, args] { ctx.action = [&ctx, args] { return run_render(ctx, *args); }; });
}

}  // namespace gpupack
