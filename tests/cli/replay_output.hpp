#pragma once
// `gpupack model replay` run in-process on results/model-runs.json: what the recorded-runs tests read.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/gpu_catalog.hpp"

namespace gpupack::test {

inline const std::string kManifest = std::string(GPUPACK_SOURCE_DIR) + "/results/model-runs.json";

// The replay with `args` after the manifest; its standard output.
inline std::string replay_output(const std::vector<std::string>& args) {
  CLI::App app{"gpupack", "gpupack"};
  SystemEnv system;
  const GpuCatalog catalog = builtin_catalog();
  std::ostringstream out;
  CommandContext ctx{out, {}, system.env(), catalog};
  register_model_command(app, ctx);
  std::vector<std::string> argv{"gpupack", "model", "replay", kManifest};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<const char*> raw;
  for (const auto& a : argv) raw.push_back(a.c_str());
  app.parse(static_cast<int>(raw.size()), raw.data());
  EXPECT_EQ(ctx.action(), 0);
  return out.str();
}

}  // namespace gpupack::test
