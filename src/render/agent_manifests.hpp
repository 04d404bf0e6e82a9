#pragma once
// The Kubernetes objects that run the gpupack agent for a rendered plan, and the kustomization that makes
// `kubectl apply -k <out>` the whole deploy step.
#include <string>
#include <vector>

namespace gpupack {

inline constexpr const char* kAgentNamespace = "gpupack-system";
inline constexpr const char* kNodeConfigMap = "gpupack-node-configs";  // one key per node: <node>.yaml
inline constexpr int kAgentMetricsPort = 9410;  // 9400 is DCGM exporter's

// gpupack-agent/<node>/node.yaml
std::string agent_node_config_path(const std::string& node);

// Namespace, ServiceAccount, DaemonSet and metrics Service (a multi-document YAML). The DaemonSet runs
// on the named nodes only (node affinity on metadata.name) and passes the node name to the agent, which
// reads /etc/gpupack/<node>.yaml from the ConfigMap. Node names must be DNS-1123 subdomains (checked).
std::string agent_manifests_yaml(const std::vector<std::string>& nodes);

// kustomization.yaml at the root of a render: `resources` as given (paths relative to the root) and the
// node-config ConfigMap generated from each node's node.yaml (when `nodes` is not empty).
std::string kustomization_yaml(const std::vector<std::string>& resources, const std::vector<std::string>& nodes);

}  // namespace gpupack
