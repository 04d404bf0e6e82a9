#pragma once
// How fast this node's cores are beside its profiles' hosts: both time the same fixed piece of CPU work
// (os/cpu_work_probe.hpp). Over the recorded profiles a launch-bound program's rate alone went with that time
// from one host to the next: bert-base-b4's req/s about as its -0.6th power (correlation -0.54, 38 runs),
// dlrm-b4096's (its work on the GPU) hardly at all (scripts/host-speed.py,
// results/host-speed-2026-11-29-runs101.txt). Not on every machine (run99: a node timed x0.61 ran bert 0.6x its
// prediction), so verify says it beside the errors as a reason they can have, and the plan does not rebase on it.
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
