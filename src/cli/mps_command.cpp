// `gpupack mps up|down|status [--config node.yaml] [--gpu UUID|index ...]`: the MPS daemons of the node
// config's GPUs and MIG instances in mode mps, without the agent.
#include <iostream>

#include "agent/mps_targets.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/json_views.hpp"
#include "cli/node_support.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"

namespace gpupack {

namespace {

struct MpsArgs {
  std::string config;
  std::vector<std::string> gpus;
  OutputFormat format = OutputFormat::table;
};

// The targets the command acts on: all in mode mps, or those --gpu names (GPU UUID or index, MIG UUID).
// `starting` (up, usually as root): mps_root is made and checked as the agent does (docs/security.md).
std::vector<MpsTarget> selected(const MpsArgs& a, GpuBackend& gpu, const LocalServices& os, const GpuCatalog& catalog,
                                bool starting = false) {
  const NodeConfig config = load_node_config(os.fs, a.config);
  const auto devices = gpu.devices();
  check_against_devices(config, devices, catalog);
  if (starting) secure_mps_root(os.fs, config);
  auto targets = mps_targets(config, devices, os.fs.effective_uid());
  if (a.gpus.empty()) return targets;
  std::vector<MpsTarget> out;
  for (const auto& ref : a.gpus) {
    bool found = false;
    for (const auto& t : targets) {
      const GpuDeviceInfo* d = find_device(devices, ref);
      if (t.target_uuid == ref || (d && t.gpu_uuid == d->uuid)) {
        out.push_back(t);
        found = true;
      }
    }
    if (!found) throw InputError("--gpu " + ref + ": not a GPU or MIG instance in mode mps in " + a.config);
  }
  return out;
}

int up(const MpsArgs& a, const CommandContext& ctx) {
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    int rc = exit_code::ok;
    for (const auto& t : selected(a, gpu, os, ctx.catalog, true)) {
      // Idempotent: a daemon already answering on the pipe directory is left as it is.
      MpsDaemon existing(os.runner, os.fs, os.clock, t.options.daemon);
      if (existing.is_running()) {
        const auto pid = existing.pid();
        std::cout << "mps up: " << t.target_uuid << " already running (pid " << (pid ? std::to_string(*pid) : "?") << ")\n";
        continue;
      }
      MpsSupervisor s(os.runner, os.fs, os.clock, t.options);
      try {
        s.start();
        const MpsStatus st = s.status();
        std::cout << "mps up: " << t.target_uuid << " daemon pid " << (st.daemon_pid ? std::to_string(*st.daemon_pid) : "?")
                  << ", pipe directory " << t.options.daemon.paths.pipe_dir << '\n';
      } catch (const MpsError& e) {
        std::cerr << "gpupack: mps up " << t.target_uuid << ": " << e.what() << '\n';
        rc = exit_code::unavailable;
      }
    }
    return rc;
  });
}

int down(const MpsArgs& a, const CommandContext& ctx) {
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    int rc = exit_code::ok;
    for (const auto& t : selected(a, gpu, os, ctx.catalog)) {
      MpsDaemon d(os.runner, os.fs, os.clock, t.options.daemon);
      if (d.quit()) {
        std::cout << "mps down: " << t.target_uuid << '\n';
      } else {
        std::cerr << "gpupack: mps down " << t.target_uuid << ": the daemon did not quit in time\n";
        rc = exit_code::unavailable;
      }
    }
    return rc;
  });
}

int status(const MpsArgs& a, const CommandContext& ctx) {
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    Json list = Json::array();
    Table t({"TARGET", "DAEMON", "PID", "SERVERS", "CLIENTS", "PIPE DIRECTORY"});
    for (const auto& target : selected(a, gpu, os, ctx.catalog)) {
      MpsDaemon d(os.runner, os.fs, os.clock, target.options.daemon);
      const bool up = d.is_running();
      Json servers = Json::array();
      std::string server_text;
      std::size_t clients = 0;
      if (up) {
        try {
          for (int pid : d.control().server_list()) {
            const auto state = d.control().server_status(pid);
            const auto c = d.control().client_list(pid);
            clients += c.size();
            servers.push_back({{"pid", pid}, {"state", to_string(state)}, {"clients", c}});
            server_text += (server_text.empty() ? "" : ",") + std::to_string(pid) + ":" + to_string(state);
          }
        } catch (const MpsError& e) {
          server_text = std::string("error: ") + e.what();
        }
      }
      const auto pid = d.pid();
      list.push_back({{"target", target.target_uuid}, {"gpu", target.gpu_uuid}, {"daemon_up", up},
                      {"daemon_pid", pid ? Json(*pid) : Json(nullptr)}, {"pipe_dir", target.options.daemon.paths.pipe_dir},
                      {"servers", servers}});
      t.add({target.target_uuid, up ? "up" : "down", pid ? std::to_string(*pid) : "-", server_text.empty() ? "-" : server_text,
             std::to_string(clients), target.options.daemon.paths.pipe_dir});
    }
    if (a.format == OutputFormat::json) {
      std::cout << Json{{"mps", list}}.dump(2) << '\n';
    } else {
      t.print(std::cout);
    }
    return exit_code::ok;
  });
}

}  // namespace

void register_mps_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("mps", "Start, stop or show the node's MPS daemons (one per GPU or MIG instance in mode mps)");
  cmd->require_subcommand(1);
  auto args = std::make_shared<MpsArgs>();
  auto add = [&](const char* name, const char* help, int (*fn)(const MpsArgs&, const CommandContext&)) {
    auto* sub = cmd->add_subcommand(name, help);
    add_config_option(*sub, args->config);
    sub->add_option("--gpu", args->gpus, "Only these GPUs (UUID or index) or MIG instances (UUID)");
    if (std::string(name) == "status") add_format_option(*sub, args->format, {"table", "json"});
    sub->callback([&ctx, args, fn] { ctx.action = [&ctx, args, fn] { return fn(*args, ctx); }; });
  };
  add("up", "Start the MPS daemons with the configured defaults and start their servers", up);
  add("down", "Quit the MPS daemons (echo quit | nvidia-cuda-mps-control) and wait until they are gone", down);
  add("status", "Show each MPS daemon: up or down, servers and their state, clients", status);
}

}  // namespace gpupack
