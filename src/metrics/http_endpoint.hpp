#pragma once
// The agent's HTTP side: GET /metrics (Prometheus text) and GET /healthz, on a configurable address,
// served from one background thread. The handlers are callbacks so that this layer knows nothing
// about the agent.
//
// Why not a thread-per-connection server (cpp-httplib, which this replaced): its 8 workers each block on
// one connection until the client finishes a request, so 8 slow clients (one header line per second)
// stopped /metrics and /healthz, and a liveness probe then restarted the agent. This server is one
// poll() loop over non-blocking sockets: a slow connection costs a few hundred bytes, never a thread;
// every request head must arrive within a deadline; each client address holds a bounded number of
// connections (a new one evicts that client's oldest stalled one), so /healthz stays answerable.
// Responses go out in one sendmsg() (head and body together) with TCP_NODELAY, so keep-alive requests do not wait on Nagle and
// delayed ACKs (the cause of 43 ms per request before).
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace gpupack {

struct HealthReport {
  bool healthy = true;
  std::string text;  // one line per check
};

struct HttpLimits {
  std::chrono::milliseconds header_timeout{5'000};  // from a request's first byte to its blank line
  std::chrono::milliseconds idle_timeout{60'000};   // an open connection without a request
  std::chrono::milliseconds write_timeout{10'000};  // a response the client does not read
  std::size_t max_header_bytes = 8192;
  std::size_t max_connections = 1024;
  std::size_t max_connections_per_client = 64;  // per peer address
};

class HttpEndpoint {
 public:
  // `metrics` returns the current text, shared: every connection sends the same buffer (a full node's
  // /metrics is ~300 kB; a copy per connection was most of the cost and of the memory under load).
  using MetricsText = std::shared_ptr<const std::string>;
  HttpEndpoint(std::function<MetricsText()> metrics, std::function<HealthReport()> health, HttpLimits limits = {});
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
