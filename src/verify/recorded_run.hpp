#pragma once
// What `gpupack model replay` reads of a recorded verify run (verify/run_manifest.hpp): the one MPS slice
// its plan placed, and what verify measured of every replica on it. Only the fields named below are read:
// the recorded plans and verify reports span several versions of their formats, and these fields are in
// every one. Pure: parses text.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpupack::verify {

// One client (process) of the plan's slice: $.gpus[0].slices[0].clients[] (replicas[0].workload, the
// number of replicas, compute, mps_active_thread_percentage).
struct RecordedClient {
  std::string workload;
  int replicas = 1;
  double compute = 0;
  int cap_pct = 100;
};

// One replica of the verify report ($.replicas[]): the means over its repeats, and whether its p99 is its
// own tail (the tail the model predicts): see stall_free below.
struct RecordedReplica {
  std::string workload;
  double req_per_s = 0;
  double p99_ms = 0;
  bool stall_free = true;
  // Its p99 over the requests the slice's shared stalls did not meet, where verify recorded it.
  std::optional<double> p99_without_stalls_ms;
};

// Throws InputError naming `source` where the plan has no slice, a client lacks one of the fields, or a
// number is not positive.
std::vector<RecordedClient> recorded_slice_clients(std::string_view plan_text, std::string_view source);
std::vector<RecordedReplica> recorded_replicas(std::string_view verify_text, std::string_view source);

// The SM activity verify measured on the slice ($.slices[0].gpu_activity.sm_active.mean, GPM); none where the
// report has no GPM activity (a GPU without GPM, or a report from before 2026-11-26). Throws InputError naming
// `source` where it is there but not a share from 0 to 1.
std::optional<double> recorded_sm_active(std::string_view verify_text, std::string_view source);

}  // namespace gpupack::verify
