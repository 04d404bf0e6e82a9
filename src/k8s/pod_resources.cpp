#include "k8s/pod_resources.hpp"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <stdexcept>

#include "podresources_v1.grpc.pb.h"

namespace gpupack::k8s {

std::map<std::string, PodContainer> PodResourcesClient::list(std::chrono::milliseconds timeout) const {
  auto stub = v1::PodResourcesLister::NewStub(grpc::CreateChannel("unix://" + socket_, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  v1::ListPodResourcesRequest req;
  v1::ListPodResourcesResponse resp;
  const grpc::Status status = stub->List(&ctx, req, &resp);
  if (!status.ok()) throw std::runtime_error("PodResources List on " + socket_ + " failed: " + status.error_message());
  std::map<std::string, PodContainer> out;
  for (const auto& pod : resp.pod_resources()) {
    for (const auto& c : pod.containers()) {
      for (const auto& devices : c.devices()) {
        for (const auto& id : devices.device_ids()) out[id] = {pod.name(), pod.namespace_(), c.name(), devices.resource_name()};
      }
    }
  }
  return out;
}

std::optional<PodContainer> pod_of_client(const std::string& device_ids_env, const std::map<std::string, PodContainer>& allocations) {
  std::size_t start = 0;
  while (start <= device_ids_env.size()) {
    const std::size_t comma = std::min(device_ids_env.find(',', start), device_ids_env.size());
    if (const auto it = allocations.find(device_ids_env.substr(start, comma - start)); it != allocations.end()) return it->second;
    start = comma + 1;
  }
  return std::nullopt;
}

std::map<std::string, std::vector<PodContainer>> pods_by_target(const std::map<std::string, PodContainer>& allocations,
                                                                const std::vector<PluginResource>& resources) {
  std::map<std::string, std::vector<PodContainer>> out;
  for (const auto& r : resources) {
    for (const auto& d : r.devices) {
      const auto it = allocations.find(d.id);
      if (it == allocations.end() || it->second.resource != r.name) continue;
      auto& list = out[d.target_uuid];
      if (std::find(list.begin(), list.end(), it->second) == list.end()) list.push_back(it->second);
    }
  }
  return out;
}

}  // namespace gpupack::k8s
