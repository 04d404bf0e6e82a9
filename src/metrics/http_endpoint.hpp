#pragma once
// The agent's HTTP side: GET /metrics (Prometheus text) and GET /healthz, on a configurable address,
// served from a background thread (cpp-httplib). The handlers are callbacks so that this layer knows
// nothing about the agent.
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace gpupack {

struct HealthReport {
  bool healthy = true;
  std::string text;  // one line per check
};

class HttpEndpoint {
 public:
  HttpEndpoint(std::function<std::string()> metrics, std::function<HealthReport()> health);
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  // Binds host:port (port 0: any free port) and starts serving. Throws std::runtime_error when the
  // address cannot be bound. Returns the bound port.
  int start(const std::string& host, int port);
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::thread thread_;
};

}  // namespace gpupack
