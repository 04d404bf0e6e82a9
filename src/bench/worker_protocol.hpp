#pragma once
// What `gpupack bench` asks of one `gpupack bench-worker` process, and how the worker answers.
// The parent never touches CUDA itself: every GPU measurement runs in a worker process, so that the
// parent holds no CUDA context that would change what time-slicing or an MPS daemon sees. A worker prints
// "ready" once its context is warm, waits for "go" on stdin when asked to (so that K clients start
// together), and prints its result as one JSON line last.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpupack::bench {

enum class WorkerMode {
  info,       // device properties, versions, and kernel calibration
  streams,    // one process: 1 vs K streams, copy/compute overlap
  fma,        // a fixed number of FMA kernel launches (a throughput client)
  latency,    // small synchronous kernels, each timed (the latency-critical client)
  neighbour,  // tiled GEMMs back to back until "stop" (the saturating neighbour)
  memlimit,   // allocations within and beyond the pinned device memory limit
};

const char* to_string(WorkerMode mode);
WorkerMode worker_mode_from_string(const std::string& name);  // throws InputError

struct WorkerRequest {
  WorkerMode mode = WorkerMode::info;
  bool sync = false;        // print "ready", then wait for "go" on stdin before measuring
  int blocks = 8;           // fma / latency: grid size
  int threads = 256;        // fma / latency: block size
  long iters = 1000;        // fma / latency: FMA loop iterations per thread per kernel
  int launches = 1;         // fma: kernels per run; latency: timed samples; streams: repetitions
  int gemm_n = 2048;        // neighbour: matrix size
  long within_mib = 0;      // memlimit: an allocation expected to succeed
  long beyond_mib = 0;      // memlimit: an allocation expected to fail
};

// The worker's arguments after "bench-worker", and back (tests check the round trip).
std::vector<std::string> to_args(const WorkerRequest& request);

// The result JSON from a worker's stdout: the last line that parses as a JSON object. Throws
// std::runtime_error naming the worker when there is none or it carries "error".
nlohmann::json parse_worker_output(const std::string& stdout_text, const std::string& what);

}  // namespace gpupack::bench
