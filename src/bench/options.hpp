#pragma once
// What the user asked `gpupack bench` to do, and the experiment plan derived from it (sizes, sample
// counts, K values), kept apart from the code that runs it so that both are testable without a GPU.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/sharing.hpp"

namespace gpupack::bench {

// The parts of a bench run: groups of experiments, chosen with --only. Not a sharing type: three parts
// measure one sharing each and are named by it (its measurement key: streams, timeslicing, mps), one
// measures MIG instances, and the others measure what no sharing is (isolation from a neighbour, the MPS
// limits, the user's own client program).
enum class Part { streams, time_slicing, mps, isolation, limits, mig, client };

std::string to_string(Part part);
// The sharing a part measures; none for the parts that measure no sharing.
std::optional<Sharing> measured_sharing(Part part);
// The mode name of a measured run under a sharing (ClientRun::mode, IsolationRun::setting, a grid
// cell's mode): the sharing's measurement key, "timeslicing" or "mps".
std::string measured_mode(Sharing sharing);
// "streams,mps" -> {streams, mps}; a sharing part also by its text form ("time-slicing"); throws
// InputError naming the unknown word and the accepted ones.
std::set<Part> parse_parts(const std::string& list);
// "1,2,4,8" -> {1, 2, 4, 8} (sorted, each once, 1..48); throws InputError naming `option` and the bad word.
std::vector<int> parse_ks(const std::string& list, const std::string& option = "--ks");

struct BenchOptions {
  bool quick = false;
  std::set<Part> parts{Part::streams, Part::time_slicing, Part::mps, Part::isolation, Part::limits, Part::mig};
  std::optional<std::string> client_cmd;  // --client-cmd: the user's own program, run through /bin/sh -c
  // Its co-location grid (experiments_grid.cpp): K copies at once per mode, measured from their client
  // reports over one steady window, optionally beside --neighbour-cmd.
  std::vector<int> client_ks{1, 2, 4, 8};    // --ks (or -n K: 1 and K)
  std::optional<std::string> neighbour_cmd;  // --neighbour-cmd: a program run beside one copy
  double window_s = 10;                      // --window: the measured window after the release
  double settle_s = 1;                       // after the release, before the window: first requests contend
  double ready_timeout_s = 300;              // --ready-timeout: every copy must write its ready line by then
  double stop_grace_s = 5;                   // SIGTERM, then this long before SIGKILL
  std::vector<int> sweep_pcts;               // --sweep: one copy alone under MPS at these active thread %
  std::optional<std::string> json_path;
  std::optional<std::string> report_path;
  std::string mps_control = "nvidia-cuda-mps-control";  // --mps-control: the control program (tests use a fake)
};

// Sizes of every experiment, in milliseconds of work on this GPU alone (converted to loop counts with the
// info worker's calibration) and in sample counts.
struct BenchPlan {
  std::vector<int> ks{1, 2, 4, 8};       // time-slicing / MPS process counts
  int client_blocks = 8;                 // a throughput client leaves most SMs free (as in the reference)
  int client_threads = 256;
  double client_work_ms = 300;           // one client's work alone
  double client_kernel_ms = 2;           // split into kernels of this length
  double latency_kernel_us = 200;        // the latency client's request (~0.2 ms, as in the reference)
  int latency_samples = 2000;
  std::vector<int> caps{25, 50, 75};     // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE of the neighbour / limit checks
  double neighbour_alone_s = 1.0;        // how long the neighbour's alone throughput is measured
  double limit_work_ms = 200;            // saturating FMA work per thread-limit check (at 100%)
  int stream_reps = 10;
  double stream_kernel_ms = 1;
  long mem_limit_mib = 2048;             // CUDA_MPS_PINNED_DEVICE_MEM_LIMIT for the memory check
  long mem_within_mib = 1024;            // the CUDA context's own memory counts too (about 0.5 GiB)
  long mem_beyond_mib = 3072;
  int gemm_n = 2048;
};

BenchPlan make_plan(const BenchOptions& options);

}  // namespace gpupack::bench
