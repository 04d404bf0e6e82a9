// The plan reaches the cluster as rendered: for every example, the embedded default and random
// scenarios (MIG, MPS, time-slicing, streams, unequal limits, several nodes and tenants), render the
// plan, give each node's rendered node.yaml to the agent's device-plugin planning on a machine simulated
// from the plan's GPUs, and allocate every pod of the rendered workloads as kubelet's device manager does
// (any free device of the requested resource on the pod's node). Every pod gets a device, each MPS device
// carries the plan's thread percentage and at least the plan's memory for that workload, every planned
// replica is in exactly one pod, and the node advertises no more gpupack.io devices than its pods use.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <random>
#include <sstream>

#include "agent/device_plugin_targets.hpp"
#include "agent/node_config.hpp"
#include "agent/simulated_devices.hpp"
#include "cli/plan_pipeline.hpp"
#include "contract/plan_json.hpp"
#include "render/render_targets.hpp"

namespace gpupack {

namespace {

struct Pending {
  std::string what;
};

const RenderedFile* rendered_file(const FileTree& files, const std::string& path) {
  for (const auto& f : files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

int pod_count(const YAML::Node& doc) {
  const std::string kind = doc["kind"].as<std::string>();
  if (kind == "Deployment") return doc["spec"]["replicas"].as<int>();
  if (kind == "Job") return doc["spec"]["parallelism"].as<int>();
  if (kind == "CronJob") return doc["spec"]["jobTemplate"]["spec"]["parallelism"].as<int>();
  return 0;
}

YAML::Node pod_spec(const YAML::Node& doc) {
  const std::string kind = doc["kind"].as<std::string>();
  return kind == "CronJob" ? doc["spec"]["jobTemplate"]["spec"]["template"]["spec"] : doc["spec"]["template"]["spec"];
}

// Renders `document` and allocates every rendered pod; returns how many replicas the pods serve.
long allocate_everything(const PlanDocument& document, const GpuCatalog& catalog) {
  const FileTree files = render_targets(document, parse_render_targets("all"), catalog);
  // Free devices per node and resource, from each node's config as the agent reads it.
  std::map<std::string, std::map<std::string, std::vector<k8s::PluginDevice>>> free;
  for (const auto& node : document.nodes) {
    const RenderedFile* f = rendered_file(files, "gpupack-agent/" + node + "/node.yaml");
    if (!f) ADD_FAILURE() << "no node.yaml for " << node;
    if (!f) continue;
    const NodeConfig config = parse_node_config(f->content, f->path);
    std::vector<const GpuModel*> models;
    for (const auto& gpu : document.gpus) {
      if (gpu.node == node) models.push_back(&catalog.get(gpu.model));
    }
    const auto devices = simulated_devices(config, models);
    check_against_devices(config, devices, catalog);  // what the agent does at start
    for (const auto& r : plan_device_plugins(config, devices).resources) free[node][r.name] = r.devices;
  }
  // The plan's (percentage, memory limit) per workload and node, to check what each pod got.
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<int, std::uint64_t>>> planned;
  std::map<std::pair<std::string, std::string>, long> planned_replicas;
  for (const auto& gpu : document.gpus) {
    for (const auto& slice : gpu.slices) {
      for (const auto& c : slice.clients) {
        planned[{gpu.node, c.workload}].push_back({c.active_thread_percentage.value_or(100), c.memory_limit_bytes});
        ++planned_replicas[{gpu.node, c.workload}];
      }
    }
  }
  std::map<std::pair<std::string, std::string>, long> served;
  long total = 0;
  const RenderedFile* workloads = rendered_file(files, "k8s-workloads/deployments.yaml");
  if (!workloads) return 0;
  for (const auto& doc : YAML::LoadAll(workloads->content)) {
    if (doc["kind"].as<std::string>() == "Namespace") continue;
    const YAML::Node spec = pod_spec(doc);
    const std::string node =
        spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]
            ["matchFields"][0]["values"][0].as<std::string>();
    const YAML::Node container = spec["containers"][0];
    const std::string workload = doc["metadata"]["labels"]["app.kubernetes.io/name"].as<std::string>();
    int streams = 1;
    if (container["env"]) streams = std::stoi(container["env"][0]["value"].as<std::string>());
    const auto limits = container["resources"]["limits"];
    EXPECT_EQ(limits.size(), 1u);
    const std::string resource = limits.begin()->first.as<std::string>();
    for (int pod = 0; pod < pod_count(doc); ++pod) {
      auto& pool = free[node][resource];
      if (pool.empty()) {
        ADD_FAILURE() << "Pending: a pod of " << workload << " on " << node << " asks for " << resource
                      << ", which the node does not advertise (or not often enough)";
        continue;
      }
      const k8s::PluginDevice d = pool.back();
      pool.pop_back();
      if (d.sharing == Sharing::mps) {
        bool fits = false;
        for (const auto& [pct, memory] : planned[{node, workload}]) fits = fits || (pct == d.sm_percent && memory <= d.memory_bytes);
        EXPECT_TRUE(fits) << workload << " on " << node << " got " << resource << " (" << d.sm_percent << "%, "
                          << d.memory_bytes << " bytes), not a slice the plan gave it";
      }
      served[{node, workload}] += streams;
      total += streams;
    }
  }
  EXPECT_EQ(served, planned_replicas);
  for (const auto& [node, resources] : free) {
    for (const auto& [name, left] : resources) {
      // Whole GPUs and MIG instances without a slice stay advertised (nvidia.com/*); MPS slices never idle.
      if (name.rfind("gpupack.io/", 0) == 0) {
        EXPECT_TRUE(left.empty()) << node << " advertises " << left.size() << " unused " << name;
      }
    }
  }
  return total;
}

// Planned as `gpupack plan` plans it (cli/plan_pipeline.hpp), without the comparison rows nothing deploys.
void check_scenario(PlanInputs inputs, const std::string& what) {
  SCOPED_TRACE(what);
  const GpuCatalog catalog = builtin_catalog();
  inputs.compare = false;
  PlanDocument document = plan_scenario(PosixFilesystem{}, catalog, inputs).document;
  check_plan_document(document, catalog);
  EXPECT_EQ(allocate_everything(document, catalog), document.summary.placed);
}

// A random scenario: 1-3 pool(s) of MIG-capable or other GPUs, 2-7 workloads of several tenants with
// unequal memory and compute, some with SLOs, streams groups, isolation or an intermittent pattern.
std::string random_scenario(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const char* models[] = {"A100-80GB", "H100-80GB", "A30", "L4", "A100-40GB", "H200"};
  std::ostringstream y;
  y << "fleet:\n";
  const int pools = pick(1, 2);
  for (int p = 0; p < pools; ++p) {
    y << "  - model: " << models[pick(0, 5)] << "\n    count: " << pick(1, 4) << "\n    node_prefix: pool" << p
      << "\n    gpus_per_node: " << pick(1, 2) << "\n";
  }
  y << "workloads:\n";
  const int workloads = pick(2, 7);
  for (int w = 0; w < workloads; ++w) {
    y << "  - name: w" << w << "\n    tenant: t" << pick(0, 2) << "\n    replicas: " << pick(1, 12)
      << "\n    memory: " << pick(2, 40) * 256 << "MiB\n    compute: " << pick(1, 30) / 100.0 << "\n";
    const int kind = pick(0, 5);
    if (kind == 0) y << "    latency_slo_ms: " << pick(10, 60) << "\n";
    if (kind == 1) y << "    group: g" << w << "\n";
    if (kind == 2) y << "    isolation: memory\n";
    if (kind == 3) y << "    pattern: intermittent\n";
    if (kind == 4 && pick(0, 3) == 0) y << "    isolation: hardware\n";
  }
  return y.str();
}

}  // namespace

TEST(DeployAllocation, EmbeddedDefaultEveryPodAllocated) { check_scenario({}, "embedded default"); }

TEST(DeployAllocation, EveryExampleEveryPodAllocated) {
  PlanInputs inputs;
  for (const char* name : {"lab-40-models.yaml", "mixed-fleet.yaml", "priced-gpu-types.yaml"}) {
    inputs.scenario_file = std::string(GPUPACK_EXAMPLES_DIR) + "/" + name;
    check_scenario(inputs, name);
  }
  inputs.scenario_file = std::string(GPUPACK_EXAMPLES_DIR) + "/no-fleet.yaml";
  for (const char* gpu : {"H100-80GB", "A100-40GB", "L4"}) {
    inputs.gpu = gpu;
    check_scenario(inputs, std::string("no-fleet.yaml --gpu ") + gpu);
  }
}

TEST(DeployAllocation, RandomScenariosEveryPodAllocated) {
  std::mt19937 rng(20261127);
  PlanInputs inputs;
  for (int i = 0; i < 40; ++i) {
    inputs.scenario_file = "random-" + std::to_string(i) + ".yaml";
    inputs.scenario_text = random_scenario(rng);
    check_scenario(inputs, "random scenario " + std::to_string(i) + ":\n" + *inputs.scenario_text);
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace gpupack
