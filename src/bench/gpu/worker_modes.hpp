#pragma once
// One function per worker mode (worker_protocol.hpp); each returns its JSON result.
#include <nlohmann/json.hpp>

#include <iosfwd>

#include "bench/worker_protocol.hpp"

namespace gpupack::bench::gpu {

using Json = nlohmann::ordered_json;

// Tells the parent this worker is warm ("ready") and, with request.sync, blocks until it answers "go",
// so that K clients begin their measured work together.
void ready_and_wait(const WorkerRequest& request, std::istream& in, std::ostream& out);

// Creates the context up front so that "no driver" and "no device" (CudaUnavailable) are told apart from
// later failures.
void open_device();

// The SM count this process sees (under MPS with an active thread percentage: the capped count).
int visible_sm_count();

Json run_info(const WorkerRequest& request);
Json run_streams(const WorkerRequest& request);
Json run_fma(const WorkerRequest& request, std::istream& in, std::ostream& out);
Json run_latency(const WorkerRequest& request, std::istream& in, std::ostream& out);
Json run_neighbour(const WorkerRequest& request, std::istream& in, std::ostream& out);
Json run_memlimit(const WorkerRequest& request);

}  // namespace gpupack::bench::gpu
