#pragma once
// The in-memory Env (os/env.hpp) for tests: files in memory, a clock that moves only when slept on,
// environment variables from a map and a log that keeps its lines. Use env() where code takes an Env,
// or pass one part (fs, clock) where it takes only that.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fakes/fake_clock.hpp"
#include "fakes/memory_filesystem.hpp"
#include "os/env.hpp"

namespace gpupack::testing {

class FakeEnvironment : public Environment {
 public:
  std::map<std::string, std::string> values;
  std::optional<std::string> get(const std::string& name) const override {
    const auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  }
};

class RecordingLogger : public Logger {
 public:
  std::vector<std::string> lines;
  void log(const std::string& line) override { lines.push_back(line); }
};

struct FakeEnv {
  MemoryFilesystem fs;
  FakeClock clock;
  FakeEnvironment vars;
  RecordingLogger log;
  Env env() { return {fs, clock, vars, log}; }
};

}  // namespace gpupack::testing
