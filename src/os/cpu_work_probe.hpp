#pragma once
// A fixed piece of CPU work timed on the host's cores, one core a sample in turn: what tells a host whose
// cores change speed from a program that does. On the device machines (KVM guests, 16 vCPUs) a Python loop
// took 25-113 ms on one vCPU within a minute, in two modes about 2x apart, with no steal time reported and
// the GPU's clock fixed, and a launch-bound program's req/s moved between two modes 1.9x apart
// (results/run67-host-noise-h200). The work is of the kind that notices (many instructions a cycle).
#include <optional>
#include <vector>

namespace gpupack {

class CpuWorkProbe {
 public:
  virtual ~CpuWorkProbe() = default;
  // Milliseconds the fixed work took on the next core in turn; none where it could not be run there.
  virtual std::optional<double> time_next_core() = 0;
};

// The real probe: the calling thread pinned to each core this process may run on, in turn, for one piece
// of work (about 1.5-2 ms on a 2 GHz core), then given its own affinity back. Every 0.5 s (profile's
// sampling) that is well under 1% of one core.
class PinnedCpuWorkProbe : public CpuWorkProbe {
 public:
  PinnedCpuWorkProbe();
  std::optional<double> time_next_core() override;

 private:
  std::vector<int> cores_;  // the cores of this process's affinity when it was made
  std::size_t next_ = 0;
};

// The work itself, timed where the caller runs (eight independent chains of multiply-adds and shifts, 2^20
// steps, about 1.5-2 ms on a 2 GHz core; no compiler can fold them): its milliseconds.
double time_fixed_cpu_work_ms();

}  // namespace gpupack
