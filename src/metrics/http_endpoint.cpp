#include "metrics/http_endpoint.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <list>
#include <stdexcept>
#include <vector>

#include "metrics/exposition.hpp"

namespace gpupack {

namespace {

using SteadyClock = std::chrono::steady_clock;

struct Connection {
  int fd = -1;
  std::string peer;   // client address, for the per-client bound
  std::string in;     // bytes of the request being read
  std::string head_out;                        // the response head being written
  std::shared_ptr<const std::string> body_out;  // and its body (shared with other connections)
  std::size_t sent = 0;                        // bytes of head_out + body_out written
  bool writing() const { return !head_out.empty(); }
  bool close_after_write = false;
  SteadyClock::time_point since;  // first byte of the current request, idle start, or last write progress
};

struct Response {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::shared_ptr<const std::string> body;
  bool close = false;
};

Response text(int status, std::string body, bool close = false) {
  return {status, "text/plain; charset=utf-8", std::make_shared<const std::string>(std::move(body)), close};
}

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string peer_address(const sockaddr_storage& addr) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr, buf, sizeof buf);
  } else if (addr.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr, buf, sizeof buf);
  }
  return buf;
}

}  // namespace

struct HttpEndpoint::Impl {
  std::function<MetricsText()> metrics;
  std::function<HealthReport()> health;
  HttpLimits limits;
  int listen_fd = -1;
  int wake[2] = {-1, -1};  // stop() writes to wake[1]
  std::list<Connection> connections;

  ~Impl() {
    for (auto& c : connections) ::close(c.fd);
    for (int fd : {listen_fd, wake[0], wake[1]}) {
      if (fd >= 0) ::close(fd);
    }
  }

