// A stand-in for a user's inference program that speaks the client report protocol without a GPU
// (docs/client-report.md). Its request latency grows when CUDA_MPS_ACTIVE_THREAD_PERCENTAGE drops
// below --needs-pct, like a program that needs that share of the SMs, so the SM-share sweep has a
// known answer. Modes cover the robustness cases: silent (reports nothing), garbage (malformed lines),
// summary (summary lines instead of request lines); --exit-after-ms ends it early (e.g. during warm-up).
// As one of K copies of a co-location grid (GPUPACK_BENCH_CLIENTS=K) its latency grows like
// fake-grid-client.sh's: x K without MPS (the aggregate stays flat), x (K + 3) / 4 under MPS; beside that
// script as the neighbour (its marker in FAKE_CLIENT_STATE) x (1 + the neighbour's cap / 100).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

long arg(int argc, char** argv, const char* name, long fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::atol(argv[i + 1]);
  }
  return fallback;
}

std::string mode(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--mode") == 0) return argv[i + 1];
  }
  return "report";
}

}  // namespace

int main(int argc, char** argv) {
  const long startup_ms = arg(argc, argv, "--startup-ms", 0), latency_us = arg(argc, argv, "--latency-us", 2000);
  const long needs_pct = arg(argc, argv, "--needs-pct", 100), run_ms = arg(argc, argv, "--run-ms", 60000);
  const long exit_after_ms = arg(argc, argv, "--exit-after-ms", -1);
  const std::string how = mode(argc, argv);
  const char* pct_env = std::getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
  const long pct = pct_env ? std::atol(pct_env) : 100;
  // Below the share it needs, each request takes proportionally longer.
  long latency = pct >= needs_pct ? latency_us : latency_us * needs_pct / std::max(1L, pct);
  const char* path = std::getenv("GPUPACK_REPORT");
  std::ofstream report;
  if (path && how != "silent") report.open(path, std::ios::app);
  auto line = [&](const std::string& text) {
    if (report.is_open()) report << text << '\n' << std::flush;
  };
  const double begin = now();
  if (exit_after_ms >= 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(exit_after_ms));
    return 3;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(startup_ms));
  if (how == "garbage") line("this is not json \x1b[2J\x07\n{\"event\":\"request\",\"t\":\"soon\"}\n{\"event\":");
  else line("{\"v\":1,\"event\":\"ready\",\"t\":" + std::to_string(now()) + "}");
  const char* go = std::getenv("GPUPACK_GO");
  while (go && access(go, F_OK) != 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // After the release: every copy and the neighbour have started.
  if (const char* copies = std::getenv("GPUPACK_BENCH_CLIENTS")) {
    const long k = std::max(1L, std::atol(copies));
    latency = std::getenv("CUDA_MPS_PIPE_DIRECTORY") ? latency * (k + 3) / 4 : latency * k;
    const char* state = std::getenv("FAKE_CLIENT_STATE");
    std::ifstream neighbour(std::string(state ? state : "/tmp") + "/neighbour");
    long cap = 0;
    if (neighbour >> cap) latency = latency * (100 + cap) / 100;
  }
  long done = 0;
  double summary_from = now();
  while (now() - begin < static_cast<double>(run_ms) / 1000) {
    const double t0 = now();
    std::this_thread::sleep_for(std::chrono::microseconds(latency));
    const double t1 = now();
    ++done;
    if (how == "report") {
      // The latency it models, not the sleep it took: on a loaded CI host a 10 ms sleep's p99 can triple,
      // and tests check the modelled shape (req/s stays real: requests are paced by the sleeps).
      (void)t0;
      line("{\"v\":1,\"event\":\"request\",\"t\":" + std::to_string(t1) + ",\"latency_ms\":" +
           std::to_string(static_cast<double>(latency) / 1000) + "}");
    } else if (how == "summary" && t1 - summary_from >= 0.1) {
      line("{\"v\":1,\"event\":\"summary\",\"t\":" + std::to_string(t1) + ",\"requests\":" + std::to_string(done) +
           ",\"seconds\":" + std::to_string(t1 - summary_from) + ",\"p50_ms\":" + std::to_string(static_cast<double>(latency) / 1000) +
           ",\"p99_ms\":" + std::to_string(static_cast<double>(latency) / 1000) + "}");
      done = 0;
      summary_from = t1;
    } else if (how == "garbage") {
      line("{\"event\":\"request\",\"t\":" + std::to_string(t1) + "}");  // no latency: malformed
    }
  }
  return 0;
}
