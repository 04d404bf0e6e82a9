#pragma once
// A workload to place: N identical replicas with a memory footprint, a compute demand and optional
// latency, trust and isolation requirements (the input format is documented in docs/workloads.md).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <vector>

#include "core/observed_correction.hpp"
#include "core/profile_facts.hpp"

namespace gpupack {

// What a replica needs from its neighbours.
// none: may share anything its tenant shares; memory: its slice must cap memory (MPS pinned limit or
// MIG), never plain time-slicing; fault and hardware: a slice of its own (a MIG instance or a whole GPU).
enum class Isolation { none, memory, fault, hardware };

// steady: serves traffic all the time (inference); intermittent: mostly idle (notebooks, dev, cron jobs),
// where time-slicing costs little and needs no MPS daemon.
enum class UsagePattern { steady, intermittent };

std::string_view to_string(Isolation isolation);
std::string_view to_string(UsagePattern pattern);
// Throw InputError naming the text and the accepted values.
Isolation parse_isolation(std::string_view text);
UsagePattern parse_usage_pattern(std::string_view text);

inline bool needs_own_slice(Isolation i) { return i == Isolation::fault || i == Isolation::hardware; }

// How a workload's pods are deployed on Kubernetes (`deploy:` in the scenario, docs/workloads.md).
enum class DeployKind { deployment, job, cron_job };
std::string_view to_string(DeployKind kind);  // "deployment" | "job" | "cronjob"
std::optional<DeployKind> parse_deploy_kind(std::string_view text);
inline constexpr std::string_view kDeployKindNames = "deployment, job, cronjob";

struct DeploySpec {
  std::optional<std::string> image;       // none: the pods run an image named after the workload
  std::optional<std::string> namespace_;  // none: the namespace kubectl applies to
  DeployKind kind = DeployKind::deployment;
  std::optional<std::string> schedule;    // cronjob only
  std::optional<double> cpu;              // cores each pod requests; none: its profile's host cores, if any
  std::optional<std::uint64_t> host_memory_bytes;  // host memory each pod requests
  bool empty() const { return !image && !namespace_ && kind == DeployKind::deployment && !cpu && !host_memory_bytes; }
};

struct Workload {
  std::string name;
  int replicas = 1;
  std::uint64_t memory_bytes = 0;  // device memory one replica allocates, without the CUDA context
  double compute = 0;              // fraction (0..1] of the SMs of the reference GPU one replica keeps busy
  std::optional<double> latency_slo_ms;  // p99 target
  std::optional<double> p99_alone_ms;    // p99 alone on a whole GPU; none: a share of the SLO (the model's)
  // The plan keeps predicted p99 x (1 + slo_margin) within the SLO: room for what the model does not see
  // (the worst replica's worst window). None: 0 (attach_profiles sets the model's profiled_slo_margin
  // for a profiled workload; docs/workloads.md).
  std::optional<double> slo_margin;
  std::string tenant = "default";        // trust domain
  Isolation isolation = Isolation::none;
  UsagePattern pattern = UsagePattern::steady;
  std::optional<std::string> group;  // replicas of one group may share one process (CUDA streams)
  std::optional<std::string> profile_path;      // `profile:` as written (relative to the scenario file)
  std::shared_ptr<const ProfileFacts> profile;  // loaded by the CLI; null: the synthetic model
  // What verify measured for it (`plan --observed`), per GPU model and sharing; empty without.
  std::vector<ObservedCorrection> observed;
  // Set when the plan must not place it (its profile's baseline too far from repeatable to judge it):
  // every replica is left unplaced with this reason. Empty otherwise.
  std::string not_judged;
  DeploySpec deploy;

  // The largest p99 inflation (predicted p99 / p99 alone) the SLO tolerates, its margin taken off; none
  // without an SLO. Without p99_alone_ms, p99 alone is `p99_alone_share_of_slo` of the SLO (the model's
  // parameter of that name: ModelParameters, model/model_parameters.hpp).
  std::optional<double> max_p99_inflation(double p99_alone_share_of_slo) const;
  // The SLO the plan packs to: latency_slo_ms / (1 + slo_margin); none without an SLO.
  std::optional<double> planning_slo_ms() const;
};

}  // namespace gpupack
