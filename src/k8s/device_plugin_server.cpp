#include "k8s/device_plugin_server.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "k8s/allocation.hpp"

namespace gpupack::k8s {

namespace {

constexpr const char* kHealthy = "Healthy";
constexpr const char* kUnhealthy = "Unhealthy";

grpc::Status to_status(const AllocationError& e) {
  switch (e.kind()) {
    case AllocationError::Kind::invalid: return {grpc::StatusCode::INVALID_ARGUMENT, e.what()};
    case AllocationError::Kind::exhausted: return {grpc::StatusCode::RESOURCE_EXHAUSTED, e.what()};
    case AllocationError::Kind::unhealthy: return {grpc::StatusCode::FAILED_PRECONDITION, e.what()};
  }
  return {grpc::StatusCode::INTERNAL, e.what()};
}

}  // namespace

DevicePluginServer::DevicePluginServer(PluginResource resource, ServerOptions options, Filesystem& fs)
    : resource_(std::move(resource)), options_(std::move(options)), fs_(fs) {
  for (const auto& d : resource_.devices) healthy_[d.id] = true;
}

DevicePluginServer::~DevicePluginServer() { stop(); }

std::string DevicePluginServer::endpoint() const { return socket_name(resource_.name); }
std::string DevicePluginServer::socket_path() const { return options_.plugin_dir + "/" + endpoint(); }

void DevicePluginServer::start() {
  std::lock_guard server_lock(server_mutex_);
  if (server_) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  fs_.remove(socket_path());  // a stale socket from an earlier run
  // A unix socket gets its mode from the umask at bind time (0777 under umask 000: anyone could
  // allocate devices). So it is bound in a private staging directory, made 0700 there (kubelet runs as
  // root) and only then renamed into the plugin directory: it is never reachable with a looser mode.
  std::string staging;
  try {
    staging = fs_.make_temp_dir(options_.plugin_dir, ".gpupack");
  } catch (const FileError& e) {
    throw std::runtime_error("device plugin " + resource_.name + ": cannot create a staging directory in " +
                             options_.plugin_dir + ": " + std::strerror(e.error()));
  }
  const std::string staged = staging + "/" + endpoint();
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix://" + staged, grpc::InsecureServerCredentials());
  builder.RegisterService(this);
  server_ = builder.BuildAndStart();
  bool placed = false;
  if (server_) {
    try {
      fs_.set_mode(staged, 0700);
      fs_.rename(staged, socket_path());
      placed = true;
    } catch (const FileError&) {
    }
  }
  fs_.remove(staged);
  fs_.remove_all(staging);
  if (!placed) {
    if (server_) {
      server_->Shutdown();
      server_.reset();
    }
    throw std::runtime_error("device plugin " + resource_.name + ": cannot serve on " + socket_path());
  }
}

void DevicePluginServer::stop() {
  std::lock_guard server_lock(server_mutex_);
  if (!server_) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  // ListAndWatch returns on stopping_; the deadline only bounds calls stuck in a slow client's write.
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
  fs_.remove(socket_path());
}

bool DevicePluginServer::serving() const {
  std::lock_guard server_lock(server_mutex_);
  return server_ != nullptr;
}

bool DevicePluginServer::set_unhealthy(const std::map<std::string, std::string>& reasons_by_uuid) {
  bool changed = false;
  {
    std::lock_guard lock(mutex_);
    for (const auto& d : resource_.devices) {
      const bool ok = !reasons_by_uuid.count(d.gpu_uuid) && !reasons_by_uuid.count(d.target_uuid);
      bool& h = healthy_[d.id];
      if (h != ok) {
        h = ok;
        changed = true;
      }
    }
    if (changed) ++version_;
  }
  if (changed) changed_.notify_all();
  return changed;
}

bool DevicePluginServer::healthy(const std::string& device_id) const {
  std::lock_guard lock(mutex_);
  const auto it = healthy_.find(device_id);
  return it != healthy_.end() && it->second;
}

std::uint64_t DevicePluginServer::list_version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

v1beta1::ListAndWatchResponse DevicePluginServer::list_locked() const {
  v1beta1::ListAndWatchResponse r;
  for (const auto& d : resource_.devices) {
    auto* dev = r.add_devices();
    dev->set_id(d.id);
    dev->set_health(healthy_.at(d.id) ? kHealthy : kUnhealthy);
    if (d.numa_node) dev->mutable_topology()->add_nodes()->set_id(*d.numa_node);
  }
  return r;
}

grpc::Status DevicePluginServer::GetDevicePluginOptions(grpc::ServerContext*, const v1beta1::Empty*,
                                                        v1beta1::DevicePluginOptions* out) {
  out->set_pre_start_required(static_cast<bool>(options_.pre_start_check));
  out->set_get_preferred_allocation_available(true);
  return grpc::Status::OK;
}

grpc::Status DevicePluginServer::ListAndWatch(grpc::ServerContext* ctx, const v1beta1::Empty*,
                                              grpc::ServerWriter<v1beta1::ListAndWatchResponse>* writer) {
  std::unique_lock lock(mutex_);
  std::uint64_t sent = 0;
  while (!stopping_ && !ctx->IsCancelled()) {
    if (sent != version_) {
      const auto list = list_locked();
      sent = version_;
      lock.unlock();
      const bool ok = writer->Write(list);
      lock.lock();
      if (!ok) break;  // kubelet went away
      continue;
    }
    // Woken by a change or stop; the timeout only notices a cancelled stream (kubelet gone).
    changed_.wait_for(lock, std::chrono::milliseconds(250));
  }
  return grpc::Status::OK;
}

grpc::Status DevicePluginServer::GetPreferredAllocation(grpc::ServerContext*, const v1beta1::PreferredAllocationRequest* req,
                                                        v1beta1::PreferredAllocationResponse* out) {
  for (const auto& c : req->container_requests()) {
    const std::vector<std::string> available(c.available_deviceids().begin(), c.available_deviceids().end());
    const std::vector<std::string> must(c.must_include_deviceids().begin(), c.must_include_deviceids().end());
    auto* answer = out->add_container_responses();
    for (const auto& id : preferred_allocation(resource_, options_.policy, available, must, c.allocation_size())) {
      answer->add_deviceids(id);
    }
  }
  return grpc::Status::OK;
}

grpc::Status DevicePluginServer::Allocate(grpc::ServerContext*, const v1beta1::AllocateRequest* req,
                                          v1beta1::AllocateResponse* out) {
  std::vector<std::vector<std::string>> requests;
  for (const auto& c : req->container_requests()) requests.emplace_back(c.devices_ids().begin(), c.devices_ids().end());
  try {
    const auto answers = allocate(resource_, [this](const std::string& id) { return healthy(id); }, requests, options_.cdi);
    for (const auto& a : answers) {
      auto* r = out->add_container_responses();
      for (const auto& [k, v] : a.envs) (*r->mutable_envs())[k] = v;
      for (const auto& m : a.mounts) {
        auto* mount = r->add_mounts();
        mount->set_container_path(m.container_path);
        mount->set_host_path(m.host_path);
        mount->set_read_only(m.read_only);
      }
      for (const auto& name : a.cdi_devices) r->add_cdi_devices()->set_name(name);
    }
  } catch (const AllocationError& e) {
    out->Clear();
    return to_status(e);
  }
  return grpc::Status::OK;
}

grpc::Status DevicePluginServer::PreStartContainer(grpc::ServerContext*, const v1beta1::PreStartContainerRequest* req,
                                                   v1beta1::PreStartContainerResponse*) {
  // The IDs checked like Allocate, then the container as a whole (two GPU resources in one container).
  {
    std::lock_guard lock(mutex_);
    for (const auto& id : req->devices_ids()) {
      if (!healthy_.count(id)) return {grpc::StatusCode::INVALID_ARGUMENT, "unknown device ID for " + resource_.name + ": '" + id + "'"};
    }
  }
  if (options_.pre_start_check) {
    const std::string refusal = options_.pre_start_check({req->devices_ids().begin(), req->devices_ids().end()});
    if (!refusal.empty()) return {grpc::StatusCode::FAILED_PRECONDITION, refusal};
  }
  return grpc::Status::OK;
}

}  // namespace gpupack::k8s
