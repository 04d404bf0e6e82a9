#pragma once
// A kubelet simulator for the device plugin tests: the Registration service on <dir>/kubelet.sock, and a
// client that calls a plugin's socket the way kubelet does (options, ListAndWatch, Allocate ...). A
// restart deletes every socket in the directory and serves kubelet.sock anew, as kubelet does.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "deviceplugin_v1beta1.grpc.pb.h"
#include "podresources_v1.grpc.pb.h"

namespace gpupack::testing {

// Generous: the tests run on loaded 2-core machines and under sanitizers.
inline constexpr auto kWait = std::chrono::seconds(20);

// What kubelet's device manager made of one container's resources (KubeletSim::start_container).
struct ContainerStart {
  grpc::Status status;  // the first failure: Allocate, or PreStartContainer of a plugin that asks for it
  std::map<std::string, std::string> envs;  // merged as kubelet merges them: the first value of a name wins
  std::vector<std::string> conflicts;       // names two replies set differently (kubelet only logs these)
};

// kubelet's PodResources v1 List: the devices start_container allocated, per pod and container.
class PodResourcesSim final : public v1::PodResourcesLister::Service {
 public:
  grpc::Status List(grpc::ServerContext*, const v1::ListPodResourcesRequest*, v1::ListPodResourcesResponse* out) override;
  void add(const std::string& pod, const std::string& ns, const std::string& container, const std::string& resource,
           const std::vector<std::string>& ids);

 private:
  std::mutex mutex_;
  v1::ListPodResourcesResponse listing_;
};

class KubeletSim final : public v1beta1::Registration::Service {
 public:
  explicit KubeletSim(std::string dir) : dir_(std::move(dir)) {}
  ~KubeletSim() override { stop(); }

  void start();
  void stop();     // stops serving and removes kubelet.sock
  void restart();  // stop, delete every socket in the directory, serve again

  grpc::Status Register(grpc::ServerContext*, const v1beta1::RegisterRequest* req, v1beta1::Empty*) override;

  std::vector<v1beta1::RegisterRequest> registrations() const;
  // Waits until at least n Register calls arrived in total.
  bool wait_for_registrations(std::size_t n, std::chrono::milliseconds timeout = kWait) const;
  std::string socket_path() const { return dir_ + "/kubelet.sock"; }
  // Served by start() in a subdirectory, as kubelet serves /var/lib/kubelet/pod-resources/kubelet.sock.
  std::string pod_resources_socket() const { return dir_ + "/pod-resources/kubelet.sock"; }

  // Admits one container that requests `ids_by_resource` as kubelet's device manager does: Allocate once
  // per resource (in name order, one of the orders kubelet's map iteration may take), the replies'
  // environments merged, the devices recorded for PodResources, then PreStartContainer for every
  // plugin whose registration asked for it.
  ContainerStart start_container(const std::string& pod, const std::string& ns, const std::string& container,
                                 const std::map<std::string, std::vector<std::string>>& ids_by_resource);

 private:
  std::string dir_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<v1beta1::RegisterRequest> registrations_;
  std::unique_ptr<grpc::Server> server_;
  PodResourcesSim pod_resources_;
  std::unique_ptr<grpc::Server> pod_resources_server_;
};

// kubelet's side of one plugin.
class PluginClient {
 public:
  explicit PluginClient(const std::string& socket_path);
  ~PluginClient();

  grpc::Status options(v1beta1::DevicePluginOptions* out);
  grpc::Status allocate(const std::vector<std::vector<std::string>>& containers, v1beta1::AllocateResponse* out);
  grpc::Status preferred(const std::vector<std::string>& available, const std::vector<std::string>& must, int size,
                         std::vector<std::string>* out);
  grpc::Status pre_start(const std::vector<std::string>& ids);

  // Opens ListAndWatch in a thread that records every list received.
  void watch();
  // Waits for a list (received after `after` lists) that satisfies pred; returns it in *out.
  bool wait_for_list(const std::function<bool(const v1beta1::ListAndWatchResponse&)>& pred,
                     v1beta1::ListAndWatchResponse* out = nullptr, std::chrono::milliseconds timeout = kWait);
  std::size_t lists_received() const;
  bool stream_ended() const;

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1beta1::DevicePlugin::Stub> stub_;
  grpc::ClientContext watch_ctx_;
  std::thread watcher_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<v1beta1::ListAndWatchResponse> lists_;
  bool ended_ = false;
};

// "Healthy" count in a list.
int healthy_count(const v1beta1::ListAndWatchResponse& list);

}  // namespace gpupack::testing
