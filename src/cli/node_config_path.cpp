// Where a node-side command reads its node config: --config names a file, or a directory holding one
// config per node (the rendered ConfigMap mounted at /etc/gpupack: <node>.yaml), from which the command
// takes its node's by --node-name or $NODE_NAME (the downward API's spec.nodeName in the DaemonSet).
#include "cli/node_support.hpp"

#include "contract/names.hpp"
#include "core/errors.hpp"

namespace gpupack {

void add_node_name_option(CLI::App& cmd, std::string& name) {
  cmd.add_option("--node-name", name,
                 "With --config DIR: read DIR/<this name>.yaml (default: $NODE_NAME, as the rendered DaemonSet sets it)");
}

std::string resolve_node_config(const Env& env, const std::string& path, const std::string& node_name) {
  if (!env.fs.stat(path).is_dir) {
    if (!node_name.empty()) throw InputError("--node-name " + node_name + " needs --config to name a directory of node configs");
    return path;
  }
  std::string node = node_name;
  if (node.empty()) node = env.vars.get("NODE_NAME").value_or("");
  if (node.empty()) {
    throw InputError("--config " + path + " is a directory: name the node with --node-name or $NODE_NAME to read <node>.yaml from it");
  }
  require_dns1123_subdomain("node name", node);
  const std::string file = path + (path.back() == '/' ? "" : "/") + node + ".yaml";
  if (!env.fs.stat(file).exists) {
    throw InputError("--config " + path + " holds no config for node " + node + " (" + file +
                     "); render the plan for this node, or keep the agent off it");
  }
  return file;
}

}  // namespace gpupack
