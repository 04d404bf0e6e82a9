#pragma once
// One kubelet device plugin: the v1beta1.DevicePlugin gRPC service for one resource, served on its own
// unix socket in the plugin directory. ListAndWatch streams the full device list at once and again on
// every health change; Allocate and GetPreferredAllocation answer from allocation.hpp. The server can be
// stopped and started again (kubelet restarts delete our socket) without losing device health.
#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "deviceplugin_v1beta1.grpc.pb.h"
#include "k8s/device_plan.hpp"
#include "os/filesystem.hpp"

namespace gpupack::k8s {

struct ServerOptions {
  std::string plugin_dir;
  AllocationPolicy policy = AllocationPolicy::packed;
  bool cdi = false;
  // Asked at PreStartContainer with the container's device IDs of this resource: a refusal message, or
  // empty to let it start (container_check.hpp). Unset: kubelet is told PreStartContainer is not needed.
  std::function<std::string(const std::vector<std::string>& ids)> pre_start_check;
};

class DevicePluginServer final : public v1beta1::DevicePlugin::Service {
 public:
  // The socket's staging directory, its mode and its rename go through `fs` (the Env's files).
  DevicePluginServer(PluginResource resource, ServerOptions options, Filesystem& fs);
  ~DevicePluginServer() override;
  DevicePluginServer(const DevicePluginServer&) = delete;
  DevicePluginServer& operator=(const DevicePluginServer&) = delete;

  // Serves on <plugin_dir>/<socket_name(resource)>, replacing a stale socket file. Throws
  // std::runtime_error when the socket cannot be bound.
  void start();
  // Ends open ListAndWatch streams, stops serving and removes the socket. Idempotent.
  void stop();
  bool serving() const;

  const std::string& resource_name() const { return resource_.name; }
  const PluginResource& resource() const { return resource_; }
  std::string endpoint() const;     // the socket's file name, what Register sends
  std::string socket_path() const;

  // Marks unhealthy every device on one of these GPU or MIG UUIDs (and healthy every other); returns
  // whether anything changed, in which case the open streams send the new list.
  bool set_unhealthy(const std::map<std::string, std::string>& reasons_by_uuid);
  bool healthy(const std::string& device_id) const;
  std::uint64_t list_version() const;  // increases with each change of the list

  grpc::Status GetDevicePluginOptions(grpc::ServerContext*, const v1beta1::Empty*, v1beta1::DevicePluginOptions* out) override;
  grpc::Status ListAndWatch(grpc::ServerContext* ctx, const v1beta1::Empty*,
                            grpc::ServerWriter<v1beta1::ListAndWatchResponse>* writer) override;
  grpc::Status GetPreferredAllocation(grpc::ServerContext*, const v1beta1::PreferredAllocationRequest* req,
                                      v1beta1::PreferredAllocationResponse* out) override;
  grpc::Status Allocate(grpc::ServerContext*, const v1beta1::AllocateRequest* req, v1beta1::AllocateResponse* out) override;
  grpc::Status PreStartContainer(grpc::ServerContext*, const v1beta1::PreStartContainerRequest* req,
                                 v1beta1::PreStartContainerResponse*) override;

 private:
  v1beta1::ListAndWatchResponse list_locked() const;

  const PluginResource resource_;
  const ServerOptions options_;
  Filesystem& fs_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, bool> healthy_;  // by device ID
  std::uint64_t version_ = 1;
  bool stopping_ = false;
  mutable std::mutex server_mutex_;  // serialises start and stop
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace gpupack::k8s
