#include "render/pod_workload.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <regex>

#include "render/node_labels.hpp"

namespace gpupack {

namespace {

constexpr std::uint64_t kPodMiB = 1024 * 1024;

YAML::Node labels(const PodWorkload& w) {
  YAML::Node l;
  l["app.kubernetes.io/name"] = w.workload;
  l["app.kubernetes.io/instance"] = w.name;
  l["app.kubernetes.io/managed-by"] = "gpupack";
  l["gpupack.io/tenant"] = w.tenant;
  return l;
}

// The pod template: the node by name (no label needs to be set on it), the taint tolerated, the GPU.
YAML::Node pod_template(const PodWorkload& w) {
  YAML::Node t;
  t["metadata"]["labels"] = labels(w);
  YAML::Node spec;
  YAML::Node field;
  field["key"] = "metadata.name";
  field["operator"] = "In";
  field["values"].push_back(w.node);
  YAML::Node term;
  term["matchFields"].push_back(field);
  spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"].push_back(term);
  if (!w.sharing_taint_value.empty()) {
    YAML::Node tol;
    tol["key"] = kSharingTaint;
    tol["operator"] = "Equal";
    tol["value"] = w.sharing_taint_value;
    tol["effect"] = "NoSchedule";
    spec["tolerations"].push_back(tol);
  }
  if (w.host_ipc) spec["hostIPC"] = true;
  if (w.deploy.kind != DeployKind::deployment) spec["restartPolicy"] = "OnFailure";
  YAML::Node c;
  c["name"] = w.workload;
  c["image"] = workload_image(w.deploy);
  if (w.streams > 1) {
    YAML::Node env;
    env["name"] = "GPUPACK_STREAMS";
    env["value"] = std::to_string(w.streams);
    c["env"].push_back(env);
  }
  if (w.deploy.cpu) {
    // Millicores, rounded up: a profile's 0.42 cores asks for 420m.
    c["resources"]["requests"]["cpu"] = std::to_string(static_cast<long>(std::ceil(*w.deploy.cpu * 1000))) + "m";
  }
  if (w.deploy.host_memory_bytes) {
    c["resources"]["requests"]["memory"] = std::to_string((*w.deploy.host_memory_bytes + kPodMiB - 1) / kPodMiB) + "Mi";
  }
  if (w.resource) c["resources"]["limits"][*w.resource] = 1;
  if (w.claim) {
    YAML::Node ref;
    ref["name"] = "gpu";
    c["resources"]["claims"].push_back(ref);
    YAML::Node claim;
    claim["name"] = "gpu";
    claim["resourceClaimName"] = *w.claim;
    spec["resourceClaims"].push_back(claim);
  }
  spec["containers"].push_back(c);
  t["spec"] = spec;
  return t;
}

}  // namespace

PodWorkload pod_workload_of(const PlanDocument& plan, std::string name, const std::string& workload, std::string tenant,
                            std::string node, int pods, int streams) {
  PodWorkload w;
  w.name = std::move(name);
  w.workload = workload;
  w.tenant = std::move(tenant);
  w.node = std::move(node);
  w.pods = pods;
  w.deploy = deploy_of(plan, workload);
  w.streams = streams;
  return w;
}

std::string workload_image(const DocWorkloadDeploy& deploy) { return deploy.image.value_or(deploy.workload); }

std::string pod_workload_yaml(const PodWorkload& w) {
  YAML::Node o;
  YAML::Node spec;
  switch (w.deploy.kind) {
    case DeployKind::deployment:
      o["apiVersion"] = "apps/v1";
      o["kind"] = "Deployment";
      spec["replicas"] = w.pods;
      spec["selector"]["matchLabels"]["app.kubernetes.io/instance"] = w.name;
      // A surge pod would find its slice full (the node advertises exactly the planned pods).
      spec["strategy"]["type"] = "RollingUpdate";
      spec["strategy"]["rollingUpdate"]["maxSurge"] = 0;
      spec["strategy"]["rollingUpdate"]["maxUnavailable"] = 1;
      spec["template"] = pod_template(w);
      break;
    case DeployKind::job:
      o["apiVersion"] = "batch/v1";
      o["kind"] = "Job";
      spec["parallelism"] = w.pods;
      spec["completions"] = w.pods;
      spec["template"] = pod_template(w);
      break;
    case DeployKind::cron_job: {
      o["apiVersion"] = "batch/v1";
      o["kind"] = "CronJob";
      spec["schedule"] = w.deploy.schedule.value_or("@daily");
      spec["concurrencyPolicy"] = "Forbid";  // a run never overlaps the previous one on the slice
      YAML::Node job;
      job["parallelism"] = w.pods;
      job["completions"] = w.pods;
      job["template"] = pod_template(w);
      spec["jobTemplate"]["spec"] = job;
      break;
    }
  }
  o["metadata"]["name"] = w.name;
  if (w.deploy.namespace_) o["metadata"]["namespace"] = *w.deploy.namespace_;
  o["metadata"]["labels"] = labels(w);
  o["spec"] = spec;
  YAML::Emitter y;
  y << o;
  // An environment variable's value is a string to Kubernetes, but yaml-cpp writes "6" plain (an integer to
  // a YAML reader) and keeps no quoting style on nodes: quote the one numeric value the objects carry.
  static const std::regex numeric_env_value(R"((\n\s+value: )(\d+)(\n))");
  return "---\n" + std::regex_replace(std::string(y.c_str()) + "\n", numeric_env_value, "$1\"$2\"$3");
}

}  // namespace gpupack
