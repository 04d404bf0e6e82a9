// `gpupack render <plan.json|workloads.yaml> --target <t>[,<t>...] -o <dir> [--force]`.
#include "cli/render_command.hpp"

#include <map>
#include <optional>
#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "io/input_file.hpp"
#include "cli/plan_views.hpp"
#include "cli/profile_loading.hpp"
#include "contract/plan_json.hpp"
#include "core/errors.hpp"
#include "io/json_document.hpp"
#include "io/scenario_yaml.hpp"
#include "planner/planner.hpp"
#include "model/prediction.hpp"
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
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The plan: read from a plan file, or planned on the fly from a workloads YAML; checked either way.
PlanDocument plan_from_input(const Filesystem& fs, const std::string& path, const GpuCatalog& catalog,
                             std::optional<Consumer> consumer) {
  const std::string text = read_input_file(fs, path);
  if (ends_with(path, ".yaml") || ends_with(path, ".yml")) {
    Scenario scenario = parse_scenario_yaml(text, path, catalog);
    assign_consumers(scenario, consumer.value_or(Consumer::gpupack_agent));
    const PlanOptions options;
    attach_profiles(fs, scenario, path, "", catalog, options.parameters);  // entries that name a profile (docs/workloads.md)
    Plan plan = make_plan(scenario, options);
    add_predictions(scenario, plan, options.parameters);
    PlanDocument document = plan_document(scenario, plan, {}, options.parameters);
    document.deploy_with = consumer.value_or(Consumer::gpupack_agent);
    check_plan_document(document, catalog);
    return document;
  }
  PlanDocument document =
      read_plan_json(parse_json_document(text, "'" + path + "' is not a plan",
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
  return render_plan_to_dir(ctx, plan_from_input(ctx.env.fs, a.input, ctx.catalog, consumer), a.targets, a.output,
                            a.force, ctx.out, {a.input});
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
  cmd->callback([&ctx, args] { ctx.action = [&ctx, args] { return run_render(ctx, *args); }; });
}

}  // namespace gpupack
