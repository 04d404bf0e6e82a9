// The scenario's Kubernetes fields: a pool's real node names (`node_names`) and a workload's `deploy:`
// (image, namespace, kind, schedule, cpu, memory), each refused with one line naming the field.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "io/scenario_yaml.hpp"

namespace gpupack {

namespace {

Scenario parse_deploy_scenario(const std::string& text) { return parse_scenario_yaml(text, "in.yaml", builtin_catalog()); }

std::string deploy_error_of(const std::string& text) {
  try {
    parse_deploy_scenario(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kWorkload = "workloads: [{name: a, memory: 1GiB, compute: 0.1}]\n";

}  // namespace

TEST(ScenarioDeploy, NodeNamesNameThePoolsNodesInOrder) {
  const Scenario s = parse_deploy_scenario(
      "fleet:\n  - {model: H100-80GB, count: 3, gpus_per_node: 2, node_names: [gpu-a.example.com, gpu-b]}\n" + kWorkload);
  ASSERT_EQ(s.fleet[0].node_names.size(), 2u);
  EXPECT_EQ(node_name(s.fleet[0], 0), "gpu-a.example.com");
  EXPECT_EQ(node_name(s.fleet[0], 1), "gpu-a.example.com");
  EXPECT_EQ(node_name(s.fleet[0], 2), "gpu-b");
}

TEST(ScenarioDeploy, BadNodeNamesAreRefusedNamingTheField) {
  EXPECT_NE(deploy_error_of("fleet:\n  - {model: L4, count: 1, node_names: [Node_1]}\n" + kWorkload)
                .find("node name 'Node_1' is not a DNS-1123 subdomain"),
            std::string::npos);
  // Two plan nodes on one real node.
  EXPECT_NE(deploy_error_of("fleet:\n  - {model: L4, count: 1, node_names: [n1]}\n  - {model: L4, count: 1, node_names: [n1]}\n" +
                            kWorkload)
                .find("node 'n1' is named twice"),
            std::string::npos);
  EXPECT_NE(deploy_error_of("fleet:\n  - {model: L4, count: 1, node_prefix: n, node_names: [n-0]}\n  - {model: L4, count: 1, node_prefix: n}\n" +
                            kWorkload)
                .find("node 'n-0' is named twice"),
            std::string::npos);
  EXPECT_NE(deploy_error_of("fleet:\n  - {model: L4, count: 4, gpus_per_node: 2, node_names: [a]}\n" + kWorkload)
                .find("'node_names' lists 1 node(s), but count 4 at gpus_per_node 2 makes 2"),
            std::string::npos);
  EXPECT_NE(deploy_error_of("fleet:\n  - {model: L4, count: auto, node_names: [a]}\n" + kWorkload).find("needs a whole 'count'"),
            std::string::npos);
}

TEST(ScenarioDeploy, DeployFieldsAndTheirErrors) {
  const Scenario s = parse_deploy_scenario(
      "workloads:\n  - name: a\n    memory: 1GiB\n    compute: 0.1\n    deploy: {image: 'reg.io/a:1', namespace: ml, cpu: 0.5, memory: 2Gi}\n"
      "  - name: b\n    memory: 1GiB\n    compute: 0.1\n    deploy: {kind: cronjob, schedule: '0 3 * * *'}\n");
  EXPECT_EQ(s.workloads[0].deploy.image, "reg.io/a:1");
  EXPECT_EQ(s.workloads[0].deploy.namespace_, "ml");
  EXPECT_EQ(s.workloads[0].deploy.cpu, 0.5);
  EXPECT_EQ(s.workloads[0].deploy.host_memory_bytes, 2ull << 30);
  EXPECT_EQ(s.workloads[1].deploy.kind, DeployKind::cron_job);
  EXPECT_EQ(s.workloads[1].deploy.schedule, "0 3 * * *");
  const std::string head = "workloads:\n  - name: a\n    memory: 1GiB\n    compute: 0.1\n";
  EXPECT_NE(deploy_error_of(head + "    deploy: {image: 'a b'}\n").find("is not an image reference"), std::string::npos);
  EXPECT_NE(deploy_error_of(head + "    deploy: {kind: statefulset}\n").find("'kind' must be one of deployment, job, cronjob"),
            std::string::npos);
  EXPECT_NE(deploy_error_of(head + "    deploy: {kind: cronjob}\n").find("needs a 'schedule'"), std::string::npos);
  EXPECT_NE(deploy_error_of(head + "    deploy: {schedule: '@daily'}\n").find("'schedule' needs kind: cronjob"), std::string::npos);
  EXPECT_NE(deploy_error_of(head + "    latency_slo_ms: 9\n    deploy: {kind: job}\n").find("runs to completion"), std::string::npos);
  EXPECT_NE(deploy_error_of(head + "    deploy: {namespace: Bad_NS}\n").find("'namespace' must be"), std::string::npos);
  EXPECT_NE(deploy_error_of(head + "    deploy: {imag: x}\n").find("did you mean 'image'"), std::string::npos);
}

}  // namespace gpupack
