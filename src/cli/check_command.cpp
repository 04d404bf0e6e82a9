// `gpupack check PATH [--gpu MODEL] [--format table|json]`: validates node configs without NVML, as CI or
// a GitOps pipeline checks rendered files before they reach a node. PATH is a node.yaml or a directory of
// <node>.yaml files (the rendered ConfigMap). With --gpu, each config is also checked against a machine of
// that catalog model (GPUs by index, MIG instances by profile@start) as the agent checks it at start, and
// the resources its device plugin would advertise are listed.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

#include "agent/device_plugin_targets.hpp"
#include "agent/node_config.hpp"
#include "agent/simulated_devices.hpp"
#include "cli/command.hpp"
#include "cli/node_support.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"
#include "core/exit_codes.hpp"
#include "core/gpu_catalog.hpp"
#include "core/units.hpp"

namespace gpupack {

namespace {

constexpr int kCheckSchemaVersion = 1;

struct CheckedFile {
  std::string path;
  std::vector<k8s::PluginResource> resources;  // with --gpu only
};

std::vector<std::string> config_files(const Env& env, const std::string& path) {
  if (!env.fs.stat(path).is_dir) return {path};
  std::vector<std::string> out;
  for (const auto& name : env.fs.list_dir(path)) {
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0) out.push_back(path + "/" + name);
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) throw InputError("check: " + path + " holds no <node>.yaml file");
  return out;
}

int run_check(CommandContext& ctx, const std::string& path, const std::string& gpu, OutputFormat format) {
  const GpuModel* model = nullptr;
  if (!gpu.empty()) {
    model = ctx.catalog.find(gpu);
    if (!model) throw InputError("--gpu '" + gpu + "' is not a GPU model of the catalog (gpupack catalog lists them)");
  }
  std::vector<CheckedFile> checked;
  for (const auto& file : config_files(ctx.env, path)) {
    const NodeConfig config = load_node_config(ctx.env.fs, file);
    CheckedFile c{file, {}};
    if (model) {
      const std::vector<const GpuModel*> models(config.gpus.size(), model);
      const auto devices = simulated_devices(config, models);
      try {
        check_against_devices(config, devices, ctx.catalog);
        c.resources = plan_device_plugins(config, devices).resources;
      } catch (const InputError& e) {
        throw InputError(file + ": " + e.what());
      }
    }
    checked.push_back(std::move(c));
  }
  if (format == OutputFormat::json) {
    nlohmann::ordered_json j;
    j["schema_version"] = kCheckSchemaVersion;
    j["gpu"] = model ? nlohmann::ordered_json(model->name) : nlohmann::ordered_json(nullptr);
    j["files"] = nlohmann::ordered_json::array();
    for (const auto& c : checked) {
      nlohmann::ordered_json f;
      f["path"] = c.path;
      f["valid"] = true;
      f["resources"] = nlohmann::ordered_json::array();
      for (const auto& r : c.resources) {
        nlohmann::ordered_json rj;
        rj["name"] = r.name;
        rj["devices"] = r.devices.size();
        if (!r.devices.empty() && r.devices.front().sharing == Sharing::mps) {
          rj["sm_percent"] = r.devices.front().sm_percent;
          rj["memory_bytes"] = r.devices.front().memory_bytes;
        }
        f["resources"].push_back(rj);
      }
      j["files"].push_back(f);
    }
    ctx.out << j.dump(2) << '\n';
    return exit_code::ok;
  }
  for (const auto& c : checked) {
    ctx.out << c.path << ": valid" << (model ? " on " + model->name : std::string()) << '\n';
    if (c.resources.empty()) continue;
    Table t({"resource", "devices", "sm %", "memory"});
    for (const auto& r : c.resources) {
      const bool mps = !r.devices.empty() && r.devices.front().sharing == Sharing::mps;
      t.add({r.name, std::to_string(r.devices.size()), mps ? std::to_string(r.devices.front().sm_percent) : "-",
                 mps ? format_size(r.devices.front().memory_bytes) : "-"});
    }
    t.print(ctx.out);
  }
  return exit_code::ok;
}

}  // namespace

void register_check_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("check", "Validate node configs (a node.yaml, or a directory of <node>.yaml) without a GPU");
  auto path = std::make_shared<std::string>();
  auto gpu = std::make_shared<std::string>();
  auto format = std::make_shared<OutputFormat>(OutputFormat::table);
  cmd->add_option("path", *path, "node.yaml, or a directory of <node>.yaml files")->required();
  cmd->add_option("--gpu", *gpu, "Also check against a machine of this catalog model and list what the agent advertises");
  add_format_option(*cmd, *format, {"table", "json"});
  cmd->callback([&ctx, path, gpu, format] { ctx.action = [&ctx, path, gpu, format] { return run_check(ctx, *path, *gpu, *format); }; });
}

}  // namespace gpupack
