// The standard neighbour (`gpupack neighbour`): a DRAM-bandwidth-bound program gpupack carries itself, so that
// `gpupack profile --sweep` measures every program beside the same neighbour on every machine, without
// PyTorch or the repository's example clients. The request is examples/clients/stream_triad.py's (the triad
// the corpus runs as its DRAM-bound batch job): four triad passes over 128M-float vectors, then a
// synchronise, so the two are one program in two languages. The compute-bound kind (`--kind compute`) runs
// FMA chains that fill every SM and touch no DRAM: what a neighbour that holds the SMs costs, alone. The
// reporter (`--kind reporter`) is the other way round: a launch-bound program of many short kernels, each
// of which must find free threads on the SMs, so its request grows by how long other programs' blocks hold
// them (the pressure a program puts on its launch-bound neighbours, which its SM activity does not tell:
// runs 63-65 and 69).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <thread>

#include "bench/gpu/cuda_check.hpp"
#include "bench/gpu/kernels.hpp"
#include "bench/gpu/worker_modes.hpp"
#include "bench/worker.hpp"
#include "core/exit_codes.hpp"

namespace gpupack::bench {

namespace {

using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC on Linux: the report's clock

constexpr size_t kElements = size_t{128} << 20;
constexpr int kPasses = 4;
// The compute kind's request: kPasses kernels of 8 blocks of 256 threads an SM (2048 threads, every SM's
// most on H100 and H200), each thread --iters x 8 FMAs (4500 by default: 0.38 ms a kernel on an H200, as long
// as the triad's; at 40000, 3.3 ms, it failed to start beside a running program under MPS 3 times in 4,
// `cudaSetDevice: ... busy or unavailable`, runs 63-66, at 4500 in none of 3).
constexpr int kComputeBlocksPerSm = 8;
constexpr int kComputeThreads = 256;
// The reporter's request: 32 kernels in a row on one stream, each 2 blocks of 128 threads an SM (an eighth
// of an SM's threads) and 256 iterations of the FMA chains a thread (about a microsecond of work, less than
// its launch), then a synchronise: like a launch-bound encoder layer's kernels, whose blocks start only
// where a neighbour's blocks have left room.
constexpr int kReporterKernels = 32;
constexpr int kReporterBlocksPerSm = 2;
constexpr int kReporterThreads = 128;
constexpr long kReporterIters = 256;

double now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

// The client report's lines, appended and flushed one by one (gpupack reads the file while it grows).
class ReportWriter {
 public:
  explicit ReportWriter(const std::string& path) {
    if (!path.empty()) file_.open(path, std::ios::app);
  }
  void ready() { line(R"("event":"ready")"); }
  void request(double latency_ms) {
    char fields[64];
    std::snprintf(fields, sizeof fields, R"("event":"request","latency_ms":%.4f)", latency_ms);
    line(fields);
  }

 private:
  void line(const char* fields) {
    if (!file_.is_open()) return;
    char t[32];
    std::snprintf(t, sizeof t, "%.6f", now_s());
    file_ << R"({"v":1,)" << fields << R"(,"t":)" << t << "}\n" << std::flush;
  }
  std::ofstream file_;
};

}  // namespace

int run_standard_neighbour(const StandardNeighbourOptions& o, std::ostream& out, std::ostream& err) {
  using namespace gpu;
  try {
    open_device();
    const bool reporter = o.kind == NeighbourKind::reporter;
    const bool compute = o.kind == NeighbourKind::compute || reporter;  // both run the FMA chains, no DRAM
    int sms = 0, device = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");  // under a cap: the capped count
    const int blocks = sms * (reporter ? kReporterBlocksPerSm : kComputeBlocksPerSm);
    const int threads = reporter ? kReporterThreads : kComputeThreads;
    const long iters = reporter ? kReporterIters : o.compute_iters;
    const int kernels = reporter ? kReporterKernels : kPasses;
    const size_t elements = compute ? static_cast<size_t>(blocks) * threads : kElements;
    DeviceBuffer<float> a(elements), b(compute ? 4 : kElements), c(compute ? 4 : kElements);
    if (!compute) {
      cuda_check(cudaMemset(b.get(), 0x3c, kElements * sizeof(float)), "cudaMemset");
      cuda_check(cudaMemset(c.get(), 0x3c, kElements * sizeof(float)), "cudaMemset");
    }
    auto request = [&] {
      for (int p = 0; p < kernels; ++p) {
        if (compute) {
          launch_fma(a.get(), blocks, threads, iters, nullptr);
        } else {
          launch_triad(a.get(), b.get(), c.get(), kElements, 3.0f, nullptr);
        }
      }
      check_launch(compute ? "fma" : "triad");
      cuda_check(cudaStreamSynchronize(nullptr), compute ? "fma" : "triad");
    };
    for (int i = 0; i < o.warmup_requests; ++i) request();
    ReportWriter report(o.report_path);
    report.ready();
    while (!o.go_path.empty() && !std::filesystem::exists(o.go_path)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const auto begin = Clock::now();
    long done = 0;
    double seconds = 0;
    while (seconds < o.duration_s) {
      const auto t0 = Clock::now();
      request();
      const auto t1 = Clock::now();
      report.request(std::chrono::duration<double, std::milli>(t1 - t0).count());
      ++done;
      seconds = std::chrono::duration<double>(t1 - begin).count();
    }
    char line[160];
    const double rate = static_cast<double>(done) / seconds;
    if (reporter) {
      std::snprintf(line, sizeof line, "%ld requests in %.1f s: %.1f req/s, %.1f us a kernel", done, seconds, rate,
                    seconds / static_cast<double>(done) / kernels * 1e6);
    } else if (compute) {
      const double flops = 2.0 * 8 * static_cast<double>(iters) * static_cast<double>(elements) * kernels * static_cast<double>(done);
      std::snprintf(line, sizeof line, "%ld requests in %.1f s: %.1f req/s, %.1f TFLOP/s of FMA", done, seconds, rate,
                    flops / seconds / 1e12);
    } else {
      const double bytes = 3.0 * kPasses * static_cast<double>(kElements) * sizeof(float) * static_cast<double>(done);
      std::snprintf(line, sizeof line, "%ld requests in %.1f s: %.1f req/s, %.0f GB/s of DRAM traffic", done, seconds,
                    rate, bytes / seconds / 1e9);
    }
    out << line << std::endl;
    return exit_code::ok;
  } catch (const CudaUnavailable& e) {
    err << "gpupack neighbour: " << e.what() << "\n";
    return exit_code_for(ErrorKind::unavailable);
  } catch (const std::exception& e) {
    err << "gpupack neighbour: " << e.what() << "\n";
    return exit_code_for(ErrorKind::negative);
  }
}

}  // namespace gpupack::bench
