#pragma once
// What the node-side commands (agent, mps, run, profile) share: the real OS services and the
// --config option.
#include <CLI/CLI.hpp>

#include <string>

#include "os/env.hpp"
#include "os/proc_reader.hpp"
#include "os/process_runner.hpp"

namespace gpupack {

inline constexpr const char* kDefaultNodeConfig = "/etc/gpupack/node.yaml";

// The Env's files and clock (os/env.hpp) and the real processes and /proc.
struct LocalServices {
  explicit LocalServices(Env e) : env(e), fs(e.fs), clock(e.clock) {}
  Env env;
  Filesystem& fs;
  Clock& clock;
  PosixProcessRunner runner;
  LinuxProcReader proc;
};

inline void add_config_option(CLI::App& cmd, std::string& path) {
  path = kDefaultNodeConfig;
  cmd.add_option("--config", path, "Node config (docs/node-config.md)")->capture_default_str();
}

// --node-name, for commands that may read a directory of node configs (agent, labels, check).
void add_node_name_option(CLI::App& cmd, std::string& name);
// The config file to read: `path` itself, or <path>/<node>.yaml where `path` is a directory (the node from
// `node_name`, else $NODE_NAME). Throws InputError naming what is missing.
std::string resolve_node_config(const Env& env, const std::string& path, const std::string& node_name);

}  // namespace gpupack
