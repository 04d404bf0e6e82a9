#pragma once
// Node labels and taints a target needs, and the kubectl script that applies them. The plan's node
// names are logical (node-0, ...): the script maps them through GPUPACK_NODE_<name> variables when set.
#include <string>
#include <vector>

namespace gpupack {

// The label that ties a rendered Deployment to its planned node (k8s-workloads/ and dra/ select by it).
inline constexpr const char* kPlannedNodeLabel = "gpupack.io/node";
// The taint on nodes whose GPUs are shared (value: how, workloads_target.cpp), which rendered pods and the
// agent's DaemonSet tolerate.
inline constexpr const char* kSharingTaint = "gpupack.io/sharing";

struct NodeLabel {
  std::string node;
  std::string key;
  std::string value;
};

struct NodeTaint {
  std::string node;
  std::string key;
  std::string value;
  std::string effect = "NoSchedule";
};

// A label the node must already carry before anything is labelled: the files were rendered for it.
// E.g. NVIDIA's GPU feature discovery label nvidia.com/gpu.count=2, because the NVIDIA plugin shares every
// GPU of a node alike and the plan only knows the GPUs it uses.
struct NodeGuard {
  std::string node;
  std::string key;
  std::string value;
};

// A bash script (shellcheck-clean) running `kubectl label --overwrite`, after checking every guard (a failed
// guard stops the script before it labels anything); `kubectl taint --overwrite` only when the script is run
// with --taint (taints are opt-in: operators' DaemonSets do not tolerate them).
// Every value must already be validated (label values, DNS-1123 node names).
std::string node_label_script(const std::string& title, const std::vector<NodeLabel>& labels,
                              const std::vector<NodeTaint>& taints = {}, const std::vector<NodeGuard>& guards = {});

}  // namespace gpupack