  // The request head in `head` (up to the blank line) answered; Connection and version decide keep-alive.
  Response handle(const std::string& head) const {
    Response r;
    const auto eol = head.find("\r\n");
    const std::string request_line = head.substr(0, eol);
    const auto sp1 = request_line.find(' ');
    const auto sp2 = request_line.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1 || request_line.compare(sp2 + 1, 5, "HTTP/") != 0) {
      return text(400, "malformed request line\n", true);
    }
    const std::string method = request_line.substr(0, sp1);
    std::string target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
    const bool http10 = request_line.compare(sp2 + 1, 8, "HTTP/1.0") == 0;
    bool keep_alive = !http10;
    std::size_t pos = eol == std::string::npos ? head.size() : eol + 2;
    while (pos < head.size()) {
      const auto next = head.find("\r\n", pos);
      const std::string line = head.substr(pos, (next == std::string::npos ? head.size() : next) - pos);
      pos = next == std::string::npos ? head.size() : next + 2;
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string name = lower(trim(line.substr(0, colon)));
      const std::string value = lower(trim(line.substr(colon + 1)));
      if (name == "connection") keep_alive = value == "close" ? false : (value == "keep-alive" ? true : keep_alive);
      // Bodies are never needed here; refusing them keeps the parser to request heads only.
      if ((name == "content-length" && value != "0") || name == "transfer-encoding") {
        return text(400, "request bodies are not accepted\n", true);
      }
    }
    if (const auto q = target.find('?'); q != std::string::npos) target.resize(q);
    if (method != "GET" && method != "HEAD") {
      r = text(405, "only GET and HEAD\n");
    } else if (target == "/metrics") {
      r.content_type = Exposition::kContentType;
      r.body = metrics();
      if (!r.body) r.body = std::make_shared<const std::string>();
    } else if (target == "/healthz") {
      const HealthReport h = health();
      r = text(h.healthy ? 200 : 503, h.text);
    } else if (target == "/") {
      r = text(200, "gpupack agent: /metrics /healthz\n");
    } else {
      r = text(404, "not found (try /metrics or /healthz)\n");
    }
    r.close = !keep_alive;
    return r;
  }

  // The whole response in one buffer, so that it leaves in one send(): header and body in separate
  // writes is what made Nagle hold the body back for the client's delayed ACK.
  static void queue(Connection& c, const Response& r, bool head_only) {
    c.head_out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\nContent-Type: " + r.content_type +
                 "\r\nContent-Length: " + std::to_string(r.body->size()) + "\r\nConnection: " +
                 (r.close ? "close" : "keep-alive") + "\r\n\r\n";
    // HEAD: Content-Length says what GET would send, and nothing follows.
    c.body_out = head_only || r.body->empty() ? nullptr : r.body;
    c.sent = 0;
    c.close_after_write = r.close;
    c.since = SteadyClock::now();
  }

  // Answers the next complete request in the buffer, if any. False: close the connection now.
  bool serve_buffered(Connection& c) {
    if (c.writing()) return true;  // one response at a time; pipelined requests wait in `in`
    const auto end = c.in.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (c.in.size() <= limits.max_header_bytes) return true;
      queue(c, text(431, "request head over " + std::to_string(limits.max_header_bytes) + " bytes\n", true), false);
      return flush(c);
    }
    const std::string head = c.in.substr(0, end);
    c.in.erase(0, end + 4);
    queue(c, handle(head), head.compare(0, 5, "HEAD ") == 0);
    return flush(c);
  }

  // Writes what it can. False: close the connection (done with close_after_write, or an error).
  bool flush(Connection& c) {
    const std::size_t head = c.head_out.size(), total = head + (c.body_out ? c.body_out->size() : 0);
    while (c.sent < total) {
      iovec parts[2];
      int n_parts = 0;
      if (c.sent < head) parts[n_parts++] = {c.head_out.data() + c.sent, head - c.sent};
      if (c.body_out) {
        const std::size_t from = c.sent > head ? c.sent - head : 0;
        parts[n_parts++] = {const_cast<char*>(c.body_out->data()) + from, c.body_out->size() - from};
      }
      msghdr msg{};
      msg.msg_iov = parts;
      msg.msg_iovlen = static_cast<std::size_t>(n_parts);
      const ssize_t n = ::sendmsg(c.fd, &msg, MSG_NOSIGNAL);
      if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
      c.sent += static_cast<std::size_t>(n);
      c.since = SteadyClock::now();
    }
    c.head_out.clear();
    c.body_out.reset();
    c.sent = 0;
    if (c.close_after_write) return false;
    c.since = SteadyClock::now();  // idle, or the start of a request already buffered
    return serve_buffered(c);
  }

  // False: close the connection (peer closed, error, or a request that ends it).
  bool read_from(Connection& c) {
    char buf[16384];
    for (;;) {
      const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n == 0) return false;
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
        break;
      }
      if (c.in.empty()) c.since = SteadyClock::now();  // the header deadline starts at the first byte
      c.in.append(buf, static_cast<std::size_t>(n));
      if (c.in.size() > limits.max_header_bytes + sizeof buf) break;
    }
    return serve_buffered(c);
  }

  // A connection that may be dropped to make room: not writing a response; the oldest one stalled in a
  // request head first, then the longest idle.
  std::list<Connection>::iterator victim(const std::string* peer) {
    auto best = connections.end();
    for (auto it = connections.begin(); it != connections.end(); ++it) {
      if (it->writing() || (peer && it->peer != *peer)) continue;
      if (best == connections.end() || (!it->in.empty() && best->in.empty()) ||
          (it->in.empty() == best->in.empty() && it->since < best->since)) {
        best = it;
      }
    }
    return best;
  }

  void close_connection(std::list<Connection>::iterator it) {
    ::close(it->fd);
    connections.erase(it);
  }

  void accept_all() {
    for (;;) {
      sockaddr_storage addr{};
      socklen_t len = sizeof addr;
      const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or a transient error (EMFILE): the next poll retries
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      Connection c;
      c.fd = fd;
      c.peer = peer_address(addr);
      c.since = SteadyClock::now();
      const auto same_peer = static_cast<std::size_t>(
          std::count_if(connections.begin(), connections.end(), [&](const Connection& o) { return o.peer == c.peer; }));
      bool room = true;
      if (same_peer >= limits.max_connections_per_client) {
        const auto v = victim(&c.peer);
        if (v == connections.end()) room = false; else close_connection(v);
      }
      if (room && connections.size() >= limits.max_connections) {
        const auto v = victim(nullptr);
        if (v == connections.end()) room = false; else close_connection(v);
      }
      if (!room) {
        ::close(fd);
        continue;
      }
      connections.push_back(std::move(c));
    }
  }

  std::chrono::milliseconds timeout_of(const Connection& c) const {
    if (c.writing()) return limits.write_timeout;
    return c.in.empty() ? limits.idle_timeout : limits.header_timeout;
  }

  void loop() {
    std::vector<pollfd> fds;
    for (;;) {
      const auto now = SteadyClock::now();
      for (auto it = connections.begin(); it != connections.end();) {
        const auto next = std::next(it);
        if (now - it->since >= timeout_of(*it)) close_connection(it);
        it = next;
      }
      fds.clear();
      fds.push_back({wake[0], POLLIN, 0});
      fds.push_back({listen_fd, POLLIN, 0});
      auto wait = std::chrono::milliseconds(1000);
      for (const auto& c : connections) {
        fds.push_back({c.fd, static_cast<short>(c.writing() ? POLLOUT : POLLIN), 0});
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(c.since + timeout_of(c) - now);
        wait = std::max(std::chrono::milliseconds(1), std::min(wait, left + std::chrono::milliseconds(1)));
      }
      const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
      if (ready < 0 && errno != EINTR) return;
      if (fds[0].revents) return;  // stop()
      std::size_t i = 2;
      for (auto it = connections.begin(); it != connections.end(); ++i) {
        const auto next = std::next(it);
        const short ev = fds[i].revents;
        bool keep = true;
        if (it->writing() && (ev & (POLLERR | POLLHUP))) keep = false;
        else if (ev & POLLOUT) keep = flush(*it);
        else if (ev & (POLLIN | POLLHUP | POLLERR)) keep = read_from(*it);
        if (!keep) close_connection(it);
        it = next;
      }
      if (fds[1].revents & POLLIN) accept_all();
    }
  }
};

HttpEndpoint::HttpEndpoint(std::function<MetricsText()> metrics, std::function<HealthReport()> health, HttpLimits limits)
    : impl_(std::make_unique<Impl>()) {
  impl_->metrics = std::move(metrics);
  impl_->health = std::move(health);
  impl_->limits = limits;
}

HttpEndpoint::~HttpEndpoint() { stop(); }

int HttpEndpoint::start(const std::string& host, int port) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found) {
    throw std::runtime_error("cannot listen on " + where + " (not an address of this host; set metrics_address)");
  }
  int fd = -1;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) {
    throw std::runtime_error("cannot listen on " + where + " (address in use or not available; set metrics_address)");
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  const int bound_port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                                           : reinterpret_cast<sockaddr_in&>(bound).sin_port);
  if (::pipe2(impl_->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    ::close(fd);
    throw std::runtime_error(std::string("cannot create the HTTP endpoint's wake pipe: ") + std::strerror(errno));
  }
  impl_->listen_fd = fd;
  thread_ = std::thread([this] { impl_->loop(); });
  return bound_port;
}

void HttpEndpoint::stop() {
  if (!thread_.joinable()) return;
  const char byte = 1;
  while (::write(impl_->wake[1], &byte, 1) < 0 && errno == EINTR) {
  }
  thread_.join();
}

}  // namespace gpupack
