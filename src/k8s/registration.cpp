#include "k8s/registration.hpp"

#include <grpcpp/grpcpp.h>

#include <stdexcept>

#include "deviceplugin_v1beta1.grpc.pb.h"

namespace gpupack::k8s {

void register_plugin(const std::string& kubelet_socket_path, const std::string& endpoint, const std::string& resource,
                     bool pre_start_required, std::chrono::milliseconds timeout) {
  // kubelet creates kubelet.sock (bind) a moment before it listens: a connection refused in between
  // would otherwise wait out gRPC's default 1 s reconnect backoff (seen in bench_device_plugin).
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 20);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 20);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 250);
  auto channel = grpc::CreateCustomChannel("unix://" + kubelet_socket_path, grpc::InsecureChannelCredentials(), args);
  auto stub = v1beta1::Registration::NewStub(channel);
  v1beta1::RegisterRequest req;
  req.set_version(kApiVersion);
  req.set_endpoint(endpoint);
  req.set_resource_name(resource);
  req.mutable_options()->set_pre_start_required(pre_start_required);
  req.mutable_options()->set_get_preferred_allocation_available(true);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  // Wait for kubelet.sock to accept rather than fail at once: kubelet creates the file just before it
  // listens.
  ctx.set_wait_for_ready(true);
  v1beta1::Empty out;
  const grpc::Status status = stub->Register(&ctx, req, &out);
  if (!status.ok()) {
    throw std::runtime_error("registering " + resource + " with " + kubelet_socket_path + " failed: " + status.error_message());
  }
}

}  // namespace gpupack::k8s
