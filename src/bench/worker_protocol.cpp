#include "bench/worker_protocol.hpp"

#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"

namespace gpupack::bench {

namespace {
struct ModeName {
  WorkerMode mode;
  const char* name;
};
constexpr ModeName kModes[] = {{WorkerMode::info, "info"},         {WorkerMode::streams, "streams"},
                               {WorkerMode::fma, "fma"},           {WorkerMode::latency, "latency"},
                               {WorkerMode::neighbour, "neighbour"}, {WorkerMode::memlimit, "memlimit"}};
}  // namespace

const char* to_string(WorkerMode mode) {
  for (const auto& m : kModes) {
    if (m.mode == mode) return m.name;
  }
  return "?";
}

WorkerMode worker_mode_from_string(const std::string& name) {
  for (const auto& m : kModes) {
    if (name == m.name) return m.mode;
  }
  throw InputError("unknown bench-worker mode '" + name + "'; accepted: info, streams, fma, latency, neighbour, memlimit");
}

std::vector<std::string> to_args(const WorkerRequest& r) {
  std::vector<std::string> args{to_string(r.mode),        "--blocks",   std::to_string(r.blocks),
                                "--threads",              std::to_string(r.threads), "--iters",
                                std::to_string(r.iters),  "--launches", std::to_string(r.launches),
                                "--gemm-n",               std::to_string(r.gemm_n),  "--within-mib",
                                std::to_string(r.within_mib), "--beyond-mib", std::to_string(r.beyond_mib)};
  if (r.sync) args.emplace_back("--sync");
  return args;
}

nlohmann::json parse_worker_output(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  nlohmann::json result;
  bool found = false;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() != '{') continue;
    auto parsed = nlohmann::json::parse(line, nullptr, false);
    if (parsed.is_object()) {
      result = std::move(parsed);
      found = true;
    }
  }
  if (!found) throw std::runtime_error(what + ": the worker printed no result");
  if (result.contains("error")) {
    // The worker writes a string; anything else is still its error, printed as JSON (not a type_error).
    const auto& e = result["error"];
    throw std::runtime_error(what + ": " + (e.is_string() ? e.get<std::string>() : e.dump()));
  }
  return result;
}

}  // namespace gpupack::bench
