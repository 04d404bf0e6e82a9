#pragma once
// What `gpupack verify` starts for one node of a plan, worked out before anything runs (pure): per slice
// the local device it maps to, the MPS daemon defaults, and per placed replica its command, its rendered
// environment (the same values render writes: render/client_env.hpp) and the plan's predictions. Every
// problem a user can fix (a --run for a workload the plan does not place, a placed workload without a
// --run, a GPU or MIG instance that is not here) is an InputError here, so nothing has started yet.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "render/client_env.hpp"
#include "contract/plan_json.hpp"
#include "verify/run_range.hpp"

namespace gpupack::verify {

struct ReplicaSetup {
  std::string workload;
  int replica = 0;
  std::string command;                     // run through /bin/sh -c
  bool reports = true;                     // speaks the client report (not --plain)
  std::map<std::string, std::string> env;  // rendered limits and CUDA_VISIBLE_DEVICES
  std::uint64_t memory_limit_bytes = 0;
  double predicted_p99_inflation = 1;      // the plan's predicted p99 / p99 alone
  // The plan's absolute predictions from the workload's profile (prediction_source "profile";
  // docs/plan-schema.md): used as they are, without the solo runs. None for a synthetic prediction.
  std::optional<double> profile_p99_ms, profile_req_per_s;
  // Copies of one workload from their grid: the worst copy's p99 the plan's SLO check read (profile_p99_ms
  // is the median copy's); none otherwise.
  std::optional<double> profile_worst_copy_p99_ms;
  bool extrapolated = false;               // the plan's prediction lies outside what the profile measured
  // The plan's correction by observation in its predictions (`plan --observed`): measured / predicted
  // multiplied in; none where the plan applied none.
  std::optional<double> observed_p99, observed_req_per_s;
  std::optional<double> slo_ms;            // p99 target (from --scenario)
  bool extra = false;                      // added by --search, not placed by the plan
  std::string name() const { return workload + "-" + std::to_string(replica); }
  // Both figures come from the profile: the solo runs add nothing to this replica's predictions.
  bool fully_profiled() const { return profile_p99_ms && profile_req_per_s; }
};

struct SliceSetup {
  std::string gpu_id, slice_id;  // the plan's ids
  int gpu_index = 0;             // local device index
  std::string device_uuid;       // GPU-... or MIG-...: CUDA_VISIBLE_DEVICES of the daemon or the replicas
  std::optional<std::string> mig_profile;
  std::string sharing;           // exclusive | time-slicing | mps | streams
  std::string gpu_model;         // the plan's GPU model of its GPU (what plan --observed keys corrections by)
  std::optional<MpsDaemonDefaults> mps;  // set for MPS slices
  double predicted_throughput = 1;       // per-client throughput relative to alone
  std::optional<double> predicted_sm_active;  // the plan's (model/slice_activity.hpp); none where not predicted
  std::vector<ReplicaSetup> replicas;
  std::string name() const { return gpu_id + "/" + slice_id; }
};

// A workload's figures alone as its profile predicts them on the plan's GPU (its home slice): as measured,
// or scaled from the GPU model the profile was measured on.
struct ProfileAlone {
  std::optional<double> p99_ms, req_per_s;
  std::string scaled_from;  // the profile's GPU model when its figures were scaled; empty when not
  // How far apart its baseline's runs alone were (the baseline the plan's prediction rests on).
  RunRange runs = {};
  // How long the fixed CPU work took on the host its profile was measured on (ProfileBaseline::host_core_work_ms).
  std::optional<double> host_core_work_ms = std::nullopt;
};

struct VerifySetup {
  std::string node;
  std::vector<SliceSetup> slices;
  std::vector<std::string> notes;  // things the user should know (a GPU model that differs from the plan's)
  std::map<std::string, ProfileAlone> profile_alone;  // workload -> its profile's alone figures (--scenario)
  std::map<std::string, double> slo_margin;           // workload -> the slo_margin its plan kept (--scenario)
  // The replicas the plan left unplaced, with its reasons: the density search says why the plan placed no
  // more of the workload it searches (the fleet's host cores, its SLO, memory), beside how many fit.
  std::vector<DocUnplaced> unplaced;
};

struct SetupRequest {
  std::map<std::string, std::string> runs;  // workload -> command (--run)
  std::vector<std::string> plain;           // workloads that do not speak the client report (--plain)
  std::optional<std::string> node;          // --node; default: the plan's only (or first) node
  std::map<std::string, double> slo_ms;     // workload -> p99 SLO (ms)
  std::map<std::string, double> slo_margin; // workload -> the slo_margin its plan kept
  std::map<std::string, ProfileAlone> profile_alone;  // workload -> its profile's alone figures
};

// `plan`: read by the contract's plan JSON reader (read_plan_json), the one reader of the plan and its
// predictions. Throws InputError naming the input and what is accepted.
VerifySetup build_setup(const PlanDocument& plan, const SetupRequest& request, const std::vector<GpuDeviceInfo>& devices);

// The environment a replica of `slice` gets (without GPUPACK_REPORT / GPUPACK_GO and the daemon's pipe
// directory, which are per run): CUDA_VISIBLE_DEVICES and, under MPS, the rendered client limits.
std::map<std::string, std::string> replica_environment(const SliceSetup& slice, const DocPlacement& client);

// The distinct workloads of a setup, in order of first appearance.
std::vector<std::string> workloads_of(const VerifySetup& setup);

}  // namespace gpupack::verify
