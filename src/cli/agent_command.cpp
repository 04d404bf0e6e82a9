// `gpupack agent --config node.yaml [--port N] [--log-format text|json]`: the node daemon.
#include <iostream>

#include "agent/agent.hpp"
#include "cli/command.hpp"
#include "core/exit_codes.hpp"
#include "cli/gpu_access.hpp"
#include "cli/node_support.hpp"
#include "core/build_info.hpp"
#include "core/errors.hpp"
#include "mps/mps_control.hpp"
#include "os/logger.hpp"

namespace gpupack {

namespace {

int run_agent(const std::string& config_option, const std::string& node_name, int port, LogFormat log_format,
              const CommandContext& ctx) {
  const std::string config = resolve_node_config(ctx.env, config_option, node_name);
  Agent::block_signals();  // before any thread starts (the GPU backend's, the HTTP server's)
  return with_gpu_backend(ctx, [&](GpuBackend& gpu) {
    LocalServices os(ctx.env);
    // Every line the agent writes to stderr while it runs gets a time and a level (or is a JSON object);
    // errors that end the command go out after this scope, as every command's do (main.cpp).
    StderrLogger logger(log_format, ctx.env.clock);
    LogRedirect redirect(std::cerr, logger, "gpupack agent: ");
    Agent agent({os.runner, os.fs, os.clock, os.proc, gpu, ctx.catalog}, config, std::string(kGpupackVersion));
    try {
      agent.start(port);
    } catch (const MpsError& e) {
      logger.log_at(LogLevel::error, e.what());
      agent.stop();
      return exit_code::unavailable;
    } catch (const InputError&) {
      agent.stop();
      throw;
    } catch (const std::runtime_error& e) {  // the metrics address
      logger.log_at(LogLevel::error, e.what());
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
  auto log_format = std::make_shared<std::string>("text");
  add_config_option(*cmd, *config);
  auto node_name = std::make_shared<std::string>();
  add_node_name_option(*cmd, *node_name);
  cmd->add_option("--port", *port, "Listen on this port instead of metrics_address's (0: any free port)")->check(CLI::Range(0, 65535));
  cmd->add_option("--log-format", *log_format, "Log lines as text (RFC 3339 UTC time, level, message) or json (one object a line: ts, level, msg)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->callback([&ctx, config, node_name, port, log_format] {
    ctx.action = [&ctx, config, node_name, port, log_format] {
      return run_agent(*config, *node_name, *port, *log_format == "json" ? LogFormat::json : LogFormat::text, ctx);
    };
  });
}

}  // namespace gpupack
