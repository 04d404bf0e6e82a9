#pragma once
// The runs `gpupack verify` makes, in order: the solo runs (each distinct workload alone on its slice's
// whole device, no MPS: its p99 and throughput alone, the base of the plan's predictions), the plan's
// configuration `repeat` times, and with --search the density search on one slice. Each run is a
// run_session in its own directory under the scratch directory.
#include <functional>
#include <optional>
#include <string>

#include "verify/verify_result.hpp"
#include "verify/verify_session.hpp"
#include "verify/verify_setup.hpp"

namespace gpupack::verify {

struct DriverOptions {
  SessionOptions session;   // work_dir is set per run
  std::string scratch_dir;  // an existing private directory
  int repeat = 2;
  bool solo = true;
  // Also run workloads the profile predicts alone, to report how this machine differs from the profile's
  // (drift) and the predictions rebased on what it measures here.
  bool measure_alone = false;
  std::optional<std::string> search;  // the workload whose replicas the density search varies
  int search_max = 16;                // at most this many replicas of it on the slice
  int search_step = 1;                // replicas added per step up; a break is then bisected to one replica
  double tolerance = 0.25;
  bool strict = false;  // a prediction error over the tolerance fails the run (VerifyReport::strict)
  std::function<void(const std::string&)> progress;  // one line per run started (stderr)
};

VerifyReport run_verify(const VerifySetup& setup, const DriverOptions& options, const SessionDeps& deps);

// The slice of the density search: the plan's slice where `workload` first appears, with `count` of its
// replicas (copies of the first one; those past the plan's are marked extra) beside the others.
SliceSetup search_slice(const VerifySetup& setup, const std::string& workload, int count, int& planned);

}  // namespace gpupack::verify
