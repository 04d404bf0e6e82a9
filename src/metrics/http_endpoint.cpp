#include "metrics/http_endpoint.hpp"

#include <httplib.h>

#include <stdexcept>

#include "metrics/exposition.hpp"

namespace gpupack {

struct HttpEndpoint::Impl {
  httplib::Server server;
};

HttpEndpoint::HttpEndpoint(std::function<std::string()> metrics, std::function<HealthReport()> health)
    : impl_(std::make_unique<Impl>()) {
  impl_->server.Get("/metrics", [metrics](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics(), Exposition::kContentType);
  });
  impl_->server.Get("/healthz", [health](const httplib::Request&, httplib::Response& res) {
    const HealthReport h = health();
    res.status = h.healthy ? 200 : 503;
    res.set_content(h.text, "text/plain; charset=utf-8");
  });
  impl_->server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("gpupack agent: /metrics /healthz\n", "text/plain; charset=utf-8");
  });
}

HttpEndpoint::~HttpEndpoint() { stop(); }

int HttpEndpoint::start(const std::string& host, int port) {
  int bound = port;
  if (port == 0) {
    bound = impl_->server.bind_to_any_port(host);
  } else if (!impl_->server.bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) +
                             " (address in use or not available; set metrics_address)");
  }
  thread_ = std::thread([this] { impl_->server.listen_after_bind(); });
  return bound;
}

void HttpEndpoint::stop() {
  if (thread_.joinable()) {
    impl_->server.stop();
    thread_.join();
  }
}

}  // namespace gpupack
