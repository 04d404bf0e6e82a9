#pragma once
// Shared stalls (pure): moments when several clients of one slice are slow together, found in the request
// lines of one run. Measured on an H100 (results/tail-probe-h100): beside the 8192^3 GEMM job capped at
// 25% of the SMs, every other client of the slice (resnet18-b1, mlp-b8) now and then waited for one whole
// GEMM product, ~10 times a second, each request starting and ending with one of the GEMM's. A client's p99
// is then its normal latency plus the neighbour's request whenever more than 1% of its requests meet a
// stall: a tail no per-client model predicts, and one that comes and goes with the neighbour's cap. verify
// reports the stalls, the neighbour they line up with, and each client's p99 without them, so that a p99
// miss can be told apart from a wrong model.
#include <optional>
#include <string>
#include <vector>

namespace gpupack::verify {

struct RequestSpan {
  double start_s = 0, end_s = 0;  // in one clock for every client of the run
};

struct ClientSpans {
  std::string name;  // workload-replica
  std::vector<RequestSpan> requests;
};

struct StalledClient {
  std::string name;
  double hit_fraction = 0;               // of its requests that overlap a stall
  std::optional<double> p99_ms;          // over all its requests
  std::optional<double> p99_without_ms;  // over the requests that overlap no stall
};

struct SharedStalls {
  int events = 0;                  // stalls that held at least two clients at once
  double mean_ms = 0, max_ms = 0;  // how long the stalled requests took beyond their median
  // The client whose own requests began and ended with the stalls (at least kAlignedShare of them), when
  // one did: the neighbour the others waited for.
  std::optional<std::string> aligned_with;
  double aligned_share = 0;
  std::vector<StalledClient> clients;  // every client with enough requests, in input order
};

// A request is slow when it took at least kSlowFactor x its client's median and kSlowMarginMs more.
inline constexpr double kSlowFactor = 2.5;
inline constexpr double kSlowMarginMs = 0.5;
inline constexpr double kAlignedShare = 0.8;
// Clients with fewer requests in the run are left out (their median says too little).
inline constexpr std::size_t kMinRequests = 20;

SharedStalls find_shared_stalls(const std::vector<ClientSpans>& clients);

}  // namespace gpupack::verify
