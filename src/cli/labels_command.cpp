// `gpupack labels [--config node.yaml] [--format table|json] [--write]`: the node labels the agent
// publishes for Node Feature Discovery (docs/kubernetes.md), from the node config and the GPUs here.
#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/device_plugin_targets.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/node_support.hpp"
#include "k8s/node_labels.hpp"

namespace gpupack {

namespace {

int run_labels(CommandContext& ctx, const std::string& config_option, const std::string& node_name, OutputFormat format,
               bool write) {
  const std::string config_path = resolve_node_config(ctx.env, config_option, node_name);
  const NodeConfig config = load_node_config(ctx.env.fs, config_path);
  const DevicePluginSettings& settings = config.device_plugin;  // node.yaml is read once
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    const auto devices = gpu.devices();
    check_against_devices(config, devices, ctx.catalog);
    const auto plan = plan_device_plugins(config, devices);
    if (format == OutputFormat::json) {
      ctx.out << nlohmann::ordered_json(plan.labels).dump(2) << '\n';
    } else {
      for (const auto& [k, v] : plan.labels) ctx.out << k << '=' << v << '\n';
    }
    if (write) {
      if (settings.features_file.empty()) {
        std::cerr << "gpupack labels: device_plugin.features_file is \"\" in " << config_path << ": nothing to write\n";
        return exit_code::usage;
      }
      try {
        k8s::write_features_file(ctx.env.fs, settings.features_file, plan.labels);
      } catch (const std::runtime_error& e) {
        std::cerr << "gpupack labels: " << e.what() << '\n';
        return exit_code::unavailable;
      }
      std::cerr << "gpupack labels: wrote " << settings.features_file << '\n';
    }
    return exit_code::ok;
  });
}

}  // namespace

void register_labels_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("labels", "Print the node labels the agent publishes (GPU product, count, sharing per resource)");
  auto config = std::make_shared<std::string>();
  auto format = std::make_shared<OutputFormat>(OutputFormat::table);
  auto write = std::make_shared<bool>(false);
  add_config_option(*cmd, *config);
  auto node_name = std::make_shared<std::string>();
  add_node_name_option(*cmd, *node_name);
  add_format_option(*cmd, *format, {"table", "json"});
  cmd->add_flag("--write", *write, "Also write them to device_plugin.features_file (Node Feature Discovery)");
  cmd->callback([&ctx, config, node_name, format, write] {
    ctx.action = [&ctx, config, node_name, format, write] { return run_labels(ctx, *config, *node_name, *format, *write); };
  });
}

}  // namespace gpupack
