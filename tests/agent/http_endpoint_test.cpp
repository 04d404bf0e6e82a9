// The agent's HTTP endpoint (src/metrics/http_endpoint.*) over loopback with raw sockets: keep-alive,
// slow and hostile clients (issue 16). Kept with the agent tests, whose binary already serves HTTP.
// No timing assertions: only generous bounds (a receive timeout) on answers that must come.
#include "metrics/http_endpoint.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace gpupack {
namespace {

class Socket {
 public:
  explicit Socket(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    timeval tv{20, 0};  // generous: a loaded CI machine; an answer that never comes fails the test
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Socket() { ::close(fd_); }
  bool connected() const { return connected_; }
  bool send(const std::string& s) { return ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size()); }
  // One response: status code and body (Content-Length bytes); status 0 when the connection ended first.
  std::pair<int, std::string> response(bool head_request = false) {
    while (buf_.find("\r\n\r\n") == std::string::npos) {
      if (!fill()) return {0, ""};
    }
    const auto end = buf_.find("\r\n\r\n");
    const std::string head = buf_.substr(0, end);
    buf_.erase(0, end + 4);
    std::size_t length = 0;
    if (const auto cl = head.find("Content-Length: "); cl != std::string::npos) length = std::stoul(head.substr(cl + 16));
    if (head_request) length = 0;
    while (buf_.size() < length) {
      if (!fill()) return {0, ""};
    }
    std::string body = buf_.substr(0, length);
    buf_.erase(0, length);
    last_head_ = head;
    return {std::stoi(head.substr(9, 3)), body};
  }
  const std::string& last_head() const { return last_head_; }
  // The server closed (FIN, or RST when it closed before reading what we sent); false on the timeout.
  bool closed_by_peer() {
    char c;
    const ssize_t n = ::recv(fd_, &c, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  bool fill() {
    char tmp[65536];
    const ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    buf_.append(tmp, static_cast<std::size_t>(n));
    return true;
  }
  int fd_;
  bool connected_ = false;
  std::string buf_, last_head_;
};

class HttpEndpointTest : public ::testing::Test {
 protected:
  void start(HttpLimits limits = {}) {
    endpoint = std::make_unique<HttpEndpoint>([this] { return metrics; }, [] { return HealthReport{true, "gpus: ok\n"}; }, limits);
    port = endpoint->start("127.0.0.1", 0);
  }
  HttpEndpoint::MetricsText metrics = std::make_shared<const std::string>(std::string(300'000, 'm') + "\n");
  std::unique_ptr<HttpEndpoint> endpoint;
  int port = 0;
};

TEST_F(HttpEndpointTest, ServesManyRequestsOnOneKeepAliveConnection) {
  start();
  Socket s(port);
  ASSERT_TRUE(s.connected());
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(s.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
    const auto [status, body] = s.response();
    ASSERT_EQ(status, 200) << "request " << i;
    ASSERT_EQ(body, *metrics);
  }
  // Pipelined requests are answered in order.
  ASSERT_TRUE(s.send("GET /healthz HTTP/1.1\r\n\r\nGET /nope HTTP/1.1\r\n\r\nHEAD /metrics HTTP/1.1\r\n\r\n"));
  EXPECT_EQ(s.response(), (std::pair<int, std::string>{200, "gpus: ok\n"}));
  EXPECT_EQ(s.response().first, 404);
  EXPECT_EQ(s.response(true).first, 200);
  EXPECT_NE(s.last_head().find("Content-Length: " + std::to_string(metrics->size())), std::string::npos);
  ASSERT_TRUE(s.send("POST /metrics HTTP/1.1\r\nConnection: close\r\n\r\n"));
  EXPECT_EQ(s.response().first, 405);
  EXPECT_TRUE(s.closed_by_peer());
}

TEST_F(HttpEndpointTest, HealthzAnswersWhileSixtyFourSlowClientsHoldConnections) {
  start();
  std::vector<std::unique_ptr<Socket>> slow;
  for (int i = 0; i < 64; ++i) {
    slow.push_back(std::make_unique<Socket>(port));
    ASSERT_TRUE(slow.back()->connected());
    ASSERT_TRUE(slow.back()->send("GET /metrics HTTP/1.1\r\nX-Slow: 1\r\n"));  // never finished
  }
  // The 65th connection from the same address is over the per-client bound: it evicts the oldest stalled
  // one instead of being refused, so a probe always gets through.
  for (int i = 0; i < 3; ++i) {
    Socket probe(port);
    ASSERT_TRUE(probe.connected());
    ASSERT_TRUE(probe.send("GET /healthz HTTP/1.1\r\n\r\n"));
    EXPECT_EQ(probe.response().first, 200);
  }
  EXPECT_TRUE(slow.front()->closed_by_peer());
}

TEST_F(HttpEndpointTest, ARequestHeadThatDoesNotFinishInTimeIsDropped) {
  HttpLimits limits;
  limits.header_timeout = std::chrono::milliseconds(200);
  limits.max_header_bytes = 1024;
  start(limits);
  Socket slow(port);
  ASSERT_TRUE(slow.send("GET /metrics HTTP/1.1\r\n"));
  EXPECT_TRUE(slow.closed_by_peer());  // within the socket's 20 s receive timeout
  Socket big(port);
  ASSERT_TRUE(big.send("GET /metrics HTTP/1.1\r\nX-Big: " + std::string(4096, 'b')));
  EXPECT_EQ(big.response().first, 431);
}

}  // namespace
}  // namespace gpupack
