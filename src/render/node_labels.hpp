#pragma once
// Node labels and taints a target needs, and the kubectl script that applies them. The plan's node
// names are logical (node-0, ...): the script maps them through GPUPACK_NODE_<name> variables when set.
#include <string>
#include <vector>

namespace gpupack {

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

// A bash script (shellcheck-clean) running `kubectl label --overwrite` / `kubectl taint --overwrite`.
// Every value must already be validated (label values, DNS-1123 node names).
std::string node_label_script(const std::string& title, const std::vector<NodeLabel>& labels,
                              const std::vector<NodeTaint>& taints = {});

}  // namespace gpupack
