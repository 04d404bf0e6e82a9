#include "k8s/kubelet_sim.hpp"

#include <unistd.h>

#include <cctype>
#include <filesystem>

namespace gpupack::testing {

void KubeletSim::start() {
  grpc::ServerBuilder b;
  b.AddListeningPort("unix://" + socket_path(), grpc::InsecureServerCredentials());
  b.RegisterService(this);
  server_ = b.BuildAndStart();
  if (!server_) throw std::runtime_error("kubelet simulator: cannot serve " + socket_path());
  std::filesystem::create_directories(dir_ + "/pod-resources");
  grpc::ServerBuilder pb;
  pb.AddListeningPort("unix://" + pod_resources_socket(), grpc::InsecureServerCredentials());
  pb.RegisterService(&pod_resources_);
  pod_resources_server_ = pb.BuildAndStart();
  if (!pod_resources_server_) throw std::runtime_error("kubelet simulator: cannot serve " + pod_resources_socket());
}

void KubeletSim::stop() {
  if (!server_) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  server_->Wait();
  server_.reset();
  ::unlink(socket_path().c_str());
  pod_resources_server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  pod_resources_server_->Wait();
  pod_resources_server_.reset();
  ::unlink(pod_resources_socket().c_str());
}

void KubeletSim::restart() {
  stop();
  for (const auto& e : std::filesystem::directory_iterator(dir_)) {
    if (e.is_socket()) std::filesystem::remove(e.path());
  }
  start();
}

namespace {

// kubelet's check of an extended resource name: <domain>/<name>, outside kubernetes.io, the name at most
// 63 characters of [-A-Za-z0-9_.] that begin and end alphanumeric.
bool valid_extended_resource(const std::string& name) {
  const auto slash = name.find('/');
  if (slash == std::string::npos || slash == 0 || name.find("kubernetes.io/") != std::string::npos) return false;
  const std::string part = name.substr(slash + 1);
  if (part.empty() || part.size() > 63) return false;
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(part.front()) || !alnum(part.back())) return false;
  for (const char c : part) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

grpc::Status KubeletSim::Register(grpc::ServerContext*, const v1beta1::RegisterRequest* req, v1beta1::Empty*) {
  // kubelet's own checks: the version it speaks, and an endpoint in its directory.
  if (req->version() != "v1beta1") return {grpc::StatusCode::INVALID_ARGUMENT, "unsupported version " + req->version()};
  if (!valid_extended_resource(req->resource_name())) {
    return {grpc::StatusCode::INVALID_ARGUMENT, "invalid extended resource name " + req->resource_name()};
  }
  if (req->endpoint().empty() || req->endpoint().find('/') != std::string::npos ||
      !std::filesystem::exists(dir_ + "/" + req->endpoint())) {
    return {grpc::StatusCode::INVALID_ARGUMENT, "endpoint " + req->endpoint() + " is not a socket in " + dir_};
  }
  {
    std::lock_guard lock(mutex_);
    registrations_.push_back(*req);
  }
  changed_.notify_all();
  return grpc::Status::OK;
}

std::vector<v1beta1::RegisterRequest> KubeletSim::registrations() const {
  std::lock_guard lock(mutex_);
  return registrations_;
}

bool KubeletSim::wait_for_registrations(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return registrations_.size() >= n; });
}

ContainerStart KubeletSim::start_container(const std::string& pod, const std::string& ns, const std::string& container,
                                           const std::map<std::string, std::vector<std::string>>& ids_by_resource) {
  ContainerStart out;
  std::map<std::string, v1beta1::RegisterRequest> by_resource;
  for (const auto& r : registrations()) by_resource[r.resource_name()] = r;  // the latest registration wins
  for (const auto& [resource, ids] : ids_by_resource) {
    if (!by_resource.count(resource)) return {{grpc::StatusCode::NOT_FOUND, resource + " is not registered"}, {}, {}};
    v1beta1::AllocateResponse resp;
    out.status = PluginClient(dir_ + "/" + by_resource[resource].endpoint()).allocate({ids}, &resp);
    if (!out.status.ok()) return out;
    for (const auto& [name, value] : resp.container_responses(0).envs()) {
      const auto [it, fresh] = out.envs.emplace(name, value);
      if (!fresh && it->second != value) out.conflicts.push_back(name);  // kubelet: "conflicting setting"
    }
    pod_resources_.add(pod, ns, container, resource, ids);
  }
  for (const auto& [resource, ids] : ids_by_resource) {
    if (!by_resource[resource].options().pre_start_required()) continue;
    out.status = PluginClient(dir_ + "/" + by_resource[resource].endpoint()).pre_start(ids);
    if (!out.status.ok()) return out;
  }
  return out;
}

