#include "bench/child_group.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "bench/interrupt.hpp"

extern char** environ;

namespace gpupack::bench {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> child_environment(const ChildSpec& spec) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (spec.env.count(name) ||
        std::find(spec.unset_env.begin(), spec.unset_env.end(), name) != spec.unset_env.end()) {
      continue;
    }
    env.push_back(entry);
  }
  for (const auto& [name, value] : spec.env) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string tail(const std::string& text, size_t n) { return text.size() > n ? text.substr(text.size() - n) : text; }

}  // namespace

ChildGroup::ChildGroup(const std::vector<ChildSpec>& specs) {
  // A child that dies while we write to it must not kill gpupack with SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  for (const auto& spec : specs) {
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
      throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    std::vector<std::string> argv = spec.argv, env = child_environment(spec);
    auto argv_ptrs = pointers(argv);
    auto env_ptrs = pointers(env);
    // gpupack ignores SIGPIPE; the children (a user's program above all) get the default back.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    Child child;
    const int rc = posix_spawn(&child.pid, argv[0].c_str(), &actions, &attr, argv_ptrs.data(), env_ptrs.data());
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    child.in = in[1];
    child.out = out[0];
    child.err = err[0];
    if (rc != 0) {
      close_fd(child.in);
      close_fd(child.out);
      close_fd(child.err);
      throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
    }
    child.started = Clock::now();
    children_.push_back(child);
  }
}

ChildGroup::~ChildGroup() {
  kill_all();
  for (auto& c : children_) {
    close_fd(c.in);
    close_fd(c.out);
    close_fd(c.err);
  }
}

void ChildGroup::kill_all() {
  for (auto& c : children_) {
    if (c.outcome.exited) continue;
    ::kill(-c.pid, SIGKILL);
    int status = 0;
    ::waitpid(c.pid, &status, 0);
    c.outcome.exited = true;
    c.outcome.exit_code = 128 + SIGKILL;
    c.outcome.seconds = std::chrono::duration<double>(Clock::now() - c.started).count();
  }
}

void ChildGroup::terminate_all(std::chrono::milliseconds grace) {
  for (auto& c : children_) {
    if (c.outcome.exited) continue;
    c.outcome.stopped = true;
    ::kill(-c.pid, SIGTERM);
  }
  const auto deadline = Clock::now() + grace;
  for (;;) {
    bool all = true;
    for (auto& c : children_) all = all && c.outcome.exited;
    if (all || Clock::now() > deadline) break;
    pump(std::chrono::milliseconds(10));
  }
  kill_all();
  // Whatever the stopped children printed last is still in the pipes.
  for (int i = 0; i < 50; ++i) {
    bool open = false;
    for (auto& c : children_) open = open || c.out >= 0 || c.err >= 0;
    if (!open) break;
    pump(std::chrono::milliseconds(10));
  }
}

void ChildGroup::pump(std::chrono::milliseconds wait) {
  std::vector<pollfd> fds;
  std::vector<std::pair<Child*, bool>> owners;  // (child, is stdout)
  for (auto& c : children_) {
    if (c.out >= 0) {
      fds.push_back({c.out, POLLIN, 0});
      owners.emplace_back(&c, true);
    }
    if (c.err >= 0) {
      fds.push_back({c.err, POLLIN, 0});
      owners.emplace_back(&c, false);
    }
  }
  wait = std::max(wait, std::chrono::milliseconds(0));  // never poll()'s negative: "forever"
  if (!fds.empty()) {
    ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
  } else if (wait.count() > 0) {
    ::usleep(static_cast<useconds_t>(std::min<long>(wait.count(), 20) * 1000));
  }
  throw_if_interrupted();
  for (size_t i = 0; i < fds.size(); ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    auto [child, is_out] = owners[i];
    char buffer[65536];
    const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
    if (n > 0) {
      (is_out ? child->outcome.out : child->outcome.err).append(buffer, static_cast<size_t>(n));
      if (is_out && child->outcome.out.find("ready\n") != std::string::npos) child->outcome.ready = true;
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      close_fd(is_out ? child->out : child->err);
    }
  }
  for (auto& c : children_) {
    if (c.outcome.exited) continue;
    int status = 0;
    if (::waitpid(c.pid, &status, WNOHANG) != c.pid) continue;
    c.outcome.exited = true;
    c.outcome.seconds = std::chrono::duration<double>(Clock::now() - c.started).count();
    c.outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    close_fd(c.in);
  }
}

void ChildGroup::wait_ready(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    bool all = true;
    for (auto& c : children_) {
      if (c.outcome.ready) continue;
      if (c.outcome.exited) {
        // Drain what it printed, so the error names the cause.
        while (c.out >= 0 || c.err >= 0) pump(std::chrono::milliseconds(10));
        throw std::runtime_error("a worker exited before it was ready (exit " + std::to_string(c.outcome.exit_code) +
                                 "): " + tail(c.outcome.out + c.outcome.err, 600));
      }
      all = false;
    }
    if (all) return;
    if (Clock::now() > deadline) throw std::runtime_error("workers did not get ready in time");
    pump(std::chrono::milliseconds(20));
  }
}

void ChildGroup::send(size_t index, const std::string& line) {
  Child& c = children_[index];
  if (c.in < 0) return;
  const std::string text = line + "\n";
  if (::write(c.in, text.data(), text.size()) < 0) close_fd(c.in);
}

void ChildGroup::send_all(const std::string& line) {
  for (size_t i = 0; i < children_.size(); ++i) send(i, line);
}

void ChildGroup::wait_for(std::chrono::milliseconds duration) {
  const auto end = Clock::now() + duration;
  // One reading of the clock per turn: read twice, a preemption between the two made the rest negative,
  // and poll() waits forever on a negative timeout (a loaded machine hung the grid this way).
  for (auto now = Clock::now(); now < end; now = Clock::now()) {
    pump(std::min(std::chrono::duration_cast<std::chrono::milliseconds>(end - now), std::chrono::milliseconds(20)));
  }
}

void ChildGroup::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    bool all = true;
    for (auto& c : children_) all = all && c.outcome.exited && c.out < 0 && c.err < 0;
    if (all) return;
    if (Clock::now() > deadline) {
      kill_all();
      throw std::runtime_error("a worker did not finish in time and was killed");
    }
    pump(std::chrono::milliseconds(20));
  }
}

}  // namespace gpupack::bench
