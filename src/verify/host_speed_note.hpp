#pragma once
// How fast this node's cores are beside its profiles' hosts: both time the same fixed piece of CPU work
// (os/cpu_work_probe.hpp). A launch-bound program's rate alone follows that time from one host to the next:
// over the recorded profiles bert-base-b4's req/s went as about the -0.8th power of it, dlrm-b4096's (its
// work on the GPU) hardly at all (scripts/host-speed.py, results/host-speed-2026-11-29.txt). So a profile
// from a slower or faster host predicts such a program off by that much, which verify says beside the errors.
#include "os/cpu_work_probe.hpp"
#include "verify/verify_result.hpp"

namespace gpupack::verify {

// Samples the node's host speed takes: two rounds over a 16-core host, about 2 ms each.
inline constexpr int kHostWorkSamples = 32;

// Hosts whose times are within this factor of each other are "about as fast": issue 36's req/s target, so
// a host-bound program would stay within it.
inline constexpr double kSameHostSpeed = 1.15;

// The node's host speed, timed where the probe runs (before any replica starts, so no client competes for
// its cores); none when the probe could time nothing.
std::optional<measure::HostCoreWork> time_host_speed(CpuWorkProbe& probe);

// Adds a note to report.notes where the node's time (report.host_core_work) and at least one profile's
// (AloneFigures::profile_host_core_work_ms) are known: each profile's host against this one, as a ratio.
void add_host_speed_note(VerifyReport& report);

}  // namespace gpupack::verify
