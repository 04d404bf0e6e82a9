#include "render/agent_manifests.hpp"

#include <yaml-cpp/yaml.h>

#include "core/build_info.hpp"

namespace gpupack {

namespace {

// The parts that do not depend on the plan, as YAML; the node list and image are set on the parsed tree,
// so that every value the plan brings is emitted (and quoted) by yaml-cpp.
constexpr const char* kDaemonSet = R"yaml(apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: gpupack-agent
  namespace: gpupack-system
  labels: {app.kubernetes.io/name: gpupack-agent, app.kubernetes.io/part-of: gpupack}
spec:
  selector:
    matchLabels: {app.kubernetes.io/name: gpupack-agent}
  updateStrategy: {type: RollingUpdate}
  template:
    metadata:
      labels: {app.kubernetes.io/name: gpupack-agent, app.kubernetes.io/part-of: gpupack}
    spec:
      serviceAccountName: gpupack-agent
      automountServiceAccountToken: false
      priorityClassName: system-node-critical
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchFields: [{key: metadata.name, operator: In, values: []}]
      tolerations:
        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
        - {key: gpupack.io/sharing, operator: Exists, effect: NoSchedule}
      containers:
        - name: agent
          image: ""
          args: ["agent", "--config", "/etc/gpupack", "--node-name", "$(NODE_NAME)", "--log-format", "text"]
          env:
            - name: NODE_NAME
              valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
            - {name: NVIDIA_VISIBLE_DEVICES, value: all}
            - {name: NVIDIA_DRIVER_CAPABILITIES, value: "compute,utility"}
          ports:
            - {name: metrics, containerPort: 0, protocol: TCP}
          readinessProbe:
            httpGet: {path: /healthz, port: metrics}
            periodSeconds: 10
          livenessProbe:
            httpGet: {path: /healthz, port: metrics}
            initialDelaySeconds: 30
            periodSeconds: 30
            failureThreshold: 4
          resources:
            requests: {cpu: 50m, memory: 32Mi}
            limits: {memory: 128Mi}
          # Root (the image's own user is the unprivileged gpupack, for the CLI) without capabilities:
          # root to create kubelet's sockets and run the MPS control daemon; not privileged.
          securityContext:
            runAsUser: 0
            runAsGroup: 0
            privileged: false
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities: {drop: ["ALL"]}
            seccompProfile: {type: RuntimeDefault}
          volumeMounts:
            - {name: config, mountPath: /etc/gpupack, readOnly: true}
            - {name: device-plugins, mountPath: /var/lib/kubelet/device-plugins}
            - {name: pod-resources, mountPath: /var/lib/kubelet/pod-resources, readOnly: true}
            - {name: mps-root, mountPath: /run/gpupack/mps}
            - {name: dev-shm, mountPath: /dev/shm}
            - {name: cdi, mountPath: /var/run/cdi}
            - {name: nfd-features, mountPath: /etc/kubernetes/node-feature-discovery/features.d}
      volumes:
        - {name: config, configMap: {name: gpupack-node-configs}}
        - {name: device-plugins, hostPath: {path: /var/lib/kubelet/device-plugins, type: Directory}}
        - {name: pod-resources, hostPath: {path: /var/lib/kubelet/pod-resources, type: Directory}}
        - {name: mps-root, hostPath: {path: /run/gpupack/mps, type: DirectoryOrCreate}}
        - {name: dev-shm, hostPath: {path: /dev/shm, type: Directory}}
        - {name: cdi, hostPath: {path: /var/run/cdi, type: DirectoryOrCreate}}
        - {name: nfd-features, hostPath: {path: /etc/kubernetes/node-feature-discovery/features.d, type: DirectoryOrCreate}}
)yaml";

constexpr const char* kOthers = R"yaml(apiVersion: v1
kind: Namespace
metadata: {name: gpupack-system}
---
# The agent talks to kubelet over its local sockets only, never to the API server: no RBAC, no token.
apiVersion: v1
kind: ServiceAccount
metadata: {name: gpupack-agent, namespace: gpupack-system}
automountServiceAccountToken: false
---
)yaml";

constexpr const char* kService = R"yaml(apiVersion: v1
kind: Service
metadata:
  name: gpupack-agent-metrics
  namespace: gpupack-system
  labels: {app.kubernetes.io/name: gpupack-agent, app.kubernetes.io/component: metrics}
spec:
  clusterIP: None
  selector: {app.kubernetes.io/name: gpupack-agent}
  ports:
    - {name: metrics, port: 0, targetPort: metrics, protocol: TCP}
)yaml";

std::string emit(const YAML::Node& node) {
  YAML::Emitter y;
  y << node;
  return std::string(y.c_str()) + "\n";
}

}  // namespace

std::string agent_node_config_path(const std::string& node) { return "gpupack-agent/" + node + "/node.yaml"; }

std::string agent_manifests_yaml(const std::vector<std::string>& nodes) {
  YAML::Node ds = YAML::Load(kDaemonSet);
  YAML::Node pod = ds["spec"]["template"]["spec"];
  YAML::Node values = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                         ["nodeSelectorTerms"][0]["matchFields"][0]["values"];
  for (const auto& n : nodes) values.push_back(n);
  pod["containers"][0]["image"] = std::string(gpupack_image());
  pod["containers"][0]["ports"][0]["containerPort"] = kAgentMetricsPort;
  YAML::Node svc = YAML::Load(kService);
  svc["spec"]["ports"][0]["port"] = kAgentMetricsPort;
  return std::string("# The gpupack agent on the plan's nodes (docs/kubernetes.md), generated by gpupack render.\n") +
         kOthers + emit(ds) + "---\n" + emit(svc);
}

std::string kustomization_yaml(const std::vector<std::string>& resources, const std::vector<std::string>& nodes) {
  YAML::Node k;
  k["apiVersion"] = "kustomize.config.k8s.io/v1beta1";
  k["kind"] = "Kustomization";
  for (const auto& r : resources) k["resources"].push_back(r);
  if (!nodes.empty()) {
    YAML::Node gen;
    gen["name"] = kNodeConfigMap;
    gen["namespace"] = kAgentNamespace;
    for (const auto& n : nodes) gen["files"].push_back(n + ".yaml=" + agent_node_config_path(n));
    k["configMapGenerator"].push_back(gen);
  }
  return "# kubectl apply -k . deploys the plan (docs/kubernetes.md); generated by gpupack render.\n" + emit(k);
}

}  // namespace gpupack
