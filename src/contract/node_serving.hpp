#pragma once
// What the gpupack agent serves on each node of a plan, and what each pod of the plan requests, derived
// from the typed plan in this one place: the agent's node config (`gpupack render --target
// gpupack-agent`) and the Deployments (`--target k8s-workloads`) are both written from it, so a node
// advertises exactly the resources, counts and per-client limits that the pods planned on it request.
//
// Per GPU or MIG instance (a target): exclusive and streams slices are one pod on the whole target
// (nvidia.com/gpu or nvidia.com/mig-<profile>; a streams group is one process serving several replicas),
// time-slicing is one pod per client on that resource, MPS is one slice per client with its own thread
// percentage and pinned memory (device_plugin.mps_slices). MPS clients of one percentage on a target get
// the largest of their memory limits when the target holds that much (so their pods are
// interchangeable), else each its own. Where one resource name would cover slices that are not
// interchangeable on a node (other tenants' instances, other memory sizes) the name gets a qualifier: the
// tenant, then the memory in MiB ("gpupack.io/mig-2g.20gb-mps-15-ads", "gpupack.io/mps-20-1536mi").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contract/node_config.hpp"
#include "contract/plan_document.hpp"

namespace gpupack {

// One process of the plan, run as one pod.
struct ServedPod {
  std::string workload;  // of its replicas (a process serves replicas of one workload)
  std::string tenant;
  std::string resource;  // the extended resource its container requests, one unit
  int replicas = 1;      // plan replicas the process serves (several for a streams group)
  std::optional<int> sm_percent;  // MPS: the slice's thread percentage
  std::string gpu_id, slice_id;   // where the plan put it
  std::optional<std::string> mig_profile;  // of its slice
};

struct NodeServing {
  std::string node;
  NodeConfig config;  // with its device_plugin section enabled and every MPS target's slices
  std::vector<ServedPod> pods;
};

// Per node of the plan, in plan order. Throws InputError where a slice holds more MPS clients than node.yaml
// admits (60) or a resource name cannot be made within Kubernetes' 63 characters.
std::vector<NodeServing> gpupack_agent_serving(const PlanDocument& plan);

}  // namespace gpupack
