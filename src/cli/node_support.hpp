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

}  // namespace gpupack
