#include "k8s/socket_watch.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpupack::k8s {

DirectoryWatch::DirectoryWatch(const std::string& dir) {
  inotify_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (inotify_ < 0 || wake_ < 0 ||
      ::inotify_add_watch(inotify_, dir.c_str(), IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM) < 0) {
    const std::string reason = std::strerror(errno);
    if (inotify_ >= 0) ::close(inotify_);
    if (wake_ >= 0) ::close(wake_);
    throw std::runtime_error("cannot watch " + dir + " with inotify: " + reason);
  }
}

DirectoryWatch::~DirectoryWatch() {
  ::close(inotify_);
  ::close(wake_);
}

void DirectoryWatch::interrupt() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(wake_, &one, sizeof one);
}

std::vector<DirectoryWatch::Event> DirectoryWatch::wait(std::chrono::milliseconds timeout) {
  pollfd fds[2] = {{inotify_, POLLIN, 0}, {wake_, POLLIN, 0}};
  std::vector<Event> out;
  if (::poll(fds, 2, static_cast<int>(timeout.count())) <= 0) return out;
  if (fds[1].revents & POLLIN) {
    std::uint64_t v = 0;
    [[maybe_unused]] const auto n = ::read(wake_, &v, sizeof v);
    return out;
  }
  alignas(inotify_event) char buf[4096];
  for (;;) {
    const ssize_t n = ::read(inotify_, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t off = 0; off < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + off);
      if (e->len > 0) out.push_back({e->name, (e->mask & (IN_CREATE | IN_MOVED_TO)) != 0});
      off += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
  return out;
}

}  // namespace gpupack::k8s