grpc::Status PodResourcesSim::List(grpc::ServerContext*, const v1::ListPodResourcesRequest*, v1::ListPodResourcesResponse* out) {
  std::lock_guard lock(mutex_);
  *out = listing_;
  return grpc::Status::OK;
}

void PodResourcesSim::add(const std::string& pod, const std::string& ns, const std::string& container,
                          const std::string& resource, const std::vector<std::string>& ids) {
  std::lock_guard lock(mutex_);
  v1::PodResources* p = nullptr;
  for (auto& existing : *listing_.mutable_pod_resources()) {
    if (existing.name() == pod && existing.namespace_() == ns) p = &existing;
  }
  if (!p) {
    p = listing_.add_pod_resources();
    p->set_name(pod);
    p->set_namespace_(ns);
  }
  v1::ContainerResources* c = nullptr;
  for (auto& existing : *p->mutable_containers()) {
    if (existing.name() == container) c = &existing;
  }
  if (!c) {
    c = p->add_containers();
    c->set_name(container);
  }
  auto* d = c->add_devices();
  d->set_resource_name(resource);
  for (const auto& id : ids) d->add_device_ids(id);
}

PluginClient::PluginClient(const std::string& socket_path)
    : channel_(grpc::CreateChannel("unix://" + socket_path, grpc::InsecureChannelCredentials())),
      stub_(v1beta1::DevicePlugin::NewStub(channel_)) {}

PluginClient::~PluginClient() {
  watch_ctx_.TryCancel();
  if (watcher_.joinable()) watcher_.join();
}

namespace {
void set_deadline(grpc::ClientContext& ctx) { ctx.set_deadline(std::chrono::system_clock::now() + kWait); }
}  // namespace

grpc::Status PluginClient::options(v1beta1::DevicePluginOptions* out) {
  grpc::ClientContext ctx;
  set_deadline(ctx);
  return stub_->GetDevicePluginOptions(&ctx, v1beta1::Empty(), out);
}

grpc::Status PluginClient::allocate(const std::vector<std::vector<std::string>>& containers, v1beta1::AllocateResponse* out) {
  v1beta1::AllocateRequest req;
  for (const auto& ids : containers) {
    auto* c = req.add_container_requests();
    for (const auto& id : ids) c->add_devices_ids(id);
  }
  grpc::ClientContext ctx;
  set_deadline(ctx);
  return stub_->Allocate(&ctx, req, out);
}

grpc::Status PluginClient::preferred(const std::vector<std::string>& available, const std::vector<std::string>& must,
                                     int size, std::vector<std::string>* out) {
  v1beta1::PreferredAllocationRequest req;
  auto* c = req.add_container_requests();
  for (const auto& id : available) c->add_available_deviceids(id);
  for (const auto& id : must) c->add_must_include_deviceids(id);
  c->set_allocation_size(size);
  v1beta1::PreferredAllocationResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx);
  const auto status = stub_->GetPreferredAllocation(&ctx, req, &resp);
  if (status.ok() && resp.container_responses_size() == 1) {
    out->assign(resp.container_responses(0).deviceids().begin(), resp.container_responses(0).deviceids().end());
  }
  return status;
}

grpc::Status PluginClient::pre_start(const std::vector<std::string>& ids) {
  v1beta1::PreStartContainerRequest req;
  for (const auto& id : ids) req.add_devices_ids(id);
  v1beta1::PreStartContainerResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx);
  return stub_->PreStartContainer(&ctx, req, &resp);
}

void PluginClient::watch() {
  watcher_ = std::thread([this] {
    auto reader = stub_->ListAndWatch(&watch_ctx_, v1beta1::Empty());
    v1beta1::ListAndWatchResponse r;
    while (reader->Read(&r)) {
      {
        std::lock_guard lock(mutex_);
        lists_.push_back(r);
      }
      changed_.notify_all();
    }
    reader->Finish();
    {
      std::lock_guard lock(mutex_);
      ended_ = true;
    }
    changed_.notify_all();
  });
}

bool PluginClient::wait_for_list(const std::function<bool(const v1beta1::ListAndWatchResponse&)>& pred,
                                 v1beta1::ListAndWatchResponse* out, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    if (lists_.empty() || !pred(lists_.back())) return false;
    if (out) *out = lists_.back();
    return true;
  });
}

std::size_t PluginClient::lists_received() const {
  std::lock_guard lock(mutex_);
  return lists_.size();
}

bool PluginClient::stream_ended() const {
  std::lock_guard lock(mutex_);
  return ended_;
}

int healthy_count(const v1beta1::ListAndWatchResponse& list) {
  int n = 0;
  for (const auto& d : list.devices()) n += d.health() == "Healthy";
  return n;
}

}  // namespace gpupack::testing
