#pragma once
// The Env seam (in the spirit of LevelDB's Env and ninja's DiskInterface): everything a command needs
// from the operating system apart from processes: files (bounded read, atomic write, mkdir), the clock
// (now, sleep), environment variables and the operator's log. One real implementation (SystemEnv, made
// once at the edge, in the CLI) and one in-memory fake for tests (tests/fakes/fake_env.hpp). Lower layers
// take an Env (or the one part they need) by reference and never reach the OS themselves.
#include "os/clock.hpp"
#include "os/environment.hpp"
#include "os/filesystem.hpp"
#include "os/logger.hpp"

#include <string>
#include <utility>

namespace gpupack {

struct Env {
  Filesystem& fs;
  Clock& clock;
  Environment& vars;
  Logger& log;
};

// The real Env: the POSIX file system, the steady clock, the process environment and stderr.
class SystemEnv {
 public:
  explicit SystemEnv(std::string log_prefix = "gpupack: ") : log_(std::move(log_prefix)) {}
  SystemEnv(const SystemEnv&) = delete;
  SystemEnv& operator=(const SystemEnv&) = delete;
  Env env() { return {fs_, clock_, vars_, log_}; }

 private:
  PosixFilesystem fs_;
  SystemClock clock_;
  ProcessEnvironment vars_;
  StderrLogger log_;
};

}  // namespace gpupack
