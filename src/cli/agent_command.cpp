// `gpupack agent --config node.yaml [--listen HOST:PORT]`: the node daemon.
#include <iostream>

#include "agent/agent.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/node_support.hpp"
#include "core/errors.hpp"
#include "mps/mps_control.hpp"

namespace gpupack {

namespace {

int run_agent(const std::string& config_option, const std::string& node_name, int port, const CommandContext& ctx) {
  const std::string config = resolve_node_config(ctx.env, config_option, node_name);
  Agent::block_signals();  // before any thread starts (the GPU backend's, the HTTP server's)
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    Agent agent({os.runner, os.fs, os.clock, os.proc, gpu, ctx.catalog}, config, "0.1.0");
    try {
      agent.start(port);
    } catch (const MpsError& e) {
      std::cerr << "gpupack agent: " << e.what() << '\n';
      agent.stop();
      return exit_code::unavailable;
    } catch (const InputError&) {
      agent.stop();
      throw;
    } catch (const std::runtime_error& e) {  // the metrics address
      std::cerr << "gpupack agent: " << e.what() << '\n';
      agent.stop();
      return exit_code::unavailable;
    }
    return agent.run_until_signal();
  });
}

}  // namespace

void register_agent_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("agent", "Run the node agent: MPS supervision, /metrics and /healthz");
  auto config = std::make_shared<std::string>();
  auto port = std::make_shared<int>(-1);
  add_config_option(*cmd, *config);
  auto node_name = std::make_shared<std::string>();
  add_node_name_option(*cmd, *node_name);
  cmd->add_option("--port", *port, "Listen on this port instead of metrics_address's (0: any free port)")->check(CLI::Range(0, 65535));
  cmd->callback([&ctx, config, node_name, port] {
    ctx.action = [&ctx, config, node_name, port] { return run_agent(*config, *node_name, *port, ctx); };
  });
}

}  // namespace gpupack
