#pragma once
// The one writer of the objects that run a workload's pods on a planned slice (k8s-workloads/ and dra/):
// a Deployment, Job or CronJob (the workload's deploy kind) with its image, namespace and CPU/memory
// requests, pinned to its planned node by name, asking for one unit of a device-plugin resource or
// referencing a DRA ResourceClaim. No kind may run more pods on a slice than the plan put there: a
// Deployment rolls with maxSurge 0, a CronJob forbids overlapping runs, a Job runs its pods once.
#include <optional>
#include <string>

#include "contract/plan_document.hpp"

namespace gpupack {

struct PodWorkload {
  std::string name;  // the object's name (a DNS-1123 label)
  std::string workload, tenant, node;
  int pods = 1;
  DocWorkloadDeploy deploy;
  std::optional<std::string> resource;  // a device-plugin resource: one unit per container
  std::optional<std::string> claim;     // or a DRA ResourceClaim the pods share
  bool host_ipc = false;                // MPS before Volta
  int streams = 1;                      // >1: each pod is one process serving this many replicas (GPUPACK_STREAMS)
  std::string sharing_taint_value;      // "": the node is not tainted
};

// The pods of `workload` (its deploy fields from the plan) on `node`: `pods` of them, each one process
// serving `streams` replicas; the GPU (resource or claim) and node details are set by the caller.
PodWorkload pod_workload_of(const PlanDocument& plan, std::string name, const std::string& workload, std::string tenant,
                            std::string node, int pods, int streams);

// One YAML document, starting with "---".
std::string pod_workload_yaml(const PodWorkload& w);

// The image a workload's pods run: its deploy.image, else its own name (for `kustomize edit set image`).
std::string workload_image(const DocWorkloadDeploy& deploy);

}  // namespace gpupack
